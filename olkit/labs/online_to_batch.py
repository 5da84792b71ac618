"""Lab 6: the online-to-batch hypothesis and its exact risk (Section 6.1: Theorem 6.1 of the book, online
to batch in expectation; the lecture notes on Chapter 21, part 2).

The checks of this lab's questions and the streams they play ("public" for the student's own check,
the others for grading); see :mod:`olkit.labs`.  Every sample of size T is enumerated with its exact
probability (Fractions), and each check

1. runs the steps of Theorem 6.1's proof that the student's numbers enter (the mistake bound on every
   sample, E L_D(h_r) <= M_A(H) / T exactly, step 2 round by round): a failed step is explained with
   its number;
2. then checks the rule the question states, case by case, against an independent computation (the
   majority vote with 1 on a tie, the definition of the risk, step 1's average): a different rule
   is a wrong answer even where the theorem's bound still holds.
"""
from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np

from ..classes import thresholds
from ..proof import Proof, ProofStepError, fmt
from .feedback import LabFeedback, _call, _explain, _rule

__all__ = ["batch_case", "check_halving_hypothesis", "check_exact_risk", "check_random_iterate_risk"]

REF = "thm-o2b-expectation"
#: where a step over all the samples at once fails, in the feedback
ALL = np.array(["the average over all samples"], dtype=object)


def batch_case(case: str = "public"):
    """(H, p, target, T): a class of thresholds, a distribution p over the points (Fractions), the
    target's row and the sample size.  Cases: ``public`` (thresholds on 4 points, T = 3), ``uniform``
    (p uniform), ``one_round`` (T = 1), ``point_mass`` (all mass on one point)."""
    F = Fraction
    H = np.ascontiguousarray(thresholds(4), dtype=np.uint8)
    p, target, T = {"public": ((F(1, 8), F(3, 8), F(1, 4), F(1, 4)), 2, 3),
                    "uniform": ((F(1, 4),) * 4, 3, 3),
                    "one_round": ((F(1, 8), F(3, 8), F(1, 4), F(1, 4)), 1, 1),
                    "point_mass": ((F(0), F(1), F(0), F(0)), 2, 2)}.get(case, (None, None, None))
    if p is None:
        raise ValueError(f"no online-to-batch lab case {case!r}")
    return H, p, target, T


def _majority_all(H, alive) -> np.ndarray:
    ones = H[alive].sum(axis=0, dtype=np.int64)
    return (2 * ones >= int(alive.sum())).astype(np.int64)


def _risk(h, p, tgt) -> Fraction:
    return sum((pi for pi, a, b in zip(p, h, tgt) if int(a) != int(b)), Fraction(0))


def _exact(v, name: str, what: str):
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer, Fraction)):
        raise LabFeedback(f"{name} returned {v!r} for {what}; it must return an exact number, a Fraction (or an int)"
                          + (" (is the function still '...'?)" if v is None or v is Ellipsis else
                             ": add the Fractions of p, not floats" if isinstance(v, float) else ""))
    return Fraction(v)


def _samples(p, T: int):
    """Every sample (x_1, ..., x_T) with its probability (Fractions)."""
    for S in itertools.product(range(len(p)), repeat=T):
        yield S, math.prod((p[x] for x in S), start=Fraction(1))


def _bound(H) -> int:
    """M_A(H) for Halving: its mistakes are a whole number at most log2 |H|."""
    return int(math.floor(math.log2(len(H))))


def _rule_at(where: str, name: str, rule: str, ref: str, got: str, want: str, why: str = "") -> LabFeedback:
    """:func:`_rule`'s feedback for a case that is not a round ("For h = [0 1 1 0]", "On the sample (1, 0)")."""
    return LabFeedback(str(_rule(name, 0, rule, ref, got, want, why)).replace("In round 0 ", f"{where} ", 1))


def _theorem(M_each, at, expected_risk: Fraction, expected_M: Fraction, H, T: int, title: str) -> Proof:
    """Steps 3 and 4 of Theorem 6.1 on the student's numbers (exact), step 2 as the identity it is here."""
    M_A = _bound(H)
    pr = Proof(title)
    pr.step("3", "sum_t 1[h_t(x_t) != y_t] <= M_A(H) = floor(log2 |H|) on every sample", np.array(M_each), "<=", M_A,
            rounds=np.array(at, dtype=object))
    pr.step("4", "E L_D(h_r) <= M_A(H) / T (exactly, over all samples)", float(expected_risk), "<=", M_A / T,
            rounds=ALL)
    pr.step("2", "E L_D(h_r) = E[M] / T (exactly, over all samples)", float(expected_risk), "==", float(expected_M / T),
            kind="identity", why="h_t is computed from x_1..x_{t-1}: x_t is a fresh draw for it")
    return pr


