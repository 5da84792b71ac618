"""The built HTML book, checked in a real browser: Debian's Chromium, driven by Playwright for Python.

Every check is a function of a served folder or of a page loaded from one, so the same checks run on
the real build (``tests/test_browser.py``) and on a copy broken on purpose (the tests that show the
checks can fail).  The plumbing (Chromium, the served folder, local-only requests, MathJax from
``.cache/npm``, the math check) is ``tools.web``, whose names this module also offers; the lecture
decks' sections come from ``tools.slides``.

    python -m tools.browser [HTML_DIR]    # check every page, screenshots, accessibility report
"""
from __future__ import annotations

import functools
import html.parser
import json
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit

from tools import slides as deck_tool
from tools.web import (  # noqa: F401  (the plumbing, offered here as before)
    AXE_JS, CHROMIUM, EXTERNAL_ALLOWED, INSTALL_HINT, LAUNCH_ARGS, MATHJAX_CDN, MATHJAX_DIR, NODE_MODULES, ROOT,
    VIEWPORT, PageLog, book_config, check_math, chromium, html_pages, missing, new_context, open_page, serve,
    wait_for_mathjax,
)

# axe-core rules of impact "moderate", "serious" or "critical" that the theme (sphinx-book-theme 1.3 /
# pydata-sphinx-theme 0.17) or a Sphinx extension produces and that our configuration, content or
# CSS cannot reasonably fix.  Each entry: rule id, a regular expression that every offending
# element's selector must match, and the reason.  Anything else that is moderate or worse fails.
AXE_ALLOWED: list[tuple[str, str, str]] = []

# --------------------------------------------------------------------------------------------
# The checks.  Each returns a list of problems (strings); empty means the check passed.

_LINKS_JS = r"""
() => ({
  ids: [...document.querySelectorAll('[id]')].map(e => e.id)
         .concat([...document.querySelectorAll('a[name]')].map(a => a.getAttribute('name'))),
  links: [...document.querySelectorAll('a[href]')].map(a => ({
    href: a.href, text: a.textContent.replace(/\s+/g, ' ').trim().slice(0, 60)})),
})
"""


class _IdCollector(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs) -> None:
        for key, value in attrs:
            if value and (key == "id" or (tag == "a" and key == "name")):
                self.ids.add(value)


@functools.lru_cache(maxsize=None)
def _file_ids(path: Path, mtime: float) -> frozenset[str]:
    parser = _IdCollector()
    parser.feed(path.read_text(encoding="utf-8", errors="replace"))
    return frozenset(parser.ids)


def page_links(page) -> dict:
    """The ids on the page and its links (absolute URLs)."""
    return page.evaluate(_LINKS_JS)


def check_links(folder: Path, base: str, page_url: str, info: dict, dom_ids: dict[str, set[str]]) -> list[str]:
    """Every local link of the page leads to a file that exists, and its #anchor to an id there.

    ``dom_ids`` maps a page path to the ids of its live DOM (pages loaded in this run); other
    targets are read from the built file.
    """
    problems = []
    for link in info["links"]:
        href = link["href"]
        if not href.startswith(base):
            continue
        parts = urlsplit(href)
        rel = unquote(parts.path[len(urlsplit(base).path):])
        target = folder / rel
        if rel == "" or rel.endswith("/"):
            target = target / "index.html"
            rel = (rel + "index.html")
        if not target.is_file():
            problems.append(f"broken link {link['text']!r} -> {rel} (no such file)")
            continue
        anchor = unquote(parts.fragment)
        if not anchor or not target.suffix == ".html":
            continue
        ids = dom_ids.get(rel)
        if ids is None:
            ids = _file_ids(target, target.stat().st_mtime)
        if anchor not in ids:
            problems.append(f"broken anchor {link['text']!r} -> {rel}#{anchor} (no element with that id)")
    return problems


#: How long a solution may take to show after a click (the theme fades it in over 0.3 s).
DROPDOWN_TIMEOUT_MS = 5_000


