"""The objects of online convex optimization: convex sets with exact projections, and losses with
subgradients (UML Section 21.3; Hazan 2016, Chapters 2-3).

* **Sets** with an exact Euclidean projection: :class:`Ball` (radius B), :class:`Box`,
  :class:`Simplex` (the probability simplex, projected by the sort-based algorithm) and
  :class:`Space` (all of R^d, no projection).  Each also minimizes a linear function exactly
  (:meth:`Ball.min_linear`), which gives the best fixed point in hindsight for linear losses and the
  optimality certificate of :func:`olkit.oco.best_fixed`.
* **Losses**, one object per round with ``value(w)`` and ``subgradient(w)``: :class:`Linear`,
  :class:`Hinge`, :class:`Logistic`, :class:`Squared`, :class:`Absolute`, :class:`Quadratic`,
  :class:`Regularized` (adds (lam/2)||w||^2) and UML's round-dependent Perceptron surrogate
  :class:`PerceptronLoss`.

**Kinks.**  Where a loss is not differentiable the subdifferential is a segment, and the losses
return its element of least norm: for the hinge loss at margin y<w, x> = 1 and for the absolute loss
at <w, x> = y, that element is 0.  The kink is detected with :func:`olkit.fp.sign`: a margin within
1e-9 (||w|| ||x|| + 1) of the kink counts as the kink, so that grid data (where the margin is exactly
at the kink in exact arithmetic) get the same subgradient on every machine.

**Projections are continuous**, so where a projection branches on a float comparison (a point on
the sphere, a coordinate at a bound) both branches give the same point up to rounding.  The simplex
projection depends only on the sorted values of its input, never on the order of tied entries, and
its threshold is the same whichever of two tied candidates the test picks (see :meth:`Simplex.project`).

The learners that play on them are :mod:`olkit.oco`.
"""
from __future__ import annotations

import math

import numpy as np

from . import fp
from .game import int_at_least

__all__ = [
    "Absolute",
    "Ball",
    "Box",
    "Hinge",
    "Linear",
    "Logistic",
    "PerceptronLoss",
    "Quadratic",
    "Regularized",
    "Simplex",
    "Space",
    "Squared",
]


# ---------------------------------------------------------------------------------------------
# Input checks
# ---------------------------------------------------------------------------------------------
def _positive(v, name: str) -> float:
    """v as a finite float > 0; a ValueError naming the argument otherwise."""
    try:
        f = float(v)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a positive number; got {v!r}") from None
    if not (math.isfinite(f) and f > 0):
        raise ValueError(f"{name} must be a finite number > 0; got {v!r}")
    return f


def _dim(d) -> int:
    return int_at_least(d, "d", 1, " (the dimension)")