def check_halving_hypothesis(halving_hypothesis, case: str = "public") -> Proof:
    """The student's ``halving_hypothesis(H, alive)``: the labels h_t(x) of Halving's hypothesis on every
    point, on every version space of every sample.  Theorem 6.1's steps 3 and 4 run on the student's
    hypotheses; then the rule (the majority vote of the alive rows, 1 on a tie) is checked round by round."""
    H, p, target, T = batch_case(case)
    n = H.shape[1]
    tgt = H[target].astype(np.int64)
    rows, M_each, at = [], [], []  # (S, t, alive, h_t)
    e_risk = e_M = Fraction(0)
    for S, pr in _samples(p, T):
        alive, M, risks = np.ones(len(H), dtype=bool), 0, Fraction(0)
        for t, x in enumerate(S, start=1):
            out = _call(halving_hypothesis, "halving_hypothesis", t, H.copy(), alive.copy())
            h = np.asarray(out) if out is not None and out is not Ellipsis else None
            if h is None or h.shape != (n,) or not np.isin(h, (0, 1)).all():
                got = "None" if h is None else f"shape {h.shape}" if h.shape != (n,) else f"{h.tolist()}"
                raise LabFeedback(f"halving_hypothesis returned {got} in round {t}; it must return the n = {n} "
                                  f"labels h(0), ..., h({n - 1}), each 0 or 1"
                                  + (" (is the function still '...'?)" if h is None else ""))
            h = h.astype(np.int64)
            rows.append((S, t, alive.copy(), h))
            M += int(h[x] != tgt[x])
            risks += _risk(h, p, tgt)
            alive = alive & (H[:, x] == tgt[x])
        M_each.append(M)
        at.append(f"the sample {S}")
        e_risk += pr * risks / T
        e_M += pr * M
    says = {"3": lambda t, e: ("Halving makes at most log2 |H| mistakes on a realizable sequence because each "
                               "mistake halves the version space: its hypothesis is the majority vote of V_t."),
            "4": lambda t, e: "The expected risk of h_r exceeds the theorem's bound."}
    try:
        pr_ = _theorem(M_each, at, e_risk, e_M, H, T, "Theorem 6.1 with your halving_hypothesis")
    except ProofStepError as err:
        raise _explain(err, says, ref=REF) from None
    for S, t, alive, h in rows:
        want = _majority_all(H, alive)
        if not np.array_equal(h, want):
            x = int(np.flatnonzero(h != want)[0])
            ones, size = int(H[alive, x].sum()), int(alive.sum())
            tie = ", a tie, which Halving breaks towards 1" if 2 * ones == size else ""
            raise _rule("halving_hypothesis", t, "Halving's hypothesis, the majority vote of V_t at every point "
                        "with 1 on a tie", "alg-halving", f"h_t({x}) = {h[x]} on the sample {S}", str(want[x]),
                        f"the {size} hypotheses alive before round t vote {ones} for 1 and {size - ones} for 0{tie}")
    pr_.step("h", "h_t(x) = the majority vote of V_t at x, 1 on a tie (every round, point and sample)",
             np.concatenate([h for *_, h in rows]), "==", np.concatenate([_majority_all(H, a) for _, _, a, _ in rows]))
    return pr_


