"""Finite hypothesis classes as 0/1 matrices.

A class over the finite domain X = {0, ..., n-1} is a 0/1 matrix ``H`` with
``H[i, x] = h_i(x)``: one row per hypothesis, one column per point.  Every
constructor here returns such a matrix (``numpy.uint8``, column-major so that
reading the column ``H[:, x]`` -- the votes on one instance -- is fast).

Structured classes that are too large to store (thresholds on 10^6 points)
also exist in *implicit* form: an object with ``shape`` and
``values(idx, x) -> H[idx, x]``.  Learners accept both; see :func:`as_class`.
"""
from __future__ import annotations

import itertools
from typing import Protocol, Sequence

import numpy as np

from . import fp

__all__ = [
    "ClassLike",
    "ImplicitThresholds",
    "all_functions",
    "as_class",
    "check_class",
    "halfspace_grid",
    "halfspaces_on_grid",
    "programs",
    "random_class",
    "singletons",
    "thresholds",
]

#: Largest dense class (entries) a constructor builds: 2**31 bytes.
MAX_ENTRIES = 2**31


class ClassLike(Protocol):
    """What a learner needs of a class: its shape and the values H[idx, x]."""

    shape: tuple[int, int]

    def values(self, idx: np.ndarray, x: int) -> np.ndarray: ...


def check_class(H, name: str = "H") -> np.ndarray:
    """Return ``H`` as a validated column-major uint8 0/1 matrix.

    Raises ``ValueError`` when ``H`` is not 2-D, has no hypothesis or no
    point, or has an entry other than 0 and 1.
    """
    A = np.asarray(H)
    if A.ndim != 2:
        raise ValueError(f"{name} must be a 2-D 0/1 matrix H[i, x] = h_i(x); got an array with {A.ndim} dimension(s)")
    if A.shape[0] == 0:
        raise ValueError(f"{name} is an empty class: it has no hypothesis (shape {A.shape})")
    if A.shape[1] == 0:
        raise ValueError(f"{name} has an empty domain: no point (shape {A.shape})")
    if A.dtype == bool:
        return np.asfortranarray(A.astype(np.uint8))
    if not np.issubdtype(A.dtype, np.number):
        raise ValueError(f"{name} must be numeric with entries in {{0, 1}}; got dtype {A.dtype}")
    bad = (A != 0) & (A != 1)
    if bad.any():
        i, x = np.argwhere(bad)[0]
        raise ValueError(f"{name} must have entries in {{0, 1}}; H[{i}, {x}] = {A[i, x]!r}")
    return np.asfortranarray(A.astype(np.uint8))


class _Dense:
    """Adapter that gives a dense 0/1 matrix the implicit-class interface."""

    def __init__(self, H):
        self.H = check_class(H)
        self.shape = self.H.shape

    def values(self, idx: np.ndarray, x: int) -> np.ndarray:
        return self.H[idx, x]


class ImplicitThresholds:
    """Thresholds on n points without storing the (n+1) x n matrix.

    Hypothesis k (k = 0, ..., n) is h_k(x) = 1[x >= k], the same row order as
    :func:`thresholds`.  ``values(idx, x)`` costs O(len(idx)).
    """

    def __init__(self, n: int):
        n = _positive_int(n, "n")
        self.n = n
        self.shape = (n + 1, n)

    def values(self, idx: np.ndarray, x: int) -> np.ndarray:
        return (np.asarray(idx) <= x).astype(np.uint8)

    def __array__(self, dtype=None, copy=None):
        return thresholds(self.n).astype(dtype or np.uint8)


def as_class(H) -> ClassLike:
    """A class-like view of ``H``: implicit classes pass through, arrays are validated."""
    if hasattr(H, "values") and hasattr(H, "shape") and not isinstance(H, np.ndarray):
        rows, cols = H.shape
        if rows < 1 or cols < 1:
            raise ValueError(f"H is an empty class (shape {H.shape})")
        return H
    return _Dense(H)


