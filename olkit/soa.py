"""The Standard Optimal Algorithm and the game of Lemma 21.6, with the checks of SOA's mistake bound.

UML Section 21.1.1: SOA predicts the label whose restricted version space has the larger Littlestone
dimension, so that every mistake lowers Ldim(V_t) by at least one (Lemma 21.7): at most Ldim(H)
mistakes on any realizable sequence.  The dimensions come from :mod:`olkit.littlestone` (the exact
solver, and the definition by recursion that the checks use independently of it).

:class:`TreeGame` is the game of Lemma 21.6 round by round.  Its figures
(:func:`olkit.plots.draw_tree`, :func:`olkit.plots.draw_tree_game`, the widget
:func:`olkit.plots.tree_game_widget`) and the display :class:`olkit.plots.Table` live in
:mod:`olkit.plots`, above the learners: a learner never imports a figure.

:func:`soa_rule` and :func:`soa_ldims` recompute SOA's rule from the recorded run and the definition of
Ldim; :func:`check_soa` checks Lemma 21.7 step by step on such runs (Chapter 2).
"""
from __future__ import annotations

import math

import numpy as np

from .classes import check_class
from .game import NotRealizableError, check_label01, check_point
from .littlestone import LdimByDefinition, LdimSolver, _rows_of

__all__ = ["SOA", "TreeGame", "check_soa", "random_realizable", "soa_ldims", "soa_rule", "tree_nodes"]


class SOA:
    """The Standard Optimal Algorithm (UML Section 21.1.1): predict the label r whose restricted
    version space V_t(r) = {h in V_t : h(x_t) = r} has the larger Ldim; a tie predicts ``tie``.

    UML breaks ties towards 1; the Expert(i_1, ..., i_L) construction of UML Section 21.2
    uses SOA with ties towards 0, hence the parameter.  The trace records Ldim(V_t)
    (``state()["ldim"]``), |V_t|, and per round the Ldim of both restrictions
    (``details["ldim0"]``, ``details["ldim1"]``).  Mistake bound: Ldim(H) (Lemma 21.7).
    ``solver`` (an :class:`LdimSolver` of the same H) shares a memo between learners.
    """

    labels = (0, 1)

    def __init__(self, H, tie: int = 1, solver: LdimSolver | None = None):
        if isinstance(tie, (bool, np.bool_)) or not isinstance(tie, (int, np.integer)) or tie not in (0, 1):
            raise ValueError(f"tie must be 0 or 1 (the label predicted when both restrictions have equal Ldim); got {tie!r}")
        if solver is None:
            solver = LdimSolver(H)
        elif not isinstance(solver, LdimSolver):
            raise ValueError(f"solver must be an LdimSolver; got {type(solver).__name__}")
        elif H is not None and not np.array_equal(check_class(H), solver.H):
            raise ValueError("solver was built for a different class than H")
        self.solver = solver
        self.tie = int(tie)
        self.n_points = solver.n
        self._cols = solver.columns
        self.V = (1 << solver.m) - 1
        self.t = 1
        self.details: dict = {}

    def _x(self, x) -> int:
        return check_point(x, self.n_points, self.t)

    def predict(self, x) -> int:
        x = self._x(x)
        V1 = self.V & self._cols[x]
        l0, l1 = self.solver._ldim(self.V & ~V1), self.solver._ldim(V1)
        self.details = {"ldim0": l0, "ldim1": l1}
        return 1 if l1 > l0 else 0 if l0 > l1 else self.tie

    def update(self, x, y) -> None:
        x, y = self._x(x), check_label01(y, self.t)
        c = self._cols[x]
        newV = self.V & c if y == 1 else self.V & ~c
        if newV == 0:
            raise NotRealizableError(
                f"round {self.t}: the sequence is not realizable by H: no hypothesis in the version space "
                f"labels x = {x} with y = {y} (the version space becomes empty at round {self.t})",
                self.t,
            )
        self.V = newV
        self.t += 1

    def version_space(self) -> np.ndarray:
        """The rows of H in V_t (the current version space), in increasing order."""
        return _rows_of(self.V)

    def state(self) -> dict:
        return {"ldim": self.solver._ldim(self.V), "V_size": self.V.bit_count()}


# -- the game of Lemma 21.6, round by round --------------------------------------------------