def check_exact_risk(exact_risk, case: str = "public") -> Proof:
    """The student's ``exact_risk(h, p, target)`` = sum_x p(x) 1[h(x) != target(x)], exactly.  Theorem
    6.1's step 2 (E L_D(h_t) = E 1[h_t(x_t) != y_t], round by round) and step 4 run with the student's
    risk on Halving's runs; then the definition is checked on every hypothesis h on the points (all 2^n)."""
    H, p, target, T = batch_case(case)
    n = H.shape[1]
    tgt = H[target].astype(np.int64)
    memo: dict[tuple, Fraction] = {}

    def yours(h) -> Fraction:
        key = tuple(int(v) for v in h)
        if key not in memo:
            memo[key] = _exact(_call(exact_risk, "exact_risk", 0, np.array(key, dtype=np.int64), tuple(p), tgt.copy()),
                               "exact_risk", f"h = {list(key)}")
        return memo[key]

    lhs, rhs = [Fraction(0)] * T, [Fraction(0)] * T  # E L_D(h_t) (yours), E 1[h_t(x_t) != y_t], t = 1..T
    for S, pr in _samples(p, T):
        alive = np.ones(len(H), dtype=bool)
        for t, x in enumerate(S):
            h = _majority_all(H, alive)
            lhs[t] += pr * yours(h)
            rhs[t] += pr * int(h[x] != tgt[x])
            alive = alive & (H[:, x] == tgt[x])
    for h in itertools.product((0, 1), repeat=n):
        yours(h)
    pv = [str(v) for v in p]
    says = {"2": lambda t, e: (f"With your exact_risk the expected risk of Halving's h_{t} is {fmt(e.lhs)}, but the "
                               f"chance of a mistake in round {t} is {fmt(e.rhs)}: the risk of h is the probability, "
                               f"under p = {pv}, of the points where h and the target {tgt.tolist()} disagree."),
            "4": lambda t, e: "With your exact_risk the expected risk of h_r exceeds the theorem's bound."}
    pr_ = Proof("Theorem 6.1 with your exact_risk")
    M_A = _bound(H)
    try:
        pr_.step("2", "E L_D(h_t) = E 1[h_t(x_t) != y_t] (exactly; your exact_risk on the left)",
                 [float(v) for v in lhs], "==", [float(v) for v in rhs],
                 rounds=np.arange(1, T + 1))
        e_risk = sum(lhs, Fraction(0)) / T
        pr_.step("4", "E L_D(h_r) <= M_A(H) / T (exactly)", float(e_risk), "<=", M_A / T, rounds=ALL)
    except ProofStepError as err:
        raise _explain(err, says, ref=REF) from None
    for key, v in memo.items():
        want = _risk(key, p, tgt)
        if v != want:
            raise _rule_at(f"For h = {list(key)}", "exact_risk", "the definition of the risk, L_D(h) = sum_x p(x) "
                           "1[h(x) != target(x)]", REF, str(v), str(want),
                           f"p = {pv} and the target is {tgt.tolist()}")
    pr_.step("L", "L_D(h) = sum_x p(x) 1[h(x) != target(x)] for every h (exactly)", len(memo), "==", 2**n)
    return pr_


def check_random_iterate_risk(random_iterate_risk, case: str = "public") -> Proof:
    """The student's ``random_iterate_risk(H, xs, p, target)``: the exact risk of the online-to-batch
    hypothesis h_r (r uniform in 1..T) after Halving on the sample ``xs`` (labelled by the target),
    E_r L_D(h_r) = (1/T) sum_t L_D(h_t), on every sample of size T.  Theorem 6.1's step 4 runs on the
    student's numbers (exactly, averaged over the samples); then step 1, the average, sample by sample."""
    H, p, target, T = batch_case(case)
    tgt = H[target].astype(np.int64)
    got, want, at, weights, mistakes = [], [], [], [], []
    for S, pr in _samples(p, T):
        alive, risks, M = np.ones(len(H), dtype=bool), [], 0
        for x in S:
            h = _majority_all(H, alive)
            risks.append(_risk(h, p, tgt))
            M += int(h[x] != tgt[x])
            alive = alive & (H[:, x] == tgt[x])
        want.append(sum(risks, Fraction(0)) / T)
        got.append(_exact(_call(random_iterate_risk, "random_iterate_risk", 0, H.copy(), np.array(S), tuple(p), target),
                          "random_iterate_risk", f"the sample {S}"))
        weights.append(pr)
        mistakes.append(M)
        at.append(f"the sample {S}")
    expected = sum((w * g for w, g in zip(weights, got)), Fraction(0))
    expected_M = sum((w * M for w, M in zip(weights, mistakes)), Fraction(0))
    M_A = _bound(H)
    pr_ = Proof("Theorem 6.1 with your random_iterate_risk")
    says = {"4": lambda t, e: ("Your risks of h_r, averaged over the samples, exceed the theorem's bound; E_r L_D(h_r) "
                               "averages the exact risks of the hypotheses h_1, ..., h_T that Halving holds before "
                               "each round (h_t before seeing x_t), with weight 1/T each.")}
    try:
        pr_.step("4", "E_S E_r L_D(h_r) <= M_A(H) / T (exactly, over all samples)", float(expected), "<=", M_A / T,
                 rounds=ALL)
    except ProofStepError as err:
        raise _explain(err, says, ref=REF) from None
    for S, g, w in zip(at, got, want):
        if g != w:
            raise _rule_at(f"On {S}", "random_iterate_risk", "step 1 of Theorem 6.1, E_r L_D(h_r) = (1/T) sum_t L_D(h_t) "
                           "with h_t Halving's hypothesis before it sees x_t", REF, str(g), str(w),
                           "the average, with weight 1/T each, of the exact risks of h_1, ..., h_T")
    pr_.step("1", "E_r L_D(h_r) = (1/T) sum_t L_D(h_t) on every sample", np.array([g == w for g, w in zip(got, want)]),
             "==", True, rounds=np.array(at, dtype=object))
    pr_.step("2", "E_S E_r L_D(h_r) = E_S M_T / T (exactly, over all samples)", float(expected), "==",
             float(expected_M / T), kind="identity",
             why="E_S L_D(h_t) = P(h_t(x_t) != y_t): h_t does not depend on x_t")
    return pr_
