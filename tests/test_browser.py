"""The built HTML book, opened in a real browser (Debian's Chromium under Playwright).

Every page of ``_build/html`` is served on 127.0.0.1 and loaded once; the checks of ``tools/browser.py``
run on it: console and page errors and failed local requests, MathJax (served from ``.cache/npm``)
typesetting every formula without an error, every internal link and #anchor, the solution dropdowns,
the proof tables, figures and launch buttons of each notebook page, an axe-core accessibility scan, and
a screenshot of its first screen under ``_build/screenshots/`` (``python3 dev.py browser`` takes the
whole page; here the printed PDF shows every page whole, and a long page's full screenshot cost 2 s).  In the same pass, with each page loaded once,
the PDF of the book is printed (``tools/pdf.py``, as ``python3 dev.py pdf`` prints it) and its tests
follow.  The last tests break a copy of the build (an undefined macro, a removed link target) and show
that the same checks then fail.

Needs the book built (``python3 dev.py test`` builds it first), ``/usr/bin/chromium`` and the npm
assets; without them the module is skipped and says how to install them.
"""
from __future__ import annotations

import json
import re
import shutil
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import built  # noqa: E402
from tools import browser, pdf  # noqa: E402

HTML = built.HTML
SCREENSHOTS = ROOT / "_build" / "screenshots"
A11Y_REPORT = ROOT / "_build" / "a11y-report.json"
BUILT = built.available()
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
def browser_pass(request):
    """Every page loaded once: its checks, its screenshot, and its PDF pages."""
    assert built.wait() is not None
    t0 = time.time()
    printer = pdf.Printer()
    reps = browser.check_site(HTML, screenshots=SCREENSHOTS, full_page=False, after=printer)
    summary = browser.write_a11y_report(reps, A11Y_REPORT)
    _say(request, f"{summary}\nbrowser: {len(reps)} pages checked and {len(printer.printed)} printed in "
                  f"{time.time() - t0:.0f} s; screenshots in {SCREENSHOTS.relative_to(ROOT)}/")
    return reps, printer


@pytest.fixture(scope="module")
def reports(browser_pass):
    return browser_pass[0]


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
    assert {"labs.html", "instructor.html"} <= pages, "the back matter's pages are checked too"
    labs = sorted(p.relative_to(ROOT).with_suffix(".html").as_posix() for p in (ROOT / "labs" / "student").glob("*/*.ipynb"))
    assert len(labs) >= 6 and set(labs) <= pages, "every lab's student notebook is a page, typeset and checked"


@needs_browser
def test_no_block_is_cut_off_at_1280_px(reports):
    """Every code cell (folded ones opened), printed output, table, displayed formula and negative control
    of every page fits its column at 1280 px: a reader never scrolls a block sideways."""
    assert browser.VIEWPORT["width"] == 1280
    assert _problems(reports, "overflow") == []


@needs_browser
def test_text_keeps_its_contrast_in_light_and_dark_mode(reports):
    """Tables and their captions, negative controls, printed text, prose: contrast >= 4.5 (3 for large
    text) in both colour schemes, on every page."""
    assert browser.MODES == ("light", "dark")
    assert _problems(reports, "contrast") == []


@needs_browser
def test_no_moderate_or_serious_accessibility_violation_outside_the_allow_list(reports):
    assert A11Y_REPORT.exists()
    assert _problems(reports, "a11y") == []


@needs_browser
def test_every_page_has_a_screenshot(reports):
    for r in reports:
        if r.page != "index.html":  # the redirect to intro.html
            assert (SCREENSHOTS / (r.page.replace("/", "__").removesuffix(".html") + ".jpg")).stat().st_size > 10_000


def test_no_page_shows_the_colab_install_cell():
    assert built.wait() is not None
    assert browser.check_no_colab_install(HTML) == []


# ----------------------------------------------------------------------------------------------
# The PDF (python3 dev.py pdf prints it the same way), printed in the pass above: one bookmark per page
# of the table of contents, nested (chapter, then its sections), one per notebook under its title;
# typeset mathematics (no TeX source left), numbered theorems, the proof tables and the figures, and
# no folded code.

NOTEBOOKS = sorted(p for p in (ROOT / "chapters").rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)


def title(nb: Path) -> str:
    first = "".join(json.loads(nb.read_text())["cells"][0]["source"])
    return first.splitlines()[0].lstrip("# ").strip()


def _image_count(page) -> int:
    """Image XObjects drawn on the page (without decoding them, which pypdf's page.images does)."""
    resources = page.get("/Resources")
    xobjects = resources.get_object().get("/XObject") if resources else None
    if not xobjects:
        return 0
    return sum(1 for ref in xobjects.get_object().values() if ref.get_object().get("/Subtype") == "/Image")