def _positive_int(v, name: str) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1:
        raise ValueError(f"{name} must be a positive integer; got {v!r}")
    return int(v)


def _dense(shape: tuple[int, int], name: str) -> None:
    if shape[0] * shape[1] > MAX_ENTRIES:
        raise ValueError(
            f"{name}: a dense class of shape {shape} has more than {MAX_ENTRIES} entries; "
            "use an implicit class (e.g. ImplicitThresholds) instead"
        )


def thresholds(n: int) -> np.ndarray:
    """Thresholds on the grid X = {0, ..., n-1}: h_k(x) = 1[x >= k] for k = 0..n.

    n + 1 hypotheses (k = 0 labels everything 1, k = n labels everything 0).
    This is the grid version of the class of Shalev-Shwartz's lecture,
    h_theta(x) = sign(x - theta); UML Example 21.4 uses the mirror 1[x < a].
    """
    n = _positive_int(n, "n")
    _dense((n + 1, n), "thresholds")
    k = np.arange(n + 1)[:, None]
    x = np.arange(n)[None, :]
    return np.asfortranarray((x >= k).astype(np.uint8))


def singletons(d: int) -> np.ndarray:
    """Singletons on X = {0, ..., d-1}: h_j(x) = 1[x = j] (UML Example 21.3).  |H| = d."""
    d = _positive_int(d, "d")
    _dense((d, d), "singletons")
    return np.asfortranarray(np.eye(d, dtype=np.uint8))


def all_functions(k: int) -> np.ndarray:
    """All 2^k functions from k points to {0, 1}; row i is the binary expansion of i.

    Bit x of i (least significant first) is h_i(x).
    """
    k = _positive_int(k, "k")
    if k > 26:
        raise ValueError(f"all_functions: k = {k} gives 2^{k} hypotheses; at most k = 26 is supported")
    i = np.arange(2**k, dtype=np.int64)[:, None]
    x = np.arange(k)[None, :]
    return np.asfortranarray(((i >> x) & 1).astype(np.uint8))


def random_class(n_hypotheses: int, n_points: int, rng: np.random.Generator, p: float = 0.5) -> np.ndarray:
    """A random class: each entry is 1 with probability ``p``, drawn from the seeded ``rng``."""
    n_hypotheses = _positive_int(n_hypotheses, "n_hypotheses")
    n_points = _positive_int(n_points, "n_points")
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy Generator (np.random.default_rng(seed)); got {type(rng).__name__}")
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"p must be in [0, 1]; got {p!r}")
    _dense((n_hypotheses, n_points), "random_class")
    return np.asfortranarray((rng.random((n_hypotheses, n_points)) < p).astype(np.uint8))


def halfspace_grid(n: int, d: int, max_points: int = 2**24) -> np.ndarray:
    """The grid G^d with G = {-1, -1 + 1/n, ..., 1}: shape ((2n+1)^d, d), at most max_points rows.

    Rows are in lexicographic order of their coordinates (Shalev-Shwartz's lecture,
    "Using Halving to learn halfspaces on a grid").
    """
    n = _positive_int(n, "n")
    d = _positive_int(d, "d")
    if (2 * n + 1) ** d > max_points:
        raise ValueError(f"halfspace_grid: (2n+1)^d = {(2 * n + 1) ** d} points is too many (limit {max_points})")
    G = np.arange(-n, n + 1) / n
    return np.array(list(itertools.product(G, repeat=d)), dtype=float).reshape(-1, d)


def grid_int(v, n: int, name: str) -> np.ndarray:
    """The integer vector k with v = k / n, for a vector v on the grid G^d; a ValueError otherwise."""
    v = np.asarray(v, dtype=float)
    k = np.rint(v * n)
    if v.ndim != 1 or v.size == 0 or np.abs(v * n - k).max() > 1e-9 or np.abs(k).max() > n:
        raise ValueError(f"{name} must be a vector on the grid G^d = {{-1, -1 + 1/{n}, ..., 1}}^d; got {v.tolist()}")
    return k.astype(np.int64)


