"""Littlestone dimension, shattered trees, VC dimension and the Standard Optimal Algorithm.

UML Section 21.1.1: a tree of depth d with instances v_1, ..., v_{2^d - 1} at
its nodes is *shattered* by H if for every labeling (y_1, ..., y_d) some h in H
has h(v_{i_t}) = y_t for t = 1..d, where i_1 = 1 and i_{t+1} = 2 i_t + y_t
(Definition 21.4).  Ldim(H) is the largest depth of a shattered tree
(Definition 21.5), with Ldim of the empty class -1 and of one hypothesis 0.

**Exact Ldim.**  The recursion Ldim(V) = max_x 1 + min(Ldim V_x^0, Ldim V_x^1)
is decided level by level, as in the quasi-polynomial algorithm of Manurangsi
and Rubinstein (2017): "Ldim(V) >= k" holds iff some point x splits V into two
parts that both have Ldim >= k - 1.  Version spaces are bitsets over the rows
of H (Python integers: AND and popcount on 64-bit words), and

* every proven bound is memoized per version space (a lower and an upper bound);
* a version space with fewer than 2^k hypotheses cannot have Ldim >= k
  (Ldim(V) <= floor(log2 |V|), UML Example 21.2), which prunes most splits and
  stops the search as soon as a split reaches that cap;
* a child inherits only the points that split its parent, and points that split
  V identically are tried once;
* the smaller part of a split is decided first, since it fails more often.

:func:`shattered_tree` reads a witness tree off the memo; :func:`is_shattered`
checks a tree against Definition 21.4 by enumerating all root-to-leaf labelings
with plain numpy on the matrix -- no code shared with the search, so each can
catch the other.
"""
from __future__ import annotations

import itertools
import math

import numpy as np

from .classes import check_class
from .game import NotRealizableError

__all__ = ["LdimSolver", "SOA", "is_shattered", "is_shattered_set", "ldim", "ldim_at_least", "shattered_tree", "vcdim"]

#: The exact algorithms refuse larger classes (rows, columns).
MAX_HYPOTHESES = 2**16
MAX_POINTS = 2**12


def _bitsets(H: np.ndarray) -> list[int]:
    """Column x as an integer whose bit i is H[i, x]."""
    m = H.shape[0]
    pad = (8 - m % 8) % 8
    return [int.from_bytes(np.packbits(H[::-1, x]).tobytes(), "big") >> pad for x in range(H.shape[1])]


def _mask(m: int, rows) -> int:
    """Bitset of the given rows (indices or a boolean mask); all rows if None."""
    if rows is None:
        return (1 << m) - 1
    r = np.asarray(rows)
    if r.dtype == bool:
        if r.shape != (m,):
            raise ValueError(f"a boolean row mask must have shape ({m},); got {r.shape}")
        r = np.flatnonzero(r)
    v = 0
    for i in r.tolist():
        if not 0 <= i < m:
            raise ValueError(f"row index {i} is outside 0..{m - 1}")
        v |= 1 << i
    return v


