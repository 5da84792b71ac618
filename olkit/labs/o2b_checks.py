"""Lab 6b: checking the proof of the online-to-batch theorem (Theorem 6.1 of the book; the lecture notes
on Chapter 21, part 2; Mohri, Rostamizadeh and Talwalkar 2012, Section 7.4), exactly.

The student writes the checks, not the algorithm: two functions of a recorded run of the conversion
that build an ``olkit.Proof``.  The record is exact, as in Section 6.1's "Step 2, exactly": on a small
finite distribution every sample x_1, ..., x_T is enumerated with its probability (a Fraction), and for
each the record holds the hypotheses h_1, ..., h_{T+1} of the online learner on the domain, their risks
as recorded, and the risk of the hypothesis that the conversion returned for each r = 1, ..., T.
Question 1 checks the record and the identity of the proof (the recorded risks, step 1, step 2);
question 2 checks the bound (step 3, step 4) and Markov's step to the PAC form.
:func:`olkit.labs.proofcheck.grade_checks` grades them by mutation: they must hold on correct runs and
fail on broken ones (:mod:`olkit.broken.batch` and the variants below).
"""
from __future__ import annotations

import copy
import functools
import itertools
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

import numpy as np

from ..batch import Converted, SeenSetPaths, random_iterate
from ..broken import batch as broken_batch
from ..classes import thresholds
from ..distributions import FiniteDistribution
from ..finite import Consistent, Halving
from .proofcheck import ProofCheckQuestion, Variant, grade_checks

__all__ = ["O2BRun", "check_o2b_identity_checks", "check_o2b_bound_checks", "o2b_run_record",
           "O2B_IDENTITY_CHECKS", "O2B_BOUND_CHECKS"]


@dataclass
class O2BRun:
    """A recorded online-to-batch run, exact, over every sample of size T.

    ``p``: the probabilities of the points 0, ..., n-1 (Fractions); ``target``: the target's labels
    (shape (n,)); ``samples``: every sample x_1, ..., x_T, one per row (shape (N, T), N = n^T), labelled
    y_t = target[x_t]; ``prob``: the probability of each sample (Fractions, shape (N,)); ``paths``: the
    hypotheses h_1, ..., h_{T+1} of the online learner on the domain (shape (N, T+1, n)), h_t being the
    one it predicts with in round t; ``risks``: L_D(h_t) as recorded (Fractions, shape (N, T+1));
    ``conv``: the risk of the hypothesis the conversion returned when it drew r = 1, ..., T (Fractions,
    shape (N, T)); ``mistake_bound``: M_A(H), the learner's mistake bound; ``eps``: the accuracy of
    the PAC form (a Fraction)."""

    p: tuple
    target: np.ndarray
    samples: np.ndarray
    prob: np.ndarray
    paths: np.ndarray
    risks: np.ndarray
    conv: np.ndarray
    mistake_bound: int
    eps: Fraction

    @property
    def T(self) -> int:
        return self.samples.shape[1]


class _Minority(Halving):
    """Halving that predicts the minority vote of its version space (a broken learner)."""

    def predict(self, x) -> int:
        return 1 - super().predict(x)


class _FixedR:
    """Stands for the generator of :func:`olkit.batch.random_iterate`: its draw of r is ``r``, so that
    the record can hold the conversion's result for every r, exactly."""

    def __init__(self, r: int):
        self.r = r

    def integers(self, lo, hi):
        return self.r


def _first_as_random(path, dist, rng) -> Converted:
    """Called like :func:`olkit.batch.random_iterate`, but returns the first hypothesis h_1 (broken)."""
    return Converted(path[0], 1, dist.risk(path[0]), "random iterate")


F = Fraction


def _instance(case: str):
    """(H, p, target row, T, eps): ``public`` (thresholds on 3 points, T = 3), ``two_point`` (Section 6.1's
    instance where Markov's inequality is tight: p = (1/8, 7/8), H = {(0, 0), (1, 0)}, T = 9),
    ``thresholds4`` (thresholds on 4 points, T = 3), ``one_round`` (T = 1), ``random`` (a random class on
    4 points, T = 4)."""
    if case == "public":
        return thresholds(3), (F(1, 2), F(1, 4), F(1, 4)), 3, 3, F(1, 4)
    if case == "two_point":
        return np.array([[0, 0], [1, 0]]), (F(1, 8), F(7, 8)), 0, 9, F(1, 8)
    if case == "thresholds4":
        return thresholds(4), (F(1, 8), F(3, 8), F(1, 4), F(1, 4)), 2, 3, F(1, 4)
    if case == "one_round":
        return thresholds(3), (F(1, 2), F(1, 4), F(1, 4)), 1, 1, F(1, 4)
    if case == "random":
        H = np.unique(np.random.default_rng(61).integers(0, 2, size=(8, 4)), axis=0)
        return H, (F(1, 4), F(1, 4), F(1, 4), F(1, 4)), 1, 4, F(1, 4)
    raise ValueError(f"no instance {case!r} in lab 6b")


