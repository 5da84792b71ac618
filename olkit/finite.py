"""Learners for finite classes: Consistent, Halving and the efficient Halving for thresholds.

All three keep the version space V_t = {h in H : h(x_s) = y_s for s < t} (UML
Section 21.1) and record its size in the trace (``state()["V_size"]``).

Two facts make them fast.  V_t is an index array that only shrinks, so a round
costs O(|V_t|).  And once x has been seen with label y, every h in V agrees on
x, so a repeated point costs O(1): the learners remember the label of every
point they have seen.  Both are exact: predictions and version spaces are
those of the round-by-round definition.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .classes import as_class
from .game import NotRealizableError, check_label01, check_point

if TYPE_CHECKING:
    from .game import Trace
    from .proof import Proof

__all__ = [
    "Consistent",
    "Halving",
    "ThresholdHalving",
    "consistent_sizes",
    "consistent_proof",
    "halving_proof",
]


class _VersionSpace:
    """Shared bookkeeping: the class, the alive indices, the round counter, seen labels."""

    labels = (0, 1)

    def __init__(self, H):
        self.H = as_class(H)
        self.n_points = self.H.shape[1]
        self.V = np.arange(self.H.shape[0], dtype=np.int64)
        self.t = 1  # the round about to be played
        self.seen = np.full(self.n_points, -1, dtype=np.int8)  # label of each seen point, -1 if unseen
        self.details: dict = {}

    def _x(self, x) -> int:
        return check_point(x, self.n_points, self.t)

    def _y(self, y) -> int:
        return check_label01(y, self.t)

    def _column(self, x: int) -> np.ndarray:
        """h(x) for h in V (all equal to the seen label if x was seen)."""
        if self.seen[x] >= 0:
            return np.full(len(self.V), self.seen[x], dtype=np.uint8)
        return self.H.values(self.V, x)

    def _restrict(self, x: int, y: int) -> None:
        """V <- {h in V : h(x) = y}; raise if that empties V."""
        if self.seen[x] >= 0:
            keep_all = self.seen[x] == y
            newV = self.V if keep_all else self.V[:0]
        else:
            newV = self.V[self.H.values(self.V, x) == y]
        if len(newV) == 0:
            raise NotRealizableError(
                f"round {self.t}: the sequence is not realizable by H: no hypothesis in the version space "
                f"labels x = {x} with y = {y} (the version space becomes empty at round {self.t})",
                self.t,
            )
        self.V = newV
        self.seen[x] = y

    def state(self) -> dict:
        return {"V_size": len(self.V)}


class Consistent(_VersionSpace):
    """Consistent (UML Section 21.1; Telgarsky's CONSISTENT): predict with some h in V_t.

    ``choice`` makes "choose any h in V_t" explicit: ``"first"`` takes the
    smallest index, ``"last"`` the largest, ``"random"`` a uniform draw from
    ``rng`` (made once per round, so ``predict`` can be called twice).

    ``update`` picks what is removed on a round: ``"version_space"`` (UML) keeps
    V_{t+1} = {h in V_t : h(x_t) = y_t}, so |V_{t+1}| <= |V_t| - 1[mistake];
    ``"remove_chosen"`` (Telgarsky) removes only the chosen h, and only when it
    erred, so |V_{t+1}| = |V_t| - 1[mistake] exactly.  Either way the target is
    never removed and the mistake bound is |H| - 1 (UML Corollary 21.2).

    The trace records ``V_size`` and the ``chosen`` hypothesis of each round.
    """

    def __init__(self, H, choice: str = "first", update: str = "version_space", rng: np.random.Generator | None = None):
        super().__init__(H)
        if choice not in ("first", "last", "random"):
            raise ValueError(f"choice must be 'first', 'last' or 'random'; got {choice!r}")
        if update not in ("version_space", "remove_chosen"):
            raise ValueError(f"update must be 'version_space' or 'remove_chosen'; got {update!r}")
        if choice == "random" and not isinstance(rng, np.random.Generator):
            raise ValueError("choice='random' needs rng, a seeded np.random.default_rng(seed)")
        self.choice, self.rule, self.rng = choice, update, rng
        self._chosen: int | None = None
        if self.rule == "remove_chosen":
            self.seen[:] = -1  # V is not a version space in this variant: never shortcut on seen points

    def chosen(self) -> int:
        """Index (row of H) of the hypothesis used in the current round."""
        if self._chosen is None:
            if self.choice == "first":
                self._chosen = int(self.V[0])
            elif self.choice == "last":
                self._chosen = int(self.V[-1])
            else:
                self._chosen = int(self.V[self.rng.integers(len(self.V))])
        return self._chosen

    def predict(self, x) -> int:
        x = self._x(x)
        h = self.chosen()
        yhat = int(self.H.values(np.array([h]), x)[0])
        self.details = {"chosen": h}
        return yhat

    def update(self, x, y) -> None:
        x, y = self._x(x), self._y(y)
        h = self.chosen()
        if self.rule == "version_space":
            self._restrict(x, y)
        elif int(self.H.values(np.array([h]), x)[0]) != y:
            self.V = self.V[self.V != h]
            if len(self.V) == 0:
                raise NotRealizableError(
                    f"round {self.t}: the sequence is not realizable by H: the last hypothesis erred "
                    f"on x = {x}, y = {y} (the version space becomes empty at round {self.t})",
                    self.t,
                )
        self._chosen = None
        self.t += 1


class Halving(_VersionSpace):
    """Halving (UML Section 21.1, Theorem 21.3): predict the majority vote of V_t; a tie predicts 1.

    ``tie`` sets the label predicted on a tie (UML: 1).  The trace's details hold
    the votes ``ones`` = |{h in V_t : h(x_t) = 1}| and ``size`` = |V_t|.
    Mistake bound: log2 |H| (Theorem 21.3; Mohri et al. Theorem 7.1).

    Rows are counted with repetition: a row that appears twice votes twice, and the
    bound is log2 of the number of rows.  For log2 of the number of distinct
    functions, pass ``np.unique(H, axis=0)`` (small random classes repeat rows).
    """

    def __init__(self, H, tie: int = 1):
        super().__init__(H)
        if isinstance(tie, (bool, np.bool_)) or not isinstance(tie, (int, np.integer)) or tie not in (0, 1):
            raise ValueError(f"tie must be 0 or 1 (an int); got {tie!r}")
        self.tie = tie

    def votes(self, x) -> tuple[int, int]:
        """(votes for 1, |V_t|) on the point x."""
        x = self._x(x)
        return int(self._column(x).sum(dtype=np.int64)), len(self.V)

    def predict(self, x) -> int:
        ones, size = self.votes(x)
        zeros = size - ones
        self.details = {"ones": ones, "size": size}
        return 1 if ones > zeros else 0 if zeros > ones else self.tie

    def update(self, x, y) -> None:
        x, y = self._x(x), self._y(y)
        self._restrict(x, y)
        self.t += 1


class ThresholdHalving:
    """Halving for thresholds on a grid in O(1) arithmetic per round (Shalev-Shwartz's lecture).

    The class is :func:`olkit.classes.thresholds` ``(n)``: h_k(x) = 1[x >= k],
    k = 0..n.  Its version space is always an interval of thresholds
    {k : lo <= k <= hi}, so Halving needs only the two ends: on x the votes for 1
    are #{k in [lo, hi] : k <= x}.  The lecture keeps the same interval as the
    real numbers l_t = lo - 1/2 and r_t = hi - 1/2 (in units of the grid step).
    Predictions and version spaces equal those of ``Halving(thresholds(n))``
    round by round, ties included (a tie predicts 1).  Each round costs a
    constant number of operations on O(log n)-bit integers.
    """

    labels = (0, 1)

    def __init__(self, n: int, tie: int = 1):
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
            raise ValueError(f"n must be a positive integer; got {n!r}")
        if isinstance(tie, (bool, np.bool_)) or not isinstance(tie, (int, np.integer)) or tie not in (0, 1):
            raise ValueError(f"tie must be 0 or 1 (an int); got {tie!r}")
        self.n, self.tie = int(n), tie
        self.lo, self.hi = 0, int(n)
        self.t = 1
        self.details: dict = {}

    def _x(self, x) -> int:
        return check_point(x, self.n, self.t)

    def predict(self, x) -> int:
        x = self._x(x)
        size = self.hi - self.lo + 1
        ones = min(max(x - self.lo + 1, 0), size)
        zeros = size - ones
        self.details = {"ones": ones, "size": size}
        return 1 if ones > zeros else 0 if zeros > ones else self.tie

    def update(self, x, y) -> None:
        x, y = self._x(x), check_label01(y, self.t)
        lo, hi = (self.lo, min(self.hi, x)) if y == 1 else (max(self.lo, x + 1), self.hi)
        if lo > hi:
            raise NotRealizableError(
                f"round {self.t}: the sequence is not realizable by thresholds: no threshold in "
                f"[{self.lo}, {self.hi}] labels x = {x} with y = {y} (the version space becomes empty at round {self.t})",
                self.t,
            )
        self.lo, self.hi = lo, hi
        self.t += 1

    def state(self) -> dict:
        return {"V_size": self.hi - self.lo + 1, "lo": self.lo, "hi": self.hi}


# ------------------------------------------------------------------------------------------------
# The proofs of Chapter 1.2, checked on a recorded trace.  Both checks recompute the version space
# and the votes from the class H and the trace's (x_t, y_t) with plain numpy, never from the
# learner's own bookkeeping; the learner's recorded |V_t| and predictions are compared with them.


def consistent_sizes(H, trace: Trace, update: str = "version_space") -> np.ndarray:
    """|V_t| for t = 1..T+1, recomputed from ``H`` and the trace (not by the learner).

    ``update="version_space"`` (UML Section 21.1): V_t = {h in H : h(x_s) = y_s for s < t}.
    ``update="remove_chosen"`` (Telgarsky, Lecture 10): H minus the chosen hypotheses that erred,
    read from ``trace.details["chosen"]`` and checked against H (a row removed twice counts once).
    """
    return _candidates(H, trace, update).sum(axis=0)


def _candidates(H, trace: Trace, update: str) -> np.ndarray:
    """Boolean (|H|, T+1): row i is in V_t (column t-1), recomputed from H and the trace."""
    H = np.asarray(H)
    if update == "version_space":
        alive = np.cumprod(H[:, trace.x] == trace.y[None, :], axis=1) > 0  # consistent with 1..t
        return np.hstack([np.ones((len(H), 1), dtype=bool), alive])
    if update != "remove_chosen":
        raise ValueError(f"update: expected 'version_space' or 'remove_chosen', got {update!r}")
    chosen = np.asarray(trace.details["chosen"], dtype=np.int64)
    erred = H[chosen, trace.x] != trace.y  # the chosen hypothesis erred: removed
    removed = np.zeros((len(H), trace.T + 1), dtype=bool)
    removed[chosen[erred], np.flatnonzero(erred) + 1] = True
    return ~np.logical_or.accumulate(removed, axis=1)


def consistent_proof(trace: Trace, H, title: str, update: str = "version_space", choice: str | None = None) -> Proof:
    """The proof of Consistent's bound M <= |H| - 1 (UML Corollary 21.2; Telgarsky, Lecture 10),
    steps 0-4 of Theorem ``thm-consistent`` of the book's Section 1.2, on a recorded trace.

    The candidate sets V_t are recomputed from ``H``, the trace's (x_t, y_t) and (for Telgarsky's
    update) the recorded choices.  Step 0 compares the learner's recorded |V_t| with them, step 0'
    its prediction with the chosen row of H, step 0'' checks that the chosen row is in V_t (the
    algorithm's "choose some h_t in V_t"); with ``choice="first"`` or ``"last"``, step 0c checks that it
    is the smallest or largest index of the recomputed V_t (the learner's stated rule; a random choice
    is not checked beyond 0'').  Steps 1-4 use the recomputed sizes only.  Step 3 holds
    for every learner on realizable labels (an identity of the environment).  Returns the
    :class:`olkit.proof.Proof` (a failing step raises ``ProofStepError``).
    """
    from .bounds import consistent_bound
    from .proof import Proof

    alive = _candidates(H, trace, update)
    V = alive.sum(axis=0)
    chosen = np.asarray(trace.details["chosen"], dtype=np.int64)
    m = trace.mistake.astype(int)
    p = Proof(title)
    p.step("0", "the learner's |V_t| = the recomputed |V_t|", trace.state["V_size"], "==", V)
    p.step("0'", "yhat_t = h_t(x_t) for the chosen h_t", trace.yhat, "==", np.asarray(H)[chosen, trace.x])
    p.step("0''", "the chosen h_t is in V_t", alive[chosen, np.arange(trace.T)].astype(int), "==", 1)
    if choice in ("first", "last"):
        rows = np.arange(len(alive))[:, None]
        ends = np.where(alive[:, :-1], rows, -1).max(axis=0) if choice == "last" else \
            np.where(alive[:, :-1], rows, len(alive)).min(axis=0)
        p.step("0c", f"h_t is the {'largest' if choice == 'last' else 'smallest'} index in V_t", chosen, "==", ends)
    rel = "==" if update == "remove_chosen" else "<="
    p.step("1", "|V_{t+1}| vs |V_t| - 1[mistake_t]", V[1:], rel, V[:-1] - m)
    p.step("2", "M_t vs |V_1| - |V_{t+1}|", trace.cum_mistakes, rel, V[0] - V[1:])
    p.step("3", "|V_{t+1}| >= 1", V[1:], ">=", 1, kind="identity", why="realizable labels: h* stays")
    p.step("4", "M <= |H| - 1", trace.M, "<=", consistent_bound(len(H)))
    return p


def halving_proof(trace: Trace, H, title: str, tie: int = 1) -> Proof:
    """The proof of Halving's bound M <= log2 |H| (UML Theorem 21.3, Mohri et al. Theorem 7.1),
    steps 0-5 of Theorem ``thm-halving`` of the book's Section 1.2, on a recorded trace.

    The version spaces V_1..V_{T+1} and the votes N_t for label 1 are recomputed from ``H`` and the
    trace; step 0 compares the learner's recorded |V_t| with them and step 0' its prediction with
    the majority vote of V_t (``tie`` on a tie).  Steps 1 (the definition of V_{t+1}) and 4a (the
    target survives on realizable labels) hold whatever the learner does: they are identities.
    Returns the :class:`olkit.proof.Proof`.
    """
    from .bounds import halving_bound
    from .proof import Proof

    H = np.asarray(H)
    size, m = len(H), trace.mistake.astype(int)
    alive = np.hstack(
        [np.ones((size, 1), dtype=bool), np.cumprod(H[:, trace.x] == trace.y[None, :], axis=1) > 0]
    )
    V = alive.sum(axis=0)  # |V_1|, ..., |V_{T+1}|
    N = (alive[:, :-1] & (H[:, trace.x] == 1)).sum(axis=0)  # votes for 1 in round t
    size_t = V[:-1]
    p = Proof(title)
    p.step("0", "the learner's |V_t| = the recomputed |V_t|", trace.state["V_size"], "==", V)
    p.step(
        "0'",
        f"yhat_t = the majority vote of V_t, {tie} on a tie",
        trace.yhat,
        "==",
        np.where(2 * N == size_t, tie, (2 * N > size_t).astype(int)),
    )
    p.step("1", "|V_{t+1}| = votes for y_t", V[1:], "==", np.where(trace.y == 1, N, size_t - N),
           kind="identity", why="definition of V_{t+1}")
    p.step("2", "on a mistake |V_{t+1}| <= |V_t| / 2", V[1:], "<=", V[:-1] / 2, where=m == 1)
    p.step("3", "|V_{t+1}| <= |V_t| 2^-1[mistake_t]", V[1:], "<=", V[:-1] * 2.0**-m)
    p.step("4a", "|V_{t+1}| >= 1", V[1:], ">=", 1, kind="identity", why="realizable labels: h* stays")
    p.step("4b", "|V_{t+1}| <= |H| 2^-M_t", V[1:], "<=", size * 2.0**-trace.cum_mistakes)
    p.step("5", "M <= log2 |H|", trace.M, "<=", halving_bound(size))
    return p
