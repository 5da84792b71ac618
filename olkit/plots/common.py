"""Displays and figures every chapter uses: the mistakes plot, the text and HTML table, and the
slider that steps through a figure."""
from __future__ import annotations

import html
from typing import Callable, Sequence

import numpy as np

from ..game import int_at_least

__all__ = ["Table", "plot_mistakes", "slider_figure"]


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


# -- tables ----------------------------------------------------------------------------------


class Table:
    """A small table that displays as HTML in a notebook and as aligned text elsewhere.

    ``rows`` is a list of rows (any printable entries), ``header`` the column names,
    ``index`` optional row names.  Used for the class tables of the chapter (UML Figure 21.1).
    """

    def __init__(self, rows, header: Sequence[str], index: Sequence[str] | None = None, caption: str = ""):
        self.rows = [[str(v) for v in r] for r in rows]
        self.header = [str(h) for h in header]
        self.index = None if index is None else [str(i) for i in index]
        self.caption = caption
        width = len(self.header)
        for r in self.rows:
            if len(r) != width:
                raise ValueError(f"every row must have {width} entries (the header's); got {len(r)}")
        if self.index is not None and len(self.index) != len(self.rows):
            raise ValueError(f"index has {len(self.index)} names for {len(self.rows)} rows")

    def __repr__(self) -> str:
        head = ([""] if self.index is not None else []) + self.header
        body = [([self.index[i]] if self.index is not None else []) + r for i, r in enumerate(self.rows)]
        w = [max(len(row[j]) for row in [head] + body) for j in range(len(head))]
        lines = [self.caption] if self.caption else []
        lines += ["  ".join(s.rjust(w[j]) for j, s in enumerate(row)).rstrip() for row in [head] + body]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        e = html.escape
        th = "".join(f"<th>{e(h)}</th>" for h in ([""] if self.index is not None else []) + self.header)
        body = ""
        for i, r in enumerate(self.rows):
            name = f"<th>{e(self.index[i])}</th>" if self.index is not None else ""
            body += "<tr>" + name + "".join(f"<td>{e(v)}</td>" for v in r) + "</tr>"
        cap = f"<caption>{e(self.caption)}</caption>" if self.caption else ""
        return f"<table class='olkit-table'>{cap}<thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"


# -- trees and the game of Lemma 21.6 (Chapter 2) ---------------------------------------------


def slider_figure(draw: Callable, k_max: int, description: str = "k", figsize=(4.2, 4.2), dpi: int = 80):
    """An interactive figure: an integer slider k = 1..k_max and an image that ``draw(ax, k)`` redraws.

    The image is drawn off-screen (PNG bytes in an ``ipywidgets.Image``), so the cell shows nothing
    but the widget; it needs a live kernel to respond, and its text form is stable (nbval skips
    widget outputs).  The notebooks show the same pictures as static panels for the web book.
    """
    import io

    import ipywidgets as widgets
    from matplotlib.figure import Figure

    k_max = int_at_least(k_max, "k_max", 1)

    class SliderBox(widgets.VBox):
        def __repr__(self) -> str:
            return f"slider figure, {description} = 1..{k_max} (needs a live kernel)"

    def picture(k: int) -> bytes:
        fig = Figure(figsize=figsize)
        draw(fig.subplots(), k)
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=dpi)
        return buf.getvalue()

    slider = widgets.IntSlider(value=1, min=1, max=k_max, description=description)
    image = widgets.Image(value=picture(1), format="png")
    slider.observe(lambda change: setattr(image, "value", picture(change["new"])), names="value")
    return SliderBox([slider, image])


# -- online convex optimization (Chapter 5) -----------------------------------------------------
