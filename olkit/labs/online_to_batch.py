"""Lab 6: the online-to-batch hypothesis and its exact risk (Section 6.1).

The checks of this lab's questions and the streams they play ("public" for the student's own check,
the others for grading); see :mod:`olkit.labs`.
"""
from __future__ import annotations

import numpy as np

from ..classes import thresholds
from ..proof import Proof, ProofStepError, fmt
from .feedback import LabFeedback, _call, _explain

__all__ = ["batch_case", "check_halving_hypothesis", "check_exact_risk", "check_random_iterate_risk"]


def batch_case(case: str = "public"):
    """(H, p, target, T): a class of thresholds, a distribution p over the points (Fractions), the
    target's row and the sample size.  Cases: ``public`` (thresholds on 4 points, T = 3), ``uniform``
    (p uniform), ``one_round`` (T = 1), ``point_mass`` (all mass on one point)."""
    from fractions import Fraction as F

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


def _exact(v, name: str, what: str):
    from fractions import Fraction

    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer, Fraction)):
        raise LabFeedback(f"{name} returned {v!r} for {what}; it must return an exact number, a Fraction (or an int)"
                          + (" (is the function still '...'?)" if v is None or v is Ellipsis else
                             ": add the Fractions of p, not floats" if isinstance(v, float) else ""))
    return Fraction(v)


def check_halving_hypothesis(halving_hypothesis, case: str = "public") -> Proof:
    """The student's ``halving_hypothesis(H, alive)``: the labels h_t(x) of Halving's hypothesis on every
    point (the majority vote of the alive rows, 1 on a tie), on every version space of every sample."""
    import itertools

    H, p, target, T = batch_case(case)
    n = H.shape[1]
    got, want, at = [], [], []
    for S in itertools.product(range(n), repeat=T):
        alive = np.ones(len(H), dtype=bool)
        for t, x in enumerate(S, start=1):
            out = _call(halving_hypothesis, "halving_hypothesis", t, H.copy(), alive.copy())
            h = np.asarray(out) if out is not None and out is not Ellipsis else None
            if h is None or h.shape != (n,):
                raise LabFeedback(f"halving_hypothesis returned {'None' if h is None else 'shape ' + str(h.shape)}; it "
                                  f"must return the n = {n} labels h(0), ..., h({n - 1})"
                                  + (" (is the function still '...'?)" if h is None else ""))
            got.append(h.astype(np.int64))
            want.append(_majority_all(H, alive))
            at.extend(f"round {t} of the sample {S}, point {j}" for j in range(n))
            alive = alive & (H[:, x] == H[target, x])
    p_ = Proof("the online-to-batch hypothesis of Halving (Section 6.1)")
    says = {"h": lambda t, e: ("h_t(x) is the majority vote at x of the hypotheses alive before round t (1 on a tie); "
                               f"yours gave {fmt(e.lhs)}, the vote gives {fmt(e.rhs)}.")}
    try:
        p_.step("h", "h_t(x) = the majority vote of V_t at x, 1 on a tie", np.concatenate(got), "==",
                np.concatenate(want), rounds=np.array(at, dtype=object))
    except ProofStepError as err:
        raise _explain(err, says) from None
    return p_


