"""Lab 2b: checking the proof of SOA's mistake bound (Lemma 2.4 of the book; Shalev-Shwartz and
Ben-David 2014, Lemma 21.7; Littlestone 1988).

The student writes the checks, not the algorithm: two functions of a recorded run of SOA that build an
``olkit.Proof``.  Question 1 checks the two steps that tie the record to Algorithm 2.1 (the recorded
Ldim(V_t) is the Ldim of the version space recomputed from the labels, step 0; the prediction is the
label whose part V_t(r) has the larger Ldim, 1 on a tie, step A, as in Section 2.2); question 2 checks
the chain that gives the bound (a mistake lowers Ldim(V_t) by at least one, step 5; Ldim(V_{t+1}) >= 0
on realizable labels, step 6'; M_t <= Ldim(H) - Ldim(V_{t+1}), step 6; M <= Ldim(H)).
:func:`olkit.labs.proofcheck.grade_checks` grades them by mutation: they must hold on correct runs and
fail on broken ones.

The runs are recorded here by :func:`record`, which plays a prediction rule and an update on a stream
and notes Ldim(V_t) with :class:`olkit.littlestone.LdimByDefinition`; the variants change the rule
(ties towards 0, Halving's majority vote, the Ldim of the parts of the whole class, the part of smaller
Ldim), the record (floor(log2 |V_t|) noted as Ldim(V_t)), or the stream (a last label that no
hypothesis gives).  Every class is small, so that the exact Ldim of every version space is fast.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Callable

import numpy as np

from ..classes import all_functions, thresholds
from ..littlestone import LdimByDefinition
from .proofcheck import ProofCheckQuestion, Variant, grade_checks

__all__ = ["check_soa_rule_checks", "check_soa_bound_checks", "soa_run_record", "SOA_RULE_CHECKS",
           "SOA_BOUND_CHECKS", "HALVING_WORSE_CLASS"]

#: The class of Section 2.2 ("Halving is not optimal"): 8 hypotheses on 4 points, Ldim 2, on which
#: Halving's worst case is 3 mistakes (found there by a seeded search, rng 2201).
HALVING_WORSE_CLASS = np.array([[0, 1, 0, 0], [1, 0, 0, 1], [0, 0, 0, 0], [1, 1, 1, 0],
                                [0, 0, 0, 1], [1, 1, 0, 0], [0, 0, 1, 1], [0, 1, 0, 1]], dtype=np.uint8)


def _parts(H, alive, x, L) -> tuple[int, int]:
    """Ldim(V_t(0)), Ldim(V_t(1)) of the version space ``alive`` at the point x (-1 for an empty part)."""
    return L(alive & (H[:, x] == 0)), L(alive & (H[:, x] == 1))


def _soa(H, alive, x, L, tie: int = 1) -> int:
    l0, l1 = _parts(H, alive, x, L)
    return tie if l0 == l1 else int(l1 > l0)


def _keep(H, alive, x, y) -> np.ndarray:
    return alive & (H[:, x] == y)


def _ldim_of(H, alive, L) -> int:
    return L(alive)


def record(H, xs, ys, predict: Callable = _soa, update: Callable = _keep, note: Callable = _ldim_of) -> tuple:
    """Play ``predict(H, alive, x, L)`` and ``update(H, alive, x, y)`` on the stream, noting
    ``note(H, alive, L)`` as Ldim(V_t) (L: the class's :class:`LdimByDefinition`); return what the
    student's checks receive: (H, xs, ys, yhat, ldims) with yhat_1..yhat_T and Ldim(V_1)..Ldim(V_{T+1})
    as the learner recorded them."""
    H = np.ascontiguousarray(H, dtype=np.uint8)
    L = LdimByDefinition(H)
    alive = np.ones(len(H), dtype=bool)
    yhat, ldims = [], [int(note(H, alive, L))]
    for x, y in zip(xs, ys):
        yhat.append(int(predict(H, alive, int(x), L)))
        alive = update(H, alive, int(x), int(y))
        ldims.append(int(note(H, alive, L)))
    return H, np.asarray(xs, dtype=np.int64), np.asarray(ys, dtype=np.int64), np.array(yhat), np.array(ldims)


def _first_mistake_target(H, xs) -> int:
    """A target whose label at x_1 is not SOA's first prediction, so that round 1 is a mistake."""
    first = _soa(H, np.ones(len(H), dtype=bool), int(xs[0]), LdimByDefinition(H))
    wrong = np.flatnonzero(H[:, xs[0]] != first)
    return int(wrong[len(H) // 7 % len(wrong)]) if len(wrong) else 0


@lru_cache(maxsize=None)
def _stream_cached(case: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    target = None
    if case == "public":
        rng = np.random.default_rng(2026)
        H = np.unique((rng.random((24, 8)) < 0.25).astype(np.uint8), axis=0)  # sparse: Ldim < log2 |H|
        xs = rng.integers(0, 8, size=20)
    elif case == "ties":  # every function on 3 points: the two parts tie in every round
        H, xs = all_functions(3), np.array([0, 1, 2, 0])
    elif case == "thresholds":
        H, xs = thresholds(15), np.random.default_rng(15).permutation(15)
    elif case == "one_round":
        H, xs = all_functions(3), np.array([1])
    elif case == "larger_is_simpler":  # in round 1 the larger part has the smaller Ldim
        A = np.hstack([np.zeros((5, 3), dtype=np.uint8), np.eye(5, dtype=np.uint8)])  # x0 = 0, singletons: Ldim 1
        B = np.hstack([np.ones((4, 1), dtype=np.uint8), all_functions(2), np.zeros((4, 5), dtype=np.uint8)])  # Ldim 2
        H, xs, target = np.vstack([A, B]), np.array([0, 1, 2, 3, 5]), 7
    elif case == "halving_class":  # Section 2.2's class, on the sequence where Halving makes 3 mistakes
        H, xs, target = HALVING_WORSE_CLASS, np.array([3, 0, 1, 2]), 2
    elif case == "long":
        rng = np.random.default_rng(11)
        H = np.unique((rng.random((60, 10)) < 0.3).astype(np.uint8), axis=0)
        xs = rng.integers(0, 10, size=60)
    else:
        raise ValueError(f"no stream {case!r} in lab 2b")
    H = np.ascontiguousarray(H, dtype=np.uint8)
    xs = np.asarray(xs, dtype=np.int64)
    target = _first_mistake_target(H, xs) if target is None else target
    return H, xs, H[target, xs].astype(np.int64)


def _stream(case: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(H, xs, ys) of a realizable stream: ``public`` (a sparse random class on 8 points, 20 rounds), ``ties``
    (every function on 3 points), ``thresholds`` (16 thresholds on 15 points), ``one_round``,
    ``larger_is_simpler`` (the larger part has the smaller Ldim in round 1), ``halving_class`` (the class
    of Section 2.2 on which Halving is not optimal), ``long`` (a random class on 10 points, 60 rounds)."""
    return tuple(a.copy() for a in _stream_cached(case))


@lru_cache(maxsize=None)
def _record_cached(key: tuple) -> tuple:
    case, predict, update, note = key
    return record(*_stream(case), predict=predict, update=update, note=note)


def _rec(case: str, predict: Callable = _soa, update: Callable = _keep, note: Callable = _ldim_of) -> tuple:
    return tuple(a.copy() for a in _record_cached((case, predict, update, note)))


def soa_run_record(case: str = "public") -> tuple:
    """A recorded run of the correct SOA (ties towards 1) on a lab stream: (H, xs, ys, yhat, ldims)."""
    return _rec(case)


CORRECT = {
    "public": ("SOA on the public stream: a sparse random class on 8 points, 20 rounds", lambda: _rec("public")),
    "ties": ("SOA on every function of 3 points, where the two parts tie", lambda: _rec("ties")),
    "thresholds": ("SOA on 16 thresholds, 15 rounds", lambda: _rec("thresholds")),
    "one_round": ("SOA on a single round", lambda: _rec("one_round")),
    "larger_is_simpler": ("SOA on a class whose larger part has the smaller Ldim",
                          lambda: _rec("larger_is_simpler")),
    "halving_class": ("SOA on the class of Section 2.2 where Halving is not optimal", lambda: _rec("halving_class")),
    "long": ("SOA on a random class on 10 points, 60 rounds", lambda: _rec("long")),
}


def _tie_zero(H, alive, x, L):
    return _soa(H, alive, x, L, tie=0)


def _halving(H, alive, x, L):
    ones, size = int(H[alive, x].sum()), int(alive.sum())
    return 1 if 2 * ones >= size else 0


def _whole_class(H, alive, x, L):
    return _soa(H, np.ones(len(H), dtype=bool), x, L)


def _smaller(H, alive, x, L):
    l0, l1 = _parts(H, alive, x, L)
    return 1 if l1 < l0 else 0 if l0 < l1 else 1


def _log2_size(H, alive, L):
    size = int(alive.sum())
    return size.bit_length() - 1  # floor(log2 |V_t|), and -1 for the empty class


def _unrealizable(case: str) -> tuple:
    """The stream of ``case`` and one more round: a point on which every hypothesis left agrees, with the
    other label, so that no hypothesis of H gives all the labels."""
    H, xs, ys = _stream(case)
    alive = np.all(H[:, xs] == ys[None, :], axis=1)
    col = H[alive].min(axis=0) == H[alive].max(axis=0)
    x = int(np.flatnonzero(col)[-1])
    y = 1 - int(H[alive][0, x])
    return record(H, np.append(xs, x), np.append(ys, y))


RULE_VARIANTS = (
    Variant("tie_zero", "an SOA that breaks ties towards 0", lambda: _rec("ties", predict=_tie_zero)),
    Variant("halving", "Halving in place of SOA (the majority vote of V_t, not the part of larger Ldim)",
            lambda: _rec("halving_class", predict=_halving)),
    Variant("whole_class", "an SOA that compares the Ldim of the parts of the whole class H instead of its "
            "version space V_t", lambda: _rec("public", predict=_whole_class)),
    Variant("log_record", "an SOA that records floor(log2 |V_t|), an upper bound, as Ldim(V_t)",
            lambda: _rec("public", note=_log2_size)),
)

BOUND_VARIANTS = (
    Variant("smaller", "an SOA that predicts the label whose part has the smaller Ldim",
            lambda: _rec("public", predict=_smaller)),
    Variant("halving", "Halving in place of SOA, on the class of Section 2.2 where it is not optimal",
            lambda: _rec("halving_class", predict=_halving)),
    Variant("whole_class", "an SOA that compares the Ldim of the parts of the whole class H instead of its "
            "version space V_t", lambda: _rec("ties", predict=_whole_class)),
    Variant("unrealizable", "a stream whose last label no hypothesis of H gives (the proof assumes realizable "
            "labels)", lambda: _unrealizable("public")),
)

SOA_RULE_CHECKS = ProofCheckQuestion("soa_rule_checks", "H, xs, ys, yhat, ldims", "ldim-lem-soa", CORRECT,
                                     RULE_VARIANTS)
SOA_BOUND_CHECKS = ProofCheckQuestion("soa_bound_checks", "H, xs, ys, yhat, ldims", "ldim-lem-soa", CORRECT,
                                      BOUND_VARIANTS)


def check_soa_rule_checks(soa_rule_checks, variant: str, cases: tuple[str, ...] | None = None):
    """Question 1: the student's checks of steps 0 and A hold on the correct runs and stop ``variant``."""
    return grade_checks(SOA_RULE_CHECKS, soa_rule_checks, variant, cases)


def check_soa_bound_checks(soa_bound_checks, variant: str, cases: tuple[str, ...] | None = None):
    """Question 2: the student's checks of the chain (steps 5, 6', 6 and the bound) hold on the correct runs
    and stop ``variant``."""
    return grade_checks(SOA_BOUND_CHECKS, soa_bound_checks, variant, cases)
