"""Adaptive environments that pick x_t and y_t after seeing the learner's prediction.

* :class:`BisectionAdversary` -- thresholds on the reals are not online learnable
  (Shalev-Shwartz's lecture, "Not always helps"; UML Example 21.4): the
  environment follows the bisection method and every prediction is wrong, yet
  one threshold stays consistent with all the labels.
* :class:`GreedyAdversary` -- for a finite class: a white-box environment that,
  every round, shows the point and label that force a mistake while keeping
  the largest version space.  It forces Consistent to |H| - 1 mistakes on
  singletons (UML Exercise 21.1) and Halving to floor(log2 |H|) on thresholds.

* :class:`TreeAdversary` -- UML Lemma 21.6: walks a shattered tree and answers
  the opposite of every prediction, forcing Ldim(H) mistakes on any learner
  while staying consistent with some h in H.
* :class:`GridAdversary` -- greedy white-box environments for halfspaces on the
  grid G^d against the Ellipsoid learner (Shalev-Shwartz's lecture), and
  :func:`grid_worst_case`, the exact worst case of that learner by a complete
  game-tree search.

* :class:`WinnowAdversary` -- a greedy white-box environment against Winnow for a
  target disjunction (Chapter 4), and :func:`winnow_worst_case`, Winnow's exact
  worst case for small d by a complete search.

All are used with :func:`olkit.game.play`.
"""
from __future__ import annotations

import copy
import functools
import itertools

import numpy as np

from . import fp
from .classes import as_class, check_class, grid_int
from .game import int_at_least

__all__ = [
    "BisectionAdversary",
    "GreedyAdversary",
    "GridAdversary",
    "TreeAdversary",
    "WinnowAdversary",
    "grid_worst_case",
    "winnow_worst_case",
    "worst_case_mistakes",
]


_int_at_least = int_at_least
_grid_int = grid_int


class BisectionAdversary:
    """Thresholds h_theta(x) = 1[x >= theta] on [0, 1]: shows the midpoint of the
    consistent interval and answers the opposite of the prediction.

    The consistent thresholds always form an interval (a, b] with a < b:
    a label 1 on x means theta <= x (b <- x), a label 0 means theta > x (a <- x).
    The points are dyadic, so they are exact floats for up to ``max_rounds`` = 50
    rounds.  After the game, :meth:`witness` is a threshold consistent with
    every label given.
    """

    max_rounds = 50

    def __init__(self):
        self.a, self.b = 0.0, 1.0
        self.rounds = 0

    def next_x(self, learner=None) -> float | None:
        if self.rounds >= self.max_rounds:
            raise ValueError(f"BisectionAdversary: more than {self.max_rounds} rounds exceed float precision")
        return (self.a + self.b) / 2

    def label(self, x: float, yhat: int) -> int:
        if yhat not in (0, 1):
            raise ValueError(f"BisectionAdversary: prediction must be 0 or 1; got {yhat!r}")
        y = 1 - yhat
        if y == 1:
            self.b = x
        else:
            self.a = x
        self.rounds += 1
        return y

    def witness(self) -> float:
        """A threshold in (a, b] (here b) consistent with every label given so far."""
        return self.b


class GreedyAdversary:
    """White-box mistake-forcing adversary for a finite class ``H`` (a dense 0/1 matrix).

    Each round it asks the learner what it would predict on every point
    (``learner.predict`` must not change the learner's state), and shows the
    point x whose forced label y = 1 - yhat(x) keeps the most hypotheses
    consistent (ties: the smallest x).  The game ends (``next_x`` returns None)
    when all of V labels every point alike, i.e. no mistake can be forced.
    :meth:`witness` is a row of H consistent with all the labels given.
    """

    def __init__(self, H):
        self.C = as_class(H)
        self.V = np.arange(self.C.shape[0], dtype=np.int64)
        self.n_points = self.C.shape[1]

    def next_x(self, learner) -> int | None:
        best, best_size = None, 0
        for x in range(self.n_points):
            col = self.C.values(self.V, x)
            ones = int(col.sum())
            if ones in (0, len(self.V)):
                continue  # V agrees on x: a forced label would empty V
            yhat = learner.predict(x)
            keep = len(self.V) - ones if yhat == 1 else ones
            if keep > best_size:
                best, best_size = x, keep
        return best

    def label(self, x: int, yhat: int) -> int:
        y = 1 - int(yhat)
        self.V = self.V[self.C.values(self.V, x) == y]
        assert len(self.V) > 0, "GreedyAdversary emptied its version space"
        return y

    def witness(self) -> int:
        """Index of a hypothesis of H consistent with every label given so far."""
        return int(self.V[0])