@pytest.fixture(scope="module")
def book(browser_pass, tmp_path_factory):
    from pypdf import PdfReader

    out = browser_pass[1].write(tmp_path_factory.mktemp("pdf") / "book.pdf")
    reader = PdfReader(str(out))
    starts = pdf.outline_pages(out)  # title -> first page of that bookmark
    return {"path": out, "reader": reader, "starts": starts}


def section_text(book, nb: Path) -> str:
    """The text of a notebook's pages (pypdf's text extraction is slow: only what a test reads)."""
    starts = sorted(set(book["starts"].values()) | {len(book["reader"].pages)})
    first = book["starts"][title(nb)]
    last = next(p for p in starts if p > first)
    text = " ".join(book["reader"].pages[i].extract_text() or "" for i in range(first, last))
    return " ".join(text.split())  # captions wrap over lines


@needs_browser
def test_the_pdf_is_produced(book):
    assert book["path"].stat().st_size > 100_000
    assert len(book["reader"].pages) >= 3 * len(NOTEBOOKS)
    assert book["reader"].metadata.title == browser.book_config()["title"]


@needs_browser
def test_one_bookmark_per_notebook_nested_under_its_chapter(book):
    outline = pdf.outline_titles(book["path"])
    titles = [t for _, t in outline]
    depth = {t: d for d, t in outline}
    for nb in NOTEBOOKS:
        assert titles.count(title(nb)) == 1, f"no single bookmark for {nb.name}: {titles}"
        chapter = (nb.parent / "index.md").read_text().splitlines()[0].lstrip("# ").strip()
        assert depth[title(nb)] == depth[chapter] + 1, f"{nb.name}: a section sits under its chapter"
    entries = pdf.toc_entries()
    pages = list(pdf._flatten(entries))
    assert len(outline) == len(pages) + sum(1 for e in entries if e.caption), "a bookmark per page and part"
    assert book["starts"][title(NOTEBOOKS[0])] > 0 and len(set(book["starts"].values())) >= len(pages)


@needs_browser
@pytest.mark.parametrize("nb", [NOTEBOOKS[1], NOTEBOOKS[-1]], ids=lambda p: p.stem)
def test_mathematics_theorems_and_proof_tables_are_printed(book, nb):
    text = section_text(book, nb)
    assert "\\(" not in text and "\\[" not in text and "$$" not in text, "TeX source left in the PDF"
    chapter = nb.parent.name.removeprefix("ch")
    assert re.search(rf"(Theorem|Lemma) {chapter}\.\d+ \(", text), "theorems numbered within the chapter"
    assert not re.search(r"(Theorem|Lemma|Exercise) \d+ \(", text), "a book-wide number in the PDF"
    # the proof tables of the section's stored outputs, by the caption of a table whose steps all hold
    html = ["".join(out.get("data", {}).get("text/html", "")) for cell in json.loads(nb.read_text())["cells"]
            if cell["cell_type"] == "code" for out in cell.get("outputs", [])]
    holding = sum(h.count("every step holds on this run") for h in html if "olkit-proof" in h)
    assert holding > 0 and text.count("every step holds on this run") >= holding


def _code_lines(nb: Path, folded: bool) -> set[str]:
    """Distinctive lines (3+ words, 30+ characters) of the notebook's folded (hide-input) code cells, or
    of its shown ones."""
    out = set()
    for cell in json.loads(nb.read_text())["cells"]:
        tags = cell.get("metadata", {}).get("tags", [])
        if cell["cell_type"] != "code" or "remove-cell" in tags or ("hide-input" in tags) != folded:
            continue
        out |= {ln.strip() for ln in "".join(cell["source"]).splitlines()
                if len(ln.split()) >= 3 and len(ln.strip()) >= 30}
    return out


@needs_browser
@pytest.mark.parametrize("nb", [NOTEBOOKS[1], NOTEBOOKS[-1]], ids=lambda p: p.stem)
def test_folded_code_is_left_out_and_shown_code_is_printed(book, nb):
    squeeze = lambda t: "".join(t.split())  # noqa: E731 (long code lines wrap in print)
    text = squeeze(section_text(book, nb))
    shown = _code_lines(nb, folded=False)
    prose = squeeze("".join("".join(c["source"]) for c in json.loads(nb.read_text())["cells"]
                            if c["cell_type"] == "markdown"))
    folded = {ln for ln in _code_lines(nb, folded=True) - shown if squeeze(ln) not in prose}
    assert len(shown) >= 3 and len(folded) >= 20
    missing = [ln for ln in shown if squeeze(ln) not in text]
    assert missing == [], f"shown code missing from the PDF (the check could not see code): {missing[:3]}"
    leaked = [ln for ln in folded if squeeze(ln) in text]
    assert leaked == [], f"{len(leaked)} lines of folded code printed, e.g. {leaked[:3]}"


