"""Regret (Chapter 3): regret curves against their bounds, and the widget that varies Hedge's rate."""
from __future__ import annotations

import math
from typing import Sequence

import numpy as np

__all__ = ["eta_widget", "plot_regret"]


def plot_regret(ax, trace, bound=None, label: str = "regret $R_t$", bound_label: str | None = None, **kw):
    """The regret R_t = Lhat_t - min_i L_{t,i}, t = 0..T, of an expert game, and a bound as a dashed line.

    ``trace`` is an :class:`olkit.experts.ExpertTrace` or an array of R_0..R_T; ``bound`` is a
    number (a horizontal line), an array of T + 1 values, or a function of the round t.
    Returns the regret's line.
    """
    R = np.asarray(trace.regret if hasattr(trace, "regret") else trace, dtype=float)
    t = np.arange(len(R))
    (line,) = ax.plot(t, R, label=label, **kw)
    if bound is not None:
        if callable(bound):
            b = np.array([bound(int(s)) for s in t], dtype=float)
        else:
            b = np.broadcast_to(np.asarray(bound, dtype=float), R.shape)
        ax.plot(t, b, ls="--", color=line.get_color(), alpha=0.8, label=bound_label or "bound")
    ax.set_xlabel("round t")
    ax.set_ylabel("regret")
    return line


def eta_widget(losses, etas: Sequence[float], figsize=(6.4, 3.4)):
    """An ipywidgets slider over the rates ``etas``: for each, the regret of Hedge on the fixed loss
    matrix ``losses`` over the rounds, against the bound ln N / eta + eta t / 8 (Mohri et al. Thm 7.6).

    The picture is an Image widget redrawn off-screen when the slider moves (a static page shows the
    book's static figures instead; the widget needs a live kernel).  Its text form is stable.
    """
    import io

    import ipywidgets as widgets
    from matplotlib.figure import Figure

    from ..experts import ewa_bound, hedge

    etas = [float(e) for e in etas]
    if not etas:
        raise ValueError("etas must contain at least one rate")
    L = np.asarray(losses)
    T, N = L.shape
    tuned = math.sqrt(8 * math.log(N) / T) if N > 1 else None

    class EtaBox(widgets.VBox):
        def __repr__(self) -> str:
            return f"Hedge eta slider, {len(etas)} rates, T = {T}, N = {N} (needs a live kernel)"

    def picture(eta: float) -> bytes:
        tr = hedge(L, eta)
        fig = Figure(figsize=figsize)
        ax = fig.subplots()
        plot_regret(ax, tr, bound=lambda t: ewa_bound(N, t, eta), bound_label="ln N / eta + eta t / 8")
        title = f"eta = {eta:.3g}: R_T = {tr.R:.2f}, bound {ewa_bound(N, T, eta):.2f}"
        if tuned is not None:
            title += f" (tuned eta = {tuned:.3g})"
        ax.set_title(title, fontsize=9)
        ax.legend(fontsize=8, loc="upper left")
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=80)
        return buf.getvalue()

    start = min(range(len(etas)), key=lambda k: abs(etas[k] - (tuned or etas[0])))
    slider = widgets.SelectionSlider(options=[(f"{e:.3g}", e) for e in etas], value=etas[start], description="eta")
    image = widgets.Image(value=picture(etas[start]), format="png")
    slider.observe(lambda change: setattr(image, "value", picture(change["new"])), names="value")
    return EtaBox([slider, image])


# -- Chapter 4: the Perceptron in the plane, slider figures -----------------------------------