def check_dropdowns(page) -> list[str]:
    """Each solution dropdown starts closed, and a click on its title shows its content.  The clicks are
    the title elements' own ``click()`` (the theme's handler runs as on a mouse click), all at once, and
    one wait covers the theme's fade-in: a Playwright click per dropdown, with its scrolling and
    actionability checks, cost 0.5 s each."""
    closed = page.evaluate(
        """() => [...document.querySelectorAll('div.solution.dropdown')].map(sol => {
             const body = sol.querySelector(':scope > .admonition-title ~ *');
             const title = sol.querySelector(':scope > .admonition-title');
             if (!body || !title) return {id: sol.id, empty: true};
             const r = body.getBoundingClientRect();
             const visible = r.width > 0 && r.height > 0 && getComputedStyle(body).visibility !== 'hidden';
             title.click();
             return {id: sol.id, empty: false, visible};
           })"""
    )
    problems = [f"solution {d['id']}: empty" for d in closed if d["empty"]]
    problems += [f"solution {d['id']}: visible before it is opened" for d in closed if not d["empty"] and d["visible"]]
    if any(not d["empty"] for d in closed):
        try:  # the theme fades the content in (0.3 s)
            page.wait_for_function(
                """() => [...document.querySelectorAll('div.solution.dropdown')].every(sol => {
                     const body = sol.querySelector(':scope > .admonition-title ~ *');
                     if (!body) return true;
                     const r = body.getBoundingClientRect();
                     return r.width > 0 && r.height > 0 && getComputedStyle(body).opacity === '1';
                   })""", timeout=DROPDOWN_TIMEOUT_MS)
        except Exception:
            still = page.evaluate(
                """() => [...document.querySelectorAll('div.solution.dropdown')].filter(sol => {
                     const body = sol.querySelector(':scope > .admonition-title ~ *');
                     const r = body ? body.getBoundingClientRect() : {width: 1, height: 1};
                     return body && !(r.width > 0 && r.height > 0 && getComputedStyle(body).opacity === '1');
                   }).map(sol => sol.id)""")
            problems += [f"solution {sid}: content not visible after a click" for sid in still]
    return problems


#: What the overflow check measures: every block a reader reads whole (code, printed output, tables,
#: displayed formulas, the negative controls), in the chapters' cells and in the prose.
_BLOCKS = ("pre, div.highlight, div.cell_output div.output, table, div.math, mjx-container, "
           "div.olkit-control")

_OVERFLOW_JS = r"""
(blocks) => {
  // open every folded code cell (a reader may), measure, and fold them again
  const folded = [...document.querySelectorAll('details.hide:not([open])')];
  folded.forEach(d => { d.open = true; });
  const problems = [];
  const article = document.querySelector('article.bd-article') || document.querySelector('main') || document.body;
  const limit = Math.min(window.innerWidth, document.documentElement.clientWidth);
  const short = s => s.replace(/\s+/g, ' ').trim().slice(0, 70);
  for (const el of article.querySelectorAll(blocks)) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || el.closest('.olkit-animation')) continue;
    const box = (el.closest('div.cell, div.full-width') || article).getBoundingClientRect();
    const cut = [];
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible')
      cut.push(`${el.scrollWidth - el.clientWidth} px scrolled out of view`);
    if (r.right > box.right + 1) cut.push(`${Math.round(r.right - box.right)} px past its column`);
    // a box between it and its column that clips (a proof, an admonition): an inline formula too long
    // for its line is cut off at the box's edge, although it stays within the column
    for (let a = el.parentElement; a && a !== article && !cut.length; a = a.parentElement) {
      const cs = getComputedStyle(a);
      if (cs.overflowX === 'visible' || a.scrollWidth > a.clientWidth + 1) continue;  // scrollers are measured above
      const ar = a.getBoundingClientRect();
      if (r.right > ar.right + 1) cut.push(`${Math.round(r.right - ar.right)} px past the edge of ${a.tagName.toLowerCase()}.${String(a.className).split(/\s+/)[0]}, which clips it`);
    }
    if (box.right > limit + 1) cut.push(`its column ends ${Math.round(box.right - limit)} px past the window`);
    if (cut.length) {
      const where = el.closest('[id]');
      problems.push(`${el.tagName.toLowerCase()}${el.className ? '.' + String(el.className).split(/\s+/)[0] : ''}`
                    + `${where ? ' in #' + where.id : ''} (${Math.round(r.width)} px wide): ${cut.join(', ')}: `
                    + `"${short(el.textContent)}"`);
    }
  }
  folded.forEach(d => { d.open = false; });
  return problems;
}
"""


