"""Lab 1b: checking the proof of Halving's mistake bound (Theorem 1.3 of the book; Shalev-Shwartz and
Ben-David 2014, Theorem 21.3).

The student writes the checks, not the algorithm: two functions of a recorded run of Halving that
build an ``olkit.Proof``.  Question 1 checks the two steps that tie the record to the algorithm (the
recorded |V_t| is the number of hypotheses consistent so far; the prediction is the majority vote of
V_t, 1 on a tie); question 2 checks the chain that gives the bound (a mistake halves the version
space, the target stays, M <= log2 |H|).  :func:`olkit.labs.proofcheck.grade_checks` grades them by
mutation: they must hold on correct runs and fail on broken ones.

The runs are recorded here by :func:`record`, which plays a prediction rule and an update rule on a
stream; the variants change one rule each (or, once, the stream).
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from ..classes import all_functions, thresholds
from .proofcheck import ProofCheckQuestion, Variant, grade_checks

__all__ = ["check_halving_rule_checks", "check_halving_bound_checks", "halving_run_record",
           "HALVING_RULE_CHECKS", "HALVING_BOUND_CHECKS"]


def _majority(H, alive, x, tie: int = 1) -> int:
    ones, size = int(H[alive, x].sum()), int(alive.sum())
    return tie if 2 * ones == size else int(2 * ones > size)


def _keep(H, alive, x, y) -> np.ndarray:
    return alive & (H[:, x] == y)


def record(H, xs, ys, predict: Callable = _majority, update: Callable = _keep) -> tuple:
    """Play ``predict(H, alive, x)`` and ``update(H, alive, x, y)`` on the stream; return what the
    student's checks receive: (H, xs, ys, yhat, sizes) with yhat_1..yhat_T and |V_1|..|V_{T+1}| as the
    learner recorded them."""
    H = np.ascontiguousarray(H, dtype=np.uint8)
    alive = np.ones(len(H), dtype=bool)
    yhat, sizes = [], [int(alive.sum())]
    for x, y in zip(xs, ys):
        yhat.append(int(predict(H, alive, int(x))))
        alive = update(H, alive, int(x), int(y))
        sizes.append(int(alive.sum()))
    return H, np.asarray(xs, dtype=np.int64), np.asarray(ys, dtype=np.int64), np.array(yhat), np.array(sizes)


def _stream(case: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(H, xs, ys) of a realizable stream: ``public`` (a random class on 12 points), ``ties`` (every
    function on 4 points: every vote is split evenly at first), ``thresholds`` (17 thresholds on 16
    points), ``one_round``, ``long`` (a random class of 500 rows, 200 rounds)."""
    if case == "public":
        rng = np.random.default_rng(2026)
        H = np.unique(rng.integers(0, 2, size=(40, 12), dtype=np.uint8), axis=0)
        xs = rng.integers(0, 12, size=30)
    elif case == "ties":
        H, xs = all_functions(4), np.array([0, 1, 2, 3, 0, 2])
    elif case == "thresholds":
        H, xs = thresholds(16), np.random.default_rng(3).permutation(16)
    elif case == "one_round":
        H, xs = np.unique(np.random.default_rng(7).integers(0, 2, size=(8, 6), dtype=np.uint8), axis=0), [3]
    elif case == "long":
        rng = np.random.default_rng(11)
        H = np.unique(rng.integers(0, 2, size=(500, 40), dtype=np.uint8), axis=0)
        xs = rng.integers(0, 40, size=200)
    else:
        raise ValueError(f"no stream {case!r} in lab 1b")
    H = np.ascontiguousarray(H, dtype=np.uint8)
    xs = np.asarray(xs, dtype=np.int64)
    # a target that the first prediction gets wrong, so that round 1 is a mistake
    first = _majority(H, np.ones(len(H), dtype=bool), xs[0])
    wrong = np.flatnonzero(H[:, xs[0]] != first)
    target = int(wrong[len(H) // 7 % len(wrong)]) if len(wrong) else 0
    return H, xs, H[target, xs].astype(np.int64)


def halving_run_record(case: str = "public") -> tuple:
    """A recorded run of the correct Halving on a lab stream: (H, xs, ys, yhat, sizes)."""
    return record(*_stream(case))


CORRECT = {
    "public": ("Halving on the public stream: a random class on 12 points, 30 rounds",
               lambda: halving_run_record("public")),
    "ties": ("Halving on every function of 4 points, where the votes tie", lambda: halving_run_record("ties")),
    "thresholds": ("Halving on 17 thresholds, 16 rounds", lambda: halving_run_record("thresholds")),
    "one_round": ("Halving on a single round", lambda: halving_run_record("one_round")),
    "long": ("Halving on a random class of about 500 hypotheses, 200 rounds", lambda: halving_run_record("long")),
}


def _tie_zero(H, alive, x):
    return _majority(H, alive, x, tie=0)


def _over_h(H, alive, x):
    return _majority(H, np.ones(len(H), dtype=bool), x)


def _minority(H, alive, x):
    return 1 - _majority(H, alive, x)


def _keep_disagreeing(H, alive, x, y):
    return alive & (H[:, x] != y)


def _only_on_mistakes(H, alive, x, y):
    # updates only when its own prediction was wrong (a right prediction leaves V_t as it was)
    return _keep(H, alive, x, y) if _majority(H, alive, x) != y else alive


def _unrealizable(case: str) -> tuple:
    H, xs, ys = _stream(case)
    ys = ys.copy()
    ys[-1] = 1 - ys[-1]  # the last label contradicts the target; no hypothesis may be left
    return record(H, xs, ys)


RULE_VARIANTS = (
    Variant("tie_zero", "a Halving that breaks ties towards 0", lambda: record(*_stream("ties"), predict=_tie_zero)),
    Variant("over_h", "a Halving that takes the majority vote of all of H instead of its version space",
            lambda: record(*_stream("public"), predict=_over_h)),
    Variant("keep_disagreeing", "a Halving whose update keeps the hypotheses that disagree with the label",
            lambda: record(*_stream("public"), update=_keep_disagreeing)),
    Variant("only_on_mistakes", "a Halving that updates its version space only on its mistakes",
            lambda: record(*_stream("public"), update=_only_on_mistakes)),
)

BOUND_VARIANTS = (
    Variant("minority", "a Halving that predicts the minority vote",
            lambda: record(*_stream("public"), predict=_minority)),
    Variant("over_h", "a Halving that takes the majority vote of all of H instead of its version space",
            lambda: record(*_stream("thresholds"), predict=_over_h)),
    Variant("unrealizable", "a stream whose last label no hypothesis of H gives (the proof assumes realizable "
            "labels)", lambda: _unrealizable("public")),
)

HALVING_RULE_CHECKS = ProofCheckQuestion("halving_rule_checks", "H, xs, ys, yhat, sizes", "thm-halving", CORRECT,
                                         RULE_VARIANTS)
HALVING_BOUND_CHECKS = ProofCheckQuestion("halving_bound_checks", "H, xs, ys, yhat, sizes", "thm-halving",
                                          CORRECT, BOUND_VARIANTS)


def check_halving_rule_checks(halving_rule_checks, variant: str, cases: tuple[str, ...] | None = None):
    """Question 1: the student's checks of steps 0 and 0' hold on the correct runs and stop ``variant``."""
    return grade_checks(HALVING_RULE_CHECKS, halving_rule_checks, variant, cases)


def check_halving_bound_checks(halving_bound_checks, variant: str, cases: tuple[str, ...] | None = None):
    """Question 2: the student's checks of the chain (steps 2-5) hold on the correct runs and stop ``variant``."""
    return grade_checks(HALVING_BOUND_CHECKS, halving_bound_checks, variant, cases)
