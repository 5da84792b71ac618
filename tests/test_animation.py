"""olkit.plots.animate: matplotlib's JavaScript player made stable, small and accessible; and every chapter
has at least one such player in its stored outputs (the static book's live figures)."""
from __future__ import annotations

import json
import re

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from notebooks import CHAPTERS, notebooks  # noqa: E402
from olkit.plots import Animation, animate  # noqa: E402
from olkit.plots.animation import MAX_FRAMES, animation_id  # noqa: E402


def _line_animation(n: int = 5, title: str = "A line growing", **kw) -> Animation:
    fig, ax = plt.subplots(figsize=(2, 1.5))

    def draw(t):
        ax.clear()
        ax.plot(np.arange(t + 1), np.arange(t + 1) ** 0.5)
        ax.set(xlim=(0, n), ylim=(0, 3))

    return animate(fig, draw, range(n), title=title, **kw)


@pytest.fixture(scope="module")
def anim() -> Animation:
    return _line_animation()


def test_one_frame_per_value_each_a_different_picture(anim):
    assert anim.frames == (0, 1, 2, 3, 4)
    assert len(anim.images) == 5 and anim.distinct == 5
    assert all(img.startswith(b"\x89PNG") for img in anim.images)
    assert len(re.findall(r"frames\[\d+\] = \"data:image/png;base64,", anim.html)) == 5


def test_the_figure_is_closed_so_no_static_copy_is_shown():
    before = set(plt.get_fignums())
    _line_animation(2, "closed")
    assert set(plt.get_fignums()) == before


def test_the_id_comes_from_the_title_not_a_random_uuid(anim):
    assert anim.id == animation_id("A line growing") and re.fullmatch(r"[0-9a-f]{16}", anim.id)
    ids = set(re.findall(r"_anim_img([0-9a-f]+)", anim.html)) | set(re.findall(r"\banim([0-9a-f]{16,})\.", anim.html))
    assert ids == {anim.id}
    again = _line_animation()
    assert again.html == anim.html  # same title, same drawing: the same HTML on this machine
    assert _line_animation(title="another title").id != anim.id


def test_small_and_offline(anim):
    assert anim.size == len(anim.html.encode()) < 60_000
    assert "font-awesome" not in anim.html and "https://" not in anim.html  # no request leaves the page
    assert 'class="fa ' not in anim.html


def test_accessible_names(anim):
    assert re.search(r'<img id="_anim_img\w+" alt="A line growing">', anim.html)
    assert re.search(r'<input id="_anim_slider\w+" type="range" aria-label="A line growing: frame"', anim.html)
    buttons = re.findall(r"<button ([^>]*)>", anim.html)
    assert len(buttons) == 9 and all('aria-label="' in b and 'title="' in b for b in buttons)
    assert '<div class="olkit-animation" role="group" aria-label="A line growing" data-frames="5">' in anim.html
    quoted = _line_animation(2, 'Halving\'s "V_t" <1>')
    assert 'alt="Halving&#x27;s &quot;V_t&quot; &lt;1&gt;"' in quoted.html


def test_text_form_is_a_stable_summary(anim):
    assert repr(anim) == "Animation: 5 frames, A line growing (play, step, slider)"
    assert anim._repr_html_() == anim.html


def test_the_size_bound_is_enforced():
    with pytest.raises(ValueError, match="max_bytes"):
        _line_animation(3, "too big", max_bytes=1000)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"frames": []}, "frames must hold 1 to"),
        ({"frames": range(MAX_FRAMES + 1)}, "subsample"),
        ({"draw": "not a function"}, "draw must be a function"),
        ({"fig": "not a figure"}, "fig must be a matplotlib Figure"),
        ({"title": " "}, "title must be a non-empty string"),
        ({"interval": 0}, "interval must be an integer >= 1"),
        ({"dpi": 2.5}, "dpi must be an integer"),
    ],
)
def test_bad_input_is_refused_with_a_clear_message(kwargs, message):
    fig, ax = plt.subplots()
    args = {"fig": fig, "draw": lambda t: None, "frames": [0, 1], "title": "t"} | kwargs
    title = args.pop("title")
    try:
        with pytest.raises(ValueError, match=message):
            animate(args.pop("fig"), args.pop("draw"), args.pop("frames"), title=title, **args)
    finally:
        plt.close(fig)


# -- the chapters: each has a live figure on the static page ---------------------------------------


def _animations(nb_path) -> list[str]:
    nb = json.loads(nb_path.read_text())
    found = []
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        for out in cell.get("outputs", []):
            html_out = out.get("data", {}).get("text/html", "")
            html_out = "".join(html_out) if isinstance(html_out, list) else html_out
            if 'class="olkit-animation"' in html_out:
                found.append((html_out, cell))
    return found


CHAPTER_DIRS = sorted(p for p in CHAPTERS.iterdir() if p.is_dir() and re.fullmatch(r"ch\d+", p.name))


@pytest.mark.parametrize("chapter", CHAPTER_DIRS, ids=[p.name for p in CHAPTER_DIRS])
def test_every_chapter_has_a_player_that_works_without_a_kernel(chapter):
    found = [a for nb in notebooks() if nb.parent == chapter for a in _animations(nb)]
    assert found, f"{chapter.name}: no notebook stores an animation (olkit.plots.animate) in its outputs"
    for html_out, cell in found:
        assert re.search(r'<input id="_anim_slider\w+" type="range" aria-label=', html_out)
        assert len(re.findall(r'frames\[\d+\] = "data:image/png;base64,', html_out)) >= 2
        assert len(html_out.encode()) < 1_000_000
        # nbval cannot compare PNG bytes across machines: the cell's outputs are not compared, its
        # assertions run
        assert "nbval-ignore-output" in cell["metadata"].get("tags", []), cell["source"][:80]
        assert "assert" in "".join(cell["source"])
