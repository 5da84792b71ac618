"""Code cells wider than the text column get the margin beside it, so that no block is cut off.

At 1280 px the theme's text column holds about 83 characters of the cells' code (7.8 px each in the
book's 13 px monospace, ``_static/olkit.css``, inside 16 px of padding), about 74 inside an exercise's
solution, the width of comfortable prose; the book's code is up to 100 characters a line, its proof
tables have five columns, and a printed table can be as wide as the code. sphinx-book-theme's
``full-width`` cells (``div.cell.tag_full-width``: 136% of the column from 992 px on) reach into the
right margin, where the theme's page contents ("Contents") fold away while such a cell is in view;
at 1280 px they hold about 115 characters (100 inside a solution).

This extension gives that class, after the outputs are selected (``doctree-resolved``), to every code
cell that needs it:

* a line of its source longer than ``COLUMN_CHARS`` (``NESTED_CHARS`` in an exercise, a solution or
  another admonition; the folded source of a ``hide-input`` cell counts: a reader who opens it must
  see it whole), or
* a line of a printed output longer than that, or
* an HTML output that holds one of olkit's tables (``table.olkit-proof``: step, claim, relation,
  instances, slack; ``table.olkit-table``).

Printed lines longer than a wide cell holds wrap at its edge (``_static/olkit.css``: output blocks
are ``white-space: pre-wrap``), so that a printed sentence (a negative control's failing step) reads
like one. Cells that fit keep the column. The browser test (``tools/browser.check_overflow``) measures
every block of every page and fails on any that is cut off, whatever this estimate says.
"""
from __future__ import annotations

from docutils import nodes

#: The characters of code a line of the text column holds at 1280 px, with a few to spare (81 fit in
#: a folded cell), and inside an exercise, a solution or another admonition (74 fit).
COLUMN_CHARS = 78
NESTED_CHARS = 70
WIDE = "tag_full-width"


def _lines(node: nodes.Node) -> list[str]:
    return node.astext().splitlines()


def nested(node: nodes.Element) -> bool:
    """True inside an admonition, an exercise or a solution (their padding narrows the column)."""
    parent = node.parent
    while parent is not None:
        names = " ".join(parent.get("classes", [])) + " " + parent.tagname if isinstance(parent, nodes.Element) else ""
        if any(word in names for word in ("admonition", "exercise", "solution", "dropdown")):
            return True
        parent = parent.parent
    return False


def needs_margin(cell: nodes.Element) -> bool:
    """True if a code cell (myst-nb's ``cell_code`` container) is wider than the text column."""
    width = NESTED_CHARS if nested(cell) else COLUMN_CHARS
    for node in cell.findall(nodes.literal_block):
        if any(len(line) > width for line in _lines(node)):
            return True
    for node in cell.findall(nodes.raw):
        if "olkit-proof" in node.astext() or "olkit-table" in node.astext():
            return True
    return False


def widen(app, doctree: nodes.document, docname: str) -> None:
    for cell in doctree.findall(nodes.container):
        if cell.get("nb_element") == "cell_code" and WIDE not in cell["classes"] and needs_margin(cell):
            cell["classes"].append(WIDE)


def setup(app):
    app.connect("doctree-resolved", widen)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