@needs_browser
def test_every_animation_prints_at_its_last_frame(browser_pass):
    printed = browser_pass[1].printed
    want = {nb: browser._notebook_expectations(nb)["animations"] for nb in NOTEBOOKS}
    assert sum(want.values()) >= 6 and {nb.parent.name for nb, n in want.items() if n} == {
        f"ch{c}" for c in range(1, 7)}, "a live figure in every chapter"
    for nb, n in want.items():
        rel = nb.relative_to(ROOT).with_suffix(".html").as_posix()
        assert printed[rel]["animations"] == n, f"{rel}: {printed[rel]['animations']} of {n} at the last frame"


@needs_browser
def test_every_figure_is_printed(book):
    images = sum(_image_count(page) for page in book["reader"].pages)
    figures = sum(
        1 for nb in NOTEBOOKS for cell in json.loads(nb.read_text())["cells"] if cell["cell_type"] == "code"
        for out in cell.get("outputs", []) if "image/png" in out.get("data", {})
    )
    assert images >= figures, f"{images} images in the PDF, {figures} figures in the notebooks"


# ----------------------------------------------------------------------------------------------
# The checks can fail: break a copy of the build in several ways, on two pages, and run the same
# functions on it (one browser session for all the breakages).

PAGE = "chapters/ch1/1_2_consistent_halving.html"      # bad TeX, a lost id, a console error, ...
OTHER = "chapters/ch1/1_3_efficient_halving.html"      # links to PAGE#thm-halving (removed above)
MATH = '<span class="math notranslate nohighlight">'


@pytest.fixture(scope="module")
def broken(tmp_path_factory):
    dest = tmp_path_factory.mktemp("broken") / "html"
    assert built.wait() is not None
    shutil.copytree(HTML, dest)
    page = dest / PAGE
    text = page.read_text()
    assert MATH in text and '#thm-halving"' in text
    assert 'href="1_2_consistent_halving.html#thm-halving"' in (dest / OTHER).read_text()
    text = text.replace(MATH, MATH + r"\(\undefinedmacro x\)</span> " + MATH + r"\(x^2^3\)</span> " + MATH, 1)
    text, n = re.subn(r'\sid="thm-halving"', "", text)
    assert n >= 1
    # the solutions replaced by copies without the theme's click handler, once the page has loaded
    unclickable = ("<script>window.addEventListener('load', () => setTimeout(() => document.querySelectorAll("
                   "'div.solution.dropdown').forEach(s => s.replaceWith(s.cloneNode(true))), 0));</script>")
    # a long line in a cell that has the text column only, and a caption unreadable in dark mode only
    plain = '<div class="cell docutils container">\n<div class="cell_input docutils container">\n'
    start = text.index(plain)
    pre = text.index("<pre>", start) + len("<pre>")
    text = text[:pre] + "long = " + "'x' * 10 + " * 12 + "'x'\n" + text[pre:]
    wide = text.index('<div class="cell tag_full-width docutils container">')
    text = text[:wide] + '<div class="cell docutils container">' + text[wide + len('<div class="cell tag_full-width docutils container">'):]
    # an inline formula too long for its line, in a proof (which clips it at its edge)
    proof = text.index("</p>", text.index('<div class="proof theorem admonition"'))
    text = text[:proof] + " " + MATH + r"\(" + "+".join(["a_{12345}"] * 40) + r"\)</span>" + text[proof:]
    text = text.replace("</head>", '<style>html[data-theme="dark"] table.olkit-proof caption { color: #303030; }</style></head>', 1)
    text = text.replace("</body>", '<script>console.error("planted error")</script>' + unclickable +
                                   '<img src="https://example.invalid/tracker.png" alt=""></body>')
    page.write_text(text)
    (dest / "chapters/ch1/1_1_online_game.html").unlink()  # PAGE links to it
    wait, browser.DROPDOWN_TIMEOUT_MS = browser.DROPDOWN_TIMEOUT_MS, 1_000
    try:
        reports = browser.check_site(dest, [PAGE, OTHER], axe=False)
    finally:
        browser.DROPDOWN_TIMEOUT_MS = wait
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
def test_dropdown_check_fails_when_a_click_does_not_open_the_solution(broken):
    assert any("content not visible after a click" in p for p in broken[PAGE]["dropdowns"]), broken[PAGE]
    assert broken[OTHER]["dropdowns"] == [], "the unbroken page's solutions open"