class LdimSolver:
    """Exact Littlestone dimension of H and of its sub-classes, with a shared memo.

    ``ldim(rows)`` is Ldim of the sub-class given by ``rows`` (indices or a
    boolean mask; all of H by default).  The memo persists across calls, which
    is what makes SOA cheap: its version spaces are sub-classes of one H.
    """

    def __init__(self, H):
        A = check_class(H)
        m, n = A.shape
        if m > MAX_HYPOTHESES or n > MAX_POINTS:
            raise ValueError(
                f"the exact Ldim algorithm is limited to {MAX_HYPOTHESES} hypotheses and {MAX_POINTS} points; "
                f"got a class with {m} hypotheses and {n} points"
            )
        self.H = A
        self.m, self.n = m, n
        cols = _bitsets(A)
        first: dict[int, int] = {}
        for x, c in enumerate(cols):
            first.setdefault(c, x)  # one point per distinct column
        self._points = [(x, c) for c, x in first.items()]
        self._col_of = dict(self._points)
        self._lb: dict[int, int] = {}
        self._ub: dict[int, int] = {}
        self._split: dict[int, tuple[int, int]] = {}  # V -> (point, k) of the largest k proven through it
        self.nodes = 0  # search nodes expanded (for benchmarks)

    # -- the decision procedure --------------------------------------------------------
    def _ge(self, V: int, k: int, active: list[tuple[int, int]]) -> bool:
        if k <= 0:
            return k < 0 or V != 0
        size = V.bit_count()
        if size < (1 << k):
            return False
        if self._lb.get(V, -1) >= k:
            return True
        if self._ub.get(V, 1 << 30) < k:
            return False
        self.nodes += 1
        need = 1 << (k - 1)
        splitting: list[tuple[int, int]] = []
        cands: list[tuple[int, int, int]] = []
        seen: set[int] = set()
        for x, c in active:
            V1 = V & c
            s1 = V1.bit_count()
            if 0 < s1 < size and V1 not in seen:
                seen.add(V1)
                splitting.append((x, c))
                s = min(s1, size - s1)
                if s >= need:
                    cands.append((s, x, V1))
        cands.sort(key=lambda t: -t[0])
        for _, x, V1 in cands:
            V0 = V & ~V1
            small, large = (V1, V0) if V1.bit_count() <= V0.bit_count() else (V0, V1)
            if self._ge(small, k - 1, splitting) and self._ge(large, k - 1, splitting):
                self._lb[V] = max(self._lb.get(V, -1), k)
                if self._split.get(V, (0, -1))[1] < k:
                    self._split[V] = (x, k)
                return True
        self._ub[V] = min(self._ub.get(V, 1 << 30), k - 1)
        return False

    def _ldim(self, V: int) -> int:
        if V == 0:
            return -1
        k = self._lb.get(V, 0)
        while self._ge(V, k + 1, self._points):
            k += 1
        return k

    # -- public --------------------------------------------------------------------------
    def ldim(self, rows=None) -> int:
        """Ldim of the sub-class ``rows`` of H (-1 if it is empty)."""
        return self._ldim(_mask(self.m, rows))

    def at_least(self, k: int, rows=None) -> bool:
        """Decide Ldim(rows) >= k without computing Ldim exactly."""
        return self._ge(_mask(self.m, rows), int(k), self._points)

    def tree(self, rows=None) -> np.ndarray:
        """A tree of depth Ldim(rows) shattered by the sub-class, as the array (v_1, ..., v_{2^d - 1})."""
        V = _mask(self.m, rows)
        d = self._ldim(V)
        if d < 0:
            raise ValueError("the empty class shatters no tree (its Ldim is -1)")
        tree = np.full(2**d - 1, -1, dtype=np.int64)

        def fill(i: int, V: int, k: int) -> None:
            if k == 0:
                return
            self._ge(V, k, self._points)  # make sure the split is in the memo
            x, _ = self._split[V]
            tree[i - 1] = x
            c = self._col_of[x]
            fill(2 * i, V & ~c, k - 1)
            fill(2 * i + 1, V & c, k - 1)

        fill(1, V, d)
        return tree


def ldim(H) -> int:
    """The Littlestone dimension of the finite class H (UML Definition 21.5), computed exactly."""
    return LdimSolver(H).ldim()


def ldim_at_least(H, k: int) -> bool:
    """Decide whether Ldim(H) >= k (Manurangsi and Rubinstein 2017's search, with pruning)."""
    return LdimSolver(H).at_least(k)


def shattered_tree(H) -> np.ndarray:
    """A tree of depth Ldim(H) shattered by H: the instances (v_1, ..., v_{2^d - 1}) in UML's
    indexing (Definition 21.4), node i having children 2i (label 0) and 2i + 1 (label 1)."""
    return LdimSolver(H).tree()


def is_shattered(tree, H) -> bool:
    """Check Definition 21.4 directly: for every labeling (y_1..y_d) some row h of H has
    h(v_{i_t}) = y_t with i_t = 2^{t-1} + sum_{j<t} y_j 2^{t-1-j}.

    Enumerates the 2^d root-to-leaf labelings on the 0/1 matrix; shares no code with the search.
    """
    A = check_class(H)
    v = np.asarray(tree, dtype=np.int64).ravel()
    d = int(round(math.log2(len(v) + 1)))
    if 2**d - 1 != len(v):
        raise ValueError(f"a complete tree has 2^d - 1 nodes; got {len(v)}")
    if d == 0:
        return True
    if v.min() < 0 or v.max() >= A.shape[1]:
        raise ValueError(f"tree instances must be points 0..{A.shape[1] - 1}; got {v.min()}..{v.max()}")
    labelings = (np.arange(2**d)[:, None] >> np.arange(d - 1, -1, -1)[None, :]) & 1  # row = (y_1, ..., y_d)
    t = np.arange(1, d + 1)
    idx = np.empty_like(labelings)
    for tt in t:  # i_t = 2^{t-1} + sum_{j<t} y_j 2^{t-1-j}
        j = np.arange(1, tt)
        idx[:, tt - 1] = 2 ** (tt - 1) + (labelings[:, : tt - 1] * 2 ** (tt - 1 - j)).sum(axis=1)
    points = v[idx - 1]
    for chunk in range(0, 2**d, 256):
        P, Y = points[chunk: chunk + 256], labelings[chunk: chunk + 256]
        ok = (A[:, P] == Y[None, :, :]).all(axis=2).any(axis=0)  # A[:, P] has shape (m, chunk, d)
        if not ok.all():
            return False
    return True


