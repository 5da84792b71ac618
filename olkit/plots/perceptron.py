"""The Perceptron (Chapter 4): one update of the weight vector, drawn in the plane."""
from __future__ import annotations

__all__ = ["draw_perceptron_update"]


import numpy as np

from ..game import int_at_least


def draw_perceptron_update(ax, trace, k: int, u=None, lim: float | None = None, title: str | None = None):
    """The k-th update (k = 1..U) of a recorded 2-D Perceptron run, or its final state (k = U + 1).

    ``trace`` is an :class:`olkit.UpdateTrace` (``olkit.run_stream``) of a run on points of R^2.
    Draws every point of the stream (filled: label +1, open: -1), the line {x : <w_k, x> = 0} of the
    weights in force (shaded on the side it labels +1), w_k as an arrow, the point of the update with
    its step eta y_t x_t (from w_k to w_{k+1}), and ``u`` (a separating direction) dashed.
    """
    U = trace.U
    k = int_at_least(k, "k", 1)
    if k > U + 1:
        raise ValueError(f"k must be between 1 and U + 1 = {U + 1} (the run has {U} updates); got {k}")
    X, y = np.asarray(trace.X, dtype=float), np.asarray(trace.y)
    if X.shape[1] != 2:
        raise ValueError(f"draw_perceptron_update draws runs in the plane; got dimension {X.shape[1]}")
    lim = float(np.abs(X).max()) * 1.15 if lim is None else lim
    w = trace.state["w"][k - 1]
    ax.scatter(*X[y == 1].T, s=12, color="tab:blue", label="$y = +1$")
    ax.scatter(*X[y == -1].T, s=12, facecolors="none", edgecolors="tab:red", label="$y = -1$")
    big = 4 * lim
    if np.any(w != 0):
        n = w / np.linalg.norm(w)
        p = np.array([-n[1], n[0]])
        ax.plot(*np.array([-big * p, big * p]).T, color="0.3", lw=1)
        poly = np.array([-big * p, big * p, big * p + big * n, -big * p + big * n])
        ax.fill(poly[:, 0], poly[:, 1], color="tab:blue", alpha=0.07, lw=0)
        ax.annotate("", xy=w, xytext=(0, 0), arrowprops=dict(arrowstyle="->", color="k", lw=1.5))
    if u is not None:
        u = np.asarray(u, dtype=float)
        q = np.array([-u[1], u[0]]) / np.linalg.norm(u)
        ax.plot(*np.array([-big * q, big * q]).T, color="tab:green", ls="--", lw=1, label="separator $u$")
    if k <= U:
        t = int(trace.rounds[k - 1])
        x_t, y_t = X[t - 1], int(y[t - 1])
        ax.scatter(*x_t, s=90, marker="o", facecolors="none", edgecolors="k", lw=1.5, zorder=3)
        w_next = trace.state["w"][k]
        ax.annotate("", xy=w_next, xytext=w, arrowprops=dict(arrowstyle="->", color="tab:orange", lw=1.5))
        title = title or f"update {k} of {U}: round {t}, $y_t = {y_t:+d}$"
    else:
        title = title or f"after all {U} updates"
    ax.set_xlim(-lim, lim)
    ax.set_ylim(-lim, lim)
    ax.set_aspect("equal")
    ax.set_title(title, fontsize=9)
    return ax
