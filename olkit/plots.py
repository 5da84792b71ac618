"""Figure idioms shared by the chapters (matplotlib).

Every figure cell of the book ends with ``plt.show()``; these helpers only draw
on the axes they are given, so a notebook can combine them.
"""
from __future__ import annotations

import numpy as np

__all__ = ["plot_mistakes"]


def plot_mistakes(ax, trace, bound: float | None = None, label: str = "mistakes", bound_label: str | None = None, **kw):
    """Cumulative mistakes of a run against the rounds, and the theorem's bound as a dashed line.

    ``trace`` is an :class:`olkit.game.Trace` or an array of 0/1 mistakes per round.
    """
    mistakes = np.asarray(trace.mistake if hasattr(trace, "mistake") else trace, dtype=int)
    rounds = np.arange(0, len(mistakes) + 1)
    (line,) = ax.step(rounds, np.concatenate([[0], np.cumsum(mistakes)]), where="post", label=label, **kw)
    if bound is not None:
        ax.axhline(bound, ls="--", color=line.get_color(), alpha=0.7, label=bound_label or f"bound {bound:.3g}")
    ax.set_xlabel("round t")
    ax.set_ylabel("mistakes so far")
    return line