class TreeAdversary:
    """The environment of UML Lemma 21.6: walk a shattered tree, contradicting every prediction.

    ``tree`` is (v_1, ..., v_{2^d - 1}) in UML's indexing (Definition 21.4).  Round t
    shows x_t = v_{i_t}, answers y_t = 1 - yhat_t and moves to i_{t+1} = 2 i_t + y_t;
    after d rounds the game ends.  If the tree is shattered by H, some h in H gives
    all d labels, and :meth:`witness` finds one (``H`` is needed only for that).
    """

    def __init__(self, tree, H=None):
        self.tree = np.asarray(tree, dtype=np.int64).ravel()
        d = int(np.log2(len(self.tree) + 1))
        if 2**d - 1 != len(self.tree):
            raise ValueError(f"a complete tree has 2^d - 1 nodes; got {len(self.tree)}")
        self.depth, self.i, self.H = d, 1, H
        self.path: list[tuple[int, int]] = []

    def next_x(self, learner=None) -> int | None:
        if len(self.path) >= self.depth:
            return None
        return int(self.tree[self.i - 1])

    def label(self, x: int, yhat: int) -> int:
        y = 1 - int(yhat)
        self.path.append((int(x), y))
        self.i = 2 * self.i + y
        return y

    def witness(self) -> int:
        """Index of a row of H that labels every round as this environment did."""
        if self.H is None:
            raise ValueError("TreeAdversary.witness needs the class H")
        A = np.asarray(self.H)
        ok = np.ones(len(A), dtype=bool)
        for x, y in self.path:
            ok &= A[:, x] == y
        if not ok.any():
            raise ValueError("no hypothesis of H is consistent with the walk: the tree is not shattered by H")
        return int(np.flatnonzero(ok)[0])


