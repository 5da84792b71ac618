"""Ellipses (Chapter 1): the Ellipsoid learner's ellipse, one step of it, and an update."""
from __future__ import annotations

__all__ = ["draw_ellipse", "draw_step", "draw_update"]


import numpy as np

from ..game import int_at_least


def draw_ellipse(ax, w, A, n_points: int = 200, **kw):
    """Draw the boundary of the 2-D ellipsoid E(A^{1/2}, w) on ``ax``; returns the line."""
    from ..ellipsoid import _check_ellipsoid

    w, A = _check_ellipsoid(w, A)
    if w.shape != (2,):
        raise ValueError(f"draw_ellipse draws 2-D ellipsoids; got dimension {w.shape[0]}")
    a, V = np.linalg.eigh(A)
    theta = np.linspace(0, 2 * np.pi, n_points)
    circle = np.stack([np.cos(theta), np.sin(theta)])
    pts = w[:, None] + V @ (np.sqrt(np.maximum(a, 0))[:, None] * (V.T @ circle))
    (line,) = ax.plot(pts[0], pts[1], **kw)
    return line


def draw_step(ax, w, A, x=None, y=None, w_star=None, ball=None, lim: float = 1.25, title: str | None = None):
    """One picture of a round of the 2-D Ellipsoid learner.

    Draws E_t (boundary and centre w_t); if ``x`` and ``y`` are given, the line
    {w : <w, x> = 0} and the shaded half-plane {w : y <w, x> >= 0} in which w*
    lies; ``w_star`` as a star and ``ball = (c, r)`` as a dashed circle.
    """
    w = np.asarray(w, dtype=float)
    if x is not None:
        x = np.asarray(x, dtype=float)
        u = x / np.linalg.norm(x)
        p = np.array([-u[1], u[0]])
        big = 4 * lim
        line = np.array([-big * p, big * p])
        ax.plot(line[:, 0], line[:, 1], color="0.4", lw=1)
        if y is not None:
            side = y * u * big
            poly = np.array([-big * p, big * p, big * p + side, -big * p + side])
            ax.fill(poly[:, 0], poly[:, 1], color="tab:green", alpha=0.08, lw=0)
    unit = np.linspace(0, 2 * np.pi, 200)
    ax.plot(np.cos(unit), np.sin(unit), color="0.8", lw=0.8)
    draw_ellipse(ax, w, A, color="tab:blue", lw=1.5)
    ax.plot(*w, "o", color="tab:blue", ms=3)
    if ball is not None:
        c, r = ball
        ax.plot(c[0] + r * np.cos(unit), c[1] + r * np.sin(unit), color="tab:red", lw=1, ls="--")
    if w_star is not None:
        ax.plot(*np.asarray(w_star, dtype=float), "*", color="tab:red", ms=9)
    ax.set_xlim(-lim, lim)
    ax.set_ylim(-lim, lim)
    ax.set_aspect("equal")
    if title:
        ax.set_title(title, fontsize=9)
    return ax


def draw_update(ax, trace, k: int, w_star=None, ball=None, lim: float = 1.25):
    """The k-th update (k = 1..U) of a recorded 2-D run: E_t before it and its cut (x_t, y_t).

    ``k = U + 1`` draws the final ellipsoid E_{T+1} without a cut.  The update
    rounds are those on which the recorded ``state()["updates"]`` grew.
    """
    upd = np.flatnonzero(np.diff(trace.state["updates"]) > 0)
    U = len(upd)
    k = int_at_least(k, "k", 1)
    if k > U + 1:
        raise ValueError(f"k must be between 1 and U + 1 = {U + 1} (the run has {U} updates); got {k}")
    if k <= U:
        t = int(upd[k - 1])
        return draw_step(ax, trace.state["w"][t], trace.state["A"][t], trace.x[t], int(trace.y[t]), w_star, ball, lim,
                         title=f"update {k} of {U} (round {t + 1})")
    return draw_step(ax, trace.state["w"][-1], trace.state["A"][-1], None, None, w_star, ball, lim,
                     title=f"after all {U} updates")


# -- prediction with expert advice (Chapter 3) -------------------------------------------------
