"""Theorems, lemmas, definitions, algorithms and exercises are numbered within their chapter.

``_ext/chapter_numbers.py`` renumbers Sphinx's book-wide numbers; these tests check its pure part on a
made-up book and the built HTML: every numbered block of a chapter page reads "Kind c.k" with c its
chapter and k = 1, 2, ... in reading order for each kind, and every cross-reference shows the number
of the block it points to.  A copy of a page with one wrong number shows that the check can fail.
The student edition and the PDF are checked in tests/test_student.py and tests/test_browser.py.
"""
from __future__ import annotations

import html
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "_ext"))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

import built  # noqa: E402
import chapter_numbers  # noqa: E402

KINDS = "Theorem|Lemma|Definition|Algorithm|Corollary|Proposition|Exercise|Figure|Table"
CAPTION = re.compile(r'<(?:div|figure|table)[^>]*\bid="([^"]+)"[^>]*>\s*(?:<p class="admonition-title">)?\s*'
                     r'(?:<figcaption>\s*<p>\s*)?<span class="caption-number">(' + KINDS + r') ([A-Z]?[\d.]+) </span>')
REFERENCE = re.compile(r'<a class="reference internal" href="([^"#]*)#([^"]+)"[^>]*>\s*(?:<span[^>]*>)?\s*'
                       r'(' + KINDS + r') ([A-Z]?[\d.]+)\s*<')


def reading_order(root: Path = ROOT) -> list[str]:
    """The chapter pages (docnames) in the order of _toc.yml."""
    from tools.slides import toc_docs

    return [d for d in toc_docs(root) if chapter_numbers.chapter_of(d) is not None]


def numbering_problems(html_dir: Path, pages: dict[str, str] | None = None) -> tuple[list[str], dict]:
    """Problems with the chapter numbers of the built book in ``html_dir`` (``pages`` may replace some
    pages' HTML by docname); and the numbers found, {(page, id): (kind, number)}."""
    problems, numbers, count = [], {}, {}
    texts = {}
    for doc in reading_order():
        text = (pages or {}).get(doc) or (html_dir / f"{doc}.html").read_text(encoding="utf-8")
        texts[doc] = text
        chapter = chapter_numbers.chapter_of(doc)
        for node_id, kind, number in CAPTION.findall(text):
            numbers[(doc, node_id)] = (kind, number)
            key = (chapter, kind)
            count[key] = count.get(key, 0) + 1
            if number != f"{chapter}.{count[key]}":
                problems.append(f"{doc}#{node_id}: {kind} {number}, expected {kind} {chapter}.{count[key]} "
                                f"(the {count[key]}. {kind.lower()} of chapter {chapter})")
    for doc, text in texts.items():
        for href, node_id, kind, number in REFERENCE.findall(text):
            target = doc if not href else str((Path(doc).parent / href).as_posix()).removesuffix(".html")
            target = "/".join(p for p in target.split("/") if p != ".")
            while "/../" in f"/{target}":
                target = re.sub(r"[^/]+/\.\./", "", target, count=1)
            found = numbers.get((target, html.unescape(node_id)))
            if found is None:
                problems.append(f"{doc}: a reference to {target}#{node_id} ({kind} {number}) finds no block")
            elif found != (kind, number):
                problems.append(f"{doc}: a reference to {target}#{node_id} reads {kind} {number}, "
                                f"the block is {' '.join(found)}")
    return problems, numbers