def is_shattered_set(points, H) -> bool:
    """Whether H shatters the set of points: all 2^k label patterns appear on them."""
    A = check_class(H)
    p = np.asarray(points, dtype=np.int64)
    if len(set(p.tolist())) != len(p):
        raise ValueError("a shattered set has distinct points")
    if len(p) == 0:
        return True
    patterns = {row.tobytes() for row in A[:, p]}
    return len(patterns) == 2 ** len(p)


def vcdim(H, return_set: bool = False, max_sets: int = 2 * 10**6):
    """The VC dimension of the finite class H, exactly, optionally with a shattered set as witness.

    Depth-first search over sets of points in increasing index order, extending
    only shattered sets (a subset of a shattered set is shattered) and refining
    the partition of H by label pattern as points are added; VCdim(H) <=
    floor(log2 |H|) bounds the depth and stops the search once reached.  The
    search is exponential in the worst case: it raises ``ValueError`` after
    visiting ``max_sets`` shattered sets, saying so.
    """
    A = check_class(H)
    m, n = A.shape
    if m > MAX_HYPOTHESES or n > MAX_POINTS:
        raise ValueError(
            f"the exact VC-dimension search is limited to {MAX_HYPOTHESES} hypotheses and {MAX_POINTS} points; "
            f"got a class with {m} hypotheses and {n} points"
        )
    cap = int(math.floor(math.log2(m)))
    cols = _bitsets(A)
    best: list[int] = []
    visited = 0

    def extend(S: list[int], parts: list[int], start: int) -> None:
        nonlocal best, visited
        visited += 1
        if visited > max_sets:
            raise ValueError(
                f"vcdim: the exact search visited more than max_sets = {max_sets} shattered sets; "
                f"the class ({m} hypotheses, {n} points) is too large for it"
            )
        if len(S) > len(best):
            best = list(S)
        if len(S) >= cap:
            return
        for x in range(start, n):
            if len(S) + (n - x) <= len(best):
                return  # too few points left to beat the best set found
            c = cols[x]
            new = []
            for p in parts:
                a, b = p & c, p & ~c
                if a == 0 or b == 0:
                    break
                new += [a, b]
            else:
                extend(S + [x], new, x + 1)
                if len(best) >= cap:
                    return

    extend([], [(1 << m) - 1], 0)
    return (len(best), np.array(best, dtype=np.int64)) if return_set else len(best)


class SOA:
    """The Standard Optimal Algorithm (UML Section 21.1.1): predict the label r whose restricted
    version space V_t(r) = {h in V_t : h(x_t) = r} has the larger Ldim; a tie predicts ``tie``.

    UML breaks ties towards 1; the Expert(i_1, ..., i_L) construction of UML Section 21.2
    uses SOA with ties towards 0, hence the parameter.  The trace records Ldim(V_t)
    (``state()["ldim"]``), |V_t|, and per round the Ldim of both restrictions
    (``details["ldim0"]``, ``details["ldim1"]``).  Mistake bound: Ldim(H) (Lemma 21.7).
    """

    labels = (0, 1)

    def __init__(self, H, tie: int = 1, solver: LdimSolver | None = None):
        if tie not in (0, 1):
            raise ValueError(f"tie must be 0 or 1; got {tie!r}")
        self.solver = solver if solver is not None else LdimSolver(H)
        self.tie = tie
        self.n_points = self.solver.n
        self._cols = dict((x, c) for x, c in zip(range(self.n_points), _bitsets(self.solver.H)))
        self.V = (1 << self.solver.m) - 1
        self.t = 1
        self.details: dict = {}

    def _x(self, x) -> int:
        if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, np.integer)) or not 0 <= x < self.n_points:
            raise ValueError(f"round {self.t}: x = {x!r} is not a point of the domain {{0, ..., {self.n_points - 1}}}")
        return int(x)

    def predict(self, x) -> int:
        x = self._x(x)
        V1 = self.V & self._cols[x]
        l0, l1 = self.solver._ldim(self.V & ~V1), self.solver._ldim(V1)
        self.details = {"ldim0": l0, "ldim1": l1}
        return 1 if l1 > l0 else 0 if l0 > l1 else self.tie

    def update(self, x, y) -> None:
        x = self._x(x)
        if isinstance(y, (bool, np.bool_)) or not isinstance(y, (int, np.integer)) or y not in (0, 1):
            raise ValueError(f"round {self.t}: label y = {y!r} is not in {{0, 1}}")
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

    def state(self) -> dict:
        return {"ldim": self.solver._ldim(self.V), "V_size": self.V.bit_count()}
