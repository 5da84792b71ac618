"""The built HTML book, opened in a real browser (Debian's Chromium under Playwright).

Every page of ``_build/html`` is served on 127.0.0.1 and loaded once; the checks of ``tools/browser.py``
run on it: console and page errors and failed local requests, MathJax (served from ``.cache/npm``)
typesetting every formula without an error, every internal link and #anchor, the solution dropdowns,
the proof tables, figures and launch buttons of each notebook page, an axe-core accessibility scan, and
a full-page screenshot under ``_build/screenshots/``.  The last tests break a copy of the build (an
undefined macro, a removed link target) and show that the same checks then fail.

Needs the book built (``python3 dev.py test`` builds it first), ``/usr/bin/chromium`` and the npm
assets; without them the module is skipped and says how to install them.
"""
from __future__ import annotations

import re
import shutil
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tools import browser  # noqa: E402

HTML = ROOT / "_build" / "html"
SCREENSHOTS = ROOT / "_build" / "screenshots"
A11Y_REPORT = ROOT / "_build" / "a11y-report.json"
BUILT = (HTML / "intro.html").exists()
LACKING = browser.missing()

needs_build = pytest.mark.skipif(not BUILT, reason="the book is not built: run python3 dev.py test (or book)")
needs_browser = pytest.mark.skipif(
    bool(LACKING), reason="browser test skipped: " + "; ".join(LACKING) + ". To run it: " + browser.INSTALL_HINT
)
pytestmark = needs_build


def _say(request, text: str) -> None:
    """Print past pytest's capture (the accessibility summary belongs in the test log)."""
    capman = request.config.pluginmanager.getplugin("capturemanager")
    with capman.global_and_fixture_disabled():
        print("\n" + text, flush=True)


@pytest.fixture(scope="module")
def reports(request):
    t0 = time.time()
    reps = browser.check_site(HTML, screenshots=SCREENSHOTS)
    summary = browser.write_a11y_report(reps, A11Y_REPORT)
    _say(request, f"{summary}\nbrowser: {len(reps)} pages checked in {time.time() - t0:.0f} s; "
                  f"screenshots in {SCREENSHOTS.relative_to(ROOT)}/")
    return reps


def _problems(reports, kind: str) -> list[str]:
    return browser.problems_by_kind(reports).get(kind, [])


@needs_browser
def test_every_page_loads_without_console_errors_or_failed_requests(reports):
    assert _problems(reports, "console") == []


@needs_browser
def test_mathjax_typesets_every_formula_without_error(reports):
    assert _problems(reports, "math") == []


@needs_browser
def test_every_internal_link_and_anchor_exists(reports):
    assert _problems(reports, "links") == []


@needs_browser
def test_solution_dropdowns_open_on_click(reports):
    assert _problems(reports, "dropdowns") == []
    assert sum(1 for r in reports if r.page.startswith("chapters/")) >= 6


@needs_browser
def test_notebook_pages_show_proof_tables_figures_and_launch_buttons(reports):
    assert _problems(reports, "notebook") == []
    pages = {r.page for r in reports}
    notebooks = sorted(p.relative_to(ROOT).with_suffix(".html").as_posix() for p in (ROOT / "chapters").rglob("*.ipynb")
                       if ".ipynb_checkpoints" not in p.parts)
    assert set(notebooks) <= pages, "every notebook has a page"


@needs_browser
def test_no_serious_accessibility_violation_outside_the_allow_list(reports):
    assert A11Y_REPORT.exists()
    assert _problems(reports, "a11y") == []


@needs_browser
def test_every_page_has_a_screenshot(reports):
    for r in reports:
        if r.page != "index.html":  # the redirect to intro.html
            assert (SCREENSHOTS / (r.page.replace("/", "__").removesuffix(".html") + ".png")).stat().st_size > 10_000


def test_no_page_shows_the_colab_install_cell():
    assert browser.check_no_colab_install(HTML) == []


# ----------------------------------------------------------------------------------------------
# The checks can fail: break a copy of the build in several ways, on two pages, and run the same
# functions on it (one browser session for all the breakages).

PAGE = "chapters/ch1/1_2_consistent_halving.html"      # bad TeX, a lost id, a console error, ...
OTHER = "chapters/ch1/1_3_efficient_halving.html"      # links to PAGE#thm-halving (removed above)
MATH = '<span class="math notranslate nohighlight">'


@pytest.fixture(scope="module")
def broken(tmp_path_factory):
    dest = tmp_path_factory.mktemp("broken") / "html"
    shutil.copytree(HTML, dest)
    page = dest / PAGE
    text = page.read_text()
    assert MATH in text and '#thm-halving"' in text
    assert 'href="1_2_consistent_halving.html#thm-halving"' in (dest / OTHER).read_text()
    text = text.replace(MATH, MATH + r"\(\undefinedmacro x\)</span> " + MATH + r"\(x^2^3\)</span> " + MATH, 1)
    text, n = re.subn(r'\sid="thm-halving"', "", text)
    assert n >= 1
    text = text.replace("</body>", '<script>console.error("planted error")</script>'
                                   '<img src="https://example.invalid/tracker.png" alt=""></body>')
    page.write_text(text)
    (dest / "chapters/ch1/1_1_online_game.html").unlink()  # PAGE links to it
    reports = browser.check_site(dest, [PAGE, OTHER], axe=False, dropdowns=False)
    return {r.page: r.problems for r in reports}


@needs_browser
def test_math_check_fails_on_an_undefined_macro(broken):
    assert any("undefined control sequence \\undefinedmacro" in p for p in broken[PAGE]["math"]), broken[PAGE]


@needs_browser
def test_math_check_fails_on_a_tex_error(broken):
    assert any("MathJax error" in p and "x^2^3" in p for p in broken[PAGE]["math"]), broken[PAGE]


@needs_browser
def test_link_check_fails_when_a_target_id_is_removed(broken):
    # within the page (the id is looked up in the live DOM) and from another page (in the file)
    for page in (PAGE, OTHER):
        assert any("#thm-halving (no element with that id)" in p for p in broken[page]["links"]), broken[page]


@needs_browser
def test_link_check_fails_on_a_missing_page(broken):
    assert any("1_1_online_game.html (no such file)" in p for p in broken[PAGE]["links"]), broken[PAGE]
    assert broken[OTHER]["math"] == [], "the unbroken page still passes"


@needs_browser
def test_console_check_fails_on_an_error_and_on_an_external_request(broken):
    console = broken[PAGE]["console"]
    assert any("planted error" in p for p in console), console
    assert any("leaves the local server" in p and "example.invalid" in p for p in console), console
    assert broken[OTHER]["console"] == []
