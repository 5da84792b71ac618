"""The reading path: every notebook reads as a textbook page (tools/reading.py measures it).

- visible code lines (non-empty, in cells that are not folded or removed) are at most the prose lines;
- no visible code cell is longer than ``MAX_CELL`` non-empty lines;
- no number typed in the prose is also printed by a run: such a number is glued (``{glue:text}``).
  The scan's three exceptions (small integers, parameters that the code contains, references) are
  explained in ``tools/reading.py``.
"""
from __future__ import annotations

import pytest

from notebooks import ROOT
from tools import reading

NOTEBOOKS = reading.notebooks()


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_code_does_not_bury_the_prose(nb):
    r = reading.measure(nb)
    assert r.code <= r.prose, f"{r.notebook}: {r.code} visible code lines against {r.prose} lines of prose"
    assert r.longest <= reading.MAX_CELL, (
        f"{r.notebook}: cell {r.longest_cell} shows {r.longest} lines of code (at most {reading.MAX_CELL}); "
        "move reusable code to olkit, fold one-off helpers with the tag hide-input"
    )


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_numbers_from_runs_are_glued(nb):
    r = reading.measure(nb)
    assert not r.typed, f"{r.notebook}: the prose types numbers that a run prints (glue them): {r.typed}"


def _cells(md: str, out: str = "", code: str = "x = 1") -> list[dict]:
    return [
        {"cell_type": "markdown", "source": md, "metadata": {}},
        {"cell_type": "code", "source": code, "metadata": {}, "outputs": [{"output_type": "stream", "text": out}]},
    ]


def test_the_typed_number_scan_finds_a_typed_result():
    assert reading.typed_numbers(_cells("Halving made 37 mistakes, 0.589 of the bound.", "M = 37, ratio 0.589")) == [
        "37",
        "0.589",
    ]
    assert reading.typed_numbers(_cells("a share of 3/8", "3/8")) == ["3/8"]


def test_the_typed_number_scan_exceptions():
    # 1. small integers; 2. parameters in the code; 3. references, roles, years and labels
    assert reading.typed_numbers(_cells("M = 7 here", "M = 7")) == []
    assert reading.typed_numbers(_cells("with T = 1000 rounds", "T = 1000", code="T = 1000")) == []
    md = "Theorem 21.11 of {cite}`uml2014` (2014), step 12, {prf:ref}`thm-37`, Section 7.13 and Lemmas 21.13"
    assert reading.typed_numbers(_cells(md, "21.11 12 37 2014 7.13 21.13")) == []
    # a glued number is not typed
    assert reading.typed_numbers(_cells("made {glue:text}`M37` mistakes", "37")) == []


def test_the_reading_table_is_written(tmp_path):
    out = tmp_path / "reading.md"
    assert reading.main([str(out)]) == 0
    text = out.read_text()
    assert all(p.name in text for p in NOTEBOOKS)
    assert (ROOT / "benchmarks" / "reading.md").exists(), "commit the table: python3 dev.py reading"


@pytest.mark.parametrize("path", reading.markdown_sources(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_control_character_in_markdown(path):
    """A TeX macro typed without a raw string ("\\rangle", "\\theta") turns into a control character."""
    assert reading.control_characters_in(path) == []


def test_the_control_character_scan_finds_a_lost_backslash(tmp_path):
    nb = {"cells": [{"cell_type": "markdown", "metadata": {}, "source": ["If $y \\langle w, x \r", "angle \\le 0$"]},
                    {"cell_type": "code", "metadata": {}, "source": ["s = 'a\\tb'"], "outputs": []},
                    {"cell_type": "markdown", "metadata": {}, "source": ["$w_i = \\max(z_i - \theta, 0)$"]}],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (tmp_path / "lab.ipynb").write_text(__import__("json").dumps(nb))
    (tmp_path / "page.md").write_text("the rate $\beta$\n")
    hits = reading.control_characters_in(tmp_path / "lab.ipynb")
    assert len(hits) == 2 and hits[0].startswith("cell 0, line 1: '\\r'") and hits[1].startswith("cell 2, line 1: '\\t'")
    assert reading.control_characters_in(tmp_path / "page.md")[0].startswith("line 1: '\\x08'")
    sources = {p.relative_to(ROOT).as_posix() for p in reading.markdown_sources()}
    assert {"README.md", "labs.md", "labs/lab4_perceptron_winnow.ipynb", "chapters/ch1/index.md"} <= sources
    assert any(s.startswith("labs/student/") for s in sources) and not any(s.startswith(".venv") for s in sources)
