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
of H (Python integers: AND and popcount on machine words), and

* every proven bound is memoized per version space (a lower and an upper bound);
* a version space with fewer than 2^k hypotheses cannot have Ldim >= k
  (Ldim(V) <= floor(log2 |V|), UML Example 21.2), which prunes most splits and
  stops the search as soon as a split reaches that cap;
* a child inherits only the points that split its parent, and points that split
  V identically are tried once;
* the smaller part of a split is decided first, since it fails more often;
* "Ldim(V) >= 1" only asks for one point that splits V;
* a version space that occupies a small fraction of its bit width (deep in the
  search, a few rows spread over all of H) is re-indexed onto its own rows
  ("localized"), so that the cost of a bitset operation follows |V|, not |H|.

:func:`shattered_tree` reads a witness tree off the memo; :func:`is_shattered`
checks a tree against Definition 21.4 by enumerating all root-to-leaf labelings
with plain numpy on the matrix -- no code shared with the search, so each can
catch the other.

:class:`TreeGame` is the game of Lemma 21.6 round by round.  Its figures
(:func:`olkit.plots.draw_tree`, :func:`olkit.plots.draw_tree_game`, the widget
:func:`olkit.plots.tree_game_widget`) and the display :class:`olkit.plots.Table` live in
:mod:`olkit.plots`, above the learners: a learner never imports a figure.
"""
from __future__ import annotations

import math
from typing import Callable, Sequence

import numpy as np

from .classes import check_class
from .game import NotRealizableError, check_label01, check_point

__all__ = [
    "LdimByDefinition",
    "LdimSolver",
    "SOA",
    "TreeGame",
    "is_shattered",
    "is_shattered_set",
    "ldim",
    "ldim_brute",
    "ldim_at_least",
    "shattered_tree",
    "vcdim",
]

#: The exact algorithms refuse larger classes (rows, columns).
MAX_HYPOTHESES = 2**16
MAX_POINTS = 2**12

#: Localize a version space V when |V| * SPARSE <= (bit width of V), the width exceeds MIN_LOCAL_WIDTH
#: and the question is about Ldim >= k with k >= MIN_LOCAL_K (re-indexing costs more than a small search).
SPARSE = 16
MIN_LOCAL_WIDTH = 256
MIN_LOCAL_K = 4

_BIG = 1 << 30


def _bitsets(H: np.ndarray) -> list[int]:
    """Column x as an integer whose bit i is H[i, x]."""
    m, n = H.shape
    if n == 0:
        return []
    pad = (8 - m % 8) % 8
    packed = np.ascontiguousarray(np.packbits(H[::-1], axis=0).T)  # row x: column x, row m-1 first
    return [int.from_bytes(packed[x].tobytes(), "big") >> pad for x in range(n)]


def _rows_of(V: int) -> np.ndarray:
    """Indices of the set bits of V, in increasing order."""
    nbytes = (V.bit_length() + 7) // 8
    bits = np.unpackbits(np.frombuffer(V.to_bytes(nbytes, "little"), dtype=np.uint8), bitorder="little")
    return np.flatnonzero(bits)


def _mask(m: int, rows) -> int:
    """Bitset of the given rows (indices or a boolean mask); all rows if None."""
    if rows is None:
        return (1 << m) - 1
    r = np.asarray(rows)
    if r.dtype == bool:
        if r.shape != (m,):
            raise ValueError(f"a boolean row mask must have shape ({m},); got {r.shape}")
        r = np.flatnonzero(r)
    elif r.size and not np.issubdtype(r.dtype, np.integer):
        raise ValueError(f"rows must be integer row indices or a boolean mask; got dtype {r.dtype}")
    v = 0
    for i in r.ravel().tolist():
        if not 0 <= i < m:
            raise ValueError(f"row index {i} is outside 0..{m - 1}")
        v |= 1 << i
    return v


def _check_size(A: np.ndarray, what: str) -> None:
    m, n = A.shape
    if m > MAX_HYPOTHESES or n > MAX_POINTS:
        raise ValueError(
            f"{what} is limited to {MAX_HYPOTHESES} hypotheses and {MAX_POINTS} points; "
            f"got a class with {m} hypotheses and {n} points"
        )


class _Search:
    """The decision search "Ldim(V) >= k" on the rows of the matrix ``A``, restricted to the points ``xs``.

    Bit i of a version space is row i of ``A``.  ``points`` holds one (x, column bitset)
    per distinct column; points keep their global index x, so trees read off any
    search name points of the original class.
    """

    def __init__(self, A: np.ndarray, xs: Sequence[int], cols: list[int] | None = None):
        self.A = A
        self.width = A.shape[0]
        if cols is None:
            cols = _bitsets(A[:, list(xs)]) if len(xs) else []
        first: dict[int, int] = {}
        for x, c in zip(xs, cols):
            first.setdefault(c, int(x))  # one point per distinct column
        self.points = [(x, c) for c, x in first.items()]
        self.col_of = dict(self.points)
        self.lb: dict[int, int] = {}
        self.ub: dict[int, int] = {}
        self.split: dict[int, tuple[int, int]] = {}  # V -> (point, k) of the largest k proven through it
        self.subs: dict[int, _Search] = {}  # localized searches, by version space
        self.nodes = 0  # search nodes expanded (for benchmarks)

    # -- localization ------------------------------------------------------------------------
    def _sparse(self, V: int, size: int) -> bool:
        w = V.bit_length()
        return w > MIN_LOCAL_WIDTH and size < w and size * SPARSE <= w

    def _local(self, V: int, active) -> "_Search":
        """A search on the rows of V only (V becomes the full set of the new search).

        Only the points that split V are kept, one per distinct column on V.  The
        search is cached per V, so repeated questions about V share its memo.
        """
        sub = self.subs.get(V)
        if sub is None:
            rows = self.A[_rows_of(V)]
            xs = np.fromiter((x for x, _ in active), dtype=np.int64, count=len(active))
            S = rows[:, xs]
            keep = S.min(axis=0) != S.max(axis=0)
            xs, S = xs[keep], S[:, keep]
            sub = _Search(rows, xs.tolist(), cols=_bitsets(S))  # which keeps one point per distinct column
            self.subs[V] = sub
        return sub

    def _learn(self, V: int, sub: "_Search") -> None:
        """Copy what ``sub`` proved about its full set into the memo entry of V."""
        full = (1 << sub.width) - 1
        self.nodes += sub.nodes
        sub.nodes = 0
        if full in sub.lb and sub.lb[full] > self.lb.get(V, -1):
            self.lb[V] = sub.lb[full]
            if full in sub.split:  # every proven lb >= 1 comes with its split
                self.split[V] = sub.split[full]
        if full in sub.ub:
            self.ub[V] = min(self.ub.get(V, _BIG), sub.ub[full])

    # -- the decision procedure ---------------------------------------------------------------
    def ge(self, V: int, k: int, active) -> bool:
        """Whether Ldim(V) >= k; ``active`` contains every point that splits V."""
        if k <= 0:
            return k < 0 or V != 0
        size = V.bit_count()
        if size < (1 << k):
            return False
        if self.lb.get(V, -1) >= k:
            return True
        if self.ub.get(V, _BIG) < k:
            return False
        if k >= MIN_LOCAL_K and self._sparse(V, size):
            sub = self._local(V, active)
            ok = sub.ge((1 << sub.width) - 1, k, sub.points)
            self._learn(V, sub)
            return ok
        self.nodes += 1
        if k == 1:  # Ldim(V) >= 1 iff two rows of V differ somewhere
            for x, c in active:
                V1 = V & c
                if V1 and V1 != V:
                    self.lb[V] = max(self.lb.get(V, -1), 1)
                    self.split.setdefault(V, (x, 1))
                    return True
            self.ub[V] = 0
            return False
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
            if self.ge(small, k - 1, splitting) and self.ge(large, k - 1, splitting):
                self.lb[V] = max(self.lb.get(V, -1), k)
                if self.split.get(V, (0, -1))[1] < k:
                    self.split[V] = (x, k)
                return True
        self.ub[V] = min(self.ub.get(V, _BIG), k - 1)
        return False

    def ldim(self, V: int) -> int:
        """Ldim of the version space V (-1 if V is empty)."""
        if V == 0:
            return -1
        if self.lb.get(V, -1) >= 0 and self.lb[V] == self.ub.get(V, _BIG):
            return self.lb[V]
        size = V.bit_count()
        if size >= 1 << MIN_LOCAL_K and self._sparse(V, size):
            sub = self._local(V, self.points)
            d = sub.ldim((1 << sub.width) - 1)
            self._learn(V, sub)
            return d
        k = max(self.lb.get(V, 0), 0)
        while self.ge(V, k + 1, self.points):
            k += 1
        self.lb[V] = max(self.lb.get(V, -1), k)
        self.ub[V] = k
        return k

    def fill(self, tree: np.ndarray, i: int, V: int, k: int) -> None:
        """Write a tree of depth k shattered by V (Ldim(V) >= k) into ``tree`` below node i."""
        if k == 0:
            return
        if k >= MIN_LOCAL_K and self._sparse(V, V.bit_count()):
            sub = self._local(V, self.points)
            sub.fill(tree, i, (1 << sub.width) - 1, k)
            self.nodes += sub.nodes
            sub.nodes = 0
            return
        if not self.ge(V, k, self.points):  # also puts the split into the memo
            raise AssertionError(f"internal error: a version space of Ldim < {k} was asked for a tree of depth {k}")
        x, _ = self.split[V]
        c = self.col_of[x]
        tree[i - 1] = x
        self.fill(tree, 2 * i, V & ~c, k - 1)
        self.fill(tree, 2 * i + 1, V & c, k - 1)


class LdimSolver:
    """Exact Littlestone dimension of H and of its sub-classes, with a shared memo.

    ``ldim(rows)`` is Ldim of the sub-class given by ``rows`` (indices or a
    boolean mask; all of H by default).  The memo persists across calls, which
    is what makes SOA cheap: its version spaces are sub-classes of one H.
    ``nodes`` counts the search nodes expanded so far (a machine-independent cost).
    """

    def __init__(self, H):
        A = check_class(H)
        _check_size(A, "the exact Ldim algorithm")
        self.H = np.ascontiguousarray(A)
        self.m, self.n = A.shape
        self.columns = _bitsets(A)  # bitset of every point (SOA reads them)
        self._search = _Search(self.H, range(self.n), cols=self.columns)

    @property
    def nodes(self) -> int:
        return self._search.nodes

    def _ldim(self, V: int) -> int:
        return self._search.ldim(V)

    def ldim(self, rows=None) -> int:
        """Ldim of the sub-class ``rows`` of H (-1 if it is empty)."""
        return self._search.ldim(_mask(self.m, rows))

    def at_least(self, k: int, rows=None) -> bool:
        """Decide Ldim(rows) >= k without computing Ldim exactly."""
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
            raise ValueError(f"k must be an integer; got {k!r}")
        return self._search.ge(_mask(self.m, rows), int(k), self._search.points)

    def tree(self, rows=None) -> np.ndarray:
        """A tree of depth Ldim(rows) shattered by the sub-class, as the array (v_1, ..., v_{2^d - 1})."""
        V = _mask(self.m, rows)
        d = self._search.ldim(V)
        if d < 0:
            raise ValueError("the empty class shatters no tree (its Ldim is -1)")
        tree = np.full(2**d - 1, -1, dtype=np.int64)
        self._search.fill(tree, 1, V, d)
        return tree


def ldim(H) -> int:
    """The Littlestone dimension of the finite class H (UML Definition 21.5), computed exactly.

    ``H`` is a 0/1 matrix with at most ``MAX_HYPOTHESES`` rows and ``MAX_POINTS`` columns.
    """
    return LdimSolver(H).ldim()


def ldim_at_least(H, k: int) -> bool:
    """Decide whether Ldim(H) >= k (the decision search of Manurangsi and Rubinstein 2017, with pruning)."""
    return LdimSolver(H).at_least(k)


def shattered_tree(H) -> np.ndarray:
    """A tree of depth Ldim(H) shattered by H: the instances (v_1, ..., v_{2^d - 1}) in UML's
    indexing (Definition 21.4), node i having children 2i (label 0) and 2i + 1 (label 1)."""
    return LdimSolver(H).tree()


class LdimByDefinition:
    """Ldim by its recursion, written independently of :class:`LdimSolver`, to check it and SOA.

    Ldim(empty) = -1, Ldim of one hypothesis is 0, and otherwise
    Ldim(V) = max(0, max_x 1 + min(Ldim V_x^0, Ldim V_x^1)) over the points x that split V
    (a tree of depth k is shattered by V iff some root x has subtrees of depth k - 1 shattered by
    V_x^0 and V_x^1; UML Definition 21.5).  Version spaces are boolean masks over the rows of H,
    memoized by their packed bytes; the maximization over x stops at floor(log2 |V|), an upper
    bound on Ldim(V) (UML Example 21.2); points are tried from the most balanced split down, and
    the search stops when the smaller part is too small to improve on the best found.  Nothing is shared with the bitset search of :class:`LdimSolver`
    (different representation, order of search and pruning), so each can catch the other.
    ``max_nodes`` bounds the number of version spaces expanded (a ``ValueError`` beyond it).
    """

    def __init__(self, H, max_nodes: int = 2_000_000):
        self.H = check_class(H).astype(bool)
        self.memo: dict[bytes, int] = {}
        self.max_nodes = int(max_nodes)

    def __call__(self, mask) -> int:
        """Ldim of the rows selected by the boolean ``mask`` (or by row indices)."""
        m = np.zeros(self.H.shape[0], dtype=bool)
        mask = np.asarray(mask)
        if mask.dtype == bool:
            if mask.shape != m.shape:
                raise ValueError(f"a boolean row mask must have shape {m.shape}; got {mask.shape}")
            m = mask.copy()
        else:
            m[mask.astype(np.int64)] = True
        return self._L(m)

    def _L(self, mask: np.ndarray) -> int:
        size = int(mask.sum())
        if size <= 1:
            return size - 1
        key = np.packbits(mask).tobytes()
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        if len(self.memo) >= self.max_nodes:
            raise ValueError(f"LdimByDefinition: more than max_nodes = {self.max_nodes} version spaces expanded")
        cap = size.bit_length() - 1  # floor(log2 |V|)
        ones = self.H[mask].sum(axis=0)
        small = np.minimum(ones, size - ones)  # size of the smaller part of each split
        best = 0
        for x in np.flatnonzero(small > 0)[np.argsort(-small[small > 0], kind="stable")]:  # balanced splits first
            if int(small[x]).bit_length() <= best:
                break  # 1 + Ldim(smaller part) <= 1 + floor(log2 |smaller part|) <= best, here and for all later x
            a = self._L(mask & self.H[:, x])
            if 1 + a <= best:
                continue
            best = max(best, 1 + min(a, self._L(mask & ~self.H[:, x])))
            if best == cap:
                break
        self.memo[key] = best
        return best


def ldim_brute(H, rows=None) -> int:
    """Ldim of H (or of its rows ``rows``) by :class:`LdimByDefinition`: the check on :func:`ldim`."""
    L = LdimByDefinition(H)
    return L(np.ones(L.H.shape[0], dtype=bool) if rows is None else rows)


def is_shattered(tree, H) -> bool:
    """Check Definition 21.4 directly: for every labeling (y_1..y_d) some row h of H has
    h(v_{i_t}) = y_t with i_t = 2^{t-1} + sum_{j<t} y_j 2^{t-1-j}.

    Enumerates the 2^d root-to-leaf labelings on the 0/1 matrix; shares no code with the search.
    """
    A = check_class(H)
    v = np.asarray(tree).ravel()
    if v.size and not np.issubdtype(v.dtype, np.integer):
        raise ValueError(f"tree instances must be integer points; got dtype {v.dtype}")
    v = v.astype(np.int64)
    d = int(round(math.log2(len(v) + 1)))
    if 2**d - 1 != len(v):
        raise ValueError(f"a complete tree has 2^d - 1 nodes; got {len(v)}")
    if d == 0:
        return True
    if v.min() < 0 or v.max() >= A.shape[1]:
        raise ValueError(f"tree instances must be points 0..{A.shape[1] - 1}; got {v.min()}..{v.max()}")
    if d > 20:
        raise ValueError(f"is_shattered enumerates the 2^d labelings; depth d = {d} is too deep (limit 20)")
    labelings = (np.arange(2**d)[:, None] >> np.arange(d - 1, -1, -1)[None, :]) & 1  # row = (y_1, ..., y_d)
    idx = np.empty_like(labelings)
    for t in range(1, d + 1):  # i_t = 2^{t-1} + sum_{j<t} y_j 2^{t-1-j}
        j = np.arange(1, t)
        idx[:, t - 1] = 2 ** (t - 1) + (labelings[:, : t - 1] * 2 ** (t - 1 - j)).sum(axis=1)
    points = v[idx - 1]
    chunk = max(1, 2**22 // (A.shape[0] * d))  # keep A[:, P] below ~4 MB
    for start in range(0, 2**d, chunk):
        P, Y = points[start: start + chunk], labelings[start: start + chunk]
        ok = (A[:, P] == Y[None, :, :]).all(axis=2).any(axis=0)  # A[:, P] has shape (m, chunk, d)
        if not ok.all():
            return False
    return True


def is_shattered_set(points, H) -> bool:
    """Whether H shatters the set of points: all 2^k label patterns appear on them."""
    A = check_class(H)
    p = np.asarray(points, dtype=np.int64).ravel()
    if len(set(p.tolist())) != len(p):
        raise ValueError("a shattered set has distinct points")
    if len(p) == 0:
        return True
    if p.min() < 0 or p.max() >= A.shape[1]:
        raise ValueError(f"points must be in 0..{A.shape[1] - 1}; got {p.min()}..{p.max()}")
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
    _check_size(A, "the exact VC-dimension search")
    m, n = A.shape
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