def _vector(v, d: int | None, name: str, copy: bool = False) -> np.ndarray:
    """v as a finite float vector (of shape (d,) if d is given; a copy if ``copy``); a ValueError naming
    it otherwise."""
    try:
        a = np.array(v, dtype=float) if copy else np.asarray(v, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a numeric vector; got {v!r}") from None
    if a.ndim != 1 or (d is not None and a.shape != (d,)):
        want = "a vector" if d is None else f"shape ({d},)"
        raise ValueError(f"{name} must have {want}; got shape {a.shape}")
    if not np.isfinite(a).all():
        raise ValueError(f"{name} must be finite; got {a.tolist()[:6]}")
    return a


def _norm(v: np.ndarray) -> float:
    return math.sqrt(fp.dot(v, v))


# ---------------------------------------------------------------------------------------------
# Convex sets
# ---------------------------------------------------------------------------------------------
class _Set:
    d: int
    #: the point where OGD starts by default (UML: w_1 = 0 when 0 is in the set)
    start: np.ndarray

    def check(self, w, name: str = "w") -> np.ndarray:
        """w as a point of R^d; a ValueError naming ``name`` if its shape is wrong or it is not finite."""
        return _vector(w, self.d, name)

    def check_member(self, u, name: str = "u", tol: float = 1e-9) -> np.ndarray:
        """u as a point of the set (within ``tol``); a ValueError naming ``name`` otherwise."""
        u = self.check(u, name)
        gap = self.distance(u)
        if gap > tol:
            raise ValueError(f"{name} is not in {self!r}: its distance to the set is {gap:.3g}")
        return u

    def distance(self, u) -> float:
        """||u - Proj(u)||, the Euclidean distance from u to the set."""
        u = self.check(u, "u")
        return _norm(u - self._project(u))

    def project(self, z) -> np.ndarray:
        """Proj(z) = argmin_{w in the set} ||w - z||, for z of shape (d,)."""
        return self._project(self.check(z, "z"))


class Space(_Set):
    """All of R^d (no constraint): the projection is the identity.  UML's Perceptron runs OGD here."""

    def __init__(self, d: int):
        self.d = _dim(d)
        self.start = np.zeros(self.d)

    def __repr__(self) -> str:
        return f"Space(d={self.d})"

    def _project(self, z: np.ndarray) -> np.ndarray:
        return z.copy()


class Ball(_Set):
    """The l2 ball {w : ||w|| <= B} in R^d (diameter 2B); OGD starts at its centre 0.

    ``project(z)`` = z if ||z|| <= B, else B z / ||z|| (continuous at the sphere, so the branch does not
    matter for a point on it).
    """

    def __init__(self, d: int, B: float = 1.0):
        self.d = _dim(d)
        self.B = _positive(B, "B")
        self.start = np.zeros(self.d)

    def __repr__(self) -> str:
        return f"Ball(d={self.d}, B={self.B:g})"

    def _project(self, z: np.ndarray) -> np.ndarray:
        n = _norm(z)
        return z if n <= self.B else z * (self.B / n)

    def min_linear(self, g, scale: float) -> np.ndarray:
        """argmin_{||u|| <= B} <g, u> = -B g / ||g||; if ||g|| <= 1e-9 scale (g = 0 up to rounding),
        every point is a minimizer and the centre 0 is returned."""
        g = self.check(g, "g")
        n = _norm(g)
        if fp.sign(n, scale) == 0:
            return np.zeros(self.d)
        return g * (-self.B / n)


class Box(_Set):
    """The box {w : lo <= w <= hi} (coordinatewise; ``lo`` and ``hi`` scalars or vectors, lo < hi).

    ``project(z)`` clips each coordinate.  OGD starts at the point of the box closest to 0.
    """

    def __init__(self, d: int, lo=-1.0, hi=1.0):
        self.d = _dim(d)
        lo_ = np.broadcast_to(np.asarray(lo, dtype=float), (self.d,)).copy()
        hi_ = np.broadcast_to(np.asarray(hi, dtype=float), (self.d,)).copy()
        if not (np.isfinite(lo_).all() and np.isfinite(hi_).all() and (lo_ < hi_).all()):
            raise ValueError(f"lo and hi must be finite with lo < hi in every coordinate; got {lo!r}, {hi!r}")
        self.lo, self.hi = lo_, hi_
        self.start = np.clip(np.zeros(self.d), lo_, hi_)

    def __repr__(self) -> str:
        return f"Box(d={self.d}, lo={self.lo.min():g}..{self.lo.max():g}, hi={self.hi.min():g}..{self.hi.max():g})"

    def _project(self, z: np.ndarray) -> np.ndarray:
        return np.clip(z, self.lo, self.hi)

    def min_linear(self, g, scale: float) -> np.ndarray:
        """argmin over the box of <g, u>: lo_i where g_i > 0, hi_i where g_i < 0; a coordinate with
        |g_i| <= 1e-9 scale (zero up to rounding) takes the midpoint (every value is a minimizer)."""
        s = fp.sign(self.check(g, "g"), scale)
        return np.where(s > 0, self.lo, np.where(s < 0, self.hi, (self.lo + self.hi) / 2))


class Simplex(_Set):
    """The probability simplex {w >= 0 : sum_i w_i = 1} in R^d (diameter sqrt 2); OGD and EG start at the
    uniform point (1/d, ..., 1/d)."""

    def __init__(self, d: int):
        self.d = _dim(d)
        self.start = np.full(self.d, 1 / self.d)

    def __repr__(self) -> str:
        return f"Simplex(d={self.d})"

    def _project(self, z: np.ndarray) -> np.ndarray:
        """The Euclidean projection onto the simplex: max(z - theta, 0) with the threshold theta that makes
        the coordinates sum to 1 (the sort-based algorithm; Held, Wolfe and Crowder 1974; Duchi et al. 2008).

        Sort z decreasingly into u; theta_j = (u_1 + ... + u_j - 1) / j; rho = the last j with
        u_j > theta_j; theta = theta_rho.  Only the sorted *values* enter, so tied entries of z may be
        sorted in any order.  If u_j = theta_j exactly (the test is a tie), then theta_{j-1} = theta_j
        (because (j-1) theta_{j-1} = j theta_j - u_j), so either choice of rho gives the same theta.
        """
        u = np.sort(z)[::-1]
        j = np.arange(1, self.d + 1)
        theta = (np.cumsum(u) - 1) / j
        rho = int(np.flatnonzero(u > theta)[-1])  # j = 1 always passes: u_1 > u_1 - 1
        return np.maximum(z - theta[rho], 0.0)

    def min_linear(self, g, scale: float) -> np.ndarray:
        """argmin over the simplex of <g, u>: the vertex e_i of the smallest g_i; near-ties (within
        1e-9 scale) go to the first such coordinate (:func:`olkit.fp.first_min`)."""
        i = fp.first_min(self.check(g, "g"), rtol=0.0, atol=fp.TIE_RTOL * scale)
        e = np.zeros(self.d)
        e[i] = 1.0
        return e


# ---------------------------------------------------------------------------------------------
# Losses: one object per round, value(w) and subgradient(w)
# ---------------------------------------------------------------------------------------------
class _Loss:
    """A convex loss of one round: ``value(w)`` and ``subgradient(w)`` check w (shape (d,), finite) and
    call ``_value`` / ``_subgradient``, which :func:`play` calls directly on the checked w_t."""

    d: int
    #: modulus of strong convexity (0: merely convex)
    lam: float = 0.0

    def value(self, w) -> float:
        return self._value(_vector(w, self.d, "w"))

    def subgradient(self, w) -> np.ndarray:
        return self._subgradient(_vector(w, self.d, "w"))


class Linear(_Loss):
    """f(w) = <g, w>, with gradient g everywhere."""

    def __init__(self, g):
        self.g = _vector(g, None, "g", copy=True)
        self.d = self.g.size

    def _value(self, w: np.ndarray) -> float:
        return fp.dot(self.g, w)

    def _subgradient(self, w: np.ndarray) -> np.ndarray:
        return self.g.copy()


class _Example(_Loss):
    """A loss of an example (x, y): x a finite vector, y a finite number.  ``sequence(X, Y)`` makes the
    losses of the rows of X (checked once, as a whole)."""

    def __init__(self, x, y):
        self.x = _vector(x, None, "x", copy=True)
        self.d, self.xn = self.x.size, _norm(self.x)
        y = float(y)
        if not math.isfinite(y):
            raise ValueError(f"y must be a finite number; got {y!r}")
        self.y = y

    @classmethod
    def sequence(cls, X, Y) -> list:
        """[cls(x_1, y_1), ..., cls(x_T, y_T)] for the rows of X (shape (T, d)) and the labels Y; the losses
        keep views of X's rows (no copy: a large X is not duplicated), so X must not change afterwards."""
        X = np.asarray(X, dtype=float)
        Y = np.array(Y, dtype=float).ravel()
        if X.ndim != 2 or Y.shape != (X.shape[0],):
            raise ValueError(f"X must have shape (T, d) and Y shape (T,); got {X.shape} and {Y.shape}")
        if not (np.isfinite(X).all() and np.isfinite(Y).all()):
            raise ValueError("X and Y must be finite")
        out = []
        for x, xn, y in zip(X, np.sqrt(np.einsum("ij,ij->i", X, X)), Y):  # no T x d temporary
            f = cls.__new__(cls)
            f.x, f.d, f.xn, f.y = x, X.shape[1], float(xn), float(y)
            out.append(f)
        return out

    def _beyond(self, s: float, w: np.ndarray) -> int:
        """sign(s) for a distance s from the kink, 0 if |s| <= 1e-9 (||w|| ||x|| + 1) (:func:`olkit.fp.sign`
        on a scalar, inlined: the learners call it every round)."""
        tol = fp.TIE_RTOL * (_norm(w) * self.xn + 1.0)
        return 1 if s > tol else -1 if s < -tol else 0


class Hinge(_Example):
    """f(w) = max(0, 1 - y <w, x>) (y in {-1, +1}); subgradient -y x where the margin y<w, x> < 1, 0 where
    it is > 1, and 0 (the least-norm element) at the kink (margin within 1e-9 (||w|| ||x|| + 1) of 1)."""

    def _value(self, w: np.ndarray) -> float:
        return max(0.0, 1.0 - self.y * fp.dot(w, self.x))

    def _subgradient(self, w: np.ndarray) -> np.ndarray:
        if self._beyond(1.0 - self.y * fp.dot(w, self.x), w) > 0:
            return -self.y * self.x
        return np.zeros(self.d)


class Absolute(_Example):
    """f(w) = |<w, x> - y|; subgradient sign(<w, x> - y) x, and 0 (the least-norm element) at the kink
    (<w, x> - y within 1e-9 (||w|| ||x|| + 1) of 0)."""

    def _value(self, w: np.ndarray) -> float:
        return abs(fp.dot(w, self.x) - self.y)

    def _subgradient(self, w: np.ndarray) -> np.ndarray:
        return self._beyond(fp.dot(w, self.x) - self.y, w) * self.x


class Squared(_Example):
    """f(w) = (1/2) (<w, x> - y)^2, gradient (<w, x> - y) x."""

    def _value(self, w: np.ndarray) -> float:
        r = fp.dot(w, self.x) - self.y
        return 0.5 * r * r

    def _subgradient(self, w: np.ndarray) -> np.ndarray:
        return (fp.dot(w, self.x) - self.y) * self.x


class Logistic(_Example):
    """f(w) = log(1 + exp(-y <w, x>)) (y in {-1, +1}), gradient -y x / (1 + exp(y <w, x>))."""

    def _value(self, w: np.ndarray) -> float:
        return float(np.logaddexp(0.0, -self.y * fp.dot(w, self.x)))

    def _subgradient(self, w: np.ndarray) -> np.ndarray:
        m = self.y * fp.dot(w, self.x)
        return (-self.y * math.exp(-np.logaddexp(0.0, m))) * self.x


class Quadratic(_Loss):
    """f(w) = (lam/2) ||w - c||^2: lam-strongly convex, gradient lam (w - c)."""

    def __init__(self, c, lam: float):
        self.c = _vector(c, None, "c", copy=True)
        self.d = self.c.size
        self.lam = _positive(lam, "lam")

    def _value(self, w: np.ndarray) -> float:
        r = w - self.c
        return 0.5 * self.lam * fp.dot(r, r)

    def _subgradient(self, w: np.ndarray) -> np.ndarray:
        return self.lam * (w - self.c)


class Regularized(_Loss):
    """f(w) = base(w) + (lam/2) ||w||^2: lam-strongly convex for a convex ``base``; subgradient
    base's + lam w."""

    def __init__(self, base: _Loss, lam: float):
        if not isinstance(base, _Loss):
            raise ValueError(f"base must be an olkit.oco loss; got {type(base).__name__}")
        self.base, self.d = base, base.d
        self.lam = _positive(lam, "lam")

    def _value(self, w: np.ndarray) -> float:
        return self.base._value(w) + 0.5 * self.lam * fp.dot(w, w)

    def _subgradient(self, w: np.ndarray) -> np.ndarray:
        return self.base._subgradient(w) + self.lam * w


class PerceptronLoss(Hinge):
    """UML Section 21.4's round-dependent surrogate: f_t(w) = max(0, 1 - y_t <w, x_t>) if the learner's
    point w_t erred on (x_t, y_t), that is y_t <w_t, x_t> <= 0, and f_t = 0 otherwise.

    The error test counts a score within 1e-9 ||w_t|| ||x_t|| of 0 as 0 (an error), as
    :class:`olkit.Perceptron` does.  ``erred`` records the test.  On an error round the margin at w_t is
    <= 0 < 1, so the subgradient at w_t is -y_t x_t (no kink).
    """

    def __init__(self, x, y, w_t):
        super().__init__(x, y)
        w_t = _vector(w_t, self.d, "w_t")
        s, tol = fp.dot(w_t, self.x), fp.TIE_RTOL * fp.tie_scale(w_t, self.x)
        side = 1 if s > tol else -1 if s < -tol else 0  # olkit.fp.sign on a scalar, inlined
        self.erred = self.y * side <= 0

    def _value(self, w: np.ndarray) -> float:
        return super()._value(w) if self.erred else 0.0

    def _subgradient(self, w: np.ndarray) -> np.ndarray:
        return super()._subgradient(w) if self.erred else np.zeros(self.d)
