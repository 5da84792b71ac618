"""The lecture slides (tools/slides.py): a reveal.js deck per section, generated from its notebook.

Without a browser: the decks are written for every section; each has a slide for every definition,
theorem, lemma, corollary and algorithm of its notebook, with the number that the built book gives it,
each exercise's statement and none of its solution; the tags ``slides-skip`` and ``slides-only`` work;
a notebook the decks cannot be made from is refused with its reason.  In Chromium (the decks inside the
built book, ``_build/html/slides``): every deck starts, MathJax typesets every formula without an error,
there is no console error, failed request, unloaded image or slide taller than the deck; one deck prints
to PDF with one page per slide; and a broken deck (a removed theorem slide, an undefined macro) fails
the same checks.
"""
from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import built  # noqa: E402
from test_numbers import numbering_problems  # noqa: E402
from tools import browser, slides  # noqa: E402

NOTEBOOKS = slides.section_notebooks()
LACKING = browser.missing()
needs_browser = pytest.mark.skipif(bool(LACKING), reason="browser test skipped: " + "; ".join(LACKING))
needs_build = pytest.mark.skipif(not built.available(), reason="the book is not built: python3 dev.py book")


@pytest.fixture(scope="module")
def decks(tmp_path_factory):
    out = tmp_path_factory.mktemp("slides")
    return {p.stem: p.read_text() for p in slides.build(out)}


def _exercise_labels(nb: Path) -> list[str]:
    text = "\n".join("".join(c["source"]) for c in json.loads(nb.read_text())["cells"])
    return re.findall(r"```\{exercise\}[^\n]*\n:label: *([\w.-]+)", text)


def _exercises(nb: Path) -> list[tuple[str, str]]:
    """(label, first solution sentence) of each exercise of a notebook."""
    text = "\n".join("".join(c["source"]) for c in json.loads(nb.read_text())["cells"])
    labels = _exercise_labels(nb)
    sols = re.findall(r"```\{solution-start\}[^\n]*\n(?::[^\n]*\n)*```\s*\n+([^\n]{40,}?)[.\n]", text)
    return list(zip(labels, sols))


def test_one_deck_per_section_with_every_block_and_exercise_and_no_solution(decks):
    assert sorted(decks) == sorted(nb.stem for nb in NOTEBOOKS)
    for nb in NOTEBOOKS:
        page = decks[nb.stem]
        labels = re.findall(r'data-kind="block" data-label="([^"]+)"', page)
        assert labels == browser.deck_expectations(nb), nb.name
        exercises = _exercises(nb)
        assert exercises, nb.name
        shown = re.findall(r'data-kind="exercise" data-label="([^"]+)"', page)
        assert shown == [label for label, _ in exercises], nb.name
        for label, solution in exercises:
            words = re.sub(r"[$`*{}]", "", solution)[:60]
            assert words not in re.sub(r"<[^>]+>", "", page), f"{nb.name}: solution of {label} in the deck"
        assert page.count('<li class="fragment">') >= 3, f"{nb.name}: proofs step by step"
        assert '<img class="figure" src="data:' not in page and 'class="figure"' in page, nb.name
        assert "{glue:text}" not in page and "{prf:ref}" not in page and "{cite}" not in page, nb.name


@needs_build
def test_decks_number_every_block_as_the_book_does(decks):
    problems, numbers = numbering_problems(built.wait())
    assert problems == []
    book = {node_id: f"{kind} {num}" for (_, node_id), (kind, num) in numbers.items()}
    seen = 0
    for stem, page in decks.items():
        for label, caption in re.findall(r'data-label="([^"]+)">\s*<h2>.*?</h2>\s*<div class="block [a-z]+">'
                                         r'<p class="caption">([A-Z][a-z]+ [A-Z]?[\d.]+)', page, re.S):
            assert caption == book[label], f"{stem}: {label} is {caption} in the deck, {book[label]} in the book"
            seen += 1
    # every numbered block and exercise of the book, counted from the notebooks' sources (not by the
    # decks' parser): the sections' labelled blocks and their exercises
    labelled = {label for nb in NOTEBOOKS for label in browser.deck_expectations(nb) if not label.startswith("(")}
    labelled |= {label for nb in NOTEBOOKS for label in _exercise_labels(nb)}
    assert seen == len(book) == len(labelled) > 0


def _nb(tmp_path: Path, cells: list[dict]) -> Path:
    path = tmp_path / "9_9_made_up.ipynb"
    path.write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    return path


def _md(text: str, tags=()) -> dict:
    return {"cell_type": "markdown", "source": text, "metadata": {"tags": list(tags)}}


SHARED = {"numbers_": {"thm-a": ("Theorem", "9.1"), "thm-b": ("Theorem", "9.2")}, "titles_": {}, "cites": {}}
THEOREM = "```{prf:theorem} A\n:label: thm-a\n\n$x \\le 1$.\n```\n"
PROOF = "```{prf:proof}\n" + "".join(f"{k}. Step {k}: $a_{k} \\le b$.\n" for k in range(1, 8)) + "```\n"


