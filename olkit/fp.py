"""Floating-point decisions that come out the same on every machine, and a mode that tests it.

Two machines may compute the same dot product with different last bits: BLAS
kernels and numpy's pairwise sums add in an order that depends on the CPU's
SIMD width, some CPUs fuse multiply-adds, and exp and log differ by an ulp
between numpy's SIMD code paths and the C library of the platform.  A learner
that branches on the sign of a quantity which is exactly zero in exact
arithmetic (the Ellipsoid's <w_t, x_t> on grid data, a Perceptron score on a
symmetric sequence), or on the order of two quantities that are exactly tied
(the deepest cut of an adversary), then plays a different game on another
machine, and a notebook's stored outputs stop reproducing there.

**The rule olkit follows** (and every chapter with it; see ``CONTRIBUTING.md``):

* where the data live on a grid, decide in exact arithmetic (integers, or
  :class:`fractions.Fraction`);
* otherwise decide with an explicit tolerance relative to the scale of the
  quantity.  :func:`sign` calls a score a tie (0) when |s| <= ``TIE_RTOL`` * scale;
  for a dot product <w, x> the scale is ||w|| ||x|| (Cauchy-Schwarz), so a tie
  means that w and x are orthogonal to within about 1e-9 radians.  Rounding
  errors are of order 1e-16 times the scale, so a quantity that is zero in exact
  arithmetic is a tie on every machine, and a genuine non-zero score is not one
  unless it is smaller than a billionth of its scale.  :func:`first_min` picks
  the first of the near-minimal entries in the same way.

**Perturbation mode.**  With the environment variable ``OLKIT_FP_PERTURB`` set
to a seed (an integer >= 1) when olkit is imported, or inside
``with perturbed(seed):``, the kernels below return results that another
machine could return: dot products and matrix-vector products add their terms
in another order, with or without fused multiply-adds (chosen by a hash of the
operands, so equal inputs give equal outputs, as on a real machine; exact sums
stay exact); ``exp``, ``log`` and the ``numpy.linalg`` routines move their
results by up to two ulps; and the vectors a learner on R^d receives
(:func:`olkit.game.check_vector`) move by a few ulps (:func:`ulp_jitter`), so
that plain numpy arithmetic on them (``w @ x``) rounds differently too.  The
portability test (``tests/test_portability.py``) re-executes every notebook in
this mode and requires identical stored outputs: a decision on the last bits,
or a number printed with too many digits, fails it on a single machine.
"""
from __future__ import annotations

import math
import os
import zlib
from contextlib import contextmanager
from typing import Iterator

import numpy as np

__all__ = [
    "TIE_RTOL",
    "dot",
    "first_min",
    "matmat",
    "matvec",
    "perturbed",
    "perturbing",
    "quad",
    "sign",
    "tie_scale",
]

#: Relative tolerance under which a score counts as zero (a tie); see the module docstring.
TIE_RTOL = 1e-9

_SEED = 0  # 0: off; otherwise the perturbation seed


def _env_seed() -> int:
    raw = os.environ.get("OLKIT_FP_PERTURB", "").strip()
    if not raw or raw == "0":
        return 0
    try:
        seed = int(raw)
    except ValueError:
        raise ValueError(f"OLKIT_FP_PERTURB must be an integer seed (0 or unset: off); got {raw!r}") from None
    if seed < 0:
        raise ValueError(f"OLKIT_FP_PERTURB must be a non-negative integer; got {seed}")
    return seed


def perturbing() -> bool:
    """Whether the perturbation mode is on."""
    return _SEED != 0


@contextmanager
def perturbed(seed: int = 1) -> Iterator[None]:
    """Turn the perturbation mode on inside the block (kernels only; numpy is patched only by the
    environment variable, at import)."""
    global _SEED
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 1:
        raise ValueError(f"seed must be a positive integer; got {seed!r}")
    old, _SEED = _SEED, int(seed)
    try:
        yield
    finally:
        _SEED = old


# ---------------------------------------------------------------------------------------------
# Hash-driven perturbations: a fixed function of the inputs, like a real machine
# ---------------------------------------------------------------------------------------------
def _hash(*arrays: np.ndarray) -> int:
    h = _SEED & 0xFFFFFFFF
    for a in arrays:
        h = zlib.crc32(np.ascontiguousarray(a).tobytes(), h)
    return h