class GridAdversary:
    """A greedy white-box environment against the Ellipsoid learner on the grid G^d.

    It keeps the version space V of grid weights (non-zero points of G^d) with
    y_s <w, x_s> > 0 for every round so far; with ``w_star`` given, V starts as
    {w_star} (a fixed target), otherwise as all of G^d minus 0.  Each round it
    reads the learner's centre w_t, and among the non-zero grid points x whose
    contradicted label y = -yhat(x) keeps V non-empty, it shows one chosen by
    ``rule``:

    * ``"largest"``: the one that keeps the most of V (ties: first in grid order);
    * ``"smallest"``: the one that keeps the fewest (but at least one) of V;
    * ``"shallow"``: the one whose cut passes closest to the centre, i.e. the
      smallest |<w_t, x>| / sqrt(x^T A_t x) (points x and -x, or x and 2x, tie
      exactly: among depths within a relative 1e-9 (plus 1e-12) of the smallest,
      the first in grid order, so that rounding cannot choose; a tie of the
      learner counts as depth 0);
    * ``"random"``: a uniform draw from ``rng``.

    The predictions yhat(x) are the learner's own, by its rule ``learner.sides``
    (+1 iff <w_t, x> > 0 beyond the tie tolerance of :mod:`olkit.fp`), so the
    environment and the learner cannot disagree.  Every
    round is a mistake, and the labels are realizable: :meth:`witness` is a
    w* in V, with margin y_t <w*, x_t> >= 1/n^2 on every round.  The game ends
    (``next_x`` returns None) when no mistake can be forced.  Used with
    :func:`olkit.game.play`; the sup over sequences in a mistake bound allows
    such an environment, since the learner is deterministic.
    """

    def __init__(self, n: int, d: int, rule: str = "largest", w_star=None, rng: np.random.Generator | None = None):
        self.n = _int_at_least(n, "n", 1)
        self.d = _int_at_least(d, "d", 2)
        if rule not in ("largest", "smallest", "shallow", "random"):
            raise ValueError(f"rule must be 'largest', 'smallest', 'shallow' or 'random'; got {rule!r}")
        if rule == "random" and not isinstance(rng, np.random.Generator):
            raise ValueError("rule='random' needs rng, a seeded np.random.default_rng(seed)")
        if (2 * self.n + 1) ** self.d > 5000:
            raise ValueError(f"GridAdversary: (2n+1)^d = {(2 * self.n + 1) ** self.d} grid points is too many (limit 5000)")
        self.rule, self.rng = rule, rng
        G = np.array(np.meshgrid(*[np.arange(-self.n, self.n + 1)] * self.d, indexing="ij")).reshape(self.d, -1).T
        self.K = G[G.any(axis=1)]  # non-zero integer grid points (k = n * point), lexicographic order
        self.X = self.K / self.n
        self.S = np.sign(self.K @ self.K.T).astype(np.int8)  # S[i, j] = sign <w_i, x_j>
        if w_star is None:
            self.V = np.ones(len(self.K), dtype=bool)
        else:
            k = _grid_int(w_star, self.n, "w_star")
            if k.shape != (self.d,) or not k.any():
                raise ValueError(f"w_star must be a non-zero point of G^{self.d}; got {np.asarray(w_star).tolist()}")
            self.V = (self.K == k).all(axis=1)
        self._pending: int | None = None

    def _predictions(self, learner) -> np.ndarray:
        """The learner's prediction on every grid point, by its own rule (``learner.sides``: ties predict -1)."""
        return np.where(learner.sides(self.X) > 0, 1, -1)

    def next_x(self, learner) -> np.ndarray | None:
        y = -self._predictions(learner)
        keep = (self.S[self.V] == y[None, :]).sum(axis=0)
        ok = np.flatnonzero(keep > 0)
        if len(ok) == 0:
            self._pending = None
            return None
        if self.rule == "largest":
            j = int(ok[np.argmax(keep[ok])])
        elif self.rule == "smallest":
            j = int(ok[np.argmin(keep[ok])])
        elif self.rule == "shallow":
            j = int(ok[fp.first_min(self._depths(learner, self.X[ok]), rtol=1e-9, atol=1e-12)])
        else:
            j = int(self.rng.choice(ok))
        self._pending = j
        return self.X[j].copy()

    @staticmethod
    def _depths(learner, X) -> np.ndarray:
        """|<w_t, x>| / sqrt(x^T A_t x) for each row x of X: how far the cut passes from the centre,
        in units of the ellipsoid's half-width along x; exactly 0 on a tie."""
        w = np.asarray(learner.w, dtype=float)
        A = np.asarray(learner.A, dtype=float)
        wx = fp.matvec(X, w)
        xAx = np.einsum("ij,ij->i", X, X @ A)
        depth = np.abs(wx) / np.sqrt(xAx)
        return np.where(fp.sign(wx, fp.tie_scale(w, X)) == 0, 0.0, depth)

    def label(self, x, yhat: int) -> int:
        if self._pending is None:
            raise ValueError("GridAdversary.label called without a pending point")
        j = self._pending
        y = -int(yhat)
        V = self.V & (self.S[:, j] == y)
        if not V.any():
            raise ValueError(f"GridAdversary: the label {y} empties the version space (the learner's prediction "
                             "differs from the one the environment computed)")
        self.V = V
        self._pending = None
        return y

    def witness(self) -> np.ndarray:
        """A grid weight w* (first in grid order) consistent with every label given so far."""
        return self.K[np.argmax(self.V)] / self.n

    def version_space(self) -> np.ndarray:
        """All grid weights consistent with the labels so far, one per row."""
        return self.K[self.V] / self.n


