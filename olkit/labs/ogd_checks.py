"""Lab 5b: checking the proof of OGD's regret bound (Theorem 5.1 of the book; Shalev-Shwartz and Ben-David
2014, Theorem 21.15; Zinkevich 2003).

The student writes the checks, not the algorithm: two functions of a recorded run of online gradient
descent on a ball that build an ``olkit.Proof``.  Question 1 checks what ties the record to Algorithm
5.1 and the projection's property that the proof uses (the recorded z_t is the gradient step, w_{t+1}
is the projection of z_t onto the ball, and the projection moves no comparator farther away: step 2
of the proof, Lemma 5.1); question 2 checks the chain that gives the bound (convexity, the expansion
of the square, one step, the telescoping sum and the bound B^2/(2 eta) + eta T rho^2/2).
:func:`olkit.labs.proofcheck.grade_checks` grades them by mutation: they must hold on correct runs
and fail on broken ones.

The runs are recorded here by :func:`record`, which plays a learner of :mod:`olkit.oco` (or a broken
one of :mod:`olkit.broken.oco`) on losses of :mod:`olkit.convex` (or on losses that are not convex,
or with vectors that are not subgradients) and keeps what the proof needs.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .. import convex, oco
from ..broken import oco as broken_oco
from .proofcheck import ProofCheckQuestion, Variant, grade_checks

__all__ = ["OGDRun", "check_ogd_step_checks", "check_ogd_bound_checks", "ogd_run_record",
           "OGD_STEP_CHECKS", "OGD_BOUND_CHECKS"]


@dataclass
class OGDRun:
    """A recorded run of online gradient descent on the ball {w : ||w|| <= B} of R^d, from w_1 = 0.

    ``B``, ``eta``: the radius and the step size; ``W``: w_1, ..., w_{T+1} (shape (T+1, d));
    ``Z``: z_1, ..., z_T, the points the learner projected (shape (T, d)); ``V``: the subgradients
    v_1, ..., v_T it used (shape (T, d)); ``U``: the comparators u_1, ..., u_n, points of the ball
    (shape (n, d)); ``fW``: f_t(w_t) (shape (T,)); ``fU``: f_t(u_j) (shape (T, n))."""

    B: float
    eta: float
    W: np.ndarray
    Z: np.ndarray
    V: np.ndarray
    U: np.ndarray
    fW: np.ndarray
    fU: np.ndarray

    @property
    def T(self) -> int:
        return len(self.V)


class _Concave(convex._Loss):
    """f(w) = <g, w> - (c/2) ||w||^2 with its gradient g - c w: not convex (a broken loss)."""

    def __init__(self, g, c: float):
        self.g, self.c, self.d = np.asarray(g, dtype=float), float(c), len(g)

    def _value(self, w):
        return float(self.g @ w - 0.5 * self.c * (w @ w))

    def _subgradient(self, w):
        return self.g - self.c * w


class _GradientAtZero(convex.Squared):
    """The squared loss (1/2)(<w, x> - y)^2 whose "subgradient" is its gradient at 0, -y x, wherever the
    learner is: not a subgradient at w_t (a broken loss)."""

    def _subgradient(self, w):
        return -self.y * self.x


def _stream(case: str):
    """(K, losses, eta) of a correct run: ``public`` (linear losses on the unit ball of R^3, T = 20),
    ``hinge`` (hinge losses, T = 40), ``one_round``, ``big_steps`` (eta = 3: every point leaves the
    ball), ``inside`` (small steps: no point leaves the ball), ``long`` (absolute losses on R^5, T = 300)."""
    if case == "public":
        rng = np.random.default_rng(2026)
        return convex.Ball(3, 1.0), [convex.Linear(g) for g in rng.normal(size=(20, 3)) + [0.4, -0.2, 0.0]], 0.3
    if case == "hinge":
        rng = np.random.default_rng(5)
        X = rng.normal(size=(40, 4))
        Y = np.where(X @ [1.0, -1.0, 0.5, 0.0] + rng.normal(0, 0.5, 40) > 0, 1.0, -1.0)
        return convex.Ball(4, 2.0), convex.Hinge.sequence(X, Y), 0.2
    if case == "one_round":
        return convex.Ball(2, 1.0), [convex.Linear([3.0, -4.0])], 0.5
    if case == "big_steps":
        rng = np.random.default_rng(6)
        return convex.Ball(3, 1.5), [convex.Linear(g) for g in rng.normal(size=(15, 3))], 3.0
    if case == "inside":
        rng = np.random.default_rng(7)
        return convex.Ball(3, 1.0), [convex.Linear(g) for g in rng.normal(size=(20, 3))], 0.02
    if case == "long":
        rng = np.random.default_rng(8)
        X = rng.integers(-1, 2, size=(300, 5)).astype(float)
        Y = rng.integers(-1, 2, size=300).astype(float)
        return convex.Ball(5, 1.5), convex.Absolute.sequence(X, Y), 1.5 / (math.sqrt(5) * math.sqrt(300))
    raise ValueError(f"no stream {case!r} in lab 5b")


def _comparators(K, Z, seed: int) -> np.ndarray:
    """0 (= w_1), 12 random points of the ball, and the points B z_t/||z_t|| of the sphere in the
    directions of the first 6 points z_t (where a projection that moves a point too far shows)."""
    from ..oco_proof import random_points

    n = np.linalg.norm(Z, axis=1)
    first = np.flatnonzero(n > 0)[:6]
    return np.vstack([np.zeros(K.d), random_points(K, 12, np.random.default_rng(seed)),
                      K.B * Z[first] / n[first, None]])


def record(K, losses, eta: float, learner=None, seed: int = 0) -> OGDRun:
    """Play ``learner`` (default: OGD on K with step ``eta``) on ``losses``; return the :class:`OGDRun`
    that the student's checks receive, with B the radius of K (the true one, for a broken K)."""
    learner = oco.OGD(K, eta) if learner is None else learner
    tr = oco.play(learner, losses)
    Z = np.asarray(tr.record["z"], dtype=float).reshape(tr.T, -1)
    U = _comparators(K, Z, seed)
    fU = np.array([[f.value(u) for u in U] for f in losses])
    return OGDRun(float(K.B), float(eta), tr.w.copy(), Z, tr.v.copy(), U, tr.loss.copy(), fU)


