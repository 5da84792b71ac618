"""Lab 4b: checking the proof of the Perceptron's margin bound (Theorem 4.1 of the book; Mohri,
Rostamizadeh and Talwalkar 2012, Theorem 7.8; Novikoff 1962).

The student writes the checks, not the algorithm: two functions of a recorded run of the Perceptron
(step size 1, w_1 = 0) that build an ``olkit.Proof``.  Question 1 checks the two steps that tie the
record to Algorithm 4.1 (step 0: the weights change exactly on the rounds with y_t <w_t, x_t> <= 0;
step 3: an update adds y_t x_t); question 2 checks the chain that gives the bound (step 1: an update
gains at least rho along u; step 4: it adds at most r^2 to ||w||^2; step 5: ||w_{T+1}||^2 <= M r^2;
step 6: M <= (r / rho)^2).  :func:`olkit.labs.proofcheck.grade_checks` grades them by mutation: they must
hold on correct runs and fail on broken ones.

A recorded run is ``(X, y, W, u, rho, r)``: the stream, the weights w_1, ..., w_{T+1} as the learner
recorded them (row t - 1 is w_t), a unit vector u, the margin rho and the radius r that the stream
promises (y_t <u, x_t> >= rho and ||x_t|| <= r on every round).  The correct runs are those of
:class:`olkit.Perceptron` (played round by round by :func:`olkit.run`); the variants are
:mod:`olkit.broken.linear`'s or subclasses written here, each changing one rule (or, once, the stream).
"""
from __future__ import annotations

import numpy as np

from .. import fp
from ..game import run
from ..linear import Perceptron
from ..streams import separable_stream
from .proofcheck import ProofCheckQuestion, Variant, grade_checks

__all__ = ["check_perceptron_rule_checks", "check_perceptron_bound_checks", "perceptron_run_record",
           "PERCEPTRON_RULE_CHECKS", "PERCEPTRON_BOUND_CHECKS"]


class _StrictPerceptron(Perceptron):
    """Broken: updates only on a strictly negative score y_t <w_t, x_t> < 0, so a tie (every score of
    w_1 = 0) keeps w, and w never leaves 0."""

    def _violated(self, x, y) -> bool:
        return y * fp.sign(fp.dot(self.w, x), fp.tie_scale(self.w, x)) < 0


def _stream(case: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, float, float]:
    """(X, y, u, rho, r) of a stream separable by the unit vector u with margin rho and radius r:
    ``public`` (T = 60, d = 3), ``ties`` (points of {-1, 0, 1}^4 labelled by the sign of their sum, u =
    (1, 1, 1, 1) / 2: exact scores, many of them 0, and step 4 an equality in round 1), ``one_dim``
    (d = 1), ``one_round`` (T = 1), ``long`` (T = 1000, d = 10, a small margin: many updates)."""
    if case == "ties":
        rng = np.random.default_rng(44)
        X = rng.integers(-1, 2, size=(120, 4)).astype(float)
        X = X[X.sum(axis=1) != 0][:60]
        full = int(np.flatnonzero(np.all(X != 0, axis=1))[0])
        X[[0, full]] = X[[full, 0]]  # round 1: a zero score at a point of norm r, where step 4 is an equality
        return X, np.where(X.sum(axis=1) > 0, 1, -1).astype(np.int64), np.full(4, 0.5), 0.5, 2.0
    T, d, gamma, seed = {"public": (60, 3, 0.1, 2026), "one_dim": (20, 1, 0.2, 5), "one_round": (1, 3, 0.3, 6),
                         "long": (1000, 10, 0.05, 7)}.get(case, (0, 0, 0.0, 0))
    if T == 0:
        raise ValueError(f"no stream {case!r} in lab 4b")
    X, y, u = separable_stream(T, d, gamma, np.random.default_rng(seed))
    return X, y.astype(np.int64), u, gamma, 1.0


def record(X, y, u, rho, r, learner=None) -> tuple:
    """Play ``learner`` (default the Perceptron, step size 1) round by round on the stream; return what
    the student's checks receive: (X, y, W, u, rho, r), W holding w_1, ..., w_{T+1} as recorded."""
    learner = Perceptron(X.shape[1]) if learner is None else learner
    W = np.array(run(learner, list(X), y).state["w"], dtype=float)
    return X.copy(), y.copy(), W, np.asarray(u, dtype=float).copy(), float(rho), float(r)


