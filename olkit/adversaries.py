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

All are used with :func:`olkit.game.play`.
"""
from __future__ import annotations

import numpy as np

from .classes import as_class

__all__ = ["BisectionAdversary", "GreedyAdversary", "TreeAdversary"]


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