def check_overflow(page) -> list[str]:
    """No block is cut off: every code cell (folded ones opened), printed output, table, formula (displayed
    or inline: within a proof or an admonition, which clip what passes their edge) and negative control
    fits the box it is drawn in (no sideways scrolling) and its column (the text
    column, or the margin-wide column of a wide cell, ``_ext/wide_cells.py``, or of another full-width
    block such as a lab's public tests), which fits the window.
    Measured at the page's viewport (1280 px wide in the browser test)."""
    return [p for p in page.evaluate(_OVERFLOW_JS, _BLOCKS)]


#: The contrast a text needs (WCAG 2 AA): 4.5, or 3 for large text (24 px, or 18.66 px bold).
_CONTRAST_JS = r"""
(mode) => {
  const root = document.documentElement;
  const was = [root.dataset.theme, root.dataset.mode];
  root.dataset.theme = mode; root.dataset.mode = mode;
  const parse = c => { const m = c.match(/rgba?\(([^)]+)\)/); if (!m) return [0, 0, 0, 0];
    const p = m[1].split(/[ ,\/]+/).filter(Boolean).map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
  const over = (top, below) => { const a = top[3] + below[3] * (1 - top[3]); if (a === 0) return [0, 0, 0, 0];
    return [0, 1, 2].map(i => (top[i] * top[3] + below[i] * below[3] * (1 - top[3])) / a).concat([a]); };
  const lum = c => { const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
  const background = el => {  // the background colours of the element and its ancestors, composited
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const bg = parse(getComputedStyle(e).backgroundColor);
      if (bg[3] > 0) layers.push(bg);
      if (bg[3] >= 1) break;
    }
    let c = [255, 255, 255, 1];
    for (let i = layers.length - 1; i >= 0; i--) c = over(layers[i], c);
    return c;
  };
  const scope = document.querySelector('article.bd-article') || document.querySelector('main') || document.body;
  const els = new Set(scope.querySelectorAll('mjx-container'));
  const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (n.textContent.trim() && el && !el.closest('mjx-container, script, style, .olkit-animation')) els.add(el);
  }
  const out = [];
  for (const el of els) {
    const r = el.getBoundingClientRect();
    const cs = getComputedStyle(el);
    if (r.width === 0 || r.height === 0 || cs.visibility === 'hidden' || parseFloat(cs.opacity) === 0) continue;
    const bg = background(el), fg = over(parse(cs.color), bg);
    const [a, b] = [lum(fg), lum(bg)];
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const size = parseFloat(cs.fontSize), bold = parseInt(cs.fontWeight) >= 700;
    const need = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
    if (ratio < need) out.push(`${mode}: ${el.tagName.toLowerCase()}${el.classList.length ? '.' + el.classList[0] : ''}`
      + `${el.closest('.cell_output') ? ' (output)' : ''} contrast ${ratio.toFixed(2)} < ${need} (${cs.color} on `
      + `rgb(${bg.slice(0, 3).map(Math.round).join(', ')})): "${el.textContent.replace(/\s+/g, ' ').trim().slice(0, 50)}"`);
  }
  root.dataset.theme = was[0]; root.dataset.mode = was[1];
  return out;
}
"""
MODES = ("light", "dark")