def perceptron_run_record(case: str = "public") -> tuple:
    """A recorded run of the correct Perceptron (step size 1, w_1 = 0) on a lab stream:
    (X, y, W, u, rho, r)."""
    return record(*_stream(case))


def _with(cls, case: str = "public", **kw) -> tuple:
    X, y, u, rho, r = _stream(case)
    return record(X, y, u, rho, r, cls(X.shape[1], **kw))


def _thin_margin(case: str = "public") -> tuple:
    """The stream with its first point moved towards the separator: y_1 <u, x_1> = rho / 3 < rho."""
    X, y, u, rho, r = _stream(case)
    X = X.copy()
    X[0] -= (y[0] * (X[0] @ u) - rho / 3) * y[0] * u
    return record(X, y, u, rho, r)


CORRECT = {
    "public": ("the Perceptron on the public stream: 60 points of R^3, margin 0.1",
               lambda: perceptron_run_record("public")),
    "ties": ("the Perceptron on points of {-1, 0, 1}^4, where many scores are exactly 0",
             lambda: perceptron_run_record("ties")),
    "one_dim": ("the Perceptron in one dimension", lambda: perceptron_run_record("one_dim")),
    "one_round": ("the Perceptron on a single round", lambda: perceptron_run_record("one_round")),
    "long": ("the Perceptron on 1000 points of R^10 with margin 0.05", lambda: perceptron_run_record("long")),
}

_EVERY_ROUND = "a Perceptron that adds y_t x_t on every round, the correct ones too"
_WRONG_SIGN = "a Perceptron whose update has the wrong sign, w_{t+1} = w_t - y_t x_t"
_STEP_TWO = "a Perceptron with step size 2, w_{t+1} = w_t + 2 y_t x_t (recorded as the step size 1 of Algorithm 4.1)"


def _broken(name: str):
    from ..broken import linear as broken

    return getattr(broken, name)


RULE_VARIANTS = (
    Variant("every_round", _EVERY_ROUND, lambda: _with(_broken("EveryRoundPerceptron"))),
    Variant("strict_ties", "a Perceptron that updates only on a strictly negative score y_t <w_t, x_t> < 0, so "
            "that w_1 = 0 never moves", lambda: _with(_StrictPerceptron)),
    Variant("wrong_sign", _WRONG_SIGN, lambda: _with(_broken("WrongSignPerceptron"))),
    Variant("step_two", _STEP_TWO, lambda: _with(Perceptron, eta=2.0)),
)

BOUND_VARIANTS = (
    Variant("every_round", _EVERY_ROUND, lambda: _with(_broken("EveryRoundPerceptron"))),
    Variant("wrong_sign", _WRONG_SIGN, lambda: _with(_broken("WrongSignPerceptron"))),
    Variant("step_two", _STEP_TWO, lambda: _with(Perceptron, eta=2.0)),
    Variant("thin_margin", "a stream whose first point has margin rho / 3 along u, below the rho it promises (the "
            "theorem assumes y_t <u, x_t> >= rho on every round)", _thin_margin),
)

PERCEPTRON_RULE_CHECKS = ProofCheckQuestion("perceptron_rule_checks", "X, y, W, u, rho, r", "thm-perceptron-margin",
                                            CORRECT, RULE_VARIANTS)
PERCEPTRON_BOUND_CHECKS = ProofCheckQuestion("perceptron_bound_checks", "X, y, W, u, rho, r",
                                             "thm-perceptron-margin", CORRECT, BOUND_VARIANTS)


def check_perceptron_rule_checks(perceptron_rule_checks, variant: str, cases: tuple[str, ...] | None = None):
    """Question 1: the student's checks of steps 0 and 3 hold on the correct runs and stop ``variant``."""
    return grade_checks(PERCEPTRON_RULE_CHECKS, perceptron_rule_checks, variant, cases)


def check_perceptron_bound_checks(perceptron_bound_checks, variant: str, cases: tuple[str, ...] | None = None):
    """Question 2: the student's checks of the chain (steps 1, 4, 5, 6) hold on the correct runs and stop
    ``variant``."""
    return grade_checks(PERCEPTRON_BOUND_CHECKS, perceptron_bound_checks, variant, cases)
