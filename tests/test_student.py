"""The student edition (``python3 dev.py student``): no solution leaks, and every student notebook runs.

The edition is built once (HTML book + notebooks, in a temporary folder).  The leak check collects
every solution of the full notebooks -- its prose cut into runs of plain words, its code line by line --
keeps the probes that are distinctive (not also in the notebook's kept text), shows that they are
found in the full book's HTML (so the check can see them), and asserts that none of them is in the
student HTML or the student notebooks.  Then each student notebook is shown to run top to bottom:
one whose code is a prefix of its full notebook's runs whenever the full one does (nbval executes
that), any other is executed.
"""
from __future__ import annotations

import ast
import html
import re
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import built  # noqa: E402
from notebooks import run_broken  # noqa: E402
from tools import student  # noqa: E402

NOTEBOOKS = student.notebooks()
FULL_HTML = built.HTML
MARKUP = re.compile(r"[$`{}\[\]()*\\|]")


def words(text: str) -> str:
    """Only letters and digits, single-spaced: robust to markup, smart quotes and syntax colouring."""
    return " ".join(re.sub(r"[^0-9A-Za-z]+", " ", text).split())


def _kept_text() -> str:
    """Everything the student edition may show: the notebooks without solutions and the pages."""
    parts = [c.source for p in NOTEBOOKS for c in student.strip_solutions(nbformat.read(p, as_version=4)).nb.cells]
    parts += [p.read_text() for p in ROOT.glob("*.md")] + [p.read_text() for p in (ROOT / "chapters").rglob("*.md")]
    return words(" ".join(parts))


KEPT = _kept_text()


def probes(nb) -> list[str]:
    """Distinctive pieces of the notebook's solutions (prose runs of 6+ words, code lines of 4+
    words) that appear nowhere else in the book."""
    stripped = student.strip_solutions(nb)
    kept = KEPT
    found = []
    for sol in stripped.solutions:
        for line in sol["markdown"]:
            if line.lstrip().startswith(":"):  # directive options
                continue
            for piece in MARKUP.split(line):
                w = words(piece)
                if len(w.split()) >= 6 and w not in kept:
                    found.append(w)
        for source in sol["code"]:
            for line in source.split("\n"):
                w = words(line)
                if len(w.split()) >= 4 and len(w) >= 20 and w not in kept:
                    found.append(w)
    return found


def html_words(folder: Path) -> str:
    text = []
    for page in sorted(folder.rglob("*.html")):
        if "_static" in page.parts:
            continue
        raw = re.sub(r"<(script|style)\b.*?</\1>", " ", page.read_text(encoding="utf-8"), flags=re.S)
        text.append(html.unescape(re.sub(r"<[^>]+>", "", raw)))
    return words(" ".join(text))


@pytest.fixture(scope="module")
def edition(tmp_path_factory):
    out = tmp_path_factory.mktemp("student")
    return student.build(out)


def test_every_notebook_has_solutions_to_strip():
    for path in NOTEBOOKS:
        nb = nbformat.read(path, as_version=4)
        assert student.strip_solutions(nb).solutions, f"{path.name}: no solution found"
        assert probes(nb), f"{path.name}: no distinctive solution text to look for"


def test_no_solution_text_or_code_in_the_student_html_or_notebooks(edition):
    html_dir = edition["html"].parent
    student_html = html_words(html_dir)
    full_html = html_words(FULL_HTML) if built.wait() is not None else None
    for path in NOTEBOOKS:
        nb = nbformat.read(path, as_version=4)
        rel = path.relative_to(ROOT / "chapters")
        copy = nbformat.read(edition["html"].parents[1] / "notebooks" / rel, as_version=4)
        copy_words = words(" ".join(c.source for c in copy.cells))
        for probe in probes(nb):
            if full_html is not None:
                assert probe in full_html, f"the check cannot see {probe!r} even in the full book"
            assert probe not in student_html, f"{rel}: solution text in the student HTML: {probe!r}"
            assert probe not in copy_words, f"{rel}: solution text in the student notebook: {probe!r}"


