"""Littlestone dimension, shattered trees and VC dimension, computed exactly.

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

The Standard Optimal Algorithm and the game of Lemma 21.6, which ask this module for Ldim, are
:mod:`olkit.soa`.
"""
from __future__ import annotations

import math
import operator
from typing import Sequence

import numpy as np

from .classes import check_class

__all__ = [
    "LdimByDefinition",
    "LdimSolver",
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
_first = operator.itemgetter(0)


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
        cands: list[tuple[int, int, int, int]] = []
        seen: set[int] = set()
        for x, c in active:
            V1 = V & c
            s1 = V1.bit_count()
            if 0 < s1 < size and V1 not in seen:
                seen.add(V1)
                splitting.append((x, c))
                s = s1 if 2 * s1 <= size else size - s1  # the smaller part's size
                if s >= need:
                    cands.append((s, x, V1, s1))
        cands.sort(key=_first, reverse=True)  # largest smaller part first; stable among equals
        lb, ub, j = self.lb, self.ub, k - 1
        for _, x, V1, s1 in cands:
            V0 = V & ~V1
            small, large = (V1, V0) if 2 * s1 <= size else (V0, V1)
            # ge(W, j) answered from the memo where it can be (its first checks), else searched
            if lb.get(small, -1) < j and (ub.get(small, _BIG) < j or not self.ge(small, j, splitting)):
                continue
            if lb.get(large, -1) < j and (ub.get(large, _BIG) < j or not self.ge(large, j, splitting)):
                continue
            lb[V] = max(lb.get(V, -1), k)
            if self.split.get(V, (0, -1))[1] < k:
                self.split[V] = (x, k)
            return True
        ub[V] = min(ub.get(V, _BIG), k - 1)
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
        # the columns h(x) and their complements, each contiguous (a column of H is strided)
        self._ones = [np.ascontiguousarray(c) for c in self.H.T]
        self._zeros = [~c for c in self._ones]

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
        size = int(np.count_nonzero(mask))
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
        split = small > 0
        order = np.flatnonzero(split)[np.argsort(-small[split], kind="stable")]  # balanced splits first
        small_of = small.tolist()
        best = 0
        for x in order.tolist():
            if small_of[x].bit_length() <= best:
                break  # 1 + Ldim(smaller part) <= 1 + floor(log2 |smaller part|) <= best, here and for all later x
            a = self._L(mask & self._ones[x])
            if 1 + a <= best:
                continue
            best = max(best, 1 + min(a, self._L(mask & self._zeros[x])))
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
