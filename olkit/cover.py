"""Covers of the unit sphere and linearly separable sequences (Telgarsky, Lecture 10,
"Remark (comparison to Perceptron)").

If a unit vector u separates a sequence with margin gamma, y_t <u, x_t> >= gamma
with ||x_t|| <= 1, and W is a gamma/2-cover of the unit sphere S^{d-1} (every
unit vector is within gamma/2 of some w in W), then the w in W nearest to u has
y_t <w, x_t> >= gamma - ||w - u|| >= gamma/2 > 0 on every round.  So the finite
class {x -> 1[<w, x> > 0] : w in W} is realizable on the sequence, and
Consistent and Halving apply to it, at a cost of |W| predictions per round.

* :func:`sphere_cover` builds such a cover for small d from a cubic grid;
* :func:`covering_radius` estimates the radius of a cover by sampling;
* :func:`margin_sequence` draws a sequence separable by a unit u with margin gamma;
* :func:`linear_class` is the 0/1 matrix of the class of W on given points.
"""
from __future__ import annotations

import math

import numpy as np

from . import fp
from .classes import MAX_ENTRIES

__all__ = ["covering_radius", "linear_class", "margin_sequence", "nearest", "random_unit_vectors", "sphere_cover"]

#: Largest number of candidate grid points :func:`sphere_cover` examines.
MAX_GRID = 2**24


def _positive_int(v, name: str) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1:
        raise ValueError(f"{name} must be a positive integer; got {v!r}")
    return int(v)


def _generator(rng) -> np.random.Generator:
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy Generator (np.random.default_rng(seed)); got {type(rng).__name__}")
    return rng


def _unit_rows(W, name: str = "W", tol: float = 1e-9) -> np.ndarray:
    A = np.asarray(W, dtype=float)
    if A.ndim != 2 or A.shape[0] == 0 or A.shape[1] == 0:
        raise ValueError(f"{name} must be a non-empty 2-D array with one unit vector per row; got shape {A.shape}")
    norms = np.linalg.norm(A, axis=1)
    if not np.all(np.abs(norms - 1) <= tol):
        i = int(np.argmax(np.abs(norms - 1)))
        raise ValueError(f"{name} must have unit rows; row {i} has norm {norms[i]:.6g}")
    return A


def random_unit_vectors(m: int, d: int, rng: np.random.Generator) -> np.ndarray:
    """``m`` unit vectors of R^d drawn uniformly from the sphere (normalized Gaussians), shape (m, d)."""
    m, d, rng = _positive_int(m, "m"), _positive_int(d, "d"), _generator(rng)
    G = rng.standard_normal((m, d))
    norms = np.linalg.norm(G, axis=1, keepdims=True)
    while (norms == 0).any():  # probability zero, but keep the output unit
        bad = norms[:, 0] == 0
        G[bad] = rng.standard_normal((int(bad.sum()), d))
        norms = np.linalg.norm(G, axis=1, keepdims=True)
    return G / norms


