"""Online convex optimization (UML Section 21.3; the lecture notes on Chapter 21, part 2; Hazan 2016,
Chapter 3; Zinkevich 2003).

The protocol: for t = 1, 2, ..., T the learner picks a point w_t of a convex set K, the environment
reveals a convex loss f_t, and the learner pays f_t(w_t).  The regret against a fixed u in K is
sum_t f_t(w_t) - sum_t f_t(u).

* **Sets** with an exact Euclidean projection: :class:`Ball` (radius B), :class:`Box`,
  :class:`Simplex` (the probability simplex, projected by the sort-based algorithm) and
  :class:`Space` (all of R^d, no projection).  Each also minimizes a linear function exactly
  (:meth:`Ball.min_linear`), which gives the best fixed point in hindsight for linear losses and the
  optimality certificate of :func:`best_fixed`.
* **Losses**, one object per round with ``value(w)`` and ``subgradient(w)``: :class:`Linear`,
  :class:`Hinge`, :class:`Logistic`, :class:`Squared`, :class:`Absolute`, :class:`Quadratic`,
  :class:`Regularized` (adds (lam/2)||w||^2) and UML's round-dependent Perceptron surrogate
  :class:`PerceptronLoss`.
* **Learners**: :class:`OGD` (online projected subgradient descent, with a fixed eta or a schedule:
  :func:`anytime`, :func:`strongly_convex`), :class:`Doubling` (the doubling trick) and :class:`EG`
  (exponentiated gradient on the simplex).
* :func:`play` runs the protocol and records, per round, w_t, f_t(w_t), the subgradient v_t, the
  step eta_t and the point z_t = w_t - eta_t v_t that was projected (:class:`OCOTrace`).

**Kinks.**  Where a loss is not differentiable the subdifferential is a segment, and the losses
return its element of least norm: for the hinge loss at margin y<w, x> = 1 and for the absolute loss
at <w, x> = y, that element is 0.  The kink is detected with :func:`olkit.fp.sign`: a margin within
1e-9 (||w|| ||x|| + 1) of the kink counts as the kink, so that grid data (where the margin is exactly
at the kink in exact arithmetic) get the same subgradient on every machine.

**Projections are continuous**, so where a projection branches on a float comparison (a point on
the sphere, a coordinate at a bound) both branches give the same point up to rounding.  The simplex
projection depends only on the sorted values of its input, never on the order of tied entries, and
its threshold is the same whichever of two tied candidates the test picks (see :meth:`Simplex.project`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np

from . import fp
from .game import int_at_least

__all__ = [
    "Absolute",
    "Ball",
    "Box",
    "Doubling",
    "EG",
    "Hinge",
    "Linear",
    "Logistic",
    "OCOTrace",
    "OGD",
    "PerceptronLoss",
    "Quadratic",
    "Regularized",
    "Simplex",
    "Space",
    "Squared",
    "anytime",
    "best_fixed",
    "fw_gap",
    "play",
    "regret",
    "strongly_convex",
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


# ---------------------------------------------------------------------------------------------
# Step-size schedules
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Schedule:
    """eta_t = scale / t^power."""

    scale: float
    power: float
    name: str

    def __call__(self, t: int) -> float:
        return self.scale / t**self.power

    def __repr__(self) -> str:
        return self.name


def anytime(B: float, rho: float) -> _Schedule:
    """eta_t = B / (rho sqrt t): OGD without knowing T (Hazan 2016 Theorem 3.1 has D / (G sqrt t) with the
    diameter D = 2B; both give regret <= 3 B rho sqrt T)."""
    B, rho = _positive(B, "B"), _positive(rho, "rho")
    return _Schedule(B / rho, 0.5, f"eta_t = {B:g}/({rho:g} sqrt(t))")


def strongly_convex(lam: float) -> _Schedule:
    """eta_t = 1 / (lam t), for lam-strongly convex losses (Hazan 2016 Theorem 3.3: regret <=
    G^2 (1 + ln T) / (2 lam))."""
    lam = _positive(lam, "lam")
    return _Schedule(1 / lam, 1.0, f"eta_t = 1/({lam:g} t)")


# ---------------------------------------------------------------------------------------------
# Learners
# ---------------------------------------------------------------------------------------------
class OGD:
    """Online projected subgradient descent (Zinkevich 2003; UML Section 21.3):
    w_1 = K.start (0 for a ball), and w_{t+1} = Proj_K(w_t - eta_t v_t) with v_t in the subdifferential
    of f_t at w_t.

    ``eta`` is a number (a fixed step) or a schedule t -> eta_t (:func:`anytime`,
    :func:`strongly_convex`, or any callable returning a positive number).  ``w1`` overrides the start.
    After ``update(v)``, ``record`` holds eta_t and the projected point z_t = w_t - eta_t v_t.
    """

    def __init__(self, K: _Set, eta, w1=None):
        if not isinstance(K, _Set):
            raise ValueError(f"K must be an olkit.oco set (Ball, Box, Simplex, Space); got {type(K).__name__}")
        self.K = K
        self.eta = eta if callable(eta) else _positive(eta, "eta")
        self.w = K.start.copy() if w1 is None else K.check_member(w1, "w1").copy()
        self.t = 1
        self.record: dict = {}

    def point(self) -> np.ndarray:
        return self.w

    def step(self) -> float:
        """eta_t of the round about to be played."""
        return self.eta(self.t) if callable(self.eta) else self.eta

    def update(self, v) -> None:
        v = self.K.check(v, "v")
        eta = _positive(self.step(), f"eta_{self.t}")
        z = self.w - eta * v
        self.record = {"eta": eta, "z": z}
        self.w = self.K._project(z)
        self.t += 1


class Doubling:
    """The doubling trick (the lecture notes, "the doubling trick"; Hazan 2016 Section 3.1): blocks
    m = 0, 1, 2, ... of 2^m rounds; on block m, a fresh learner ``make(2^m)`` tuned for the horizon 2^m.

    ``make(n)`` returns a learner with ``point()`` and ``update(v)`` (e.g. ``lambda n: OGD(K, B / (rho *
    sqrt(n)))``).  ``record`` holds the block m of the round just played, the inner learner's record,
    and ``restart`` (True when the next round starts a new block).
    """

    def __init__(self, make: Callable[[int], object]):
        if not callable(make):
            raise ValueError("make must be a callable n -> learner for the horizon n")
        self.make = make
        self.m, self.left = 0, 1
        self.inner = make(1)
        self.record: dict = {}

    def point(self) -> np.ndarray:
        return self.inner.point()

    def update(self, v) -> None:
        self.inner.update(v)
        self.left -= 1
        self.record = {**getattr(self.inner, "record", {}), "block": self.m, "restart": self.left == 0}
        if self.left == 0:
            self.m += 1
            self.left = 2**self.m
            self.inner = self.make(self.left)


class EG:
    """Exponentiated gradient on the simplex (Kivinen and Warmuth 1997): w_1 uniform and
    w_{t+1, i} = w_{t, i} exp(-eta v_{t, i}) / Z_t with Z_t = sum_i w_{t, i} exp(-eta v_{t, i}).

    On linear losses <v_t, w> this is Hedge with learning rate eta (w_{t+1} proportional to
    exp(-eta (v_1 + ... + v_t))).  ``record`` holds eta and log Z_t.  The exponent is shifted by its
    minimum before exponentiating (the normalization removes the shift).
    """

    def __init__(self, d: int, eta: float):
        self.K = Simplex(d)
        self.eta = _positive(eta, "eta")
        self.w = self.K.start.copy()
        self.record: dict = {}

    def point(self) -> np.ndarray:
        return self.w

    def update(self, v) -> None:
        a = -self.eta * self.K.check(v, "v")
        shift = float(a.max())
        u = self.w * np.exp(a - shift)
        s = float(u.sum())
        self.record = {"eta": self.eta, "logZ": math.log(s) + shift}
        self.w = u / s


# ---------------------------------------------------------------------------------------------
# The protocol and its trace
# ---------------------------------------------------------------------------------------------
@dataclass
class OCOTrace:
    """One run of the OCO protocol; arrays indexed by round (entry t - 1 is round t).

    ``w``: w_1, ..., w_{T+1} (shape (T+1, d)); ``loss``: f_t(w_t); ``v``: the subgradients v_t;
    ``record``: what the learner recorded per round (``eta``, ``z`` for OGD; ``block``, ``restart`` for
    :class:`Doubling`; ``logZ`` for :class:`EG`); ``losses``: the loss objects f_1, ..., f_T.  Without
    ``keep_points`` (large runs) ``w`` holds only w_1 and w_{T+1}, ``v`` and ``record["z"]`` are left out,
    and ``v_sq`` = ||v_t||^2 is kept.
    """

    w: np.ndarray
    loss: np.ndarray
    v: np.ndarray | None
    v_sq: np.ndarray
    record: dict[str, np.ndarray] = field(default_factory=dict)
    losses: list = field(default_factory=list)

    @property
    def T(self) -> int:
        return len(self.loss)

    def comparator_losses(self, u) -> np.ndarray:
        """f_t(u) for t = 1..T (from the recorded loss objects)."""
        return np.array([f.value(u) for f in self.losses])


def play(learner, losses, T: int | None = None, keep_points: bool = True) -> OCOTrace:
    """Run the OCO protocol: for t = 1..T, w_t = learner.point(); f_t = the environment's loss; pay
    f_t(w_t); v_t = f_t.subgradient(w_t); learner.update(v_t).

    ``losses`` is a sequence of losses f_1, ..., f_T, or a callable ``(t, w_t) -> f_t`` (an adaptive
    environment, e.g. UML's Perceptron surrogate, which depends on w_t; then ``T`` is needed).  A loss
    value that is NaN or infinite raises a ValueError naming the round.
    """
    adaptive = callable(losses)
    if adaptive:
        if T is None:
            raise ValueError("T is needed when losses is a callable (t, w_t) -> f_t")
        n = int(T)
    else:
        n = len(losses) if T is None else int(T)
        if n > len(losses):
            raise ValueError(f"T = {n} exceeds the {len(losses)} losses given")
    if n < 0:
        raise ValueError(f"T must be >= 0; got {T!r}")
    w0 = np.array(learner.point(), dtype=float)
    d = w0.size
    W = np.empty((n + 1, d)) if keep_points else np.empty((2, d))
    V = np.empty((n, d)) if keep_points else None
    W[0] = w0
    vals, vsq, fs, recs = np.empty(n), np.empty(n), [], []
    for t in range(1, n + 1):
        w = np.array(learner.point(), dtype=float)
        f = losses(t, w.copy()) if adaptive else losses[t - 1]
        if getattr(f, "d", d) != d:
            raise ValueError(f"round {t}: the loss has dimension {f.d}, the learner's point {d}")
        val = float(f._value(w))
        if not math.isfinite(val):
            raise ValueError(f"round {t}: the loss value f_t(w_t) must be finite; got {val}")
        v = f._subgradient(w)
        learner.update(v)
        vals[t - 1], vsq[t - 1] = val, fp.dot(v, v)
        rec = dict(getattr(learner, "record", {}))
        if keep_points:
            V[t - 1] = v
            W[t] = learner.point()
        else:
            rec.pop("z", None)
        recs.append(rec)
        fs.append(f)
    if not keep_points:
        W[1] = learner.point()
    keys = recs[0].keys() if recs else []
    record = {k: np.array([r[k] for r in recs]) for k in keys}
    return OCOTrace(W, vals, V, vsq, record, fs)


# ---------------------------------------------------------------------------------------------
# Regret and the best fixed point in hindsight
# ---------------------------------------------------------------------------------------------
def regret(trace: OCOTrace, u, K: _Set | None = None) -> float:
    """sum_t f_t(w_t) - sum_t f_t(u); with ``K``, u must be a point of K (ValueError naming u otherwise)."""
    d = trace.w.shape[1]
    u = _vector(u, d, "u") if K is None else K.check_member(u, "u")
    return float(trace.loss.sum() - trace.comparator_losses(u).sum())


def _total_subgradient(losses: Sequence, u: np.ndarray) -> np.ndarray:
    return np.sum([f.subgradient(u) for f in losses], axis=0)


def fw_gap(losses: Sequence, K: _Set, u) -> float:
    """The optimality certificate of u for F = sum_t f_t over K: with G a subgradient of F at u,
    F(u) - min_K F <= <G, u> - min_{u' in K} <G, u'> (convexity: F(u') >= F(u) + <G, u' - u>).
    A gap of 0 certifies that u is a minimizer (the first-order optimality condition)."""
    u = K.check_member(u, "u")
    G = _total_subgradient(losses, u)
    scale = float(np.sum([_norm(f.subgradient(u)) for f in losses])) + 1.0
    return fp.dot(G, u) - fp.dot(G, K.min_linear(G, scale))


def best_fixed(losses: Sequence, K: _Set) -> tuple[np.ndarray, float]:
    """The best fixed point in hindsight, argmin_{u in K} sum_t f_t(u), and its certificate :func:`fw_gap`.

    Linear losses on a set with ``min_linear`` (Ball, Box, Simplex): exact, u = argmin <g_1 + ... + g_T, u>
    (ties as in ``min_linear``).  Otherwise scipy.optimize.minimize (SLSQP, with the set as constraints)
    from K.start; the returned gap bounds how far the solver's point is from optimal, and is what a
    chapter should check rather than trusting the solver.
    """
    losses = list(losses)
    if not losses:
        raise ValueError("losses must hold at least one loss")
    if all(isinstance(f, Linear) for f in losses) and hasattr(K, "min_linear"):
        G = np.sum([f.g for f in losses], axis=0)
        u = K.min_linear(G, float(np.sum([_norm(f.g) for f in losses])))
        return u, fw_gap(losses, K, u)
    from scipy.optimize import minimize

    def F(u):
        return float(sum(f.value(u) for f in losses))

    def dF(u):
        return _total_subgradient(losses, u)

    cons, bounds = [], None
    if isinstance(K, Ball):
        cons = [{"type": "ineq", "fun": lambda u: K.B**2 - u @ u, "jac": lambda u: -2 * u}]
    elif isinstance(K, Box):
        bounds = list(zip(K.lo, K.hi))
    elif isinstance(K, Simplex):
        bounds = [(0.0, 1.0)] * K.d
        cons = [{"type": "eq", "fun": lambda u: u.sum() - 1.0, "jac": lambda u: np.ones_like(u)}]
    res = minimize(F, K.start.copy(), jac=dF, method="SLSQP", bounds=bounds, constraints=cons,
                   options={"ftol": 1e-13, "maxiter": 1000})
    u = K.project(res.x)  # the solver's point, made feasible exactly
    return u, fw_gap(losses, K, u)


# ---------------------------------------------------------------------------------------------
# Independent references for the proof checks of Chapter 5.  They recompute, in plain numpy and from
# the data and the recorded points only, what the learners compute: a proof step's two sides never
# come from the code path that made the learner's decision.
# ---------------------------------------------------------------------------------------------
def plain_ball_projection(Z, B: float) -> np.ndarray:
    """The rows of ``Z`` projected onto the ball of radius ``B``, by the closed form z min(1, B/||z||)
    (plain numpy; the reference for step P of the OGD regret bound, UML Theorem 21.15, on a ball)."""
    Z = np.asarray(Z, dtype=float)
    n = np.linalg.norm(Z, axis=-1, keepdims=True)
    return Z * np.minimum(1.0, B / np.maximum(n, 1e-300))


def plain_simplex_projection(Z, iters: int = 200) -> np.ndarray:
    """The rows of ``Z`` projected onto the probability simplex by *bisection* for the threshold theta
    with sum_i max(z_i - theta, 0) = 1 (where :class:`Simplex` sorts, as in Duchi et al. 2008): an
    independent reference for step P on the simplex.  ``iters`` halvings of [min z - 1, max z]."""
    Z = np.atleast_2d(np.asarray(Z, dtype=float))
    lo = Z.min(axis=1) - 1.0  # sum_i max(z_i - lo, 0) >= 1
    hi = Z.max(axis=1)  # sum_i max(z_i - hi, 0) = 0
    for _ in range(iters):
        mid = (lo + hi) / 2
        big = np.maximum(Z - mid[:, None], 0).sum(axis=1) >= 1
        lo, hi = np.where(big, mid, lo), np.where(big, hi, mid)
    return np.maximum(Z - ((lo + hi) / 2)[:, None], 0)


def plain_projection(K: _Set, Z) -> np.ndarray:
    """The rows of ``Z`` projected onto ``K`` (a :class:`Ball`, :class:`Box` or :class:`Simplex`) in
    plain numpy: the ball's closed form, clipping for the box, bisection for the simplex.  Used for
    step P (w_{t+1} = Proj(z_t)) of the OGD regret bound and for the non-expansiveness lemma."""
    Z = np.atleast_2d(np.asarray(Z, dtype=float))
    if isinstance(K, Ball):
        return plain_ball_projection(Z, K.B)
    if isinstance(K, Box):
        return np.clip(Z, K.lo, K.hi)
    if isinstance(K, Simplex):
        return plain_simplex_projection(Z)
    raise ValueError(f"K must be a Ball, Box or Simplex; got {K!r}")


def random_points(K: _Set, n: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` random points of ``K`` (rows): uniform in a :class:`Ball` or a :class:`Box`, Dirichlet(1)
    on a :class:`Simplex`.  The comparators w* of the chapter's regret checks."""
    if isinstance(K, Ball):
        G = rng.standard_normal((n, K.d))
        r = K.B * rng.uniform(0, 1, (n, 1)) ** (1 / K.d)
        return r * G / np.linalg.norm(G, axis=1, keepdims=True)
    if isinstance(K, Box):
        return rng.uniform(K.lo, K.hi, (n, K.d))
    if isinstance(K, Simplex):
        return rng.dirichlet(np.ones(K.d), n)
    raise ValueError(f"K must be a Ball, Box or Simplex; got {K!r}")


def linear_regret_curve(G, W, B: float) -> np.ndarray:
    """Regret_t(K) for t = 1..T of the points ``W`` (rows w_t) on the linear losses ``G`` (rows g_t),
    K the ball of radius ``B``: the closed form sum_{s<=t} <g_s, w_s> + B ||g_1 + ... + g_t||, since
    min_{||u|| <= B} <G, u> = -B ||G||.  From the data, not from the learner."""
    G, W = np.asarray(G, dtype=float), np.asarray(W, dtype=float)
    paid = np.cumsum((G * W).sum(axis=1))
    return paid + B * np.linalg.norm(np.cumsum(G, axis=0), axis=1)


def linear_regret_on_ball(G, W, B: float) -> float:
    """Regret_T(K) against the ball of radius ``B``: the last entry of :func:`linear_regret_curve`,
    sum_t <g_t, w_t> + B ||sum_t g_t||."""
    G, W = np.asarray(G, dtype=float), np.asarray(W, dtype=float)
    return float((G * W).sum() + B * np.linalg.norm(G.sum(axis=0)))


def plain_losses(kind: str, X, Y, W, paired: bool = False) -> np.ndarray:
    """The losses f_t from their formulas, in plain numpy (never through the loss objects):
    ``kind`` is "linear" (<x_t, w>, X holds the g_t), "logistic" (ln(1 + e^{-y_t <w, x_t>})) or
    "absolute" (|<w, x_t> - y_t|).  ``paired``: f_t(w_t) for the rows w_t of W (shape (T,)); else
    f_t(w) for every row w of W and every t (shape (T, n))."""
    X, W = np.asarray(X, dtype=float), np.asarray(W, dtype=float)
    M = (X * W).sum(axis=1) if paired else X @ W.T
    if kind == "linear":
        return M
    Yb = np.asarray(Y, dtype=float) if paired else np.asarray(Y, dtype=float)[:, None]
    if kind == "logistic":
        return np.logaddexp(0.0, -Yb * M)
    if kind == "absolute":
        return np.abs(M - Yb)
    raise ValueError(f"kind must be 'linear', 'logistic' or 'absolute'; got {kind!r}")


def plain_subgradients(kind: str, X, Y, W) -> np.ndarray:
    """The subgradient of f_t at w_t (row t of ``W``) by its formula, with the least-norm element at a
    kink of the absolute loss (|<w, x> - y| <= 1e-9 (||w|| ||x|| + 1), the book's tie rule): step 0
    of the OGD regret bound checks the learner's recorded v_t against it."""
    X, W = np.asarray(X, dtype=float), np.asarray(W, dtype=float)
    m = (X * W).sum(axis=1)
    if kind == "linear":
        return X.copy()
    Y = np.asarray(Y, dtype=float)
    if kind == "logistic":
        return (-Y / (1 + np.exp(Y * m)))[:, None] * X
    if kind == "absolute":
        tol = 1e-9 * (np.linalg.norm(W, axis=1) * np.linalg.norm(X, axis=1) + 1)
        s = np.where(m - Y > tol, 1.0, np.where(m - Y < -tol, -1.0, 0.0))
        return s[:, None] * X
    raise ValueError(f"kind must be 'linear', 'logistic' or 'absolute'; got {kind!r}")


def ogd_quantities(K: _Set, kind: str, X, Y, eta: float, trace: OCOTrace, U) -> dict:
    """Every side of the steps of the OGD regret bound (UML Theorem 21.15; Section 5.1's proof,
    steps 0-6) on one run with a fixed ``eta``, recomputed from the recorded points ``trace.w``, the
    recorded subgradients and the data (``X``, ``Y``, loss ``kind`` as in :func:`plain_losses`), for
    the comparators ``U`` (rows).  Keys: ``v_err`` (|v_t - formula|), ``at_kink`` (absolute losses: the
    rounds at the kink, from the data: x_t != 0 and |<w_t, x_t> - y_t| <= 1e-9 (||w_t|| ||x_t|| + 1), the
    tie rule of :func:`plain_subgradients`),
    ``kink`` (their number), ``v_zero`` (absolute losses: the rounds with x_t != 0 whose recorded v_t
    is 0), ``rec_err`` (recorded z_t against w_t - eta v_t), ``eta_rec``, ``loss_rec``,
    ``vsq_rec``, ``P_err`` (w_{t+1} against the plain projection of z_t), ``f_w`` (f_t(w_t)),
    ``f_u`` (f_t(u), (T, n)), ``inner`` (<w_t - u, v_t>), ``D2`` (||w_t - u||^2, t = 1..T+1),
    ``Z2`` (||z_t - u||^2) and ``v2`` (||v_t||^2)."""
    W, V, U = trace.w, trace.v, np.atleast_2d(np.asarray(U, dtype=float))
    q: dict = {"kink": 0}
    formula = plain_subgradients(kind, X, Y, W[:-1])
    q["v_err"] = np.abs(V - formula).max(axis=1)
    if kind == "absolute":  # a round with x_t = 0 has v_t = 0 too, but f_t is constant there: no kink
        nonzero = np.abs(np.asarray(X, dtype=float)).sum(axis=1) > 0
        q["at_kink"] = nonzero & (np.abs(formula).sum(axis=1) == 0)  # the formula's sign is 0: the kink
        q["kink"] = int(q["at_kink"].sum())
        q["v_zero"] = nonzero & (np.abs(V).sum(axis=1) == 0)
    Zt = W[:-1] - eta * V  # the projected points, recomputed
    q["rec_err"] = np.abs(trace.record["z"] - Zt).max(axis=1)
    q["eta_rec"] = trace.record["eta"]
    q["loss_rec"], q["vsq_rec"] = trace.loss, trace.v_sq
    q["P_err"] = np.abs(W[1:] - plain_projection(K, Zt)).max(axis=1)
    q["f_w"] = plain_losses(kind, X, Y, W[:-1], paired=True)
    q["f_u"] = plain_losses(kind, X, Y, U)
    diff = W[:-1, None, :] - U[None]  # w_t - u, shape (T, n, d)
    q["inner"] = np.einsum("tnd,td->tn", diff, V)
    q["D2"] = ((W[:, None, :] - U[None]) ** 2).sum(axis=2)
    q["Z2"] = ((Zt[:, None, :] - U[None]) ** 2).sum(axis=2)
    q["v2"] = (V**2).sum(axis=1)
    return q


def ogd_proof(K: _Set, kind: str, X, Y, eta: float, trace: OCOTrace, U, title: str):
    """The steps of the OGD regret bound (UML Theorem 21.15, the proof of Section 5.1) checked on one
    run for the comparators ``U`` (rows), every side from :func:`ogd_quantities`: step 0 (v_t, f_t(w_t),
    ||v_t||^2, eta_t and z_t as recorded = their formulas; for absolute losses also v_t = 0 exactly at the
    kinks), P (w_{t+1} = the plain projection of z_t),
    1 (convexity), 2 (non-expansiveness), 3 (expansion, an identity), 4 (one step), 5 (telescoping) and
    6 (the bound).  Returns ``(proof, quantities, R, bound)`` with R the regret against each row of U
    and bound the right-hand side of step 6 for it."""
    from .proof import Proof

    q = ogd_quantities(K, kind, X, Y, eta, trace, U)
    n = q["f_u"].shape[1]
    lab = [f"round {t}, comparator {j + 1}" for t in range(1, trace.T + 1) for j in range(n)]
    comp = [f"comparator {j + 1}" for j in range(n)]
    R = q["f_w"].sum() - q["f_u"].sum(axis=0)
    p = Proof(title)
    p.step("0", "v_t = the subgradient formula at w_t (least norm at a kink)", q["v_err"], "==", 0, tol=1e-12)
    if kind == "absolute":
        p.step(
            "0",
            "v_t = 0 (x_t != 0) exactly at the kinks: |<w_t, x_t> - y_t| <= 1e-9 (||w_t|| ||x_t|| + 1)",
            q["v_zero"],
            "==",
            q["at_kink"],
        )
    p.step(
        "0",
        "recorded f_t(w_t) and ||v_t||^2 = the formulas at w_t",
        np.r_[q["loss_rec"] - q["f_w"], q["vsq_rec"] - q["v2"]],
        "==",
        0,
        tol=1e-9,
    )
    p.step(
        "0",
        "recorded eta_t = eta and z_t = w_t - eta v_t  [largest error]",
        np.r_[q["eta_rec"] - eta, q["rec_err"]],
        "==",
        0,
        tol=1e-12,
    )
    p.step("P", "w_{t+1} = Proj(w_t - eta v_t)  [plain numpy; largest error]", q["P_err"], "==", 0, tol=1e-9)
    p.step(
        "1",
        "f_t(w_t) - f_t(w*) <= <w_t - w*, v_t>",
        (q["f_w"][:, None] - q["f_u"]).ravel(),
        "<=",
        q["inner"].ravel(),
        rounds=lab,
        tol=1e-9,
    )
    p.step(
        "2",
        "D_{t+1} <= ||z_t - w*||",
        np.sqrt(q["D2"][1:]).ravel(),
        "<=",
        np.sqrt(q["Z2"]).ravel(),
        rounds=lab,
        tol=1e-9,
    )
    p.step(
        "3",
        "||z_t - w*||^2 = D_t^2 - 2 eta <w_t - w*, v_t> + eta^2 ||v_t||^2",
        q["Z2"].ravel(),
        "==",
        (q["D2"][:-1] - 2 * eta * q["inner"] + eta**2 * q["v2"][:, None]).ravel(),
        rounds=lab,
        tol=1e-9,
        kind="identity",
    )
    one_step = (q["D2"][:-1] - q["D2"][1:]) / (2 * eta) + eta / 2 * q["v2"][:, None]
    p.step(
        "4",
        "<w_t - w*, v_t> <= (D_t^2 - D_{t+1}^2)/(2 eta) + (eta/2) ||v_t||^2",
        q["inner"].ravel(),
        "<=",
        one_step.ravel(),
        rounds=lab,
        tol=1e-9,
    )
    telescoped = (q["D2"][0] - q["D2"][-1]) / (2 * eta) + eta / 2 * q["v2"].sum()
    p.step(
        "5",
        "Regret(w*) <= (D_1^2 - D_{T+1}^2)/(2 eta) + (eta/2) sum_t ||v_t||^2",
        R,
        "<=",
        telescoped,
        rounds=comp,
        tol=1e-9,
    )
    bound = q["D2"][0] / (2 * eta) + eta / 2 * q["v2"].sum()
    p.step("6", "Regret(w*) <= ||w* - w_1||^2/(2 eta) + (eta/2) sum_t ||v_t||^2", R, "<=", bound, rounds=comp)
    return p, q, R, bound
