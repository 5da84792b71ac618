"""The browser's plumbing, shared by the browser checks, the PDF and the slides: Debian's Chromium under
Playwright for Python, a served folder, pages whose requests stay local, MathJax answered from
``.cache/npm`` and waited for, and the check that every formula was typeset.

Nothing is downloaded: Chromium is the system's (``/usr/bin/chromium``), MathJax and axe-core come from
the npm packages pinned in ``tools/package.json`` and installed into ``.cache/npm`` by
``python3 dev.py assets``; the MathJax that the pages load from a CDN is answered from that local copy
(``page.route``), and every other request that leaves the local server is refused and reported.

This module imports no other module of ``tools``: ``tools.browser`` (the checks of every page),
``tools.pdf`` and ``tools.slides`` build on it (the layers of ``[tool.importlinter]`` in pyproject.toml).
"""
from __future__ import annotations

import contextlib
import functools
import http.server
import os
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NODE_MODULES = ROOT / ".cache" / "npm" / "node_modules"
MATHJAX_DIR = NODE_MODULES / "mathjax"
AXE_JS = NODE_MODULES / "axe-core" / "axe.min.js"
CHROMIUM = Path(os.environ.get("OLKIT_CHROMIUM", "/usr/bin/chromium"))
# This machine reaches package registries only: no background connections, no QUIC, no sync.
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--disable-default-apps",
    "--disable-extensions",
]
MATHJAX_CDN = re.compile(r"^https://cdn\.jsdelivr\.net/npm/mathjax@3/(?P<path>[^?#]*)")
INSTALL_HINT = (
    "install Debian's Chromium (apt-get install chromium) and the npm assets "
    "(python3 dev.py assets: MathJax 3 and axe-core, pinned in tools/package.json)"
)
VIEWPORT = {"width": 1280, "height": 900}
# Requests that may leave the local server: they are refused (this machine has no network) and do
# not fail the check.  Each with the reason.
EXTERNAL_ALLOWED: list[tuple[str, str]] = [
    (r"^https://cdnjs\.cloudflare\.com/ajax/libs/require\.js/",
     "myst-nb loads require.js for the saved ipywidgets; pinned by a sub-resource hash of cdnjs's "
     "minified build, which no npm package ships byte for byte. Offline, the widget area stays empty."),
    (r"^https://cdn\.jsdelivr\.net/npm/@jupyter-widgets/html-manager@",
     "myst-nb's renderer of the saved ipywidgets (sections 1.4 and 2.1); the static figures above the "
     "widgets show the same panels."),
]



def missing() -> list[str]:
    """What the browser checks need and this machine lacks, each with how to install it."""
    out = []
    if not CHROMIUM.exists():
        out.append(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    for path in (MATHJAX_DIR / "es5" / "tex-mml-chtml.js", AXE_JS):
        if not path.exists():
            out.append(f"no {path.relative_to(ROOT)} (python3 dev.py assets)")
    try:
        import playwright  # noqa: F401
    except ImportError:
        out.append("no Playwright for Python (python3 dev.py setup installs requirements.lock)")
    return out


# --------------------------------------------------------------------------------------------
# Serving a folder and driving the browser


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:  # no access log on the test output
        pass


@contextlib.contextmanager
def serve(folder: Path):
    """Serve ``folder`` on 127.0.0.1 (a free port) in a background thread; yield the base URL."""
    handler = functools.partial(_QuietHandler, directory=str(folder))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_port}/"
    finally:
        httpd.shutdown()
        httpd.server_close()


