"""Trees (Chapter 2): a tree of points drawn with its leaves, the game of Lemma 21.6 played on it,
and the widget in which the reader plays against the tree environment."""
from __future__ import annotations

import html
import math
from typing import Callable, Sequence

import numpy as np

__all__ = ["draw_tree", "draw_tree_game", "tree_game_widget"]


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
    """The tree of a :class:`olkit.soa.TreeGame` with the path played so far (see
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
    from ..littlestone import LdimSolver
    from ..soa import SOA, TreeGame

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
