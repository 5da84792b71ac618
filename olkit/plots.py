"""Figures, interactive figures and small displays shared by the chapters.

Every figure cell of the book ends with ``plt.show()``; these helpers only draw
on the axes they are given, so a notebook can combine them.  Interactive
figures (ipywidgets) need a live kernel; each has a static fallback in the book.
The algorithm modules hold the algorithms and the quantities their proofs need;
everything that draws lives here.
"""
from __future__ import annotations

import html
import math
from typing import Callable, Sequence

import numpy as np

from .game import int_at_least

__all__ = [
    "Table",
    "draw_ellipse",
    "draw_iterates",
    "draw_perceptron_update",
    "draw_set",
    "draw_step",
    "draw_tree",
    "draw_tree_game",
    "draw_update",
    "eta_widget",
    "plot_mistakes",
    "plot_regret",
    "slider_figure",
    "step_size_widget",
    "tree_game_widget",
]


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


def _node_xy(i: int) -> tuple[float, int]:
    """Position of node i (UML indexing): depth t = floor(log2 i), horizontal (b + 1/2) / 2^t."""
    t = i.bit_length() - 1
    return (i - 2**t + 0.5) / 2**t, t


def draw_tree(
    ax,
    tree,
    path: Sequence[int] | None = None,
    names: Callable[[int], str] | Sequence[str] | None = None,
    leaf_labels: Sequence[str] | None = None,
    color: str = "C3",
    title: str | None = None,
):
    """Draw the tree (v_1, ..., v_{2^d - 1}) in UML's indexing on ``ax``.

    Node i sits at depth floor(log2 i); its left edge (to 2i) is label 0 and its right
    edge (to 2i + 1) label 1; the 2^d leaves are the ends of the d-round games.
    ``path`` = (y_1, ..., y_k), k <= d, highlights the nodes i_1, ..., i_{k+1} that a
    game with these labels visits (dashed, in ``color``; ``[]`` highlights the root only,
    ``None`` nothing).  ``names`` maps a point to its
    text (a callable or a sequence indexed by point; default: the point's index),
    ``leaf_labels`` gives one text per leaf (left to right).  Node texts are left out
    when the tree is too wide for them.  Returns ``ax``.
    """
    v = np.asarray(tree).ravel()
    d = int(round(math.log2(len(v) + 1)))
    if 2**d - 1 != len(v):
        raise ValueError(f"a complete tree has 2^d - 1 nodes; got {len(v)}")
    if path is not None:
        path = [int(y) for y in path]
        if len(path) > d or any(y not in (0, 1) for y in path):
            raise ValueError(f"path must be at most d = {d} labels in {{0, 1}}; got {path}")
    if leaf_labels is not None and len(leaf_labels) != 2**d:
        raise ValueError(f"leaf_labels must have 2^d = {2**d} entries; got {len(leaf_labels)}")
    if names is None:
        name = str
    elif callable(names):
        name = names
    else:
        name = lambda p: str(names[p])  # noqa: E731
    visited, i = [1], 1
    for y in path or []:
        i = 2 * i + y
        visited.append(i)
    on_path = set(visited) if path is not None else set()
    texts = 2 ** (d - 1) <= 16  # room for a text in every node of the widest level
    fs = 10 if d <= 3 else 8 if d <= 4 else 7
    for i in range(1, 2 ** (d + 1)):
        x, t = _node_xy(i)
        for child, y in ((2 * i, 0), (2 * i + 1, 1)):
            if child >= 2 ** (d + 1) or i > len(v):
                continue
            cx, ct = _node_xy(child)
            hot = i in on_path and child in on_path
            ax.plot([x, cx], [-t, -ct], ls="--" if hot else "-", lw=2.4 if hot else 0.8,
                    color=color if hot else "0.6", zorder=1)
            if texts and (t < 3 or d <= 3):  # edge labels on the top levels only
                ax.text((x + cx) / 2 + (-0.012 if y == 0 else 0.012), -(t + ct) / 2, str(y), fontsize=fs - 1,
                        color=color if hot else "0.4", ha="right" if y == 0 else "left", va="center")
        if i <= len(v):
            ax.scatter([x], [-t], s=520 if texts else 60, color="white", edgecolor=color if i in on_path else "0.3",
                       lw=2 if i in on_path else 1, zorder=2)
            if texts:
                ax.text(x, -t, name(int(v[i - 1])), ha="center", va="center", fontsize=fs, zorder=3)
        else:  # a leaf: the end of a game
            ax.scatter([x], [-t], s=18, marker="s", color=color if i in on_path else "0.6", zorder=2)
            if leaf_labels is not None and texts:
                ax.text(x, -t - 0.28, str(leaf_labels[i - 2**d]), ha="center", va="top", fontsize=fs - 1,
                        color=color if i in on_path else "0.25")
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-d - (0.7 if leaf_labels is not None else 0.35), 0.45)
    ax.axis("off")
    if title:
        ax.set_title(title, fontsize=10)
    return ax