class TreeGame:
    """The game of UML Lemma 21.6, one round at a time, for figures and the widget.

    The environment walks the shattered ``tree`` (default: :func:`shattered_tree` of H)
    and contradicts every prediction: round t shows x_t = v_{i_t}, and :meth:`answer`
    takes the learner's prediction and returns y_t = 1 - yhat_t.  The game records the
    version space V_t = {h in H : h(x_s) = y_s, s < t} and its Ldim, and ends after d
    rounds; then some row of H labels every round (:meth:`witness`).
    """

    def __init__(self, H, tree=None, solver: LdimSolver | None = None):
        self.solver = solver if solver is not None else LdimSolver(H)
        self.H = self.solver.H
        self.tree = np.asarray(self.solver.tree() if tree is None else tree, dtype=np.int64).ravel()
        self.depth = int(round(math.log2(len(self.tree) + 1)))
        if 2**self.depth - 1 != len(self.tree):
            raise ValueError(f"a complete tree has 2^d - 1 nodes; got {len(self.tree)}")
        self.i = 1
        self.xs: list[int] = []
        self.yhats: list[int] = []
        self.ys: list[int] = []
        self.V = np.arange(self.H.shape[0])
        self.ldims = [self.solver.ldim(self.V)]
        self.sizes = [len(self.V)]

    @property
    def done(self) -> bool:
        return len(self.ys) >= self.depth

    @property
    def mistakes(self) -> int:
        return sum(int(a != b) for a, b in zip(self.yhats, self.ys))

    def next_x(self) -> int | None:
        """The instance of the current round (None once the game is over)."""
        return None if self.done else int(self.tree[self.i - 1])

    def answer(self, yhat: int) -> int:
        """Play the current round with prediction ``yhat``; return the environment's label."""
        if self.done:
            raise ValueError(f"the game is over: it has d = {self.depth} rounds")
        if yhat not in (0, 1):
            raise ValueError(f"yhat must be 0 or 1; got {yhat!r}")
        x = self.next_x()
        y = 1 - int(yhat)
        self.xs.append(x)
        self.yhats.append(int(yhat))
        self.ys.append(y)
        self.i = 2 * self.i + y
        self.V = self.V[self.H[self.V, x] == y]
        self.ldims.append(self.solver.ldim(self.V))
        self.sizes.append(len(self.V))
        return y

    def play(self, learner) -> "TreeGame":
        """Let ``learner`` (predict/update) play the remaining rounds."""
        while not self.done:
            x = self.next_x()
            y = self.answer(int(learner.predict(x)))
            learner.update(x, y)
        return self

    def witness(self) -> int:
        """A row of H that labels every round played so far as the environment did."""
        if len(self.V) == 0:
            raise ValueError("no hypothesis of H is consistent with the game: the tree is not shattered by H")
        return int(self.V[0])

    def status(self, point_names=None) -> str:
        name = (lambda p: f"x = {p}") if point_names is None else (lambda p: str(point_names[p]))
        lines = []
        for t, (x, yh, y) in enumerate(zip(self.xs, self.yhats, self.ys), start=1):
            lines.append(f"round {t}: {name(x)}, predicted {yh}, label {y} ({'mistake' if yh != y else 'correct'}); "
                         f"|V_{t + 1}| = {self.sizes[t]}, Ldim(V_{t + 1}) = {self.ldims[t]}")
        if self.done:
            lines.append(f"game over: {self.mistakes} mistakes in {self.depth} rounds = Ldim(H); "
                         f"row {self.witness()} of H gives every label")
        else:
            lines.append(f"round {len(self.ys) + 1}: the environment shows {name(self.next_x())}; "
                         f"|V_t| = {self.sizes[-1]}, Ldim(V_t) = {self.ldims[-1]}. Predict 0 or 1.")
        return "\n".join(lines)



# -- the checks of Chapter 2, from the recorded games -------------------------------------------