_MIX = np.uint64(0x9E3779B97F4A7C15)
_MIX2 = np.uint64(0xBF58476D1CE4E5B9)


def ulp_jitter(v):
    """Move every finite non-zero float of ``v`` by -2..+1 ulps, as a fixed function of its bits.

    Exact zeros, infinities, NaN and numbers with few bits (multiples of 1/1024 below 2^40, which
    every machine computes exactly) are kept; arrays of other dtypes and non-arrays pass through.
    """
    if isinstance(v, tuple):
        return tuple(ulp_jitter(u) for u in v)
    if isinstance(v, float) and not isinstance(v, np.floating):
        return float(ulp_jitter(np.float64(v)))
    a = np.asarray(v)
    if a.dtype != np.float64:
        return v
    if a.ndim == 1 and a.size <= 256:  # the vectors learners receive, often the same ones again
        key = (_SEED, a.tobytes())
        hit = _JITTERED.get(key)
        if hit is None:
            if len(_JITTERED) >= 1 << 16:
                _JITTERED.clear()
            hit = _JITTERED[key] = _jitter(a)
        return hit.copy()
    return _jitter(a) if np.ndim(v) else _jitter_scalar(v, a)


#: ulp_jitter's results for short vectors (a pure function of the bits and the seed: a cache)
_JITTERED: dict = {}


def _jitter_scalar(v, a: np.ndarray):
    out = _jitter(np.atleast_1d(a))
    return type(v)(out[0]) if isinstance(v, np.floating) else out.reshape(())[()]


