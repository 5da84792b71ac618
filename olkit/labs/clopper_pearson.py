"""Lab 6c: the Clopper-Pearson interval and the book's high-probability decision (Sections 6.1 and 6.2: the
PAC form of Theorem 6.1 and Lemma 6.1 of the book, which is Lemma 7.1 of Mohri, Rostamizadeh and Talwalkar
2012; Clopper and Pearson 1934).

The book never compares a bare frequency with delta.  A statement "P(failure) <= delta" is checked by
:meth:`olkit.Proof.probability`: with k failures in n independent runs, it is refuted when the exact
(Clopper-Pearson) interval at confidence 0.99 lies wholly above delta.  The student writes the interval
(question 1) and the decision (question 2).  The checks

1. for the interval: the rule, case by case (k = 0 and k = n included), against the quantiles of the
   beta distribution (scipy.stats.beta), within 1e-9; then the defining tails, shown as a proof;
2. for the decision: the book's instances first, on failure counts recorded here from olkit's runs, where
   the truth is known (Markov's route on Section 6.1's two-point instance holds at Markov's sample size
   and fails at ERM's; Lemma 6.1 holds for the forecaster and fails for one that peeks): a decision that
   refutes a true statement or keeps a false one fails the step, cited with its number; then the rule,
   case by case, on those counts and on counts chosen where other rules (a bare frequency, a normal
   interval, the 95% level, a one-sided interval) decide otherwise.
"""
from __future__ import annotations

import functools
import math
from fractions import Fraction

import numpy as np

from ..proof import Proof, ProofStepError, fmt
from .feedback import LabFeedback, _call, _explain
from .online_to_batch import _rule_at

__all__ = ["cp_case", "refute_case", "check_clopper_pearson", "check_refutes"]

LEVEL = 0.99
TOL = 1e-9


def cp_case(case: str = "public") -> list[tuple[int, int, float]]:
    """The (k, n, level) of a question-1 case: ``public``, ``ends`` (k = 0 and k = n), ``large``
    (n = 10^4, 10^5), ``levels`` (confidence levels other than 0.99)."""
    cases = {"public": [(3, 50, 0.99), (12, 200, 0.99), (1, 10, 0.99)],
             "ends": [(0, 20, 0.99), (20, 20, 0.99), (0, 2000, 0.99), (2000, 2000, 0.99), (0, 1, 0.99), (1, 1, 0.99)],
             "large": [(37, 100000, 0.99), (49990, 100000, 0.99), (4000, 10000, 0.99)],
             "levels": [(5, 40, 0.95), (5, 40, 0.5), (0, 40, 0.9), (40, 40, 0.9)]}
    if case not in cases:
        raise ValueError(f"no Clopper-Pearson lab case {case!r}; one of {sorted(cases)}")
    return cases[case]


def interval(k: int, n: int, level: float = LEVEL) -> tuple[float, float]:
    """The reference: the two-sided Clopper-Pearson interval from the beta quantiles."""
    from scipy.stats import beta

    a = (1 - level) / 2
    lo = 0.0 if k == 0 else float(beta.ppf(a, k, n - k + 1))
    hi = 1.0 if k == n else float(beta.ppf(1 - a, k + 1, n - k))
    return lo, hi


def _tails(k: int, n: int, lo: float, hi: float) -> tuple[float, float]:
    """P_lo[K >= k] and P_hi[K <= k] for K ~ Binomial(n, .): each is (1 - level)/2 at the interval's ends."""
    from scipy.stats import binom

    return float(binom.sf(k - 1, n, lo)), float(binom.cdf(k, n, hi))