def check_contrast(page, modes=MODES) -> list[str]:
    """Every text of the page's article (prose, code, outputs: tables and their captions, negative
    controls, printed lines; each formula as a whole) has a contrast of at least 4.5 against the
    background it is drawn on (3 for large text), in light and in dark mode (the theme's two colour
    schemes, switched on the loaded page as its mode button does).  The background is composited from
    the element's and its ancestors' background colours over white."""
    problems = []
    for mode in modes:
        problems += page.evaluate(_CONTRAST_JS, mode)
    return problems


def _notebook_expectations(nb_path: Path) -> dict:
    """How many proof tables and figures the notebook's stored outputs hold (cells shown in the HTML)."""
    nb = json.loads(nb_path.read_text())
    tables = figures = animations = 0
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        tags = set(cell.get("metadata", {}).get("tags", []))
        if tags & {"remove-cell", "remove-output"}:
            continue
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            html_out = data.get("text/html", "")
            html_out = "".join(html_out) if isinstance(html_out, list) else html_out
            tables += len(re.findall(r"""<table[^>]*class=['"][^'"]*\bolkit-proof\b""", html_out))
            if "image/png" in data or "image/svg+xml" in data or "image/jpeg" in data:
                figures += 1
            animations += html_out.count('class="olkit-animation"')
    return {"tables": tables, "figures": figures, "animations": animations}


_STEP_JS = r"""
() => [...document.querySelectorAll('.olkit-animation')].map(box => {
  const img = box.querySelector('img[id^="_anim_img"]');
  const slider = box.querySelector('input[type=range]');
  const player = img && window['anim' + img.id.slice('_anim_img'.length)];
  if (!player || !slider) return {ok: false, frames: 0, moved: false, id: img ? img.id : ''};
  player.pause_animation();
  const first = img.src;
  player.next_frame();
  const moved = img.src !== first && slider.value === '1';
  player.first_frame();
  return {ok: img.complete && img.naturalWidth > 0, frames: player.frames.length, moved, id: img.id};
})
"""


def check_animations(page, expected: int) -> list[str]:
    """The page shows the notebook's animations (:func:`olkit.plots.animate`), each a working player:
    its image loaded, at least two frames, and "next frame" changes the image and moves the slider."""
    if expected:  # the players are created by a setTimeout after the page has loaded
        page.wait_for_function(
            """() => [...document.querySelectorAll('img[id^="_anim_img"]')].every(
                 img => window['anim' + img.id.slice('_anim_img'.length)])""", timeout=10_000)
    found = page.evaluate(_STEP_JS)
    problems = [] if len(found) == expected else [f"{len(found)} animations on the page, the notebook has {expected}"]
    for a in found:
        if not (a["ok"] and a["frames"] >= 2 and a["moved"]):
            problems.append(f"animation {a['id']}: not a working player ({a})")
    return problems


