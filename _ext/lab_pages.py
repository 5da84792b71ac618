"""Each lab's student notebook is a page of the book; this extension shows its public tests under it.

A student reads the lab on the web before opening it on Colab or Binder: the questions (the notebook's
markdown, typeset), the check cells, and here, at the end of the page, the public tests that those check
cells run (``labs/student/NAME/tests/q*.py``, written by ``python3 dev.py labs``), with where to get the
files.  The notebook itself is not changed: Colab and Binder open it as it is.
"""
from __future__ import annotations

import re
from pathlib import Path

from docutils import nodes

LAB_PAGE = re.compile(r"^labs/student/(?P<name>[^/]+)/(?P=name)$")


def public_tests(app, doctree: nodes.document) -> None:
    m = LAB_PAGE.match(app.env.docname)
    if m is None:
        return
    folder = Path(app.srcdir) / "labs" / "student" / m["name"] / "tests"
    tests = sorted(folder.glob("q*.py"))
    if not tests:
        return
    repo = (app.config.html_theme_options or {}).get("repository_url", "").rstrip("/")
    section = nodes.section(ids=["the-public-tests"], names=["the public tests"])
    section += nodes.title(text="The public tests")
    intro = nodes.paragraph()
    intro += nodes.Text("Each check cell of the lab (grader.check(\"q1\"), ...) runs the public test of its question, "
                        "shown below; your instructor grades with more tests of the same kind, on other runs. The "
                        "notebook downloads from the button at the top of this page")
    if repo:
        intro += nodes.Text(", and the tests from ")
        link = f"{repo}/tree/main/labs/student/{m['name']}/tests"
        intro += nodes.reference(text="the lab's folder", refuri=link)
    intro += nodes.Text(" (on Colab and Binder the notebook fetches them itself).")
    section += intro
    for path in tests:
        app.env.note_dependency(str(path))
        name = nodes.paragraph()
        name += nodes.literal(text=f"tests/{path.name}")
        section += name
        code = path.read_text(encoding="utf-8")
        block = nodes.literal_block(code, code, language="python")
        wide = nodes.container(classes=["full-width", "olkit-public-test"])  # the margin, as a wide cell's
        wide += block
        section += wide
    top = next(iter(doctree.findall(nodes.section)), doctree)
    top += section


def setup(app):
    app.connect("doctree-read", public_tests, priority=100)  # before the page's table of contents is read
    return {"parallel_read_safe": True, "parallel_write_safe": True}
