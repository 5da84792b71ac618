"""Online convex optimization: the learners, the protocol and the regret (UML Section 21.3; the lecture
notes on Chapter 21, part 2; Hazan 2016, Chapter 3; Zinkevich 2003).

The protocol: for t = 1, 2, ..., T the learner picks a point w_t of a convex set K, the environment
reveals a convex loss f_t, and the learner pays f_t(w_t).  The regret against a fixed u in K is
sum_t f_t(w_t) - sum_t f_t(u).  The sets and the losses are :mod:`olkit.convex`.

* **Learners**: :class:`OGD` (online projected subgradient descent, with a fixed eta or a schedule:
  :func:`anytime`, :func:`strongly_convex`), :class:`Doubling` (the doubling trick) and :class:`EG`
  (exponentiated gradient on the simplex).
* :func:`play` runs the protocol and records, per round, w_t, f_t(w_t), the subgradient v_t, the
  step eta_t and the point z_t = w_t - eta_t v_t that was projected (:class:`OCOTrace`).
* **The comparator**: :func:`regret`, and :func:`best_fixed` (the best fixed point in hindsight, with
  the Frank-Wolfe gap :func:`fw_gap` as its certificate of optimality).

The independent references that Chapter 5's proof checks recompute the runs with, and the checks
themselves, are :mod:`olkit.oco_proof`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np

from . import fp
from .convex import Ball, Box, Linear, Simplex, _norm, _positive, _Set, _vector

__all__ = [
    "Doubling",
    "EG",
    "OCOTrace",
    "OGD",
    "anytime",
    "best_fixed",
    "fw_gap",
    "play",
    "regret",
    "strongly_convex",
]


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
