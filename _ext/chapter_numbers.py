"""Number theorems, lemmas, definitions, algorithms, exercises and figures within their chapter.

sphinx-proof and sphinx-exercise number their blocks with Sphinx's ``numfig`` machinery, which counts
across the whole book when the toctree is not numbered (the book's titles carry their own numbers,
"3.2 Exponential weights ..."), so Section 6.2 showed "Theorem 31". A reader expects "Theorem 6.3".

Sphinx assigns the numbers in ``env-get-updated`` (the toctree collector walks the toctree in reading
order and stores ``env.toc_fignumbers[docname][figtype][id] = (n,)``); every writer and every
cross-reference role (``{prf:ref}``, ``{ref}`` to an exercise, ``{numref}``) reads them from there. This
extension runs right after the collector and renumbers each kind of block within each chapter, in the
same order: the k-th theorem of chapter c (the documents under ``chapters/ch<c>/``) becomes (c, k),
printed "Theorem c.k"; an appendix is a chapter with a letter (``chapters/chA/``: "Theorem A.1"). Blocks outside the chapters keep their numbers. :func:`chapter_numbering` is the
pure part, tested in ``tests/test_numbers.py``.
"""
from __future__ import annotations

import re

#: A chapter's documents: chapters/ch<c>/ with c a number, or a capital letter for an appendix
#: (chapters/chA/: "Theorem A.1").
CHAPTER = re.compile(r"^chapters/ch(\d+|[A-Z])/")


def chapter_of(docname: str) -> int | str | None:
    """The chapter of a document: its number, or an appendix's letter; None outside the chapters."""
    m = CHAPTER.match(docname)
    if not m:
        return None
    return int(m.group(1)) if m.group(1).isdigit() else m.group(1)


def chapter_numbering(toc_fignumbers: dict) -> dict:
    """A copy of ``toc_fignumbers`` ({docname: {figtype: {id: number tuple}}}, numbers increasing in
    reading order) in which every number of a document in chapter c is (c, k): k counts that kind of
    block in chapter c, in the order of the old numbers."""
    out = {doc: {typ: dict(ids) for typ, ids in types.items()} for doc, types in toc_fignumbers.items()}
    groups: dict[tuple[int | str, str], list[tuple[tuple, str, str]]] = {}
    for doc, types in toc_fignumbers.items():
        chapter = chapter_of(doc)
        if chapter is None:
            continue
        for typ, ids in types.items():
            for node_id, number in ids.items():
                groups.setdefault((chapter, typ), []).append((tuple(number), doc, node_id))
    for (chapter, typ), items in groups.items():
        numbers = [n for n, _, _ in items]
        if len(set(numbers)) != len(numbers):
            raise ValueError(f"chapter {chapter}: two {typ} blocks share a number: {sorted(numbers)}")
        for k, (_, doc, node_id) in enumerate(sorted(items), start=1):
            out[doc][typ][node_id] = (chapter, k)
    return out


def renumber(app, env) -> list[str]:
    """``env-get-updated`` handler (after the toctree collector): number within chapters."""
    new = chapter_numbering(env.toc_fignumbers)
    changed = [doc for doc in new if new[doc] != env.toc_fignumbers.get(doc)]
    env.toc_fignumbers = new
    return changed


def setup(app):
    # priority 900: after Sphinx's toctree collector (500), which assigns the book-wide numbers
    app.connect("env-get-updated", renumber, priority=900)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