def sphere_cover(d: int, radius: float) -> np.ndarray:
    """A ``radius``-cover of the unit sphere of R^d: unit vectors W (one per row) such that
    every unit vector u has some w in W with ||w - u|| <= radius.

    Telgarsky's remark takes radius = gamma/2.  Construction: the cubic grid
    h Z^d with spacing h = radius / sqrt(d).  For a unit u, rounding each
    coordinate to the grid gives g with ||g - u|| <= h sqrt(d) / 2 = radius / 2,
    hence | ||g|| - 1 | <= radius / 2 too, and
    ||g/||g|| - u|| <= ||g/||g|| - g|| + ||g - u|| = | ||g|| - 1 | + ||g - u|| <= radius.
    So the normalized grid points in the shell | ||g|| - 1 | <= radius / 2 form a
    cover.  Grid points on the same ray give the same direction and are kept
    once (integer coordinates divided by their gcd).  The shell has width
    radius, so for fixed d, |W| = O(1/radius)^(d-1).

    Every shell point has coordinates of absolute value at most 1 + radius/2,
    so the grid examined is {-K h, ..., K h}^d with K = ceil((1 + radius/2) / h)
    and |W| <= (2K + 1)^d = O(sqrt(d) / radius)^d.  ``0 < radius < 2``; at most
    ``MAX_GRID`` grid points are examined.
    """
    d = _positive_int(d, "d")
    if isinstance(radius, bool) or not isinstance(radius, (int, float, np.integer, np.floating)) or not 0 < radius < 2:
        raise ValueError(f"radius must be a number in (0, 2); got {radius!r}")
    h = float(radius) / math.sqrt(d)
    K = math.ceil((1 + radius / 2) / h)
    if (2 * K + 1) ** d > MAX_GRID:
        raise ValueError(
            f"sphere_cover: d = {d} and radius = {radius} need a grid of (2*{K}+1)^{d} = {(2 * K + 1) ** d} points "
            f"(limit {MAX_GRID}); use a larger radius or a smaller d"
        )
    axes = [np.arange(-K, K + 1)] * d
    Z = np.stack(np.meshgrid(*axes, indexing="ij"), axis=-1).reshape(-1, d)  # integer coordinates
    norms = h * np.linalg.norm(Z, axis=1)
    Z = Z[np.abs(norms - 1) <= radius / 2 + 1e-12]  # the tolerance only adds directions: still a cover
    g = np.gcd.reduce(np.abs(Z), axis=1)
    Z = np.unique(Z // g[:, None], axis=0)  # one integer vector per direction (g >= 1 since 0 is not in the shell)
    return Z / np.linalg.norm(Z, axis=1, keepdims=True)


def covering_radius(W, rng: np.random.Generator, n_samples: int = 20_000, chunk: int = 2048) -> float:
    """Estimate the covering radius max_u min_{w in W} ||u - w|| of unit vectors ``W`` by sampling.

    Draws ``n_samples`` seeded uniform unit vectors u and returns the largest
    distance from one of them to its nearest row of W.  This is a lower estimate
    of the true radius (a supremum over the whole sphere); the proof of
    :func:`sphere_cover` is what guarantees the upper bound.
    """
    A = _unit_rows(W)
    n_samples, chunk = _positive_int(n_samples, "n_samples"), _positive_int(chunk, "chunk")
    rng = _generator(rng)
    worst_ip = 1.0  # smallest, over the samples u, of max_w <u, w>
    for start in range(0, n_samples, chunk):
        U = random_unit_vectors(min(chunk, n_samples - start), A.shape[1], rng)
        worst_ip = min(worst_ip, float((U @ A.T).max(axis=1).min()))
    return math.sqrt(max(0.0, 2 - 2 * worst_ip))  # ||u - w||^2 = 2 - 2 <u, w> for unit u, w


def nearest(W, u) -> int:
    """Index of the row of the unit vectors ``W`` nearest to the unit vector ``u`` (largest <w, u>).

    Rows whose <w, u> is within 1e-9 ||u|| of the largest tie; the first of them is returned.
    """
    A = _unit_rows(W)
    v = np.asarray(u, dtype=float)
    if v.shape != (A.shape[1],):
        raise ValueError(f"u must have shape ({A.shape[1]},); got {v.shape}")
    ip = A @ v
    return fp.first_min(-ip, rtol=0.0, atol=fp.TIE_RTOL * float(np.linalg.norm(v)))  # ties: the first row


def margin_sequence(
    T: int,
    d: int,
    gamma: float,
    rng: np.random.Generator,
    u=None,
    margin_max: float = 1.0,
    on_sphere: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A seeded sequence separable with margin ``gamma`` (the assumption of Telgarsky's remark
    and of the Perceptron bound, Mohri et al. Theorem 7.8).

    Returns ``(X, y, u)``: ``X`` of shape (T, d) with ||x_t|| <= 1 (= 1 if
    ``on_sphere``, which needs d >= 2), labels ``y`` in {-1, +1}, and the unit vector ``u`` (drawn
    uniformly if not given) with y_t <u, x_t> >= gamma on every round (up to
    floating-point rounding, about 1e-16; ||x_t|| <= 1 holds exactly).
    Construction: x_t = s_t u + rho_t v_t with |s_t| uniform on [gamma, margin_max],
    a random sign y_t = sign(s_t), v_t a random unit vector orthogonal to u,
    and rho_t v_t uniform on the (d-1)-ball of radius sqrt(1 - s_t^2) (on its sphere if ``on_sphere``).
    """
    T, d, rng = _positive_int(T, "T"), _positive_int(d, "d"), _generator(rng)
    if not (isinstance(gamma, (int, float, np.integer, np.floating)) and 0 < gamma <= 1):
        raise ValueError(f"gamma must be a margin in (0, 1]; got {gamma!r}")
    if not (isinstance(margin_max, (int, float, np.integer, np.floating)) and gamma <= margin_max <= 1):
        raise ValueError(f"margin_max must be in [gamma, 1] = [{gamma}, 1]; got {margin_max!r}")
    if on_sphere and d == 1:
        raise ValueError("on_sphere=True needs d >= 2: in d = 1 the points are +-s u with gamma <= s <= margin_max")
    if u is None:
        u = random_unit_vectors(1, d, rng)[0]
    else:
        u = np.asarray(u, dtype=float)
        if u.shape != (d,) or abs(np.linalg.norm(u) - 1) > 1e-9:
            raise ValueError(f"u must be a unit vector of shape ({d},); got shape {u.shape} and norm {np.linalg.norm(u):.6g}")
    y = np.where(rng.random(T) < 0.5, -1, 1).astype(np.int64)
    s = y * rng.uniform(gamma, margin_max, size=T)
    X = s[:, None] * u[None, :]
    if d > 1:
        V = rng.standard_normal((T, d))
        V -= (V @ u)[:, None] * u[None, :]
        V /= np.linalg.norm(V, axis=1, keepdims=True)
        rho = np.sqrt(np.clip(1 - s**2, 0, None))
        if not on_sphere:
            rho = rho * rng.random(T) ** (1 / (d - 1))
        X = X + rho[:, None] * V
    # guard against rounding: ||x_t|| <= 1 holds exactly in floating point
    norms = np.linalg.norm(X, axis=1)
    while (norms > 1).any():
        X[norms > 1] /= np.nextafter(norms[norms > 1], np.inf)[:, None]
        norms = np.linalg.norm(X, axis=1)
    return X, y, u


def linear_class(W, X) -> np.ndarray:
    """The 0/1 matrix of the class {x -> 1[<w, x> > 0] : w in W} on the points ``X``:
    ``H[i, t] = 1[<W[i], X[t]> > 0]``, one row per weight vector, one column per point.
    A score within 1e-9 ||w|| ||x|| of zero is a tie (:func:`olkit.fp.sign`) and labels 0.

    With the points of a sequence as the domain {0, ..., T-1}, a learner for
    finite classes plays the sequence as (t, to_01(y_t)).
    """
    A = np.asarray(W, dtype=float)
    P = np.asarray(X, dtype=float)
    if A.ndim != 2 or A.shape[0] == 0:
        raise ValueError(f"W must be a non-empty 2-D array (one weight vector per row); got shape {A.shape}")
    if P.ndim != 2 or P.shape[0] == 0 or P.shape[1] != A.shape[1]:
        raise ValueError(f"X must have shape (m, d) = (m, {A.shape[1]}) with m >= 1; got {P.shape}")
    if A.shape[0] * P.shape[0] > MAX_ENTRIES:
        raise ValueError(f"linear_class: {A.shape[0]} x {P.shape[0]} entries exceed {MAX_ENTRIES}")
    scale = np.linalg.norm(A, axis=1)[:, None] * np.linalg.norm(P, axis=1)[None, :]
    return np.asfortranarray((fp.sign(A @ P.T, scale) > 0).astype(np.uint8))