def draw_tree_game(ax, game, point_names=None, title: str | None = None):
    """The tree of a :class:`olkit.littlestone.TreeGame` with the path played so far (see
    :func:`draw_tree`); ``point_names`` maps a point to its name."""
    names = None if point_names is None else (lambda p: str(point_names[p]))
    return draw_tree(ax, game.tree, path=game.ys, names=names, title=title)


def tree_game_widget(classes: dict, point_names: dict | None = None, figsize=(6.4, 3.2)):
    """An ipywidgets game: the reader (or SOA, on request) predicts, the tree environment answers.

    ``classes`` maps a name to a 0/1 matrix; ``point_names`` optionally maps the same names
    to a sequence of point names.  Needs a live kernel to respond; its text form is stable.
    """
    import io

    import ipywidgets as widgets
    from matplotlib.figure import Figure

    if not classes:
        raise ValueError("classes must name at least one class")
    point_names = point_names or {}
    from .littlestone import SOA, LdimSolver, TreeGame

    solvers = {name: LdimSolver(H) for name, H in classes.items()}

    class GameBox(widgets.VBox):
        def __repr__(self) -> str:
            return f"TreeGame widget, {len(classes)} classes (needs a live kernel)"

    choice = widgets.Dropdown(options=list(classes), description="class")
    b0, b1 = widgets.Button(description="predict 0"), widgets.Button(description="predict 1")
    bsoa = widgets.Button(description="let SOA predict")
    brestart = widgets.Button(description="restart")
    image = widgets.Image(format="png")  # drawn off-screen: the cell displays nothing but the widget
    text = widgets.HTML()
    state: dict = {}

    def redraw() -> None:
        g, name = state["game"], choice.value
        fig = Figure(figsize=figsize)
        ax = fig.subplots()
        draw_tree_game(ax, g, point_names.get(name), title=f"{name}: Ldim = {g.depth}, mistakes so far: {g.mistakes}")
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=80)
        image.value = buf.getvalue()
        text.value = "<pre>" + html.escape(g.status(point_names.get(name))) + "</pre>"
        for b in (b0, b1, bsoa):
            b.disabled = g.done

    def restart(*_) -> None:
        name = choice.value
        state["game"] = TreeGame(classes[name], solver=solvers[name])
        state["soa"] = SOA(None, solver=solvers[name])
        redraw()

    def play(yhat: int) -> None:
        g = state["game"]
        if g.done:
            return
        x = g.next_x()
        y = g.answer(yhat)
        state["soa"].update(x, y)
        redraw()

    b0.on_click(lambda _: play(0))
    b1.on_click(lambda _: play(1))
    bsoa.on_click(lambda _: play(state["soa"].predict(state["game"].next_x())))
    brestart.on_click(restart)
    choice.observe(restart, names="value")
    restart()
    return GameBox([widgets.HBox([choice, brestart]), widgets.HBox([b0, b1, bsoa]), image, text])


# -- the Ellipsoid learner (Section 1.4) ------------------------------------------------------
def draw_ellipse(ax, w, A, n_points: int = 200, **kw):
    """Draw the boundary of the 2-D ellipsoid E(A^{1/2}, w) on ``ax``; returns the line."""
    from .ellipsoid import _check_ellipsoid

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

    from .experts import ewa_bound, hedge

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
def draw_set(ax, K, **kw):
    """The boundary of a 2-D set of :mod:`olkit.oco` (a Ball's circle, a Box's rectangle, the simplex's
    segment) on ``ax``; returns the line."""
    from .oco import Ball, Box, Simplex

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