@needs_browser
def test_overflow_check_fails_on_a_long_line_a_wide_cell_kept_in_the_column_and_a_long_formula(broken):
    cut = broken[PAGE]["overflow"]
    assert any("long = 'x' * 10" in p and "scrolled out of view" in p for p in cut), cut
    assert len(cut) >= 2, f"the cell that lost its margin is cut off too: {cut}"
    assert any(p.startswith("mjx-container") and "a12345+a12345" in p for p in cut), f"the long inline formula: {cut}"
    assert broken[OTHER]["overflow"] == [], "the unbroken page fits"


@needs_browser
def test_contrast_check_fails_on_a_caption_unreadable_in_dark_mode_only(broken):
    bad = broken[PAGE]["contrast"]
    assert bad and all(p.startswith("dark: caption") for p in bad), bad
    assert broken[OTHER]["contrast"] == []


@needs_browser
def test_console_check_fails_on_an_error_and_on_an_external_request(broken):
    console = broken[PAGE]["console"]
    assert any("planted error" in p for p in console), console
    assert any("leaves the local server" in p and "example.invalid" in p for p in console), console
    assert broken[OTHER]["console"] == []


#: A page whose code block repeats a low-contrast token class (and an image without alt text): the scan
#: looks at one token of each class, so the check must still see the low-contrast one.
_LOW_CONTRAST = """<!DOCTYPE html><html lang="en"><head><title>code</title><style>
.highlight { background: #ffffff; } .highlight .n { color: #000000; } .highlight .c1 { color: #dddddd; }
</style></head><body><main><h1>Code</h1><div class="highlight"><pre>{tokens}</pre></div>
<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="20" height="20"></main></body></html>"""


@needs_browser
def test_the_accessibility_scan_sees_a_low_contrast_code_token_and_restores_the_page(tmp_path):
    tokens = "\n".join(f'<span class="n">x{i}</span> = 1  <span class="c1"># note {i}</span>' for i in range(40))
    (tmp_path / "code.html").write_text(_LOW_CONTRAST.replace("{tokens}", tokens))
    with browser.serve(tmp_path) as base, browser.chromium() as chrome:
        context = browser.new_context(chrome, base, {})
        page, _ = browser.open_page(context, base + "code.html", base, {})
        before = page.evaluate("() => document.querySelector('pre').innerHTML")
        found = {v["id"]: v for v in browser.axe_scan(page)}
        after = page.evaluate("() => document.querySelector('pre').innerHTML")
        context.close()
    assert "color-contrast" in found and any("c1" in t for t in found["color-contrast"]["targets"]), found
    assert "image-alt" in found, found
    assert after == before, "the code block is put back as it was after the scan"


@needs_browser
def test_a_moderate_violation_fails_the_check(tmp_path):
    """Content outside every landmark (axe's "region", moderate) fails, as the theme's sidebar title did
    before _static/olkit-a11y.js named it; a minor one is reported but does not fail."""
    (tmp_path / "region.html").write_text(
        '<!DOCTYPE html><html lang="en"><head><title>region</title></head><body>'
        '<div><a href="#">Online Learning, Numerically</a></div><main><h1>A page</h1>'
        '<table><thead><tr><th></th><th>n</th></tr></thead><tbody><tr><th>a</th><td>1</td></tr></tbody></table>'
        '</main></body></html>')
    with browser.serve(tmp_path) as base, browser.chromium() as chrome:
        context = browser.new_context(chrome, base, {})
        page, _ = browser.open_page(context, base + "region.html", base, {})
        found = browser.axe_scan(page)
        context.close()
    impacts = {v["id"]: v["impact"] for v in found}
    assert impacts.get("region") == "moderate" and impacts.get("empty-table-header") == "minor", impacts
    failing = browser.unallowed_violations(found)
    assert len(failing) == 1 and "moderate region" in failing[0], failing


def test_every_lab_page_shows_its_public_tests():
    """A lab's page ends with the public tests its check cells run (_ext/lab_pages.py), read from the
    student folder that python3 dev.py labs writes."""
    assert built.wait() is not None
    labs = sorted((ROOT / "labs" / "student").glob("*/tests"))
    assert len(labs) >= 6
    for tests in labs:
        name = tests.parent.name
        page = (HTML / "labs" / "student" / name / f"{name}.html").read_text()
        assert 'id="the-public-tests"' in page, name
        for q in sorted(tests.glob("q*.py")):
            public = re.findall(r"^def (test_\w+)\(", q.read_text(), re.M)
            assert public and all(f"test_{t.split('test_', 1)[1]}" in page for t in public), (name, q.name)