@contextlib.contextmanager
def chromium():
    """The system Chromium, headless, under Playwright; yields a Browser."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


@dataclass
class PageLog:
    """What a page did while it loaded: console errors, uncaught exceptions, failed requests."""

    url: str
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    failed_local: list[str] = field(default_factory=list)
    external: list[str] = field(default_factory=list)
    external_allowed: list[str] = field(default_factory=list)

    def problems(self) -> list[str]:
        return (
            [f"console error: {m}" for m in self.console_errors]
            + [f"page error: {m}" for m in self.page_errors]
            + [f"failed request: {m}" for m in self.failed_local]
            + [f"request leaves the local server (refused): {u}" for u in self.external]
        )


def new_context(browser, base: str, sink: dict | None = None):
    """A browser context whose requests stay local: the MathJax CDN is answered from .cache/npm, any
    other request that leaves ``base`` is refused and noted in the PageLog of its page in ``sink``
    (filled by ``open_page``)."""
    context = browser.new_context(viewport=VIEWPORT)
    sink = sink if sink is not None else {}

    def route(route) -> None:
        url = route.request.url
        if url.startswith(base) or url.startswith("data:") or url.startswith("blob:"):
            route.continue_()
            return
        m = MATHJAX_CDN.match(url)
        if m:
            path = MATHJAX_DIR / m["path"]
            if path.is_file() and MATHJAX_DIR in path.resolve().parents:
                route.fulfill(path=str(path))
                return
        log = sink.get(route.request.frame.page) if route.request.frame else None
        if log is not None:
            if any(re.search(pat, url) for pat, _ in EXTERNAL_ALLOWED):
                log.external_allowed.append(url)
            else:
                log.external.append(url)
        route.abort()

    context.route("**/*", route)
    return context


def open_page(context, url: str, base: str, sink: dict | None = None):
    """Load ``url`` in a new page; return (page, PageLog) once MathJax has typeset (if it is used).
    ``sink``: the dict given to ``new_context``, so that refused requests reach this page's log."""
    page = context.new_page()
    log = PageLog(url)
    if sink is not None:
        sink[page] = log

    def on_console(msg) -> None:
        if msg.type == "error":
            loc = msg.location or {}
            where = f" ({loc.get('url', '')}:{loc.get('lineNumber', '')})" if loc.get("url") else ""
            text = msg.text
            # a request that we refused on purpose is reported once, as 'leaves the local server'
            if "net::ERR_FAILED" in text and loc.get("url") in log.external + log.external_allowed:
                return
            log.console_errors.append(text + where)

    def on_request_failed(request) -> None:
        if request.url.startswith(base):
            log.failed_local.append(f"{request.url[len(base) - 1:]}: {request.failure}")

    def on_response(response) -> None:
        if response.url.startswith(base) and response.status >= 400:
            log.failed_local.append(f"{response.url[len(base) - 1:]}: HTTP {response.status}")

    page.on("console", on_console)
    page.on("pageerror", lambda err: log.page_errors.append(str(err)))
    page.on("requestfailed", on_request_failed)
    page.on("response", on_response)
    page.goto(url, wait_until="load")
    wait_for_mathjax(page)
    return page, log


def wait_for_mathjax(page, timeout_ms: int = 60_000) -> bool:
    """Wait until MathJax has finished its first typeset; False if the page does not load MathJax."""
    if not page.evaluate("() => !!document.querySelector('script[src*=\"mathjax\"]')"):
        return False
    page.wait_for_function(
        "() => window.MathJax && MathJax.startup && MathJax.startup.promise", timeout=timeout_ms
    )
    page.evaluate("() => MathJax.startup.promise.then(() => true)")
    return True


def html_pages(folder: Path) -> list[str]:
    """Every page of a built book, as paths relative to ``folder``."""
    skip = ("_static", "_sources", "_images", "_downloads", "slides")  # the decks: check_decks
    return sorted(
        p.relative_to(folder).as_posix()
        for p in folder.rglob("*.html")
        if not p.relative_to(folder).parts[0] in skip
    )


_MATH_JS = r"""
() => {
  const problems = [];
  const short = s => s.replace(/\s+/g, ' ').trim().slice(0, 100);
  document.querySelectorAll('.math').forEach(el => {
    if (!el.querySelector('mjx-container')) problems.push('math not typeset: ' + short(el.textContent));
  });
  document.querySelectorAll('mjx-merror').forEach(el => {
    problems.push('MathJax error: ' + short(el.getAttribute('data-mjx-error') || el.textContent));
  });
  if (window.MathJax && MathJax.startup && MathJax.startup.document && MathJax.startup.toMML) {
    for (const item of MathJax.startup.document.math) {
      const mml = MathJax.startup.toMML(item.root);
      if (/<merror/.test(mml)) problems.push('MathJax error in: ' + short(item.math));
      // MathJax's 'noundefined' package typesets an unknown macro as red text instead of an error
      const undef = mml.match(/<mtext[^>]*mathcolor="red"[^>]*>\s*(\\[A-Za-z]+)/);
      if (undef) problems.push('undefined control sequence ' + undef[1] + ' in: ' + short(item.math));
    }
  }
  if (document.body.innerText.includes('Math input error')) problems.push('"Math input error" on the page');
  // TeX that MathJax never saw: delimiters left in visible text outside code
  const skip = 'script,style,pre,code,textarea,mjx-container,.highlight,.MathJax,aside.notes';  // a deck's speaker notes keep TeX
  const tex = /\\\(.+?\\\)|\\\[.+?\\\]|\$\$.+?\$\$|\$[^$\n]*\\[A-Za-z]+[^$\n]*\$|\\begin\{[a-z*]+\}/s;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (n.parentElement && n.parentElement.closest(skip)) continue;
    const m = n.textContent.match(tex);
    if (m) problems.push('TeX left untypeset: ' + short(m[0]));
  }
  return problems;
}
"""


def check_math(page) -> list[str]:
    """Every math element became a MathJax container, with no error and no undefined macro."""
    return page.evaluate(_MATH_JS)


def book_config(root: Path = ROOT) -> dict:
    import yaml

    return yaml.safe_load((root / "_config.yml").read_text())
