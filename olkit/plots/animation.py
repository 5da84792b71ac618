"""Animations that play in the static book: a figure redrawn frame by frame, shown as matplotlib's
JavaScript player (``FuncAnimation(...).to_jshtml()``: play, step and a slider), which needs no
kernel.  The ipywidgets figures of the chapters need a live kernel; these play on the published page.

:func:`animate` renders every frame when it is called (so a notebook can assert on them in the same
cell) and closes the figure (so the cell shows the player and no static copy).  The HTML is made
stable and accessible: the player's random id is replaced by one derived from the title, the font
icons that matplotlib loads from a CDN are replaced by plain characters, and the image, the slider and
the player get accessible names.  The PNG bytes of the frames may still differ between machines: the
cell that shows an animation carries the tag ``nbval-ignore-output``.
"""
from __future__ import annotations

import base64
import hashlib
import html
import re
from dataclasses import dataclass, field
from typing import Callable, Sequence

from ..game import int_at_least

__all__ = ["Animation", "animate"]

#: At most this many frames: a long run is subsampled (every k-th round), and the figure says so.
MAX_FRAMES = 30
#: The HTML of one animation stays below this many bytes (frames are embedded as base64 PNGs).
MAX_BYTES = 1_000_000

# matplotlib's player draws its buttons with Font Awesome 4 from a CDN (a request that leaves the
# page); plain characters do the same job offline.  Each button keeps its title and aria-label.
_ICONS = {
    "fa-minus": "&minus;",
    "fa-fast-backward": "|&#9664;",
    "fa-step-backward": "&#9665;",
    "fa-play fa-flip-horizontal": "&#9664;",
    "fa-pause": "&#10074;&#10074;",
    "fa-play": "&#9654;",
    "fa-step-forward": "&#9655;",
    "fa-fast-forward": "&#9654;|",
    "fa-plus": "+",
}
_FA_LINK = re.compile(r'<link rel="stylesheet"\s+href="https://[^"]*font-awesome[^"]*">\s*')
_FA_ICON = re.compile(r'<i class="fa (?P<name>[a-z\- ]+)"></i>')
_UUID = re.compile(r"_anim_img(?P<id>[0-9a-f]{32})\b")
_FRAME = re.compile(r'frames\[\d+\] = "data:image/png;base64,(?P<data>[^"]*)"')


def animation_id(title: str) -> str:
    """The player's id for ``title``: 16 hex digits of its SHA-256 (the same on every run; two
    animations of one page need different titles)."""
    return hashlib.sha256(title.encode("utf-8")).hexdigest()[:16]


@dataclass(eq=False)
class Animation:
    """A rendered animation: ``html`` (the player), ``frames`` (the values drawn, in order),
    ``images`` (the PNG bytes of each frame) and ``title``.  Displays as the player in a notebook and
    as a one-line summary as text (the form nbval and the proof of a run can compare)."""

    html: str
    frames: tuple
    images: list[bytes] = field(repr=False)
    title: str
    id: str

    @property
    def size(self) -> int:
        """Bytes of the player's HTML."""
        return len(self.html.encode("utf-8"))

    @property
    def distinct(self) -> int:
        """How many of the frames are different pictures."""
        return len(set(self.images))

    def __repr__(self) -> str:
        return f"Animation: {len(self.frames)} frames, {self.title} (play, step, slider)"

    def _repr_html_(self) -> str:
        return self.html


def _accessible(raw: str, anim_id: str, title: str) -> str:
    """matplotlib's jshtml, made stable (id from the title), offline (no icon font) and accessible
    (alt text, a named slider, the player a named group)."""
    found = _UUID.search(raw)
    if found is None:
        raise RuntimeError("matplotlib's jshtml has no _anim_img<uuid> element: its template changed")
    out = raw.replace(found["id"], anim_id)
    out = _FA_LINK.sub("", out)
    out = _FA_ICON.sub(lambda m: f'<span aria-hidden="true">{_ICONS.get(m["name"], "?")}</span>', out)
    name = html.escape(title, quote=True)
    out = out.replace(f'<img id="_anim_img{anim_id}">', f'<img id="_anim_img{anim_id}" alt="{name}">', 1)
    out = out.replace(
        f'<input id="_anim_slider{anim_id}" type="range"',
        f'<input id="_anim_slider{anim_id}" type="range" aria-label="{name}: frame"',
        1,
    )
    return (f'<div class="olkit-animation" role="group" aria-label="{name}" '
            f'data-frames="{len(_FRAME.findall(out))}">{out}</div>')