def tree_nodes(y) -> np.ndarray:
    """UML's node indices i_1, ..., i_{T+1} of the walk that the labels y = (y_1, ..., y_T) take.

    Computed by the closed form i_t = 2^{t-1} + sum_{j<t} y_j 2^{t-1-j} (the labels read as a binary
    number behind a leading 1; UML Section 21.1.1, Definition 21.4), not by the recursion
    i_{t+1} = 2 i_t + y_t that :class:`olkit.adversaries.TreeAdversary` follows, so that it can check
    that environment (step 2 of UML Lemma 21.6).  The node of round t carries the instance
    ``tree[i_t - 1]``.
    """
    y = np.asarray(y).ravel()
    if y.size and not np.isin(y, (0, 1)).all():
        raise ValueError(f"y must hold labels 0 and 1; got {sorted(set(y.tolist()))}")
    if y.size > 62:
        raise ValueError(f"y: at most 62 labels (the node index must fit in int64); got {y.size}")
    y = [int(v) for v in y]
    return np.array(
        [2 ** (t - 1) + sum(y[j - 1] * 2 ** (t - 1 - j) for j in range(1, t)) for t in range(1, len(y) + 2)],
        dtype=np.int64,
    )


def random_realizable(H, T: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A random realizable sequence for H: a target row drawn uniformly, then T instances drawn
    uniformly from the domain and labeled by the target.  Returns (xs, ys), ys in {0, 1}."""
    H = check_class(H)
    if isinstance(T, (bool, np.bool_)) or not isinstance(T, (int, np.integer)) or T < 0:
        raise ValueError(f"T must be a non-negative integer (the number of rounds); got {T!r}")
    target = int(rng.integers(H.shape[0]))
    xs = rng.integers(0, H.shape[1], size=int(T))
    return xs, H[target, xs].astype(int)


def soa_ldims(H, xs, ys, L: LdimByDefinition | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Ldim(V_t) for t = 1..T+1 and Ldim(V_t(0)), Ldim(V_t(1)) for t = 1..T along a labeled sequence.

    The version spaces are rebuilt from (x_t, y_t) with plain numpy masks, and every Ldim comes from
    :class:`LdimByDefinition` (``L``, or a fresh one for H): nothing is taken from a learner or from
    :class:`LdimSolver`.  These are the quantities of UML's SOA rule and of Lemma 21.7's proof
    (see :func:`soa_rule` and :func:`check_soa`).  A label that empties the version space is allowed
    (its Ldim is -1), so the sequence need not be realizable.
    """
    L = LdimByDefinition(H) if L is None else L
    A = L.H
    xs, ys = np.asarray(xs, dtype=np.int64).ravel(), np.asarray(ys).ravel()
    if xs.shape != ys.shape:
        raise ValueError(f"xs and ys must have the same length; got {xs.size} and {ys.size}")
    if xs.size and (xs.min() < 0 or xs.max() >= A.shape[1]):
        raise ValueError(f"xs must be points 0..{A.shape[1] - 1}; got values in [{xs.min()}, {xs.max()}]")
    if ys.size and not np.isin(ys, (0, 1)).all():
        raise ValueError(f"ys must hold labels 0 and 1; got {sorted(set(ys.tolist()))}")
    alive = np.ones(len(A), dtype=bool)
    now, l0, l1 = [L(alive)], [], []
    for x, y in zip(xs, ys):
        l0.append(L(alive & ~A[:, x]))
        l1.append(L(alive & A[:, x]))
        alive &= A[:, x] == bool(y)
        now.append(L(alive))
    return np.array(now, dtype=np.int64), np.array(l0, dtype=np.int64), np.array(l1, dtype=np.int64)


def soa_rule(H, xs, ys, tie: int = 1) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """UML's SOA rule (Section 21.1.1) recomputed along a labeled sequence: (Ldim V_t(0), Ldim V_t(1),
    the prediction argmax_r Ldim V_t(r), ``tie`` on equality), with the Ldims of :func:`soa_ldims`
    (the definition's recursion on version spaces rebuilt from the labels), to check ``olkit.SOA``."""
    if tie not in (0, 1):
        raise ValueError(f"tie must be 0 or 1; got {tie!r}")
    _, l0, l1 = soa_ldims(H, xs, ys)
    return l0, l1, np.where(l1 > l0, 1, np.where(l0 > l1, 0, int(tie)))


def check_soa(runs: dict, title: str, definitions: dict | None = None):
    """Check UML Lemma 21.7 (SOA makes at most Ldim(H) mistakes), steps 1-6 of the book's proof, on
    the runs ``{name: (trace, H)}`` (the instances of all runs together); returns the ``Proof``.

    Every Ldim in the steps is recomputed from the trace's (x_t, y_t) by :func:`soa_ldims`
    (the definition's recursion, one :class:`LdimByDefinition` memo per class, shared through
    ``definitions``, keyed by ``H.tobytes()``); step 0 compares them with the values the learner
    recorded (``state["ldim"]``, ``details["ldim0"]``, ``details["ldim1"]``), which are what it
    decided with.  Steps: 0 recorded = definition; 1 Ldim(V_{t+1}) = Ldim(V_t(y_t)); 2 both parts
    have Ldim <= Ldim(V_t); 3 the smaller part has Ldim <= Ldim(V_t) - 1; 4 a mistake takes the
    smaller part; 5 a mistake lowers Ldim by one, 5' Ldim never increases; 6 M_t <= Ldim(H) -
    Ldim(V_{t+1}), 6' Ldim(V_{t+1}) >= 0; bound M <= Ldim(H).

    Checks (a wrong learner can fail them): 0, 4, 5, 6 and the bound -- they involve what the learner
    recorded, or its mistakes.  Identities (true for every learner, shown and labelled): 1 (the
    version spaces are rebuilt from the labels), 2, 3 and 5' (properties of Ldim) and 6' (the
    sequences are realizable).
    """
    from .proof import Proof

    definitions = {} if definitions is None else definitions
    ind = {}
    for name, (tr, H) in runs.items():
        key = np.asarray(H).tobytes()
        if key not in definitions:
            definitions[key] = LdimByDefinition(H)
        ind[name] = soa_ldims(H, tr.x, tr.y, definitions[key])

    def cat(f):
        return np.concatenate([f(name, tr) for name, (tr, _) in runs.items()])

    L_now, L_next = cat(lambda n, tr: ind[n][0][:-1]), cat(lambda n, tr: ind[n][0][1:])
    l0, l1 = cat(lambda n, tr: ind[n][1]), cat(lambda n, tr: ind[n][2])
    y, mistake = cat(lambda n, tr: np.asarray(tr.y)), cat(lambda n, tr: np.asarray(tr.mistake))
    M_t = cat(lambda n, tr: np.asarray(tr.cum_mistakes))
    L_H = cat(lambda n, tr: np.full(tr.T, ind[n][0][0]))
    labels = [f"{name}, round {t}" for name, (tr, _) in runs.items() for t in tr.rounds]
    recorded = cat(
        lambda n, tr: np.stack([tr.state["ldim"][:-1], tr.details["ldim0"], tr.details["ldim1"]], 1).ravel()
    )
    L_y = np.where(y == 1, l1, l0)
    p = Proof(title)
    p.step("0", "SOA's recorded Ldim(V_t), Ldim(V_t(0)), Ldim(V_t(1)) = the definition's", recorded, "==",
           np.stack([L_now, l0, l1], 1).ravel(), rounds=np.repeat(labels, 3))
    p.step("1", "Ldim(V_{t+1}) = Ldim(V_t(y_t))", L_next, "==", L_y, rounds=labels, kind="identity",
           why="V_{t+1} = V_t(y_t), both rebuilt from the labels")
    p.step("2", "Ldim(V_t(r)) <= Ldim(V_t), r = 0, 1", np.maximum(l0, l1), "<=", L_now, rounds=labels,
           kind="identity", why="a subclass shatters fewer trees")
    p.step("3", "min_r Ldim(V_t(r)) <= Ldim(V_t) - 1", np.minimum(l0, l1), "<=", L_now - 1, rounds=labels,
           kind="identity", why="the recursion lemma")
    p.step("4", "on a mistake Ldim(V_t(y_t)) = min_r Ldim(V_t(r))", L_y, "==", np.minimum(l0, l1),
           where=mistake, rounds=labels)
    p.step("5", "on a mistake Ldim(V_{t+1}) <= Ldim(V_t) - 1", L_next, "<=", L_now - 1, where=mistake,
           rounds=labels)
    p.step("5'", "Ldim(V_{t+1}) <= Ldim(V_t)", L_next, "<=", L_now, rounds=labels, kind="identity",
           why="steps 1 and 2")
    p.step("6", "M_t <= Ldim(H) - Ldim(V_{t+1})", M_t, "<=", L_H - L_next, rounds=labels)
    p.step("6'", "Ldim(V_{t+1}) >= 0", L_next, ">=", 0, rounds=labels, kind="identity",
           why="the sequence is realizable")
    names = list(runs)
    p.step("bound", "M <= Ldim(H)", [tr.M for tr, _ in runs.values()], "<=", [ind[n][0][0] for n in names],
           rounds=names)
    return p
