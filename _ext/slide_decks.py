"""The instructor page's list of slide decks, made from ``_toc.yml`` when the book is built.

``instructor.md`` holds a ``{slide-decks}`` directive. It becomes one line per chapter of the table of
contents ("Chapter 3, Prediction with expert advice: 3.1 · 3.2 · 3.3", the appendix as "Appendix A"),
each number a link to the deck ``slides/<notebook>.html`` that ``python3 dev.py slides`` writes for that
section (every book build copies the decks into the book). A new section listed in ``_toc.yml`` is on
the list without any other edit; ``tests/test_slides.py`` checks that every notebook's deck is linked.
"""
from __future__ import annotations

import re
from pathlib import Path

import yaml
from docutils import nodes
from sphinx.util.docutils import SphinxDirective


def chapters(root: Path) -> list[tuple[str, str, list[str]]]:
    """(label, title, [notebook stems]) for each chapter of ``_toc.yml`` that has notebook sections."""
    toc = yaml.safe_load((root / "_toc.yml").read_text(encoding="utf-8"))
    out = []
    for part in toc.get("parts", []):
        for ch in part.get("chapters", []):
            m = re.fullmatch(r"chapters/ch(\w+)/index", ch["file"])
            stems = [Path(s["file"]).name for s in ch.get("sections", [])
                     if (root / (s["file"] + ".ipynb")).exists()]
            if not m or not stems:
                continue
            key = m.group(1)
            first = (root / (ch["file"] + ".md")).read_text(encoding="utf-8").splitlines()[0]
            title = re.sub(r"^#\s*\w+\.\s*", "", first).strip()  # "# 3. Prediction with expert advice"
            label = f"Chapter {key}" if key.isdigit() else f"Appendix {key}"
            out.append((label, title, stems))
    return out


def _number(stem: str) -> str:
    a, b = stem.split("_")[:2]
    return f"{a}.{b}"


class SlideDecks(SphinxDirective):
    has_content = False

    def run(self):
        root = Path(self.env.srcdir)
        self.env.note_dependency(str(root / "_toc.yml"))
        items = nodes.bullet_list()
        for label, title, stems in chapters(root):
            links = " · ".join(f'<a href="slides/{s}.html">{_number(s)}</a>' for s in stems)
            para = nodes.paragraph()
            para += nodes.Text(f"{label}, {title}: ")
            para += nodes.raw("", links, format="html")
            items += nodes.list_item("", para)
        return [items]


def setup(app):
    app.add_directive("slide-decks", SlideDecks)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
