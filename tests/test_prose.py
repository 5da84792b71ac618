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


def test_a_bound_is_rounded_in_its_direction():
    # "at least 0.78" and "below 2.6%" stay true where rounding to nearest gives 0.79 and 2.5%
    assert glue_text(0.7885, ".2f") == "0.79" and glue_text(0.7885, ".2f", rounding="down") == "0.78"
    assert glue_text(0.02502, ".1%") == "2.5%" and glue_text(0.02502, ".1%", rounding="up") == "2.6%"
    assert glue_text(0.0457, ".3f", rounding="down") == "0.045" and glue_text(0.0457, ".3f", rounding="up") == "0.046"
    assert glue_text(Fraction(1, 3), ".3f", rounding="up") == "0.334"
    assert glue_text(-0.0001, ".2f", rounding="down") == "-0.01" and glue_text(2, ".2f", rounding="down") == "2.00"
    assert glue_text(0.5, ".1f", rounding="up") == "0.5", "an exact value stays as it is"


@pytest.mark.parametrize("value, fmt, rounding", [(0.5, ".3g", "down"), (0.5, ".2e", "up"), ("x", ".2f", "down"),
                                                  (0.5, ".2f", "floor"), (0.5, None, "down")])
def test_a_directed_rounding_needs_a_fixed_point_format(value, fmt, rounding):
    with pytest.raises(ValueError, match="rounding"):
        glue_text(value, fmt, rounding=rounding)