def halfspaces_on_grid(n: int, d: int, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Homogeneous halfspaces with weights on the grid G^d, restricted to ``points``.

    Returns ``(H, W)``: ``W`` is :func:`halfspace_grid` (one weight vector per row)
    and ``H[i, j] = 1[<W[i], points[j]> > 0]``.  |H| = (2n+1)^d rows, counted with
    repetition: two weight vectors that label ``points`` alike are two rows, which is
    the counting of the lecture's Halving bound d log2(2n+1).  Points on the grid
    (1/n) Z^d are labelled in exact integer arithmetic; other points with the tie
    tolerance of :mod:`olkit.fp` (a score within 1e-9 ||w|| ||x|| of zero labels 0).
    """
    P = np.asarray(points, dtype=float)
    if P.ndim != 2 or P.shape[1] != d:
        raise ValueError(f"points must have shape (m, d) = (m, {d}); got {P.shape}")
    if P.shape[0] == 0:
        raise ValueError("points is empty: the class needs at least one point")
    W = halfspace_grid(n, d)
    _dense((W.shape[0], P.shape[0]), "halfspaces_on_grid")
    KP = np.rint(P * n)
    if np.abs(P * n - KP).max() <= 1e-9:
        # points on the grid (1/n) Z^d: decide <w, x> > 0 exactly, in integers (<w, x> = <kw, kp> / n^2)
        KW = np.rint(W * n).astype(np.int64)
        return np.asfortranarray((KW @ KP.astype(np.int64).T > 0).astype(np.uint8)), W
    # other points: the tie tolerance of olkit.fp (a score within 1e-9 ||w|| ||x|| of 0 counts as 0)
    scale = np.linalg.norm(W, axis=1)[:, None] * np.linalg.norm(P, axis=1)[None, :]
    side = fp.sign(W @ P.T, scale)
    return np.asfortranarray((side > 0).astype(np.uint8)), W


def programs(b: int, n_points: int) -> tuple[np.ndarray, list[str]]:
    """The class of functions computed by 'programs' of fewer than b bits.

    A toy language for the Halving corollary of Shalev-Shwartz's lecture: a program
    is a bit string p of length 1 <= len(p) < b, and it computes the periodic
    function h_p(x) = p[x mod len(p)] on X = {0, ..., n_points-1}.  There are
    2^b - 2 such strings; programs computing the same function are merged, so
    |H| <= 2^b - 2 < 2^b and Halving makes fewer than b mistakes.

    Returns ``(H, source)`` where ``source[i]`` is the shortest program of row i.
    """
    b = _positive_int(b, "b")
    n_points = _positive_int(n_points, "n_points")
    if b < 2:
        raise ValueError(f"b must be at least 2 (programs have 1 <= length < b bits); got {b}")
    if b > 22:
        raise ValueError(f"b = {b} means 2^{b} programs; at most b = 22 is supported")
    x = np.arange(n_points)
    rows: dict[bytes, str] = {}
    for length in range(1, b):
        codes = np.arange(2**length, dtype=np.int64)[:, None]
        bits = (codes >> (length - 1 - (x % length))[None, :]) & 1  # bit x mod length, MSB first
        for c, row in zip(codes[:, 0], bits.astype(np.uint8)):
            key = row.tobytes()
            if key not in rows:
                rows[key] = format(int(c), f"0{length}b")
    H = np.frombuffer(b"".join(rows.keys()), dtype=np.uint8).reshape(len(rows), n_points)
    return np.asfortranarray(H.copy()), list(rows.values())


def labels_of(H, i: int, xs: Sequence[int]) -> np.ndarray:
    """Labels that hypothesis ``i`` of ``H`` gives to the points ``xs`` (a realizable sequence)."""
    C = as_class(H)
    xs = np.asarray(xs, dtype=np.int64)
    return np.array([int(C.values(np.array([i]), int(x))[0]) for x in xs], dtype=np.int64)
