"""olkit.glue records a run's number for the prose, as myst-nb's glue does, without myst-nb."""
from __future__ import annotations

from fractions import Fraction

import nbclient
import nbformat
import pytest

from olkit.prose import GLUE_PREFIX, glue, glue_text


def test_glue_text():
    assert glue_text(37) == "37"
    assert glue_text(Fraction(3, 8)) == "3/8"
    assert glue_text("about half") == "about half"
    assert glue_text(0.58871, ".3f") == "0.589"
    assert glue_text(12345, ",") == "12,345"
    assert glue(name="x", value=3) is None  # outside a kernel: records nothing, shows nothing


@pytest.mark.parametrize("value", [0.5, float("nan"), 1.0])
def test_a_float_needs_a_format(value):
    with pytest.raises(ValueError, match="needs a format"):
        glue_text(value)


@pytest.mark.parametrize("name", ["", "a:b", "a b", 3])
def test_bad_names(name):
    with pytest.raises(ValueError, match="name"):
        glue(name, 1)


def test_bad_format():
    with pytest.raises(ValueError, match="fmt"):
        glue_text(1.5, 3)


def test_the_output_is_myst_nbs():
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell("import olkit\nolkit.glue('ratio', 0.58871, '.3f')"),
        nbformat.v4.new_code_cell("from myst_nb import glue\nglue('ratio', '0.589', display=False)"),
    ]
    nbclient.NotebookClient(nb, timeout=120, kernel_name="python3").execute()
    ours, theirs = (c.outputs for c in nb.cells)
    assert len(ours) == len(theirs) == 1
    assert ours[0]["data"] == theirs[0]["data"] == {GLUE_PREFIX + "text/plain": "'0.589'"}
    assert ours[0]["metadata"]["scrapbook"] == theirs[0]["metadata"]["scrapbook"]