def check_notebook_page(page, rel: str, source_root: Path = ROOT, config: dict | None = None) -> list[str]:
    """A notebook page shows every proof table and figure of the notebook and both launch buttons,
    and the launch buttons point at the repository of ``_config.yml``."""
    nb = source_root / Path(rel).with_suffix(".ipynb")
    if not nb.exists():
        return []
    config = config or book_config(source_root)
    problems = []
    want = _notebook_expectations(nb)
    tables = page.locator("table.olkit-proof").count()
    if tables != want["tables"]:
        problems.append(f"{tables} proof tables on the page, the notebook has {want['tables']}")
    problems += check_animations(page, want["animations"])
    imgs = page.evaluate(  # an animation's frame is not a figure (check_animations looks at it)
        """() => [...document.querySelectorAll('.cell_output img:not(.olkit-animation img)')].map(i => ({
             src: i.getAttribute('src'), ok: i.complete && i.naturalWidth > 0}))"""
    )
    if len(imgs) != want["figures"]:
        problems.append(f"{len(imgs)} figures on the page, the notebook has {want['figures']}")
    problems += [f"figure not loaded: {i['src']}" for i in imgs if not i["ok"]]
    repo = config["repository"]
    url = repo["url"].rstrip("/")
    org_repo = "/".join(urlsplit(url).path.strip("/").split("/")[:2])
    branch = repo.get("branch", "main")
    nb_rel = Path(rel).with_suffix(".ipynb").as_posix()
    if repo.get("path_to_book"):
        nb_rel = f"{repo['path_to_book'].strip('/')}/{nb_rel}"
    launch = config.get("launch_buttons", {})
    expected = {
        "Binder": launch.get("binderhub_url", "").rstrip("/") + f"/v2/gh/{org_repo}/{branch}?urlpath=tree/{nb_rel}",
        "Colab": launch.get("colab_url", "").rstrip("/") + f"/github/{org_repo}/blob/{branch}/{nb_rel}",
    }
    hrefs = page.eval_on_selector_all(".dropdown-launch-buttons a[href]", "as => as.map(a => a.href)")
    for name, href in expected.items():
        if href not in hrefs:
            problems.append(f"no {name} launch button to {href} (launch links: {hrefs})")
    repo_links = page.eval_on_selector_all("a[href]", "as => as.map(a => a.href)")
    if not any(h.rstrip("/") == url for h in repo_links):
        problems.append(f"no repository button to {url}")
    return problems


def check_no_colab_install(folder: Path) -> list[str]:
    """No page shows the Colab install cell (tagged remove-cell in the notebooks)."""
    return [
        f"{p.relative_to(folder)} shows the Colab install code ('google.colab')"
        for p in sorted(folder.rglob("*.html"))
        if "google.colab" in p.read_text(encoding="utf-8", errors="replace")
    ]


def screenshot(page, path: Path, full_page: bool = True) -> None:
    """A screenshot of the whole page (``full_page``) or of its first screen, taken from the top (the
    theme's sidebar and header are sticky: taken after the page was scrolled, they would appear where
    the viewport was)."""
    page.evaluate("() => window.scrollTo(0, 0)")
    page.wait_for_function("() => window.scrollY === 0 && !document.body.classList.contains('scrolled')")
    # JPEG (quality 85): a long page's PNG takes Chromium twice as long to encode, in every CI run
    page.screenshot(path=str(path), full_page=full_page, type="jpeg", quality=85)


def axe_scan(page) -> list[dict]:
    """axe-core's violations on the page (all impacts), injected from .cache/npm.

    The nodes that MathJax generates inside each formula's ``mjx-container`` (60% of a chapter page's
    elements: its glyphs and its assistive MathML, whose accessibility is MathJax's) are set aside during
    the scan and put back after it; the containers themselves, with their roles and labels, are scanned.
    On the chapter pages this finds the same violations in 40% of the time (7.2 s -> 2.5 s on 3.2).

    Highlighted code is scanned with one token of each kind: a code block's tokens are spans whose
    colour is set by their class (Pygments), on the block's background, so the first span of each
    (background, class) on the page stands for the others, which are scanned as plain text of the block
    (the code's own colour) until they are put back.  On 3.2 (7,700 code elements) the scan takes half
    the time (2.7 s -> 1.4 s) and finds the same violations."""
    page.add_script_tag(path=str(AXE_JS))
    result = page.evaluate(
        """async () => {
          const aside = [];
          document.querySelectorAll('mjx-container').forEach(c => {
            const kept = document.createDocumentFragment();
            while (c.firstChild) kept.appendChild(c.firstChild);
            aside.push([c, kept]);
          });
          const seen = new Set();
          document.querySelectorAll('.highlight pre').forEach(pre => {
            const bg = getComputedStyle(pre.closest('.highlight')).backgroundColor;
            const kept = document.createDocumentFragment();
            while (pre.firstChild) kept.appendChild(pre.firstChild);
            for (const node of kept.childNodes) {
              const key = node.nodeType === 1 ? bg + '|' + node.tagName + '|' + node.className : null;
              if (key === null || seen.has(key)) pre.appendChild(document.createTextNode(node.textContent));
              else { seen.add(key); pre.appendChild(node.cloneNode(true)); }
            }
            aside.push([pre, kept]);
          });
          try { return await axe.run(document, {resultTypes: ['violations']}); }
          finally { for (const [c, kept] of aside) { c.replaceChildren(); c.appendChild(kept); } }
        }"""
    )
    return [
        {
            "id": v["id"],
            "impact": v.get("impact"),
            "help": v["help"],
            "helpUrl": v.get("helpUrl"),
            "targets": [" ".join(map(str, n["target"])) for n in v["nodes"]],
            "summary": v["nodes"][0].get("failureSummary", "") if v["nodes"] else "",
        }
        for v in result["violations"]
    ]