def check_clopper_pearson(clopper_pearson, case: str = "public") -> Proof:
    """The student's ``clopper_pearson(k, n, level)`` -> (lo, hi), case by case against the beta quantiles
    (within 1e-9); returns the proof of the defining tails on the student's interval."""
    rows = []
    for k, n, level in cp_case(case):
        out = _call(clopper_pearson, "clopper_pearson", 0, k, n, level)
        where = f"For k = {k} failures in n = {n} runs (level {level:g})"
        try:
            lo, hi = (float(v) for v in out)
        except (TypeError, ValueError):
            raise LabFeedback(f"clopper_pearson returned {out!r} for k = {k}, n = {n}; it must return two numbers, the "
                              "lower and the upper end" + (" (is the function still '...'?)" if out is None or out is
                                                           Ellipsis else "")) from None
        want = interval(k, n, level)
        if not (math.isfinite(lo) and math.isfinite(hi)):
            edge = (" When k = 0 the lower end is 0 (no failure is consistent with p = 0), and when k = n the upper "
                    "end is 1: the beta quantile is not defined there.") if k in (0, n) else ""
            raise LabFeedback(f"clopper_pearson returned ({lo}, {hi}) for k = {k}, n = {n}, a value that is not "
                              f"finite.{edge}")
        if abs(lo - want[0]) > TOL or abs(hi - want[1]) > TOL:
            a = (1 - level) / 2
            t_lo, t_hi = _tails(k, n, min(max(lo, 0.0), 1.0), min(max(hi, 0.0), 1.0))
            raise _rule_at(where, "clopper_pearson", f"the two-sided Clopper-Pearson interval at confidence {level:g}: "
                           f"lo with P_lo[K >= k] = {fmt(a)} (lo = 0 when k = 0), hi with P_hi[K <= k] = {fmt(a)} "
                           "(hi = 1 when k = n), K ~ Binomial(n, p)", "lem-o2b-azuma", f"[{fmt(lo)}, {fmt(hi)}]",
                           f"[{fmt(want[0])}, {fmt(want[1])}]",
                           f"at your ends P_lo[K >= k] = {fmt(t_lo)} and P_hi[K <= k] = {fmt(t_hi)}"
                           if 0 < k < n else "")
        rows.append((k, n, level, lo, hi))
    p = Proof("The Clopper-Pearson interval: its defining tails at your ends")
    inner = [(r, _tails(*r[:2], *r[3:])) for r in rows]
    lo_rows = [(t[0], (1 - r[2]) / 2) for r, t in inner if r[0] > 0]
    hi_rows = [(t[1], (1 - r[2]) / 2) for r, t in inner if r[0] < r[1]]
    if lo_rows:
        p.step("lo", "P_lo[K >= k] = (1 - level)/2", [a for a, _ in lo_rows], "==", [b for _, b in lo_rows], tol=1e-6)
    if hi_rows:
        p.step("hi", "P_hi[K <= k] = (1 - level)/2", [a for a, _ in hi_rows], "==", [b for _, b in hi_rows], tol=1e-6)
    p.step("in", "lo <= k/n <= hi", [r[3] - r[0] / r[1] for r in rows] + [r[0] / r[1] - r[4] for r in rows], "<=", 0,
           tol=TOL)
    return p


def _markov_failure(T: int) -> float:
    """P[L_D(h_r) >= 1/8] on Section 6.1's two-point instance at sample size T: (1 - (7/8)^T) 8/T."""
    return (1 - (7 / 8) ** T) * 8 / T


