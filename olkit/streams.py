"""Streams for the Perceptron and Winnow (Chapter 4): seeded generators of (X, y) with known structure.

* :func:`separable_stream` -- separable by a unit u with margin gamma, ||x_t|| <= r (Mohri et al.
  Theorem 7.8); :func:`noisy_stream` flips a fraction of its labels (Theorem 7.11);
* :func:`orthonormal_stream` and :func:`hadamard_stream` -- streams on which the Perceptron makes
  exactly r^2 / rho^2 updates (Mohri et al. Exercise 7.3: the bound of Theorem 7.8 is tight);
* :func:`tie_threshold_stream` -- a stream built against the Perceptron's tie threshold (every
  decision taken at 1e-9 (1 +- offset) of its scale), for checking the look-ahead and tie rules;
* :func:`expert_stream` -- one relevant expert among N in {-1, +1}^N (the comparison of Winnow and
  the Perceptron after Mohri et al. Theorem 7.12);
* :func:`disjunction_stream` and :func:`elimination_sequence` -- 0/1 streams labelled by a monotone
  disjunction (Telgarsky, Lecture 10).

Every generator takes a ``numpy.random.Generator`` where it draws, so the streams are reproducible.
Instances are float64 arrays of shape (T, d) (int8 for the 0/1 streams), labels int64 in {-1, +1}.
"""
from __future__ import annotations

import math

import numpy as np

from .game import int_at_least

__all__ = [
    "disjunction_stream",
    "elimination_sequence",
    "expert_stream",
    "hadamard_stream",
    "noisy_stream",
    "orthonormal_stream",
    "separable_stream",
    "tie_threshold_stream",
]

#: Rows drawn at a time by :func:`separable_stream` (the stream does not depend on it).
_BLOCK = 1 << 15


def _generator(rng) -> np.random.Generator:
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy Generator (np.random.default_rng(seed)); got {type(rng).__name__}")
    return rng


def _positive(v, name: str) -> float:
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, np.integer, np.floating)) \
            or not math.isfinite(v) or v <= 0:
        raise ValueError(f"{name} must be a positive finite number; got {v!r}")
    return float(v)