def _jitter(a: np.ndarray) -> np.ndarray:
    flat = np.atleast_1d(a)  # array (not scalar) arithmetic: uint64 products wrap without a warning
    seed_mix = np.uint64((_SEED * 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF)
    k = ((((flat.view(np.int64).astype(np.uint64) + seed_mix) * _MIX) >> np.uint64(62)).astype(np.int64) - 2)
    # results that are exactly representable with few bits (integers, halves, ...: exp(0) = 1, log2(8) = 3,
    # ||(3, 4)|| = 5) come out exact on every machine, so they are kept (|a| < 2^40 first: no overflow)
    small = np.abs(flat) < 2.0**40
    scaled = np.where(small, flat, 0.0) * 1024.0
    exact = small & (scaled == np.round(scaled))
    ok = np.isfinite(flat) & (flat != 0) & (np.abs(flat) > 1e-300) & ~exact
    return np.where(ok, (flat.view(np.int64) + np.where(ok, k, 0)).view(np.float64), flat)


# ---------------------------------------------------------------------------------------------
# Kernels
# ---------------------------------------------------------------------------------------------
_SPLIT = 134217729.0  # 2^27 + 1, Veltkamp's splitting constant


def _two_product(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """p = fl(a b) and its exact error e = a b - p (Dekker's algorithm; no overflow assumed)."""
    p = a * b
    ca, cb = _SPLIT * a, _SPLIT * b
    ah = ca - (ca - a)
    al = a - ah
    bh = cb - (cb - b)
    bl = b - bh
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    return p, e


def _order(d: int, keys) -> np.ndarray:
    """The summation order of a length-d sum for each key (one row per key): indices sorted by a hash
    of (i, key) (multiply, xor, multiply, xor-shift: a bijection of i mod 2^64, so no ties); cheaper
    than a seeded Generator, which costs more than a short sum."""
    k = (np.asarray(keys, dtype=np.uint64).reshape(-1, 1) * np.uint64(0x94D049BB133111EB))  # wraps mod 2^64
    h = ((np.arange(d, dtype=np.uint64) * _MIX)[None, :] ^ k) * _MIX2
    return np.argsort(h ^ (h >> np.uint64(31)), axis=1)


_M64 = (1 << 64) - 1


def _short_order(d: int, key: int) -> list[int]:
    """:func:`_order` for one key in Python ints: the same hash in exact integer arithmetic mod 2^64, so
    the same order."""
    k = (key * 0x94D049BB133111EB) & _M64
    mix, mix2 = int(_MIX), int(_MIX2)
    hs = [((((i * mix) & _M64) ^ k) * mix2) & _M64 for i in range(d)]
    return sorted(range(d), key=lambda i: hs[i] ^ (hs[i] >> 31))


def _fused_row(a: list, x: list, order: list[int]) -> float:
    """s <- fl(a_i x_i + s) over ``order``, in Python floats: Dekker's product (:func:`_two_product`)
    summed by :func:`_fused_py`, operation for operation as the array code."""
    products = [_two_product(a[i], x[i]) for i in order]
    return _fused_py([p for p, _ in products], [e for _, e in products])


def _sum_small(A: list, x: list, key: int, fused: bool) -> list[float]:
    """:func:`_sum_rows` for a small matrix (rows of at most 64 terms) in Python floats, row by row: the
    same order and the same floating-point operations as the array code, so the same results, without
    numpy's per-call overhead.  A plain sum of one row starts from 0.0 (as :func:`_plain` makes it); of
    several rows, from the first product (as ``cumsum`` does, which keeps a sum of -0.0)."""
    order = _short_order(len(x), key)
    if fused:
        return [_fused_row(a, x, order) for a in A]
    first, rest = order[0], order[1:]
    out = []
    for a in A:
        s = 0.0 + a[first] * x[first] if len(A) == 1 else a[first] * x[first]
        for i in rest:
            s += a[i] * x[i]
        out.append(s)
    return out


def _fused_py(p: list, e: list) -> float:
    """s <- fl(p_i + e_i + s) over the (exact) products p_i + e_i, in Python floats: the operations of
    the array loop in :func:`_sum_columns`, in the same order, so the same result (IEEE doubles), without
    numpy's per-call overhead on one short row."""
    s = 0.0
    for pi, ei in zip(p, e):
        t = pi + s
        bp = t - pi
        s = t + (((pi - (t - bp)) + (s - bp)) + ei)  # Knuth's two-sum error, plus the product's error
    return s


def _plain(sums: np.ndarray, m: int, d: int) -> np.ndarray:
    """The plain sums as the kernels have always given them: one short row (d <= 64) was summed from
    s = 0.0 in Python, which turns a sum of -0.0 into +0.0; cumsum keeps -0.0."""
    return sums + 0.0 if m == 1 and d <= 64 else sums


#: Fused sums of at most this many (rows x columns) are computed one by one in Python floats (the same
#: operations as the array loop, which pays numpy's per-call overhead at every term); more are computed
#: by the array loop, one term of all of them at a time.
_PY_ROWS = 8
#: A matrix-vector product with fewer terms than this (and rows of at most 64) is computed in Python
#: floats (:func:`_sum_small`): numpy's overhead costs some 100 microseconds a call, a term in Python
#: about a tenth of a microsecond (plain) or one (fused).  From this size on, sums of integers are
#: computed once, exactly (:func:`_exact_in_any_order`); below it the general kernel is as cheap.
_PY_TERMS = 256


def _sum_rows(A: np.ndarray, x: np.ndarray, key: int) -> np.ndarray:
    """Row sums of A * x in an order and with an arithmetic chosen by ``key``, as another machine might.

    The terms are added in a permuted order, either rounding every product (a plain loop) or
    fusing each product with the running sum (a fused multiply-add, as BLAS kernels do on CPUs with
    FMA): s <- fl(a_i x_i + s).  If every product and partial sum is exact, all choices agree.
    """
    if x.size <= 64 and A.size < _PY_TERMS:  # a dot product, or x^T A x in low dimension
        return np.array(_sum_small(A.tolist(), x.tolist(), key, bool((key >> 16) & 1)), dtype=float)
    return _sum_columns(A, x.reshape(-1, 1), [key])[:, 0]


def _exact_in_any_order(A: np.ndarray, B: np.ndarray) -> bool:
    """Whether every product A[i, k] B[k, j] and every partial sum of a column of A B is an integer below
    2^53 in absolute value: then every order and every arithmetic (plain or fused) gives the same exact
    sum, on every machine, and there is nothing to perturb (Winnow's weights and 0/1 points, counts)."""
    if A.size * B.shape[1] < _PY_TERMS:
        return False  # a short sum: the general kernel is as cheap as this test
    a, b = np.abs(A).max(initial=0.0), np.abs(B).max(initial=0.0)
    if not (np.isfinite(a) and np.isfinite(b)) or a * b * A.shape[1] >= 2.0**53:
        return False
    return bool(np.all(A == np.rint(A)) and np.all(B == np.rint(B)))


def _sum_columns(A: np.ndarray, B: np.ndarray, keys: list[int]) -> np.ndarray:
    """Column j of the result is ``_sum_rows(A, B[:, j], keys[j])``, bit for bit, computed for many
    columns at once (the orders and products as arrays; the fused sums row by row, as there).  Sums of
    integers that are exact in any order are computed once, exactly; only the sign of a zero sum can
    then differ between machines, and it is set to +0.0 (plain numpy may give -0.0)."""
    if _exact_in_any_order(A, B):
        return A @ B + 0.0
    m, d = A.shape
    n = B.shape[1]
    out = np.empty((m, n))
    keys_arr = np.asarray(keys, dtype=np.int64)
    fused = ((keys_arr >> 16) & 1).astype(bool)
    chunk = max(1, 2_000_000 // max(1, m * d))
    for lo in range(0, n, chunk):
        cols = np.arange(lo, min(n, lo + chunk))
        perm = _order(d, keys_arr[cols])  # (c, d)
        Ap = A[:, perm]  # (m, c, d)
        xp = B[perm, cols[:, None]]  # (c, d)
        plain = ~fused[cols]
        if plain.any():
            out[:, cols[plain]] = _plain(np.cumsum(Ap[:, plain] * xp[plain], axis=2)[:, :, -1], m, d)
        if fused[cols].any():
            f = np.flatnonzero(fused[cols])
            P, E = _two_product(Ap[:, f], np.broadcast_to(xp[f], (m, f.size, d)))
            if m * f.size <= _PY_ROWS:
                Pl, El = P.reshape(m * f.size, d).tolist(), E.reshape(m * f.size, d).tolist()
                vals = np.array([_fused_py(p, e) for p, e in zip(Pl, El)], dtype=float).reshape(m, f.size)
            else:
                s = np.zeros((m, f.size))
                for i in range(d):
                    t = P[:, :, i] + s
                    bp = t - P[:, :, i]
                    err = (P[:, :, i] - (t - bp)) + (s - bp)
                    s = t + (err + E[:, :, i])
                vals = s
            out[:, cols[f]] = vals
    return out


def dot(a, b) -> float:
    """<a, b> for two vectors (another summation order and arithmetic in perturbation mode)."""
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    if not _SEED:
        return float(a @ b)
    if a.size == 0:
        return 0.0
    return float(_sum_rows(a.reshape(1, -1), b.ravel(), _hash(a, b))[0])


def matvec(A, x) -> np.ndarray:
    """A x (another summation order and arithmetic in perturbation mode)."""
    A = np.asarray(A, dtype=float)
    x = np.asarray(x, dtype=float)
    if not _SEED:
        return A @ x
    if x.size == 0:
        return np.zeros(A.shape[0])
    return _sum_rows(A, x, _hash(A, x))


def matmat(A, B) -> np.ndarray:
    """A B for two matrices (in perturbation mode, each column A b_j as :func:`matvec` computes it)."""
    A = np.asarray(A, dtype=float)
    B = np.asarray(B, dtype=float)
    if not _SEED:
        return A @ B
    if A.shape[1] == 0 or B.shape[1] == 0:  # an empty sum, or no columns at all
        return np.zeros((A.shape[0], B.shape[1]))
    h_a = _hash(A)  # _hash(A, b) continues the checksum of A with b's bytes
    keys = [zlib.crc32(col, h_a) for col in np.ascontiguousarray(B.T)]  # the rows of B^T: B's columns
    return _sum_columns(A, B, keys)


def quad(x, A) -> float:
    """x^T A x (another summation order in perturbation mode)."""
    return dot(x, matvec(A, x))


def _sum_sq(v: np.ndarray) -> float:
    """np.sum(v * v), the same float: numpy adds fewer than 8 terms from 0 in order (its pairwise sum
    starts at 8), which a short vector does here in Python floats, without numpy's cost per call."""
    if v.ndim == 1 and v.size < 8:
        s = 0.0
        for a in v.tolist():
            s += a * a
        return s
    return float(np.add.reduce(v * v, axis=None))  # np.sum's reduction, without its overhead


def tie_scale(w, X) -> np.ndarray | float:
    """||w|| ||x||, the Cauchy-Schwarz scale of <w, x>, for one x (shape (d,)) or one per row of X."""
    w = np.asarray(w, dtype=float)
    X = np.asarray(X, dtype=float)
    nw = math.sqrt(_sum_sq(w))
    if X.ndim == 1:
        return nw * math.sqrt(_sum_sq(X))
    return nw * np.sqrt(np.add.reduce(X * X, axis=1))


#: Scalars that :func:`sign` recognizes without asking numpy for their number of dimensions
_SCALAR_TYPES = frozenset({float, int, np.float64})


def sign(s, scale, rtol: float | None = None):
    """+1, -1, or 0 (a tie) for the score ``s``: 0 when |s| <= rtol * scale (rtol: ``TIE_RTOL``).

    Works elementwise on arrays (returning an int64 array) and on scalars (returning an int).
    """
    scalars = type(s) in _SCALAR_TYPES and type(scale) in _SCALAR_TYPES  # cheaper than np.ndim
    if scalars or (np.ndim(s) == 0 and np.ndim(scale) == 0):  # the scalar case, without array overhead
        s_f, tol_f = float(s), (TIE_RTOL if rtol is None else rtol) * float(scale)
        return 1 if s_f > tol_f else -1 if s_f < -tol_f else 0
    s_arr = np.asarray(s, dtype=float)
    tol = (TIE_RTOL if rtol is None else rtol) * np.asarray(scale, dtype=float)
    out = (s_arr > tol).astype(np.int64)
    out -= s_arr < -tol
    return int(out) if out.ndim == 0 else out


def first_min(v, rtol: float = TIE_RTOL, atol: float = 0.0) -> int:
    """Index of the first entry of ``v`` within rtol * |min| + atol of the minimum.

    Entries that tie with the minimum in exact arithmetic may differ in their last bits; this
    picks the first of them whatever the rounding, where ``argmin`` would pick the smallest float.
    """
    v = np.asarray(v, dtype=float).ravel()
    if v.size == 0:
        raise ValueError("first_min of an empty array")
    m = float(v.min())
    return int(np.flatnonzero(v <= m + rtol * abs(m) + atol)[0])


# ---------------------------------------------------------------------------------------------
# Perturbing numpy and math for the notebooks (environment variable only)
# ---------------------------------------------------------------------------------------------
_PATCHED: dict = {}


class _Perturbed:
    """A function (or ufunc) whose results move by a few ulps; other attributes (a ufunc's
    ``outer``, ``reduce``, ``nin``, ...) are the original's."""

    def __init__(self, f):
        self.__wrapped__ = f
        self.__name__ = getattr(f, "__name__", "perturbed")
        self.__doc__ = getattr(f, "__doc__", None)

    def __call__(self, *args, **kwargs):
        return ulp_jitter(self.__wrapped__(*args, **kwargs))

    def __getattr__(self, name):
        return getattr(self.__wrapped__, name)


def _wrap(f):
    return _Perturbed(f)


def _wrap_result(f, fields):
    def g(*args, **kwargs):
        r = f(*args, **kwargs)
        if not hasattr(r, "_fields"):  # some modes return one array (qr(mode="r"), svd(compute_uv=False))
            return ulp_jitter(r)
        vals = [ulp_jitter(getattr(r, k)) if k in fields else getattr(r, k) for k in r._fields]
        return type(r)(*vals)

    g.__wrapped__ = f
    g.__name__ = getattr(f, "__name__", "perturbed")
    return g


def _install_numpy_perturbation() -> None:
    """Patch numpy's and math's transcendental functions and numpy.linalg (perturbation mode only)."""
    if _PATCHED:
        return
    for name in ("exp", "log", "log2", "log10", "log1p", "expm1"):
        _PATCHED[("np", name)] = getattr(np, name)
        setattr(np, name, _wrap(getattr(np, name)))
    for name in ("exp", "log", "log2", "log10", "log1p", "expm1"):
        _PATCHED[("math", name)] = getattr(math, name)
        setattr(math, name, _wrap(getattr(math, name)))
    la = np.linalg
    for name in ("det", "inv", "solve", "norm", "eigvalsh", "pinv", "lstsq"):
        _PATCHED[("la", name)] = getattr(la, name)
        setattr(la, name, _wrap(getattr(la, name)))
    for name, fields in (("eigh", ("eigenvalues", "eigenvectors")), ("slogdet", ("logabsdet",)),
                         ("svd", ("U", "S", "Vh")), ("qr", ("Q", "R"))):
        _PATCHED[("la", name)] = getattr(la, name)
        setattr(la, name, _wrap_result(getattr(la, name), fields))


_SEED = _env_seed()
if _SEED:
    _install_numpy_perturbation()