def check_exact_risk(exact_risk, case: str = "public") -> Proof:
    """The student's ``exact_risk(h, p, target)`` = sum_x p(x) 1[h(x) != target(x)], exactly, for every
    hypothesis h on the points (all 2^n of them)."""
    import itertools
    from fractions import Fraction

    H, p, target, _ = batch_case(case)
    n = H.shape[1]
    tgt = H[target].astype(np.int64)
    got, want, at = [], [], []
    for h in itertools.product((0, 1), repeat=n):
        h = np.array(h, dtype=np.int64)
        got.append(_exact(_call(exact_risk, "exact_risk", 0, h.copy(), tuple(p), tgt.copy()), "exact_risk",
                          f"h = {h.tolist()}"))
        want.append(sum((pi for pi, a, b in zip(p, h, tgt) if a != b), Fraction(0)))
        at.append(f"h = {h.tolist()}")
    pr = Proof("the exact risk (Section 6.1)")
    says = {"L": lambda t, e: (f"The risk of h is the probability, under p = {[str(v) for v in p]}, of the points where h "
                               f"and the target {tgt.tolist()} disagree; yours gave {fmt(e.lhs)}, that sum is "
                               f"{fmt(e.rhs)}.")}
    try:
        pr.step("L", "L_D(h) = sum_x p(x) 1[h(x) != target(x)] (exactly)", np.array(got, dtype=object) == np.array(want, dtype=object),
                "==", True, rounds=np.array(at, dtype=object))
    except ProofStepError as err:
        i = [k for k, (a, b) in enumerate(zip(got, want)) if a != b][0]
        err.lhs, err.rhs = float(got[i]), float(want[i])
        raise _explain(err, says) from None
    return pr


def check_random_iterate_risk(random_iterate_risk, case: str = "public") -> Proof:
    """The student's ``random_iterate_risk(H, xs, p, target)``: the exact risk of the online-to-batch
    hypothesis h_r (r uniform in 1..T) after Halving on the sample ``xs`` (labelled by the target),
    E_r L_D(h_r) = (1/T) sum_t L_D(h_t), on every sample of size T; then the theorem, exactly: its
    average over the samples is at most Halving's expected mistakes / T <= log2 |H| / T."""
    import itertools
    import math as _m
    from fractions import Fraction

    H, p, target, T = batch_case(case)
    n = H.shape[1]
    tgt = H[target].astype(np.int64)
    got, want, at, weights, mistakes = [], [], [], [], []
    for S in itertools.product(range(n), repeat=T):
        alive, risks, M = np.ones(len(H), dtype=bool), [], 0
        for x in S:
            h = _majority_all(H, alive)
            risks.append(sum((pi for pi, a, b in zip(p, h, tgt) if a != b), Fraction(0)))
            M += int(h[x] != tgt[x])
            alive = alive & (H[:, x] == tgt[x])
        want.append(sum(risks, Fraction(0)) / T)
        got.append(_exact(_call(random_iterate_risk, "random_iterate_risk", 0, H.copy(), np.array(S), tuple(p), target),
                          "random_iterate_risk", f"the sample {S}"))
        weights.append(_m.prod(p[x] for x in S))
        mistakes.append(M)
        at.append(f"the sample {S}")
    expected = sum((w * g for w, g in zip(weights, got)), Fraction(0))
    expected_M = sum((w * M for w, M in zip(weights, mistakes)), Fraction(0))
    pr = Proof("the online-to-batch theorem (Section 6.1)")
    says = {"1": lambda t, e: ("E_r L_D(h_r) averages the exact risks of the hypotheses h_1, ..., h_T that Halving "
                               "holds before each round (h_t before seeing x_t), with weight 1/T each.")}
    try:
        ok = np.array([g == w for g, w in zip(got, want)])
        pr.step("1", "E_r L_D(h_r) = (1/T) sum_t L_D(h_t) on the sample", ok, "==", True, rounds=np.array(at, dtype=object))
        # given step 1, steps 2 and 3 are the section's theorem on the student's numbers: shown, not counted
        pr.step("2", "E_S E_r L_D(h_r) = E_S M_T / T (exactly, over all samples)", float(expected), "==",
                float(expected_M / T), tol=0.0, kind="identity",
                why="E_S L_D(h_t) = P(h_t(x_t) != y_t): h_t does not depend on x_t")
        pr.step("3", "E_S E_r L_D(h_r) <= log2 |H| / T", float(expected), "<=", _m.log2(len(H)) / T,
                kind="identity", why="Halving's bound M_T <= log2 |H| on every sample")
    except ProofStepError as err:
        if err.step == "1":
            i = int(np.flatnonzero(~ok)[0])
            err.lhs, err.rhs = float(got[i]), float(want[i])
        raise _explain(err, says) from None
    return pr