def separable_stream(T: int, d: int, gamma: float, rng: np.random.Generator, r: float = 1.0, u=None,
                     margin_max: float | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A stream of T points of R^d with ||x_t|| <= r, separable by the unit vector u with margin gamma:
    y_t <u, x_t> >= gamma on every round (up to rounding, about 1e-16 r).

    Returns ``(X, y, u)``.  Construction, row by row: a random label y_t, the component along u
    s_t = y_t m_t with m_t uniform on [gamma, margin_max] (default margin_max = r), and a component
    orthogonal to u in a uniformly random direction with length sqrt(r^2 - m_t^2) U_t^(1/(d-1)), U_t
    uniform on [0, 1] (so that x_t is spread over the ball's slice).  ``u`` is drawn uniformly on the
    sphere unless given.  Rows whose norm rounds above r are scaled down by an ulp.  The rows are
    drawn in blocks (memory stays O(block d) beyond the output); the result depends only on the
    arguments and the generator's state.
    """
    T, d, rng = int_at_least(T, "T", 1), int_at_least(d, "d", 1), _generator(rng)
    r, gamma = _positive(r, "r"), _positive(gamma, "gamma")
    if gamma > r:
        raise ValueError(f"gamma must be at most r = {r} (||x_t|| <= r bounds the margin); got {gamma}")
    top = r if margin_max is None else _positive(margin_max, "margin_max")
    if not gamma <= top <= r:
        raise ValueError(f"margin_max must be in [gamma, r] = [{gamma}, {r}]; got {margin_max!r}")
    if u is None:
        u = rng.standard_normal(d)
        u /= np.linalg.norm(u)
    else:
        u = np.asarray(u, dtype=float)
        if u.shape != (d,) or abs(np.linalg.norm(u) - 1) > 1e-9:
            raise ValueError(f"u must be a unit vector of shape ({d},); got shape {u.shape}")
    X = np.empty((T, d))
    y = np.empty(T, dtype=np.int64)
    for a in range(0, T, _BLOCK):
        b = min(T, a + _BLOCK)
        n = b - a
        yb = np.where(rng.random(n) < 0.5, -1, 1)
        m = rng.uniform(gamma, top, size=n)
        Xb = X[a:b]
        Xb[:] = (yb * m)[:, None] * u[None, :]
        if d > 1:
            V = rng.standard_normal((n, d))
            V -= np.outer(V @ u, u)
            V /= np.linalg.norm(V, axis=1, keepdims=True)
            rho = np.sqrt(np.clip(r * r - m * m, 0, None)) * rng.random(n) ** (1 / (d - 1))
            Xb += rho[:, None] * V
        norms = np.linalg.norm(Xb, axis=1)
        while (norms > r).any():
            big = norms > r
            Xb[big] *= (r / np.nextafter(norms[big], np.inf))[:, None]
            norms = np.linalg.norm(Xb, axis=1)
        y[a:b] = yb
    return X, y, u


def noisy_stream(T: int, d: int, gamma: float, rng: np.random.Generator, noise: float = 0.1, r: float = 1.0,
                 u=None) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`separable_stream` with each label flipped independently with probability ``noise``.

    Returns ``(X, y, u, flipped)``; the stream is not separable (in general), and u is the
    direction that separated it before the flips."""
    if isinstance(noise, bool) or not isinstance(noise, (int, float, np.integer, np.floating)) or not 0 <= noise <= 1:
        raise ValueError(f"noise must be a probability in [0, 1]; got {noise!r}")
    X, y, u = separable_stream(T, d, gamma, rng, r=r, u=u)
    flipped = rng.random(len(y)) < noise
    return X, np.where(flipped, -y, y), u, flipped


def orthonormal_stream(n: int, d: int, r: float = 1.0, rng: np.random.Generator | None = None, y=None
                       ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """n points x_t = r q_t, q_1, ..., q_n orthonormal in R^d (n <= d), labels ``y`` (default +1).

    u = sum_t y_t q_t / sqrt(n) is a unit vector with y_t <u, x_t> = r / sqrt(n) for every t, so the
    margin is rho = r / sqrt(n) and r^2 / rho^2 = n.  The Perceptron updates on every round (its
    score <w_t, x_t> = sum_{s<t} y_s r^2 <q_s, q_t> is 0: a tie), n = r^2 / rho^2 updates: the bound
    of Mohri et al. Theorem 7.8 is attained (their Exercise 7.3).  Without ``rng`` the q_t are e_1,
    ..., e_n (the scores are exact zeros); with ``rng`` they are rotated by a random orthogonal
    matrix (the scores are rounding errors of order 1e-16 r^2, ties by the tolerance of
    :mod:`olkit.fp`).  Returns ``(X, y, u)``.
    """
    n, d = int_at_least(n, "n", 1), int_at_least(d, "d", 1)
    if n > d:
        raise ValueError(f"n orthonormal points need n <= d; got n = {n}, d = {d}")
    r = _positive(r, "r")
    y = np.ones(n, dtype=np.int64) if y is None else np.asarray(y, dtype=np.int64)
    if y.shape != (n,) or not np.isin(y, (-1, 1)).all():
        raise ValueError(f"y must be n = {n} labels in {{-1, +1}}")
    Q = np.eye(d)[:n]
    if rng is not None:
        G = _generator(rng).standard_normal((d, d))
        O, R = np.linalg.qr(G)
        O = O * np.sign(np.diag(R))
        Q = Q @ O.T
    u = (y @ Q) / math.sqrt(n)
    return r * Q, y, u / np.linalg.norm(u)


def tie_threshold_stream(T: int, d: int, rng: np.random.Generator, size: float = 60.0, offset: float = 1e-4
                         ) -> tuple[np.ndarray, np.ndarray]:
    """A stream built against the Perceptron's tie threshold: T rows of norm ``size`` in R^d, labels
    +-1 drawn uniformly, and rows chosen against the weights w_t of the Perceptron run on the stream.

    Once w_t != 0, on three rounds in four the row's component along w_t / ||w_t|| is 0 (a tie in exact
    arithmetic) or +-1e-9 (1 +- offset) ||x_t|| (signs drawn at random): the score <w_t, x_t> lies
    just inside or just outside the tie band 1e-9 ||w_t|| ||x_t|| of :mod:`olkit.fp`, on either side
    of 0; the other rows are uniform on the sphere of radius ``size``.  Rounding moves a score by
    about 1e-16 of its scale, far less than ``offset`` 1e-9, so every decision is the same on every
    machine.  The weights are computed here with numpy (w_1 = 0, w_{t+1} = w_t + y_t x_t when
    y_t <w_t, x_t> <= 1e-9 ||w_t|| ||x_t||), not with :class:`olkit.Perceptron`; since the Perceptron
    with step size eta has weights eta w_t, the stream is at the threshold for every eta.  Long rows
    (``size`` far from 1) also separate a tie scale ||w|| ||x|| from a wrong one.  Returns ``(X, y)``.
    """
    T, d, rng = int_at_least(T, "T", 1), int_at_least(d, "d", 2), _generator(rng)
    size, offset = _positive(size, "size"), _positive(offset, "offset")
    if offset >= 0.5:
        raise ValueError(f"offset must be below 0.5; got {offset!r}")
    X, y = np.zeros((T, d)), np.where(rng.random(T) < 0.5, -1, 1).astype(np.int64)
    w = np.zeros(d)
    for t in range(T):
        z = rng.standard_normal(d)
        kind = rng.integers(4)
        if np.any(w != 0) and kind < 3:
            n = w / np.linalg.norm(w)
            for _ in range(2):  # twice: one pass leaves ~1e-16 / ||z - <z, n> n|| along n
                z -= (z @ n) * n
                z /= np.linalg.norm(z)
            c = 0.0 if kind == 0 else rng.choice([-1, 1]) * 1e-9 * (1 + rng.choice([-1, 1]) * offset)
            z = c * n + np.sqrt(1 - c * c) * z
        X[t] = size * z / np.linalg.norm(z)
        if y[t] * (w @ X[t]) <= 1e-9 * np.linalg.norm(w) * np.linalg.norm(X[t]):
            w = w + y[t] * X[t]
    return X, y


def _hadamard(N: int) -> np.ndarray:
    H = np.ones((1, 1))
    while H.shape[0] < N:
        H = np.block([[H, H], [H, -H]])
    return H


def hadamard_stream(N: int) -> tuple[np.ndarray, np.ndarray]:
    """The N rows of the Sylvester Hadamard matrix (N a power of two) with labels +1.

    Every row is in {-1, +1}^N with first entry +1, so expert 1 (the first coordinate) predicts every
    label: the comparison setting of Mohri et al. after Theorem 7.12, with r_2 = sqrt(N) and margin
    rho_2 = 1 for v = e_1.  The rows are orthogonal, so the Perceptron's score on row t is exactly 0
    and it updates on all N rows: N = r_2^2 / rho_2^2 updates, its bound attained.  Returns ``(X, y)``.
    """
    N = int_at_least(N, "N", 1)
    if N & (N - 1):
        raise ValueError(f"N must be a power of two; got {N}")
    return _hadamard(N), np.ones(N, dtype=np.int64)


def expert_stream(T: int, N: int, rng: np.random.Generator, relevant: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """T rounds of N experts' advice x_t uniform on {-1, +1}^N, labelled by expert ``relevant``:
    y_t = x_{t, relevant}.  With v = e_relevant: rho_inf = r_inf = 1 (Winnow's bound 2 ln N) and
    rho_2 = 1, r_2 = sqrt(N) (the Perceptron's bound N).  Returns ``(X, y)``, X float64."""
    T, N, rng = int_at_least(T, "T", 1), int_at_least(N, "N", 1), _generator(rng)
    if isinstance(relevant, bool) or not isinstance(relevant, (int, np.integer)) or not 0 <= relevant < N:
        raise ValueError(f"relevant must be an expert index in 0..{N - 1}; got {relevant!r}")
    X = np.where(rng.random((T, N)) < 0.5, -1.0, 1.0)
    return X, X[:, relevant].astype(np.int64)


def disjunction_stream(T: int, d: int, relevant, rng: np.random.Generator, p: float | None = None
                       ) -> tuple[np.ndarray, np.ndarray]:
    """T random instances of {0, 1}^d labelled by the monotone disjunction of the features ``relevant``:
    y_t = +1 iff x_{t,j} = 1 for some relevant j.  Each feature is 1 with probability p (default
    1 - 2^(-1/k) for k relevant features, so that half of the labels are +1).  Returns ``(X, y)``,
    X int8."""
    T, d, rng = int_at_least(T, "T", 1), int_at_least(d, "d", 1), _generator(rng)
    rel = np.unique(np.asarray(relevant, dtype=np.int64))
    if len(rel) == 0 or rel.min() < 0 or rel.max() >= d:
        raise ValueError(f"relevant must be a non-empty set of feature indices in 0..{d - 1}; got {relevant!r}")
    if p is None:
        p = 1 - 2 ** (-1 / len(rel))
    if isinstance(p, bool) or not 0 < p < 1:
        raise ValueError(f"p must be a probability in (0, 1); got {p!r}")
    X = (rng.random((T, d)) < p).astype(np.int8)
    return X, np.where(X[:, rel].any(axis=1), 1, -1).astype(np.int64)


def elimination_sequence(d: int) -> tuple[np.ndarray, np.ndarray]:
    """Telgarsky's counterexample for the elimination learner: e_1, e_2, ..., e_{d-1}, all labelled -1,
    with target the disjunction x_d.  Returns ``(X, y)``, X int8 of shape (d - 1, d)."""
    d = int_at_least(d, "d", 2)
    return np.eye(d, dtype=np.int8)[: d - 1], -np.ones(d - 1, dtype=np.int64)
