"""The PDF of the book (``python3 dev.py pdf``), printed from the built HTML by the system Chromium.

Printed once from ``_build/html`` (which ``python3 dev.py test`` has just built) into a temporary
folder: one bookmark per page of the table of contents, nested (chapter, then its sections), one per
notebook under its title; typeset mathematics (no TeX source left), numbered theorems, the proof
tables and the figures.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tools import browser, pdf  # noqa: E402

HTML = ROOT / "_build" / "html"
NOTEBOOKS = sorted(p for p in (ROOT / "chapters").rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)

pytestmark = [
    pytest.mark.skipif(not (HTML / "intro.html").exists(), reason="the book is not built: run python3 dev.py test"),
    pytest.mark.skipif(bool(browser.missing()), reason="PDF test skipped: " + "; ".join(browser.missing())
                       + ". To run it: " + browser.INSTALL_HINT),
]


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
def book(tmp_path_factory):
    from pypdf import PdfReader

    out = tmp_path_factory.mktemp("pdf") / "book.pdf"
    result = pdf.build(HTML, out)
    reader = PdfReader(str(out))
    starts = pdf.outline_pages(out)  # title -> first page of that bookmark
    return {"path": out, "reader": reader, "starts": starts, **result}


def section_text(book, nb: Path) -> str:
    """The text of a notebook's pages (pypdf's text extraction is slow: only what a test reads)."""
    starts = sorted(set(book["starts"].values()) | {len(book["reader"].pages)})
    first = book["starts"][title(nb)]
    last = next(p for p in starts if p > first)
    text = " ".join(book["reader"].pages[i].extract_text() or "" for i in range(first, last))
    return " ".join(text.split())  # captions wrap over lines


def test_the_pdf_is_produced(book):
    assert book["path"].stat().st_size > 100_000
    assert len(book["reader"].pages) >= 3 * len(NOTEBOOKS)
    assert book["reader"].metadata.title == browser.book_config()["title"]


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


@pytest.mark.parametrize("nb", [NOTEBOOKS[1], NOTEBOOKS[-1]], ids=lambda p: p.stem)
def test_mathematics_theorems_and_proof_tables_are_printed(book, nb):
    text = section_text(book, nb)
    assert "\\(" not in text and "\\[" not in text and "$$" not in text, "TeX source left in the PDF"
    assert re.search(r"(Theorem|Lemma) \d+ \(", text), "numbered theorems"
    # the proof tables of the section's stored outputs, by the caption of a table whose steps all hold
    html = ["".join(out.get("data", {}).get("text/html", "")) for cell in json.loads(nb.read_text())["cells"]
            if cell["cell_type"] == "code" for out in cell.get("outputs", [])]
    holding = sum(h.count("every step holds on this run") for h in html if "olkit-proof" in h)
    assert holding > 0 and text.count("every step holds on this run") >= holding


def test_every_figure_is_printed(book):
    images = sum(_image_count(page) for page in book["reader"].pages)
    figures = sum(
        1 for nb in NOTEBOOKS for cell in json.loads(nb.read_text())["cells"] if cell["cell_type"] == "code"
        for out in cell.get("outputs", []) if "image/png" in out.get("data", {})
    )
    assert images >= figures, f"{images} images in the PDF, {figures} figures in the notebooks"