def grid_worst_case(n: int, d: int, max_nodes: int = 200_000) -> int:
    """The exact worst-case number of mistakes of :class:`Ellipsoid` on the grid (UML Definition 21.1).

    The sup over grid targets w* (non-zero points of G^d) and over sequences of
    grid points x with y <w*, x> > 0, found by a complete game-tree search: from
    a state (w_t, A_t, V) the environment may show any non-zero grid point x with
    a label y that keeps the version space V of grid weights non-empty.  Only
    rounds that update the learner change the state: the mistakes, and the ties
    <w_t, x> = 0 labelled -1 (which the learner predicts right and still
    updates on).  Every update shrinks the volume by a fixed factor, so the
    tree is finite.  Predictions are the learner's own (``predict`` is called),
    so rounding is treated exactly as in a run.  Raises ``ValueError`` when the
    tree has more than ``max_nodes`` nodes.
    """
    n = _int_at_least(n, "n", 1)
    d = _int_at_least(d, "d", 2)
    env = GridAdversary(n, d)
    S, X = env.S, env.X
    nodes = 0

    def value(learner, V: np.ndarray) -> int:
        nonlocal nodes
        nodes += 1
        if nodes > max_nodes:
            raise ValueError(f"grid_worst_case(n={n}, d={d}): the game tree has more than max_nodes = {max_nodes} nodes")
        best = 0
        for j, x in enumerate(X):
            yhat = learner.predict(x)
            labels = (-yhat, -1) if yhat == -1 and learner.details["tie"] else (-yhat,)
            for y in labels:
                Vy = V & (S[:, j] == y)
                if not Vy.any():
                    continue
                nxt = copy.copy(learner)
                nxt.w, nxt.A, nxt.details = learner.w.copy(), learner.A.copy(), {}
                nxt.update(x, int(y))
                best = max(best, int(y != yhat) + value(nxt, Vy))
        return best

    from .ellipsoid import Ellipsoid

    return value(Ellipsoid(d), np.ones(len(env.K), dtype=bool))


# -- Winnow (Chapter 4) -----------------------------------------------------------------------
class WinnowAdversary:
    """A greedy white-box environment against :class:`olkit.winnow.Winnow` for the target disjunction of ``relevant``.

    Every round it reads the learner's weights and forces a mistake if it can:

    * a *promotion* first: the relevant feature with the smallest weight, if the learner would
      predict -1 on it, together with as many surviving irrelevant features (largest weights first)
      as keep the prediction -1 -- label +1, so their weights double too;
    * else an *elimination*: surviving irrelevant features, largest weights first, until the learner
      would predict +1 -- label -1.

    When neither is possible (every relevant weight predicts +1 alone and the surviving irrelevant
    weights cannot reach the threshold) no mistake can be forced on any instance, and ``next_x``
    returns None.  The labels are the target's.  Used with :func:`olkit.play`.
    """

    def __init__(self, d: int, relevant):
        self.d = int_at_least(d, "d", 1)
        rel = np.unique(np.asarray(relevant, dtype=np.int64))
        if len(rel) == 0 or rel.min() < 0 or rel.max() >= self.d:
            raise ValueError(f"relevant must be a non-empty set of feature indices in 0..{self.d - 1}; got {relevant!r}")
        self.relevant = rel
        self.irrelevant = np.setdiff1d(np.arange(self.d), rel)

    def target(self, x) -> int:
        return 1 if np.asarray(x)[self.relevant].any() else -1

    def next_x(self, learner) -> np.ndarray | None:
        w = learner.w
        order = self.irrelevant[np.argsort(-w[self.irrelevant], kind="stable")]
        order = order[w[order] > 0]
        for j in self.relevant[np.argsort(w[self.relevant], kind="stable")]:
            x = np.zeros(self.d, dtype=np.int64)
            x[j] = 1
            if learner._predict_sum(int(w @ x)) != -1:
                continue
            for i in order:
                x[i] = 1
                if learner._predict_sum(int(w @ x)) != -1:
                    x[i] = 0
            return x
        x = np.zeros(self.d, dtype=np.int64)
        for i in order:
            x[i] = 1
            if learner._predict_sum(int(w @ x)) == 1:
                return x
        return None

    def label(self, x, yhat) -> int:
        return self.target(x)