def animate(fig, draw: Callable, frames: Sequence, *, interval: int = 400, title: str, dpi: int = 72,
            max_bytes: int = MAX_BYTES) -> Animation:
    """Render ``draw(frame)`` for each value of ``frames`` on ``fig`` into matplotlib's JavaScript
    player (``FuncAnimation(fig, draw, frames).to_jshtml()``) and close ``fig``.

    ``draw`` redraws the figure for one value of ``frames`` (say a round t of a recorded trace: the
    picture comes from the trace, never from a second run).  ``interval`` is the time between frames
    in milliseconds, ``title`` names the animation (the image's alt text, the slider's label, the
    player's id and the text summary), ``dpi`` the resolution of the frames.  At most
    ``MAX_FRAMES`` (30) frames (subsample a long run and say so in the figure); the HTML must stay below
    ``max_bytes``.  Returns an :class:`Animation`, which a notebook cell displays as the player.
    """
    import matplotlib as mpl
    import matplotlib.pyplot as plt
    from matplotlib.animation import FuncAnimation
    from matplotlib.figure import Figure

    if not isinstance(fig, Figure):
        raise ValueError(f"fig must be a matplotlib Figure; got {type(fig).__name__}")
    if not callable(draw):
        raise ValueError(f"draw must be a function of one frame; got {type(draw).__name__}")
    if not isinstance(title, str) or not title.strip():
        raise ValueError(f"title must be a non-empty string; got {title!r}")
    frames = tuple(frames)
    if not 1 <= len(frames) <= MAX_FRAMES:
        raise ValueError(f"frames must hold 1 to {MAX_FRAMES} values (subsample a long run); got {len(frames)}")
    interval = int_at_least(interval, "interval", 1)
    dpi = int_at_least(dpi, "dpi", 10)
    if not hasattr(fig.canvas, "print_png"):
        # A figure closed in pyplot has a bare canvas, and savefig would make a new Agg canvas for
        # every frame: a new renderer each time, whose text and mathtext caches start empty (most of
        # a frame's time is laying out the same tick labels again).  One Agg canvas for all frames.
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        FigureCanvasAgg(fig)
    anim = FuncAnimation(fig, draw, frames=frames, init_func=lambda: None, interval=interval,
                         repeat=False, cache_frame_data=False)
    # Animation.save redraws the canvas after each frame (draw_idle) and the writer's savefig renders it
    # again: on Agg the first render is wasted, so it is skipped while the frames are saved.
    fig.canvas.draw_idle = lambda *args, **kwargs: None
    try:
        limit = max(20.0, 4 * max_bytes / 1e6)  # MB; the size is checked below, with a clear message
        with mpl.rc_context({"savefig.dpi": dpi, "savefig.bbox": None, "animation.embed_limit": limit}):
            raw = anim.to_jshtml(default_mode="once")
    finally:
        del fig.canvas.draw_idle
        plt.close(fig)
    anim_id = animation_id(title)
    page = _accessible(raw, anim_id, title)
    images = [base64.b64decode(m["data"]) for m in _FRAME.finditer(page)]
    if len(images) != len(frames):
        raise RuntimeError(f"{len(images)} frames embedded for {len(frames)} values (animation.embed_limit?)")
    size = len(page.encode("utf-8"))
    if size > max_bytes:
        raise ValueError(f"the animation's HTML is {size} bytes, over max_bytes = {max_bytes}: lower dpi, the "
                         f"figure's size or the number of frames")
    return Animation(page, frames, images, title, anim_id)