def test_tags_skip_and_add_slides_and_long_proofs_are_cut(tmp_path):
    cells = [_md("# 9.9 Made up\n\nWhat it proves."), _md("## First\n\n" + THEOREM + "\n" + PROOF),
             _md("```{prf:theorem} B\n:label: thm-b\n\nskipped\n```", tags=["slides-skip"]),
             _md("## A question\n\nWhat is $x$?\n\n---\n\n## Answer\n\nOne.", tags=["slides-only", "remove-cell"]),
             _md("Removed from book and deck.", tags=["remove-cell"])]
    deck = slides.deck(_nb(tmp_path, cells), **SHARED)
    kinds = [s.kind for s in deck]
    assert kinds == ["title", "block", "proof", "proof", "extra", "extra"], kinds
    assert "Theorem 9.1 (A)" in deck[1].body and "thm-b" not in "".join(s.html() for s in deck)
    steps = [s.body.count('<li class="fragment">') for s in deck if s.kind == "proof"]
    assert steps == [5, 2] and '<ol start="6">' in deck[3].body
    assert [s.title for s in deck[4:]] == ["A question", "Answer"]
    assert "Removed from book" not in "".join(s.html() for s in deck)


@pytest.mark.parametrize("cells, message", [
    ([_md("# T\n\n"), _md("Only here.", tags=["slides-only"])], "needs the tag remove-cell"),
    ([_md("# T\n\n```{prf:theorem} A\n:label: thm-a\nno end")], "is not closed"),
    ([_md("# T\n\nThe value is {glue:text}`nowhere`.")], "has no glued value"),
    ([_md("# T\n\nAs {prf:ref}`thm-z` says.")], "names no numbered block"),
    ([_md("No title.")], "does not start with a '# title'"),
], ids=["slides-only-in-book", "unclosed", "glue", "ref", "title"])
def test_a_notebook_the_decks_cannot_be_made_from_is_refused(tmp_path, cells, message):
    with pytest.raises(slides.SlidesError, match=message):
        slides.deck(_nb(tmp_path, cells), **SHARED)


# --------------------------------------------------------------------------------------------
# In Chromium.


@pytest.fixture(scope="module")
def deck_reports():
    html = built.wait()
    assert html is not None and (html / "slides" / "index.html").is_file(), "the build copies the decks"
    return browser.check_decks(html, screenshots=ROOT / "_build" / "screenshots")


@needs_build
@needs_browser
@pytest.mark.parametrize("kind", ["deck", "math", "console"])
def test_every_deck_opens_with_its_slides_math_and_no_error(deck_reports, kind):
    assert len(deck_reports) == len(NOTEBOOKS)
    assert browser.problems_by_kind(deck_reports).get(kind, []) == []


@needs_build
@needs_browser
def test_the_instructor_page_links_every_deck():
    page = (built.wait() / "instructor.html").read_text()
    linked = re.findall(r'href="slides/([\w]+)\.html"', page)
    assert sorted(linked) == sorted(nb.stem for nb in NOTEBOOKS)


@needs_build
@needs_browser
def test_a_deck_prints_one_page_per_slide(tmp_path):
    from pypdf import PdfReader

    deck = built.wait() / "slides" / "6_3_leave_one_out.html"
    (out,) = slides.print_pdf([deck], tmp_path)
    pages = len(PdfReader(str(out)).pages)
    assert pages == deck.read_text().count("<section ") >= 10


@needs_build
@needs_browser
def test_the_deck_checks_catch_a_missing_theorem_and_a_broken_formula(tmp_path):
    html = tmp_path / "html"
    shutil.copytree(built.wait() / "slides", html / "slides")
    target = html / "slides" / "3_2_exponential_weights.html"
    page = target.read_text()
    page = re.sub(r'<section data-kind="block" data-label="experts-thm-uml">.*?</section>', "", page, count=1,
                  flags=re.S)
    page = page.replace('<span class="math">\\(\\Phi', '<span class="math">\\(\\Phiz', 1)
    assert page.count("\\Phiz") == 1 and "experts-thm-uml\"" not in page
    target.write_text(page)
    root = tmp_path / "src"  # the same sources, but only this deck's notebook in the table of contents
    shutil.copytree(ROOT / "chapters" / "ch3", root / "chapters" / "ch3")
    (root / "_toc.yml").write_text("format: jb-book\nroot: intro\nparts:\n  - chapters:\n"
                                   "      - file: chapters/ch3/3_2_exponential_weights\n")
    reports = browser.check_decks(html, source_root=root)
    problems = browser.problems_by_kind(reports)
    assert any("no slide for experts-thm-uml" in p for p in problems["deck"]), problems
    assert any("Phiz" in p for p in problems["math"]), problems