@functools.lru_cache(maxsize=None)
def _record(case: str, learner: str = "halving", paths: str = "seen", convert: str = "random",
            risk: str = "exact") -> O2BRun:
    H, p, k, T, eps = _instance(case)
    H = np.ascontiguousarray(H, dtype=np.int64)
    target = H[k].copy()
    n = len(p)
    make: Callable = {"halving": lambda: Halving(H), "consistent": lambda: Consistent(H, choice="first"),
                      "minority": lambda: _Minority(H)}[learner]
    maker = {"seen": SeenSetPaths, "peeking": broken_batch.PeekingPaths}[paths](make, target)
    samples = np.array(list(itertools.product(range(n), repeat=T)), dtype=np.int64)
    ids = maker.paths(samples)
    path = maker.table[ids]  # (N, T + 1, n)
    dist = FiniteDistribution(p, target)
    scale = FiniteDistribution((F(1, n),) * n, target) if risk == "uniform" else dist  # a risk that ignores p
    conversion = {"random": random_iterate, "last": broken_batch.last_as_random, "first": _first_as_random}[convert]
    prob = np.array([math.prod((p[x] for x in S), start=F(1)) for S in samples.tolist()], dtype=object)
    risks = np.array([[scale.risk_exact(h) for h in row] for row in path], dtype=object)
    conv = np.array([[scale.risk_exact(conversion(row, dist, _FixedR(r)).h) for r in range(1, T + 1)] for row in path],
                    dtype=object)
    M_A = int(math.floor(math.log2(len(H))))  # Halving's bound (a whole number of mistakes)
    return O2BRun(tuple(p), target, samples, prob, path, risks, conv, M_A, eps)


def o2b_run_record(case: str = "public") -> O2BRun:
    """A recorded run of the correct conversion (Halving, the random iterate) on a lab instance."""
    return copy.deepcopy(_record(case))


def _broken(case: str, **what) -> tuple:
    return (copy.deepcopy(_record(case, **what)),)


CORRECT = {
    "public": ("Halving on thresholds over 3 points, p = (1/2, 1/4, 1/4), T = 3",
               lambda: (o2b_run_record("public"),)),
    "two_point": ("Halving on Section 6.1's two-point instance, T = 9", lambda: (o2b_run_record("two_point"),)),
    "thresholds4": ("Halving on thresholds over 4 points, T = 3", lambda: (o2b_run_record("thresholds4"),)),
    "one_round": ("Halving on a single round", lambda: (o2b_run_record("one_round"),)),
    "random": ("Halving on a random class over 4 points, T = 4", lambda: (o2b_run_record("random"),)),
}

IDENTITY_VARIANTS = (
    Variant("risk_ignores_p", "a record whose risks ignore the probabilities (each point counts 1/n)",
            lambda: _broken("public", risk="uniform")),
    Variant("last_as_random", "a conversion that returns the last hypothesis h_{T+1} as the random one",
            lambda: _broken("public", convert="last")),
    Variant("peeking", "a learner whose round-t hypothesis has already seen x_t (h_{t+1} recorded as h_t)",
            lambda: _broken("thresholds4", paths="peeking")),
)

BOUND_VARIANTS = (
    Variant("consistent", "Consistent (the first hypothesis of the version space) in place of Halving",
            lambda: _broken("public", learner="consistent")),
    Variant("first_as_random", "a conversion that returns the first hypothesis h_1 as the random one",
            lambda: _broken("two_point", convert="first")),
    Variant("minority", "a Halving that predicts the minority vote", lambda: _broken("thresholds4", learner="minority")),
)

O2B_IDENTITY_CHECKS = ProofCheckQuestion("o2b_identity_checks", "run", "thm-o2b-expectation", CORRECT,
                                         IDENTITY_VARIANTS)
O2B_BOUND_CHECKS = ProofCheckQuestion("o2b_bound_checks", "run", "thm-o2b-expectation", CORRECT, BOUND_VARIANTS)


def check_o2b_identity_checks(o2b_identity_checks, variant: str, cases: tuple[str, ...] | None = None):
    """Question 1: the student's checks of the record and of steps 1 and 2 hold on the correct runs and
    stop ``variant``."""
    return grade_checks(O2B_IDENTITY_CHECKS, o2b_identity_checks, variant, cases)


def check_o2b_bound_checks(o2b_bound_checks, variant: str, cases: tuple[str, ...] | None = None):
    """Question 2: the student's checks of steps 3 and 4 and of the PAC form hold on the correct runs and
    stop ``variant``."""
    return grade_checks(O2B_BOUND_CHECKS, o2b_bound_checks, variant, cases)