def test_pure_renumbering_counts_each_kind_within_its_chapter():
    book = {
        "intro": {"figure": {"f0": (1,)}},
        "chapters/ch1/index": {"theorem": {"a": (1,)}},
        "chapters/ch1/1_1_x": {"theorem": {"b": (2,), "c": (3,)}, "lemma": {"l": (1,)}},
        "chapters/ch2/2_1_y": {"theorem": {"d": (5,), "e": (4,)}, "exercise": {"x": (7,)}},
    }
    new = chapter_numbers.chapter_numbering(book)
    assert new["intro"] == {"figure": {"f0": (1,)}}, "pages outside the chapters keep their numbers"
    assert new["chapters/ch1/index"]["theorem"] == {"a": (1, 1)}
    assert new["chapters/ch1/1_1_x"] == {"theorem": {"b": (1, 2), "c": (1, 3)}, "lemma": {"l": (1, 1)}}
    assert new["chapters/ch2/2_1_y"] == {"theorem": {"e": (2, 1), "d": (2, 2)}, "exercise": {"x": (2, 1)}}
    assert book["chapters/ch2/2_1_y"]["theorem"] == {"d": (5,), "e": (4,)}, "the input is not changed"
    with pytest.raises(ValueError, match="chapter 2: two theorem blocks share a number"):
        chapter_numbers.chapter_numbering({"chapters/ch2/a": {"theorem": {"p": (3,)}},
                                           "chapters/ch2/b": {"theorem": {"q": (3,)}}})


needs_build = pytest.mark.skipif(not built.available(), reason="the book is not built: python3 dev.py book")


@needs_build
def test_every_block_and_reference_reads_chapter_dot_k():
    html_dir = built.wait()
    problems, numbers = numbering_problems(html_dir)
    assert problems == []
    kinds = {kind for kind, _ in numbers.values()}
    assert {"Theorem", "Lemma", "Definition", "Algorithm", "Exercise"} <= kinds, kinds
    chapters = {num.split(".")[0] for _, num in numbers.values()}
    # every chapter of the table of contents, the appendices' letters too (chapters/chA/: "Theorem A.1")
    assert chapters == {str(chapter_numbers.chapter_of(d)) for d in reading_order()} >= {*"123456", "A"}, chapters
    # the number that issue 19 named: Section 6.2's theorem is the third of chapter 6
    assert ("Theorem", "6.3") in numbers.values()
    refs = sum(len(REFERENCE.findall((html_dir / f"{d}.html").read_text())) for d in reading_order())
    assert refs >= 100, f"only {refs} cross-references found: the pattern no longer matches the HTML"


@needs_build
def test_the_check_catches_a_book_wide_number_and_a_stale_reference():
    html_dir = built.wait()
    doc = "chapters/ch6/6_2_high_probability"
    text = (html_dir / f"{doc}.html").read_text()
    wrong = text.replace('<span class="caption-number">Theorem 6.3 </span>',
                         '<span class="caption-number">Theorem 31 </span>', 1)
    assert wrong != text
    problems, _ = numbering_problems(html_dir, {doc: wrong})
    assert any("Theorem 31, expected Theorem 6.3" in p for p in problems), problems
    ref = REFERENCE.search(text)
    assert ref is not None
    stale = text[: ref.start(4)] + "9.9" + text[ref.end(4):]
    problems, _ = numbering_problems(html_dir, {doc: stale})
    assert any("reads " + ref.group(3) + " 9.9" in p for p in problems), problems


@needs_build
def test_the_labs_cite_the_numbers_and_pages_of_the_built_book():
    """olkit.labs.refs, which the labs' feedback cites ("Theorem 1.3, step 0'" and its address), says what
    the built book says: each label is on its page under its caption."""
    from olkit.labs import refs

    _, numbers = numbering_problems(built.wait())
    where = {node_id: (doc, f"{kind} {number}") for (doc, node_id), (kind, number) in numbers.items()}
    assert len(refs.RESULTS) >= 10
    for label, (caption, page, _) in refs.RESULTS.items():
        assert label in where, f"{label}: no such block in the built book"
        assert where[label] == (page, caption), f"{label}: the book has {where[label]}, olkit.labs.refs {(page, caption)}"
    import yaml

    repo = yaml.safe_load((ROOT / "_config.yml").read_text())["repository"]["url"].rstrip("/")
    owner, name = repo.removeprefix("https://github.com/").split("/")
    assert refs.BOOK_URL == f"https://{owner}.github.io/{name}/", "the published book is the repository's Pages site"
