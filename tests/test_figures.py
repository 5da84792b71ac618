"""No blank figure: every figure and animation frame stored in a notebook draws data.

The page, the slides and the PDF all show the stored outputs, so a figure judged here is judged
everywhere it appears (``tools/figures.py`` says how an empty panel is told from one with data).
The last tests show that the check fails on a deliberately blank figure, on a figure made for an
animation and left open (the inline backend draws it empty), and on one empty panel beside a full one.
"""
import io
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from notebooks import ROOT, notebooks  # noqa: E402

sys.path.insert(0, str(ROOT))
from tools import figures  # noqa: E402

NOTEBOOKS = notebooks()


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_every_stored_figure_draws_data(nb):
    assert figures.blank_figures([nb]) == []


def test_the_book_has_figures_and_animation_frames_to_judge():
    images = [img for nb in NOTEBOOKS for img in figures.stored_images(nb)]
    assert sum(img.what == "figure" for img in images) >= 40
    assert sum(img.what.startswith("animation frame") for img in images) >= 6 * 7


def _png(fig) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=72)
    plt.close(fig)
    return buf.getvalue()


def _subplots(n=1):
    fig, axes = plt.subplots(1, n, figsize=(3.2 * n, 2.6))
    return fig, np.atleast_1d(axes)


def test_empty_axes_are_blank():
    fig, _ = _subplots(2)  # as a figure made for an animation and left open is drawn
    assert figures.is_blank(_png(fig))


def test_one_empty_panel_beside_a_full_one_is_blank():
    fig, (a, b) = _subplots(2)
    a.plot(np.arange(10), np.arange(10) ** 2)
    png = _png(fig)
    drawn = figures.ink(png)
    assert len(drawn) == 2 and drawn[0] >= figures.MIN_INK and drawn[1] == 0 and figures.is_blank(png)


@pytest.mark.parametrize("draw", [
    lambda ax: ax.plot([0, 1, 2], [0, 1, 0.5], color="k"),            # a black line
    lambda ax: ax.scatter([0.2, 0.5], [0.4, 0.6], s=12, color="C3"),  # two dots
    lambda ax: ax.bar([0, 1], [1, 2]),                                # bars
    lambda ax: ax.imshow(np.random.default_rng(0).random((8, 8))),   # an image
    lambda ax: ax.step([0, 1, 2, 3], [3, 2, 2, 0], where="post"),    # a step function
], ids=["line", "dots", "bars", "image", "steps"])
def test_panels_with_data_are_not_blank(draw):
    fig, (ax,) = _subplots()
    draw(ax)
    assert not figures.is_blank(_png(fig))


def test_a_frameless_drawing_is_judged_on_the_whole_image():
    fig, (ax,) = _subplots()
    ax.set_axis_off()
    assert figures.is_blank(_png(fig))
    fig, (ax,) = _subplots()
    ax.set_axis_off()
    ax.plot([0, 1], [0, 1], "o-")
    assert not figures.is_blank(_png(fig))


def test_a_notebook_that_stores_a_blank_figure_fails(tmp_path):
    """The check on a notebook: a copy of 1.2 with the figure of its animation left open, as it was."""
    import base64
    import json

    nb = json.loads((ROOT / "chapters/ch1/1_2_consistent_halving.ipynb").read_text())
    fig, _ = _subplots(2)
    blank = base64.b64encode(_png(fig)).decode()
    cell = next(i for i, c in enumerate(nb["cells"]) if c["cell_type"] == "code" and c["outputs"])
    nb["cells"][cell]["outputs"].append(
        {"output_type": "display_data", "metadata": {}, "data": {"image/png": blank, "text/plain": ["<Figure>"]}})
    broken = tmp_path / "broken.ipynb"
    broken.write_text(json.dumps(nb))
    found = figures.blank_figures([broken])
    assert len(found) == 1 and f"cell {cell}, figure: no data drawn" in found[0]