@functools.lru_cache(maxsize=None)
def _recorded(group: str) -> tuple:
    """Recorded failure counts: tuples (label, k, n, delta, false, why, ref, step); ``false``: whether the
    statement "P(failure) <= delta" is false, known from the exact probability or from the book."""
    from .. import batch
    from ..broken import batch as broken
    from ..classes import thresholds
    from ..distributions import FiniteDistribution
    from ..finite import Halving

    out = []
    if group == "markov":  # Section 6.1: the random iterate on the two-point instance, eps = 1/8
        H = np.array([[0, 0], [1, 0]])
        D = FiniteDistribution([Fraction(1, 8), Fraction(7, 8)], H[0])
        g = np.random.default_rng(3)
        for size, runs, name in [(lambda d: batch.markov_sample_size(1, 1 / 8, d), 2000, "Markov's"),
                                 (lambda d: broken.erm_sample_size(2, 1 / 8, d), 10000, "ERM's")]:
            for delta in (0.5, 0.25, 0.1):
                T = size(delta)
                risk = batch.seen_set_runs(D, lambda: Halving(H), T, runs, g)[4]
                r = g.integers(1, T + 1, size=runs)
                k = int((risk[np.arange(runs), r - 1] >= 1 / 8).sum())
                P = _markov_failure(T)
                out.append((f"delta = {delta}, {name} sample size T = {T}", k, runs, delta, P > delta,
                            f"its exact probability is {P:.6f}", "thm-o2b-expectation", "P"))
    elif group == "azuma":  # Section 6.2: Lemma 6.1 on the forecaster, noise 3/8, eta = 2, T = 200
        p = [Fraction(1, 4)] * 2 + [Fraction(1, 8)] * 2 + [Fraction(1, 16)] * 4
        F = thresholds(8)
        D = FiniteDistribution(p, F[5], noise=Fraction(3, 8))
        g = np.random.default_rng(1)
        T, runs = 200, 2000
        sims = [("the forecaster", batch.ewa_runs(D, F, T, runs, g, eta=2.0), False),
                ("the forecaster that peeks", broken.peeking_ewa_runs(D, F, T, runs, g, eta=2.0), True)]
        for who, s, peeks in sims:
            Vbar = (s["risk"] - s["loss"]).mean(axis=1)
            for step, c in [("4", lambda d: math.sqrt(2 * math.log(1 / d) / T)),
                            ("4'", lambda d: math.sqrt(math.log(1 / d) / (2 * T)))]:
                if peeks and step == "4":
                    continue  # the source's threshold is loose enough to hold even for the peeking forecaster
                for delta in (0.05, 0.1, 0.25, 0.5):
                    k = int(np.sum(Vbar >= c(delta)))
                    why = ("the lemma holds for it (Azuma's inequality)" if not peeks else
                           "it breaks step 2 of the lemma: V_t is positive on average")
                    out.append((f"{who}, step {step}, delta = {delta}", k, runs, delta, peeks, why, "lem-o2b-azuma",
                                step))
    else:
        raise ValueError(f"no group of recorded counts {group!r}")
    for label, k, n, delta, false, *_ in out:  # the book's decision agrees with the truth on every record
        assert (interval(k, n)[0] > delta) == false, (label, k, n, delta)
    return tuple(out)


#: (k, n, delta) where another rule decides otherwise: a bare frequency, a normal (Wald) interval, the
#: 95% level, a one-sided 99% interval; and k = 0, k = n
EDGES = {"public": [(60, 500, 0.1), (0, 50, 0.01), (12, 100, 0.05)],
         "edges": [(0, 1000, 0.0001), (1000, 1000, 0.99), (1000, 1000, 0.995), (995, 1000, 0.987), (130, 1000, 0.105),
                   (25, 200, 0.07), (130, 1000, 0.1), (1, 1, 0.001)]}


def refute_case(case: str = "public") -> list[tuple[int, int, float]]:
    """The (k, n, delta) of a question-2 case, recorded counts first: ``public`` (Section 6.1's two-point
    instance at Markov's and at ERM's sample sizes, and a few chosen counts), ``azuma`` (Lemma 6.1 on the
    forecaster and on the one that peeks), ``edges`` (counts where other rules decide otherwise)."""
    groups = {"public": ("markov",), "azuma": ("azuma",), "edges": ()}
    if case not in groups:
        raise ValueError(f"no decision lab case {case!r}; one of {sorted(groups)}")
    return [r[1:4] for g in groups[case] for r in _recorded(g)] + EDGES.get(case, [])