def test_student_html_has_every_exercise_and_no_solution_or_instructor_page(edition):
    html_dir = edition["html"].parent
    for path in NOTEBOOKS:
        page = (html_dir / path.relative_to(ROOT)).with_suffix(".html").read_text()
        assert 'class="exercise admonition"' in page
        chapter = path.parent.name.removeprefix("ch")  # numbered within the chapter, as in the book
        assert re.search(rf'caption-number">Exercise {chapter}\.\d+ <', page), f"{path.name}: Exercise c.k"
        assert 'class="solution' not in page
        assert "google.colab" not in page
    assert not (html_dir / "instructor.html").exists()


def test_student_notebooks_keep_exercises_and_clear_outputs(edition):
    for dest in edition["notebooks"]:
        nb = nbformat.read(dest, as_version=4)
        nbformat.validate(nb)
        text = "\n".join(c.source for c in nb.cells)
        assert "{exercise}" in text and "solution-start" not in text and "solution-end" not in text
        assert all(not c.outputs for c in nb.cells if c.cell_type == "code")


def _code_cells(nb) -> list:
    return [c for c in nb.cells if c.cell_type == "code"]


def _is_comment_only(source: str) -> bool:
    """A cell that executes nothing (the empty answer cells: '# Your answer to exercise ...')."""
    try:
        return not ast.parse(source).body
    except SyntaxError:
        return False


def why_not_a_prefix(student_nb, full_nb) -> str | None:
    """None if the student notebook executes exactly the first k code cells of the full notebook, in
    order (with the same tags, none of them skipped by nbval), besides cells that execute nothing;
    otherwise the reason it does not."""
    kept = [c for c in _code_cells(student_nb) if not _is_comment_only(c.source)]
    full = _code_cells(full_nb)
    if len(kept) > len(full):
        return f"{len(kept)} code cells to run, the full notebook has {len(full)}"
    for i, (s, f) in enumerate(zip(kept, full)):
        if s.source != f.source:
            return f"code cell {i + 1} is not the full notebook's code cell {i + 1}"
        tags = set(f.metadata.get("tags", []))
        if tags != set(s.metadata.get("tags", [])):
            return f"code cell {i + 1} has other tags than in the full notebook"
        if tags & {"nbval-skip", "skip-execution", "raises-exception"}:
            return f"code cell {i + 1} is tagged {sorted(tags)}: nbval does not prove that it runs"
    return None


def student_notebooks_that_fail(pairs: list[tuple[Path, Path]]) -> tuple[list[tuple[str, str]], list[str]]:
    """For (student notebook, full notebook) pairs: the failures of the student notebooks, and the
    names of those that had to be executed.

    A student notebook whose code is a prefix of its full notebook's (``why_not_a_prefix``) runs top
    to bottom whenever the full notebook does: its cells are the same code, in the same order, from a
    fresh kernel, and the notebooks draw their randomness from seeded generators.  nbval executes
    every full notebook in the same ``dev.py test``, so such a student notebook is not run a second
    time.  Any other student notebook is executed (a fresh interpreter forked from a preloaded one:
    ``notebooks.run_broken`` with no patch) and its exception, if any, is reported."""
    failures, executed = [], []
    for dest, full in pairs:
        student_nb = nbformat.read(dest, as_version=4)
        if why_not_a_prefix(student_nb, nbformat.read(full, as_version=4)) is None:
            continue
        executed.append(dest.name)
        ename, evalue = run_broken(dest, "", skip_animations=False)
        if ename is not None:
            failures.append((dest.name, f"{ename}: {evalue}"))
    return failures, executed


def test_every_student_notebook_runs_top_to_bottom(edition):
    nb_dir = edition["html"].parents[1] / "notebooks"
    pairs = [(dest, ROOT / "chapters" / dest.relative_to(nb_dir)) for dest in edition["notebooks"]]
    assert len(pairs) == len(NOTEBOOKS) and all(full.exists() for _, full in pairs)
    failures, executed = student_notebooks_that_fail(pairs)
    assert failures == []