def winnow_worst_case(d: int, k: int, tie: int = 1) -> tuple[int, list[np.ndarray]]:
    """The exact worst case of :class:`olkit.winnow.Winnow` (with ``tie``) over all sequences labelled by the
    disjunction of the first k features, and a sequence that attains it.

    Only mistakes change Winnow's weights, so the worst case is the longest path of mistakes from
    w = (1, ..., 1) in the graph whose nodes are weight vectors and whose edges are the instances of
    {0, 1}^d on which the current weights err; a complete search with memoization on the weights
    (finite: every weight is 0 or a power of two at most 2d).  Returns (mistakes, [x_1, x_2, ...]).
    By symmetry the choice of the k relevant features does not matter.  Exponential: d <= 8.
    """
    d = int_at_least(d, "d", 1)
    k = int_at_least(k, "k", 1)
    if k > d or d > 8:
        raise ValueError(f"winnow_worst_case needs 1 <= k <= d <= 8; got d = {d}, k = {k}")
    if tie not in (-1, 1):
        raise ValueError(f"tie must be -1 or +1; got {tie!r}")
    A = np.array(list(itertools.product((0, 1), repeat=d)), dtype=np.int64)  # all of {0, 1}^d
    Y = np.where(A[:, :k].any(axis=1), 1, -1)
    pos = Y == 1

    def successors(w: tuple) -> tuple[np.ndarray, np.ndarray]:
        wa = np.array(w, dtype=np.int64)
        s = A @ wa
        yhat = np.where(s > d, 1, np.where(s < d, -1, tie))
        idx = np.flatnonzero(yhat != Y)
        W2 = np.where(A[idx] == 1, np.where(pos[idx, None], 2 * wa, 0), wa)
        return idx, W2

    @functools.lru_cache(maxsize=None)
    def value(w: tuple) -> tuple[int, int]:
        best, arg = 0, -1
        idx, W2 = successors(w)
        for i, w2 in zip(idx.tolist(), W2.tolist()):
            v = 1 + value(tuple(w2))[0]
            if v > best:
                best, arg = v, i
        return best, arg

    w = tuple([1] * d)
    total, seq = value(w)[0], []
    while True:
        v, i = value(w)
        if i < 0:
            break
        seq.append(A[i].copy())
        wa = np.array(w, dtype=np.int64)
        w = tuple(np.where(A[i] == 1, 2 * wa if Y[i] == 1 else 0, wa).tolist())
    value.cache_clear()
    return total, seq


def worst_case_mistakes(H, make_learner, max_size: int = 24) -> int | float:
    """M_A(H) of UML Definition 21.1, computed exactly for a small dense class.

    The sup over target h in H and over sequences (chosen adaptively, which is
    the same thing for a deterministic learner) is a game-tree search: from a
    version space V, the environment picks x and a label y that keeps V_y =
    {h in V : h(x) = y} non-empty, and collects 1[A(x) != y] + M(V_y).

    ``make_learner(H)`` builds a fresh deterministic learner.  The search
    memoizes on V, which is exact for learners whose prediction depends on the
    version space only (Consistent with update="version_space", Halving, SOA);
    the learner is replayed along a shortest history to each V.  If the learner
    errs on a point that all of V labels alike, the environment can repeat that
    point forever, and the result is ``inf``.  Classes with more than
    ``max_size`` hypotheses are refused (the search is exponential).
    """
    A = check_class(H)
    if A.shape[0] > max_size:
        raise ValueError(f"worst_case_mistakes: |H| = {A.shape[0]} exceeds max_size = {max_size} (exponential search)")
    memo: dict[bytes, float] = {}

    def learner_after(history):
        learner = make_learner(A)
        for x, y in history:
            learner.predict(x)
            learner.update(x, y)
        return learner

    def value(V: np.ndarray, history: tuple) -> float:
        key = V.tobytes()
        if key in memo:
            return memo[key]
        best = 0.0
        learner = learner_after(history)
        cols = A[V]  # the labels that V gives every point, one row per hypothesis
        agree = (cols.min(axis=0) == cols.max(axis=0)).tolist()
        for x in range(A.shape[1]):
            col = cols[:, x]
            yhat = learner.predict(x)
            if agree[x]:  # V agrees on x: the label is forced
                if yhat != col[0]:
                    memo[key] = float("inf")
                    return float("inf")
                continue
            for y in (0, 1):
                best = max(best, float(yhat != y) + value(V[col == y], history + ((x, y),)))
        memo[key] = best
        return best

    v = value(np.arange(A.shape[0]), ())
    return v if v == float("inf") else int(v)