def _decide(refutes, k: int, n: int, delta: float) -> bool:
    out = _call(refutes, "refutes", 0, k, n, delta)
    if isinstance(out, (bool, np.bool_)) or (isinstance(out, (int, np.integer)) and int(out) in (0, 1)):
        return bool(out)
    raise LabFeedback(f"refutes returned {out!r} for k = {k}, n = {n}, delta = {delta}; it must return True (refute "
                      "P(failure) <= delta) or False" + (" (is the function still '...'?)" if out is None or out is
                                                          Ellipsis else ""))


def check_refutes(refutes, case: str = "public") -> Proof:
    """The student's ``refutes(k, n, delta)``: the book's steps (Theorem 6.1's step P, Lemma 6.1's steps 4
    and 4') decided with it on recorded counts, where the truth is known; then the rule, case by case:
    refute exactly when the 99% Clopper-Pearson interval of k in n lies wholly above delta."""
    groups = {"public": ("markov",), "azuma": ("azuma",), "edges": ()}.get(case)
    if groups is None:
        raise ValueError(f"no decision lab case {case!r}")
    p = Proof("The book's probability steps, decided by your refutes")
    for g in groups:
        rec = _recorded(g)
        by_label = {r[0]: r for r in rec}
        for step in dict.fromkeys(r[7] for r in rec):
            rows = [r for r in rec if r[7] == step]
            ref = rows[0][6]
            yours = [int(_decide(refutes, k, n, d)) for _, k, n, d, *_ in rows]

            def say(t, e, by_label=by_label):
                label, k, n, d, false, why, *_ = by_label[str(e.round)]
                lo, hi = interval(k, n)
                if false:
                    return (f"Your refutes kept it on k = {k} failures in n = {n} runs (frequency {fmt(k / n)}), but "
                            f"the statement is false here ({why}), and the 99% Clopper-Pearson interval "
                            f"[{fmt(lo)}, {fmt(hi)}] lies wholly above delta = {d}: the runs refute it.")
                return (f"Your refutes refuted it on k = {k} failures in n = {n} runs (frequency {fmt(k / n)}), but the "
                        f"statement holds here ({why}): the 99% Clopper-Pearson interval [{fmt(lo)}, {fmt(hi)}] "
                        f"reaches down to delta = {d} or below, so the runs are no evidence against it.")

            claim = {"P": "refuted(P[L_D(h_r) >= eps] <= delta) = 1[it is false]",
                     "4": "refuted(P[mean V_t >= M sqrt(2 ln(1/delta)/T)] <= delta) = 1[it is false]",
                     "4'": "refuted(P[mean V_t >= M sqrt(ln(1/delta)/(2T))] <= delta) = 1[it is false]"}[step]
            try:
                p.step(step, claim, yours, "==", [int(r[4]) for r in rows], rounds=np.array([r[0] for r in rows],
                                                                                          dtype=object))
            except ProofStepError as err:
                raise _explain(err, {step: say}, ref=ref) from None
    cases = refute_case(case)
    yours = [_decide(refutes, k, n, d) for k, n, d in cases]
    wants = [interval(k, n)[0] > d for k, n, d in cases]
    for (k, n, d), got, want in zip(cases, yours, wants):
        if got != want:
            lo, hi = interval(k, n)
            raise _rule_at(f"For k = {k} failures in n = {n} runs and delta = {d}", "refutes",
                           "the book's decision: refute P(failure) <= delta exactly when the 99% Clopper-Pearson "
                           "interval of k failures in n runs lies wholly above delta (its lower end > delta)",
                           "lem-o2b-azuma", str(got), str(want),
                           f"the frequency is {fmt(k / n)} and the 99% interval is [{fmt(lo)}, {fmt(hi)}]")
    p.step("CP", "refutes(k, n, delta) = 1[the lower end of the 99% CP interval > delta], every case",
           np.array(yours, dtype=int), "==", np.array(wants, dtype=int),
           rounds=np.array([f"k = {k}, n = {n}, delta = {d}" for k, n, d in cases], dtype=object))
    return p