#: The impacts that fail the check (axe-core's four: minor, moderate, serious, critical).
FAILING_IMPACTS = ("moderate", "serious", "critical")


def unallowed_violations(violations: list[dict]) -> list[str]:
    """The moderate, serious and critical violations that the allow-list does not explain."""
    problems = []
    for v in violations:
        if v["impact"] not in FAILING_IMPACTS:
            continue
        patterns = [re.compile(pat) for rule, pat, _ in AXE_ALLOWED if rule == v["id"]]
        bad = [t for t in v["targets"] if not any(p.search(t) for p in patterns)]
        if bad:
            problems.append(f"axe {v['impact']} {v['id']} ({v['help']}): {', '.join(bad[:5])}")
    return problems


# --------------------------------------------------------------------------------------------
# Everything, on every page


_REFRESH = re.compile(r'<meta http-equiv="Refresh" content="\d+;\s*url=(?P<url>[^"]+)"', re.I)


@dataclass
class PageReport:
    page: str
    problems: dict[str, list[str]] = field(default_factory=dict)
    axe: list[dict] = field(default_factory=list)
    seconds: float = 0.0


def check_site(
    folder: Path,
    pages: list[str] | None = None,
    *,
    source_root: Path = ROOT,
    screenshots: Path | None = None,
    full_page: bool = True,
    axe: bool = True,
    dropdowns: bool = True,
    after=None,
) -> list[PageReport]:
    """Run every check on ``pages`` (default: all) of the built book in ``folder``, with a screenshot of
    each (the whole page, or its first screen if not ``full_page``) if ``screenshots`` names a folder.
    ``after(page, rel)``,
    if given, is called on each loaded page after its checks and screenshot (the browser test prints
    the PDF with it: :class:`tools.pdf.Printer`), before its console log is read."""
    folder = Path(folder)
    pages = pages if pages is not None else html_pages(folder)
    config = book_config(source_root)
    reports = []
    if screenshots:
        screenshots.mkdir(parents=True, exist_ok=True)
    with serve(folder) as base, chromium() as browser:
        sink: dict = {}
        context = new_context(browser, base, sink)
        loaded: dict[str, dict] = {}
        dom_ids: dict[str, set[str]] = {}
        opened = []
        for rel in pages:
            t0 = time.time()
            report = PageReport(rel)
            redirect = _REFRESH.search((folder / rel).read_text(encoding="utf-8", errors="replace")[:2000])
            if redirect:  # Jupyter Book's index.html: a meta refresh to the root page
                target = (folder / rel).parent / redirect["url"]
                report.problems["links"] = [] if target.is_file() else [f"redirect to missing {redirect['url']}"]
                reports.append(report)
                continue
            page, log = open_page(context, base + rel, base, sink)
            report.problems["math"] = check_math(page)
            info = page_links(page)
            loaded[rel] = info
            dom_ids[rel] = set(info["ids"])
            report.problems["notebook"] = check_notebook_page(page, rel, source_root, config)
            if dropdowns:
                report.problems["dropdowns"] = check_dropdowns(page)  # opens the solutions
            report.problems["overflow"] = check_overflow(page)
            report.problems["contrast"] = check_contrast(page)
            if axe:
                report.axe = axe_scan(page)
                report.problems["a11y"] = unallowed_violations(report.axe)
            if screenshots:
                shot = screenshots / (rel.replace("/", "__").removesuffix(".html") + ".jpg")
                screenshot(page, shot, full_page)
            if after is not None:
                after(page, rel)
            report.problems["console"] = log.problems()
            report.seconds = time.time() - t0
            reports.append(report)
            opened.append(page)
            if len(opened) > 2:
                opened.pop(0).close()
        for report in reports:
            if report.page not in loaded:
                continue
            report.problems["links"] = check_links(folder, base, base + report.page, loaded[report.page], dom_ids)
        context.close()
    return reports


