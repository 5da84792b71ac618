"""Mistake bounds, one plain function per theorem.

Each returns the right-hand side of the theorem's inequality; the notebooks
compare it with the mistakes of recorded runs.
"""
from __future__ import annotations

import math

import numpy as np

__all__ = [
    "consistent_bound",
    "halfspace_halving_bound",
    "halving_bound",
    "hinge_losses",
    "nonseparable_bounds",
    "normalized_winnow_bound",
    "perceptron_bound",
    "winnow_disjunction_bound",
]


def _size(size: int) -> int:
    if isinstance(size, bool) or not isinstance(size, int) or size < 1:
        raise ValueError(f"the class size |H| must be a positive integer; got {size!r}")
    return size


def consistent_bound(size: int) -> int:
    """|H| - 1: the mistake bound of Consistent (UML Corollary 21.2; Telgarsky, Lecture 10)."""
    return _size(size) - 1


def halving_bound(size: int) -> float:
    """log2 |H|: the mistake bound of Halving (UML Theorem 21.3; Mohri et al. Theorem 7.1)."""
    return math.log2(_size(size))


def halfspace_halving_bound(n: int, d: int) -> float:
    """d log2(2n + 1): Halving on halfspaces with weights in the grid G^d, |H| = (2n+1)^d
    (Shalev-Shwartz's lecture, "Using Halving to learn halfspaces on a grid")."""
    if n < 1 or d < 1:
        raise ValueError(f"n and d must be positive integers; got n={n!r}, d={d!r}")
    return d * math.log2(2 * n + 1)


def perceptron_bound(r: float, rho: float) -> float:
    """r^2 / rho^2: the Perceptron's update bound on a stream with ||x_t|| <= r and margin rho
    (Mohri et al. Theorem 7.8; Novikoff 1962)."""
    if not (r > 0 and rho > 0):
        raise ValueError(f"r and rho must be positive; got r={r!r}, rho={rho!r}")
    return r * r / (rho * rho)


def hinge_losses(X, y, u, rho: float) -> np.ndarray:
    """L_rho(u) of Mohri et al. Theorem 7.11: the vector of (1 - y_t <u, x_t> / rho)_+, t = 1..T."""
    if not rho > 0:
        raise ValueError(f"rho must be positive; got {rho!r}")
    X, y, u = np.asarray(X, dtype=float), np.asarray(y), np.asarray(u, dtype=float)
    return np.maximum(0.0, 1.0 - y * (X @ u) / rho)


def nonseparable_bounds(X, y, rounds, u, rho, r: float | None = None) -> dict:
    """The Perceptron's mistake bounds for one direction u, ||u|| <= 1, and a margin rho (a number, or an
    array of margins: then every value is an array), on the stream (X, y) with update rounds ``rounds``
    (1-based; the set I of the theorems), Q = sum_I ||x_t||^2 and r = max ||x_t|| unless given:

    * ``"L2"``: (||L||_2 / 2 + sqrt(||L||_2^2 / 4 + sqrt(Q) / rho))^2 (Mohri et al. Theorem 7.11);
    * ``"L2, r"``: (r / rho + ||L||_2)^2 (Theorem 7.11, second part);
    * ``"L1"``: sum_I L_t + sqrt(Q) / rho (Mohri and Rostamizadeh 2013);
    * ``"L1, r"``: (r / rho + sqrt(||L||_1))^2 (idem, second part);
    * ``"UML"``: b + a sqrt(b) + a^2 with w* = u / rho, a = r ||w*||, b = sum_I (1 - y_t <w*, x_t>)_+
      (UML Theorem 21.16).

    L = L_rho(u) (:func:`hinge_losses`).  Each bounds the number of updates |I| for every rho > 0.
    """
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    I = np.asarray(rounds, dtype=np.int64) - 1
    u = np.asarray(u, dtype=float)
    nu = float(np.linalg.norm(u))
    if nu > 1 + 1e-12:
        raise ValueError(f"u must have norm at most 1; got {nu:.6g}")
    rho_a = np.atleast_1d(np.asarray(rho, dtype=float))
    if not (rho_a > 0).all():
        raise ValueError(f"rho must be positive; got {rho!r}")
    m = y * (X @ u)
    L = np.maximum(0.0, 1.0 - m[:, None] / rho_a[None, :])  # (T, number of margins)
    sq = float(np.sum(X[I] * X[I]))
    r = float(np.sqrt(np.max(np.sum(X * X, axis=1)))) if r is None else float(r)
    l2, l1, lI = np.linalg.norm(L, axis=0), L.sum(axis=0), L[I].sum(axis=0)
    a, b = r * nu / rho_a, lI
    out = {
        "L2": (l2 / 2 + np.sqrt(l2 * l2 / 4 + math.sqrt(sq) / rho_a)) ** 2,
        "L2, r": (r / rho_a + l2) ** 2,
        "L1": lI + math.sqrt(sq) / rho_a,
        "L1, r": (r / rho_a + np.sqrt(l1)) ** 2,
        "UML": b + a * np.sqrt(b) + a * a,
    }
    return out if np.ndim(rho) else {k: float(v[0]) for k, v in out.items()}


def winnow_disjunction_bound(d: int, k: int) -> int:
    """1 + 2k ceil(log2 d): Winnow's mistake bound for a disjunction of k of d features
    (Telgarsky, Lecture 10; the proof is Blum's).  Exact integers: ceil(log2 d) = (d - 1).bit_length()."""
    if isinstance(d, bool) or isinstance(k, bool) or not isinstance(d, int) or not isinstance(k, int) or d < 1 or k < 1:
        raise ValueError(f"d and k must be positive integers; got d={d!r}, k={k!r}")
    return 1 + 2 * k * (d - 1).bit_length()


def normalized_winnow_bound(N: int, r_inf: float, rho_inf: float, eta: float | None = None) -> float:
    """ln N / (eta rho_inf - eta^2 r_inf^2 / 2), the update bound of Winnow(eta) (Mohri et al. Theorem
    7.12); with eta = rho_inf / r_inf^2 (the default) it is 2 (r_inf / rho_inf)^2 ln N.  Needs
    eta rho_inf > eta^2 r_inf^2 / 2, i.e. eta < 2 rho_inf / r_inf^2."""
    if not (isinstance(N, int) and N >= 1 and r_inf > 0 and rho_inf > 0):
        raise ValueError(f"need an integer N >= 1 and r_inf, rho_inf > 0; got N={N!r}, r_inf={r_inf!r}, rho_inf={rho_inf!r}")
    eta = rho_inf / r_inf**2 if eta is None else eta
    gain = eta * rho_inf - eta**2 * r_inf**2 / 2
    if not gain > 0:
        raise ValueError(f"eta = {eta} gives no bound: eta rho_inf - eta^2 r_inf^2 / 2 = {gain} <= 0")
    return math.log(N) / gain
