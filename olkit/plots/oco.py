"""Online convex optimization (Chapter 5): the feasible sets, the iterates of a run, and the widget
that varies the step size."""
from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

__all__ = ["draw_iterates", "draw_set", "step_size_widget"]


def draw_set(ax, K, **kw):
    """The boundary of a 2-D set of :mod:`olkit.convex` (a Ball's circle, a Box's rectangle, the simplex's
    segment) on ``ax``; returns the line."""
    from ..convex import Ball, Box, Simplex

    if K.d != 2:
        raise ValueError(f"draw_set draws 2-D sets; got d = {K.d}")
    kw = {"color": "0.5", "lw": 1.2, **kw}
    if isinstance(K, Ball):
        th = np.linspace(0, 2 * np.pi, 300)
        pts = K.B * np.stack([np.cos(th), np.sin(th)], axis=1)
    elif isinstance(K, Box):
        (a, b), (c, e) = K.lo, K.hi
        pts = np.array([[a, b], [c, b], [c, e], [a, e], [a, b]])
    elif isinstance(K, Simplex):
        pts = np.array([[1.0, 0.0], [0.0, 1.0]])
    else:
        raise ValueError(f"draw_set draws a Ball, Box or Simplex; got {K!r}")
    (line,) = ax.plot(pts[:, 0], pts[:, 1], **kw)
    return line


def draw_iterates(ax, trace, K, w_star=None, title: str | None = None, max_rounds: int | None = None):
    """OGD in the plane: the set, the iterates w_1, w_2, ... (dots joined in order), and for every round
    whose gradient step left the set, the step w_t -> z_t (dotted) and the projection z_t -> w_{t+1}
    (red).  ``w_star`` is drawn as a star.  Uses the recorded ``trace.record["z"]``."""
    W = trace.w if max_rounds is None else trace.w[: max_rounds + 1]
    Z = trace.record["z"][: len(W) - 1]
    draw_set(ax, K)
    ax.plot(W[:, 0], W[:, 1], "-", color="tab:blue", lw=0.8, alpha=0.7)
    ax.plot(W[:, 0], W[:, 1], "o", color="tab:blue", ms=2.5, label="$w_t$")
    moved = np.linalg.norm(Z - W[1:], axis=1) > 1e-9 * (1 + np.linalg.norm(Z, axis=1))
    for t in np.flatnonzero(moved):
        ax.plot([W[t, 0], Z[t, 0]], [W[t, 1], Z[t, 1]], ":", color="0.5", lw=0.8)
        ax.plot([Z[t, 0], W[t + 1, 0]], [Z[t, 1], W[t + 1, 1]], "-", color="tab:red", lw=0.9)
    if moved.any():
        ax.plot([], [], "-", color="tab:red", lw=0.9, label="projection $z_t \\to w_{t+1}$")
    if w_star is not None:
        ax.plot(*np.asarray(w_star, dtype=float), "*", color="tab:green", ms=11, label="$w^\\star$")
    ax.set_aspect("equal")
    if title:
        ax.set_title(title, fontsize=10)
    return ax


def step_size_widget(draw: Callable, etas: Sequence[float], value: float | None = None, figsize=(9, 3.6)):
    """An ipywidgets slider over the step sizes ``etas``; ``draw(fig, eta)`` draws the figure for a step
    size on a fresh matplotlib Figure, shown as an image that is redrawn when the slider moves.  Needs
    a live kernel to respond; the book shows the static figures instead."""
    import io

    import ipywidgets as widgets
    from matplotlib.figure import Figure

    etas = [float(e) for e in etas]
    if not etas:
        raise ValueError("etas must hold at least one step size")

    def picture(eta: float) -> bytes:
        fig = Figure(figsize=figsize)
        draw(fig, eta)
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=80)
        return buf.getvalue()

    start = etas[0] if value is None else float(value)
    slider = widgets.SelectionSlider(options=[(f"{e:.3g}", e) for e in etas], value=start, description="eta")
    image = widgets.Image(value=picture(slider.value), format="png")
    slider.observe(lambda change: setattr(image, "value", picture(change["new"])), names="value")

    class StepSizeBox(widgets.VBox):
        def __repr__(self) -> str:
            return f"step-size widget, {len(etas)} step sizes (needs a live kernel)"

    return StepSizeBox([slider, image])