# --------------------------------------------------------------------------------------------
# The lecture slides (tools/slides.py): each deck in ``slides/`` of the built book.

PRF_BLOCK = re.compile(r"[`:]{3,}\{prf:(definition|theorem|lemma|corollary|proposition|algorithm)\}[^\n]*\n"
                       r"(?::label: *([\w.:-]+))?")

_DECK_JS = r"""
() => {
  const slides = [...document.querySelectorAll('.reveal .slides > section')];
  const out = {total: Reveal.getTotalSlides(), sections: slides.length, overflow: [], images: [],
               blocks: [], fragments: document.querySelectorAll('.reveal .fragment').length};
  const height = Reveal.getConfig().height;
  const shown = slides.map(s => s.style.display);
  slides.forEach(s => { s.style.display = 'block'; });  // measured at the deck's size, in one layout
  slides.forEach((s, i) => {
    if (s.scrollHeight > height + 2) out.overflow.push(`slide ${i + 1} (${s.dataset.kind}): ${s.scrollHeight} px > ${height} px`);
    s.querySelectorAll('img').forEach(img => { if (!img.complete || img.naturalWidth === 0) out.images.push(img.getAttribute('src')); });
    if (s.dataset.label) out.blocks.push({label: s.dataset.label, kind: s.dataset.kind,
        caption: (s.querySelector('.caption') || {}).textContent || ''});
  });
  slides.forEach((s, i) => { s.style.display = shown[i]; });
  return out;
}
"""


def deck_expectations(nb_path: Path) -> list[str]:
    """The labels of a section's definitions, theorems, lemmas, corollaries and algorithms, read from the
    notebook's source with a pattern of its own (not with tools/slides.py's parser)."""
    cells = json.loads(nb_path.read_text())["cells"]
    text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown"
                     and not {"remove-cell", "slides-skip"} & set(c["metadata"].get("tags", [])))
    return [m.group(2) or f"(unlabelled {m.group(1)})" for m in PRF_BLOCK.finditer(text)]