def ogd_run_record(case: str = "public") -> OGDRun:
    """A recorded run of the correct OGD on a lab stream (an :class:`OGDRun`)."""
    K, losses, eta = _stream(case)
    return record(K, losses, eta)


CORRECT = {
    "public": ("OGD on the public stream: linear losses on the unit ball of R^3, 20 rounds",
               lambda: (ogd_run_record("public"),)),
    "hinge": ("OGD on hinge losses, ball of radius 2 in R^4, 40 rounds", lambda: (ogd_run_record("hinge"),)),
    "one_round": ("OGD on a single round", lambda: (ogd_run_record("one_round"),)),
    "big_steps": ("OGD with eta = 3, where every gradient step leaves the ball", lambda: (ogd_run_record("big_steps"),)),
    "inside": ("OGD with eta = 0.02, where no gradient step leaves the ball", lambda: (ogd_run_record("inside"),)),
    "long": ("OGD on absolute losses in R^5, 300 rounds", lambda: (ogd_run_record("long"),)),
}


def _broken_learner(case: str, make) -> OGDRun:
    K, losses, eta = _stream(case)
    return record(K, losses, eta, learner=make(K, eta))


def _wrong_radius(case: str) -> OGDRun:
    K, losses, eta = _stream(case)
    Kb = broken_oco.WrongRadiusBall(K.d, K.B, factor=0.5)
    return record(Kb, losses, eta)


def _concave(case: str) -> OGDRun:
    K, losses, eta = _stream(case)
    return record(K, [_Concave(f.g, 0.5) for f in losses], eta)


def _gradient_at_zero() -> OGDRun:
    rng = np.random.default_rng(9)
    X = rng.normal(size=(25, 3))
    Y = X @ [0.5, -0.5, 0.2] + rng.normal(0, 0.1, 25)
    return record(convex.Ball(3, 1.0), _GradientAtZero.sequence(X, Y), 0.2)


STEP_VARIANTS = (
    Variant("no_projection", "an OGD that forgets the projection (w_{t+1} = z_t)",
            lambda: (_broken_learner("public", broken_oco.NoProjectionOGD),)),
    Variant("wrong_sign", "an OGD that steps along +v_t (w_{t+1} = Proj(w_t + eta v_t))",
            lambda: (_broken_learner("hinge", broken_oco.WrongSignOGD),)),
    Variant("step_2eta", "an OGD that takes the step 2 eta",
            lambda: (_broken_learner("public", lambda K, eta: broken_oco.ScaledStepOGD(K, eta, factor=2.0)),)),
    Variant("wrong_radius", "an OGD whose projection maps onto the ball of half the radius",
            lambda: (_wrong_radius("public"),)),
)

BOUND_VARIANTS = (
    Variant("wrong_sign", "an OGD that steps along +v_t (w_{t+1} = Proj(w_t + eta v_t))",
            lambda: (_broken_learner("public", broken_oco.WrongSignOGD),)),
    Variant("nonconvex", "a run on losses that are not convex (<g_t, w> - ||w||^2/4)",
            lambda: (_concave("public"),)),
    Variant("not_subgradient", "a run whose v_t is the gradient of the squared loss at 0, not at w_t",
            lambda: (_gradient_at_zero(),)),
)

OGD_STEP_CHECKS = ProofCheckQuestion("ogd_step_checks", "run", "thm-ogd", CORRECT, STEP_VARIANTS)
OGD_BOUND_CHECKS = ProofCheckQuestion("ogd_bound_checks", "run", "thm-ogd", CORRECT, BOUND_VARIANTS)


def check_ogd_step_checks(ogd_step_checks, variant: str, cases: tuple[str, ...] | None = None):
    """Question 1: the student's checks of steps 0, P and 2 hold on the correct runs and stop ``variant``."""
    return grade_checks(OGD_STEP_CHECKS, ogd_step_checks, variant, cases)


def check_ogd_bound_checks(ogd_bound_checks, variant: str, cases: tuple[str, ...] | None = None):
    """Question 2: the student's checks of the chain (steps 1, 3, 4, 5, 6) hold on the correct runs and
    stop ``variant``."""
    return grade_checks(OGD_BOUND_CHECKS, ogd_bound_checks, variant, cases)