def test_a_student_notebook_that_is_not_a_prefix_is_executed_and_its_failure_reported(tmp_path):
    """The shortcut above has teeth: a solution in the middle of a notebook whose later code needs it
    makes the student notebook fail, and the check executes it and says so; the same notebook with its
    solution at the end is a prefix and needs no run."""
    middle = _nb(
        ("code", "import numpy as np\nrng = np.random.default_rng(0)"),
        ("md", "```{exercise}\n:label: ex-a\n\nDo A.\n```\n\n```{solution-start} ex-a\n```"),
        ("code", "answer = rng.integers(10)"),
        ("md", "```{solution-end}\n```"),
        ("code", "print(answer + 1)"),
    )
    at_end = _nb(*[("code", "import numpy as np\nrng = np.random.default_rng(0)"), ("code", "print(rng.integers(10))"),
                   ("md", "```{exercise}\n:label: ex-a\n\nDo A.\n```\n\n```{solution-start} ex-a\n```"),
                   ("code", "answer = rng.integers(10)"), ("md", "```{solution-end}\n```")])
    pairs = []
    for name, nb in (("middle", middle), ("at_end", at_end)):
        full, dest = tmp_path / f"{name}.ipynb", tmp_path / "student" / f"{name}.ipynb"
        dest.parent.mkdir(exist_ok=True)
        nbformat.write(nb, full)
        nbformat.write(student.strip_solutions(nb, clear_outputs=True, answer_cells=True).nb, dest)
        pairs.append((dest, full))
    assert why_not_a_prefix(nbformat.read(pairs[1][0], as_version=4), at_end) is None
    assert "code cell 2" in why_not_a_prefix(nbformat.read(pairs[0][0], as_version=4), middle)
    failures, executed = student_notebooks_that_fail(pairs)
    assert executed == ["middle.ipynb"]
    assert failures == [("middle.ipynb", "NameError: name 'answer' is not defined "
                                         "[in the cell that begins 'print(answer + 1)']")]


def test_no_later_cell_needs_a_name_from_a_solution():
    for path in NOTEBOOKS:
        assert student.names_from_solutions(nbformat.read(path, as_version=4)) == [], path.name


# ----------------------------------------------------------------------------------------------
# The stripping itself, on a small notebook written like the chapters.

def _nb(*cells):
    nb = nbformat.v4.new_notebook()
    for kind, src in cells:
        nb.cells.append(nbformat.v4.new_markdown_cell(src) if kind == "md" else nbformat.v4.new_code_cell(src))
    return nb


def test_strip_keeps_the_text_around_the_fences():
    nb = _nb(
        ("md", "## Exercises\n\n```{exercise}\n:label: ex-a\n\nDo A.\n```\n\n"
               "```{solution-start} ex-a\n:class: dropdown\n```\n\nSecret prose of A."),
        ("code", "secret_a = 1"),
        ("md", "```{solution-end}\n```\n\n```{exercise}\n:label: ex-b\n\nDo B.\n```\n\n"
               "````{solution} ex-b\n:class: dropdown\n\nSecret B.\n```python\nx = 1\n```\n````\n\nAfter B."),
        ("code", "print('kept')"),
    )
    out = student.strip_solutions(nb, answer_cells=True)
    sources = [c.source for c in out.nb.cells]
    text = "\n".join(sources)
    assert "Do A." in text and "Do B." in text and "After B." in text and "print('kept')" in text
    assert "Secret" not in text and "secret_a" not in text and "solution" not in text
    assert [s["label"] for s in out.solutions] == ["ex-a", "ex-b"]
    assert out.solutions[0]["code"] == ["secret_a = 1"]
    # exercise A, answer cell, exercise B, answer cell, the text after B, the kept code
    assert [c.cell_type for c in out.nb.cells] == ["markdown", "code", "markdown", "code", "markdown", "code"]
    assert len({c.id for c in out.nb.cells}) == len(out.nb.cells)
    assert len(nb.cells) == 4, "the input notebook is not changed"


def test_strip_refuses_an_unclosed_solution():
    nb = _nb(("md", "```{solution-start} ex-a\n```\n\nno end"))
    with pytest.raises(ValueError, match="no solution-end"):
        student.strip_solutions(nb)


def test_names_from_solutions_finds_a_name_used_later():
    nb = _nb(
        ("code", "import numpy as np"),
        ("md", "```{solution-start} ex-a\n```"),
        ("code", "table = np.arange(3)\nshared = 1"),
        ("md", "```{solution-end}\n```"),
        ("code", "shared = 2\nprint(table, shared, np)"),
    )
    assert student.names_from_solutions(nb) == [("table", "ex-a")]