def check_decks(folder: Path, source_root: Path = ROOT, screenshots: Path | None = None) -> list[PageReport]:
    """Open every deck of ``folder/slides`` (one per section notebook): reveal.js starts, MathJax typesets
    every formula without an error, no console error or failed request, every image loads, no slide is
    taller than the deck, and there is a slide for each definition, theorem, lemma, corollary and
    algorithm of the section (by label), with fragments for the proofs' steps.  A screenshot of the
    first theorem slide of each deck goes to ``screenshots``."""
    folder = Path(folder) / "slides"
    reports = []
    if screenshots:
        screenshots.mkdir(parents=True, exist_ok=True)
    notebooks = deck_tool.section_notebooks(source_root)
    with serve(folder) as base, chromium() as browser:
        sink: dict = {}
        context = new_context(browser, base, sink)
        for nb in notebooks:
            t0 = time.time()
            rel = f"slides/{nb.stem}.html"
            report = PageReport(rel)
            reports.append(report)
            if not (folder / f"{nb.stem}.html").is_file():
                report.problems["deck"] = [f"no deck for {nb.name}"]
                continue
            page, log = open_page(context, base + f"{nb.stem}.html", base, sink)
            # reveal.js started, MathJax typeset, and the deck's script fitted its long slides
            page.wait_for_function("() => document.body.dataset.fitted === 'yes'", timeout=30_000)
            report.problems["math"] = check_math(page)
            info = page.evaluate(_DECK_JS)
            problems = [f"{nb.stem}: {o}" for o in info["overflow"]]
            problems += [f"{nb.stem}: image not loaded: {src}" for src in info["images"]]
            if info["total"] != info["sections"] or info["total"] < 3:
                problems.append(f"{nb.stem}: reveal.js counts {info['total']} slides of {info['sections']}")
            have = [b["label"] for b in info["blocks"] if b["kind"] == "block"]
            want = deck_expectations(nb)
            problems += [f"{nb.stem}: no slide for {label}" for label in want if label not in have]
            if any(b["kind"] == "proof" for b in info["blocks"]) or "{prf:proof}" in nb.read_text():
                if info["fragments"] == 0:
                    problems.append(f"{nb.stem}: proofs but no fragments (steps)")
            report.problems["deck"] = problems
            if screenshots:
                first = next((i for i, b in enumerate(info["blocks"]) if b["kind"] == "block"), None)
                if first is not None:
                    page.evaluate(f"() => Reveal.slide([...document.querySelectorAll('.reveal .slides > section')]"
                                  f".findIndex(s => s.dataset.label === {json.dumps(info['blocks'][first]['label'])}), 0, -1)")
                page.screenshot(path=str(screenshots / f"slides__{nb.stem}.jpg"), type="jpeg", quality=85)
            report.problems["console"] = log.problems()
            report.seconds = time.time() - t0
            page.close()
        context.close()
    return reports


def problems_by_kind(reports: list[PageReport]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for r in reports:
        for kind, items in r.problems.items():
            out.setdefault(kind, []).extend(f"{r.page}: {m}" for m in items)
    return out


def write_a11y_report(reports: list[PageReport], path: Path) -> str:
    """Write every axe violation to ``path`` (JSON) and return a one-screen summary."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {
        "axe_core": json.loads((NODE_MODULES / "axe-core" / "package.json").read_text())["version"],
        "allowed": [{"rule": r, "selector": s, "reason": why} for r, s, why in AXE_ALLOWED],
        "pages": {r.page: r.axe for r in reports},
    }
    path.write_text(json.dumps(data, indent=1))
    counts: dict[tuple[str, str], list[int]] = {}
    for r in reports:
        for v in r.axe:
            c = counts.setdefault((v["impact"] or "?", v["id"]), [0, 0])
            c[0] += 1
            c[1] += len(v["targets"])
    order = {"critical": 0, "serious": 1, "moderate": 2, "minor": 3}
    lines = [f"axe-core {data['axe_core']}: {sum(len(r.axe) for r in reports)} violations on {len(reports)} pages "
             f"(report: {path})"]
    for (impact, rule), (npages, nodes) in sorted(counts.items(), key=lambda kv: (order.get(kv[0][0], 9), kv[0][1])):
        allowed = any(a[0] == rule for a in AXE_ALLOWED)
        lines.append(f"  {impact:9} {rule:28} {npages:3} pages {nodes:4} elements{'  (allow-listed)' if allowed else ''}")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    folder = Path(argv[0]) if argv else ROOT / "_build" / "html"
    lacking = missing()
    if lacking:
        print("browser checks skipped: " + "; ".join(lacking) + "\n  " + INSTALL_HINT)
        return 2
    t0 = time.time()
    reports = check_site(folder, screenshots=folder.parent / "screenshots")
    print(write_a11y_report(reports, folder.parent / "a11y-report.json"))
    bad = 0
    for kind, items in problems_by_kind(reports).items():
        for item in items:
            print(f"[{kind}] {item}")
            bad += 1
    print(f"{len(reports)} pages checked in {time.time() - t0:.1f} s: {bad} problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
