"""Lab 3: Hedge on a loss matrix (Algorithm 3.3 and Theorem 3.4 of the book; Mohri, Rostamizadeh and Talwalkar,
Theorem 7.6).

The checks of this lab's questions and the streams they play ("public" for the student's own check,
the others for grading); see :mod:`olkit.labs`.
"""
from __future__ import annotations

import math

import numpy as np

from ..proof import Proof, ProofStepError, fmt
from .feedback import LabFeedback, _call, _explain, _rule

__all__ = ["hedge_case", "check_hedge_distribution", "check_hedge_regret"]


def hedge_case(case: str = "public") -> tuple[np.ndarray, float]:
    """(losses, eta): a T x N loss matrix in [0, 1] and the rate.  Cases: ``public`` (T = 40, N = 5,
    the tuned rate), ``single`` (N = 1), ``one_round`` (T = 1), ``ties`` (every expert has the same
    losses), ``large`` (T = 400, eta = 8: exp(-eta L) underflows unless computed stably)."""
    if case == "public":
        losses = np.random.default_rng(2026).random((40, 5))
    elif case == "single":
        losses = np.random.default_rng(1).random((10, 1))
    elif case == "one_round":
        losses = np.random.default_rng(2).random((1, 4))
    elif case == "ties":
        losses = np.repeat(np.random.default_rng(3).random((12, 1)), 3, axis=1)
    elif case == "large":
        rng = np.random.default_rng(4)
        losses = np.clip(rng.random((400, 6)) + np.array([0.0, 0.2, 0.3, 0.4, 0.5, 0.6]), 0, 1)
        return losses, 8.0
    else:
        raise ValueError(f"no Hedge lab case {case!r}")
    T, N = losses.shape
    return losses, math.sqrt(8 * math.log(N) / T) if N > 1 else 1.0


def _cumulative(losses: np.ndarray) -> np.ndarray:
    """L_0 = 0, L_1, ..., L_T: the cumulative losses before each round and after the last."""
    return np.vstack([np.zeros((1, losses.shape[1])), np.cumsum(losses, axis=0)])


def _hedge_p(L_before: np.ndarray, eta: float) -> np.ndarray:
    """The book's distributions, one row per round: exp(-eta (L - min L)) normalized (no underflow)."""
    w = np.exp(-eta * (L_before - L_before.min(axis=1, keepdims=True)))
    return w / w.sum(axis=1, keepdims=True)


def _potential(L: np.ndarray, eta: float) -> np.ndarray:
    """Phi_t = ln sum_i exp(-eta L_{t-1,i}), in log-sum-exp form."""
    m = L.min(axis=1)
    return -eta * m + np.log(np.exp(-eta * (L - m[:, None])).sum(axis=1))


def _hedge_proof(losses: np.ndarray, eta: float, P: np.ndarray, title: str) -> Proof:
    """Theorem 3.4 (Mohri et al. Theorem 7.6) on a run whose distributions are P (T x N): the steps of the
    book's proof that involve the learner, numbered as in the book (3: one round, with Hoeffding's lemma;
    6: the lower bound on the potential; 7: the bound)."""
    T, N = losses.shape
    L = _cumulative(losses)
    Phi = _potential(L, eta)
    with np.errstate(invalid="ignore", over="ignore"):
        mix = (P * losses).sum(axis=1)  # <p_t, l_t>
    regret = mix.sum() - L[-1].min()
    p = Proof(title)
    p.step("3", "Phi_{t+1} - Phi_t <= eta^2/8 - eta <p_t, l_t>", Phi[1:] - Phi[:-1], "<=",
           -eta * mix + eta**2 / 8 + 1e-12)
    p.step("6", "Phi_{T+1} - Phi_1 >= -eta min_i L_{T,i} - ln N", Phi[-1] - Phi[0], ">=",
           -eta * L[-1].min() - math.log(N) - 1e-12, kind="identity", why="one expert's weight is part of W")
    p.step("7", "Regret_T <= ln N / eta + eta T / 8", regret, "<=", math.log(N) / eta + eta * T / 8 + 1e-12)
    return p


_UNDERFLOW = "large eta L underflows: subtract min(L) before exponentiating"


def _hedge_says(losses: np.ndarray, eta: float, P: np.ndarray, name: str) -> dict:
    def hoeffding(t, err):
        if t is not None and not np.isfinite(P[t - 1]).all():
            return (f"Your {name} returned {np.array2string(P[t - 1], precision=3)} in round {t}, which is not a "
                    f"distribution: {_UNDERFLOW}.")
        L = _cumulative(losses)[t - 1]
        want = _hedge_p(L[None, :], eta)[0]
        text = f"The learner's expected loss in round {t} is too large for the potential's drop."
        if not np.allclose(P[t - 1], want, rtol=1e-7, atol=1e-9):
            text += (f" Your {name} returned {np.array2string(P[t - 1], precision=4)} there, where Hedge plays "
                     f"{np.array2string(want, precision=4)}: {_rule_why(P[t - 1], L, eta)}.")
        return text

    return {"3": hoeffding, "7": lambda t, err: "The regret exceeds the theorem's bound."}


def _rule_why(p: np.ndarray, L: np.ndarray, eta: float) -> str:
    """What the student's distribution does differently, where it can be told from one round."""
    if not np.isfinite(p).all():
        return f"some of your probabilities are not finite numbers: {_UNDERFLOW}"
    total = float(p.sum())
    if abs(total - 1) > 1e-9:
        return f"your probabilities sum to {fmt(total)}, not 1: divide the weights by their sum W_t"
    if (p < 0).any():
        return "a probability is negative"
    spread = L - L.min()
    keep = p > 1e-300
    if keep.sum() >= 2 and np.ptp(spread[keep]) > 1e-9:
        c = -np.polyfit(spread[keep], np.log(p[keep]), 1)[0]  # p_i ~ exp(-c L_i)
        if c < -1e-9:
            return "your probabilities grow with the loss: the weight is exp(-eta L_i), with a minus sign"
        if abs(c - eta) > 1e-6 * max(1.0, eta):
            return (f"your probabilities fall like exp(-c L_i) with c = {fmt(c)} = {fmt(c / eta)} eta; "
                    f"Hedge's rate is eta = {fmt(eta)}")
    return "each p_i must be exp(-eta L_i) divided by the sum of these weights"


def _check_rule(name: str, losses: np.ndarray, eta: float, P: np.ndarray) -> None:
    """Hedge's rule round by round: p_t = exp(-eta L_{t-1}) / W_t, up to rounding (1e-9)."""
    L = _cumulative(losses)
    want = _hedge_p(L[:-1], eta)
    for t in range(1, len(losses) + 1):
        p = P[t - 1]
        if not (np.isfinite(p).all() and np.allclose(p, want[t - 1], rtol=1e-7, atol=1e-9)):
            raise _rule(name, t, "Hedge's rule p_{t,i} = exp(-eta L_{t-1,i}) / W_t", "experts-alg-ewa",
                        np.array2string(p, precision=4), np.array2string(want[t - 1], precision=4),
                        f"with L_{{t-1}} = {np.array2string(L[t - 1], precision=3)} and eta = {fmt(eta)}, "
                        + _rule_why(p, L[t - 1], eta))


def check_hedge_distribution(hedge_distribution, case: str = "public") -> Proof:
    """Hedge whose distribution is the student's ``hedge_distribution(L, eta)`` (L: the cumulative
    losses of the rounds before), played on a lab loss matrix, checked by the proof of Theorem 3.4 (Mohri
    et al. Theorem 7.6) and then, round by round, against Hedge's rule (Algorithm 3.3): a distribution
    whose run still meets the bound but is not exp(-eta L) / W is a wrong answer."""
    losses, eta = hedge_case(case)
    T, N = losses.shape
    L = _cumulative(losses)
    P = np.empty_like(losses)
    for t in range(1, T + 1):
        out = _call(hedge_distribution, "hedge_distribution", t, L[t - 1].copy(), eta)
        p = np.asarray(out, dtype=float) if out is not None and out is not Ellipsis else None
        if p is None or p.shape != (N,):
            got = "None" if p is None else f"shape {p.shape}"
            raise LabFeedback(f"hedge_distribution returned {got} in round {t}; it must return the N = {N} "
                              "probabilities of the experts" + (" (is the function still '...'?)" if p is None else ""))
        P[t - 1] = p
    try:
        proof = _hedge_proof(losses, eta, P, "the proof of Hedge's regret bound (Theorem 3.4)")
    except ProofStepError as err:
        raise _explain(err, _hedge_says(losses, eta, P, "hedge_distribution"), ref="experts-thm-ewa") from None
    _check_rule("hedge_distribution", losses, eta, P)
    return proof


def check_hedge_regret(hedge_regret, case: str = "public") -> Proof:
    """The student's ``hedge_regret(losses, eta)``: Hedge's regret sum_t <p_t, l_t> - min_i L_{T,i} on
    the whole loss matrix, against the book's, then the theorem's bound."""
    losses, eta = hedge_case(case)
    out = _call(hedge_regret, "hedge_regret", 1, losses.copy(), eta)
    if out is None or out is Ellipsis or np.ndim(out) != 0:
        raise LabFeedback(f"hedge_regret returned {out!r}; it must return one number, the regret"
                          + (" (is the function still '...'?)" if out is None or out is Ellipsis else ""))
    L = _cumulative(losses)
    P = _hedge_p(L[:-1], eta)
    book = float((P * losses).sum() - L[-1].min())
    p = Proof("the proof of Hedge's regret bound (Theorem 3.4)")
    try:
        p.step("0", "your regret = sum_t <p_t, l_t> - min_i L_{T,i}", float(out), "==", book, tol=1e-9)
        p.step("7", "Regret_T <= ln N / eta + eta T / 8", float(out), "<=",
               math.log(losses.shape[1]) / eta + eta * losses.shape[0] / 8 + 1e-12)
    except ProofStepError as err:
        says = {"0": lambda t, e: ("The regret is the learner's total expected loss, sum over rounds of "
                                   "<p_t, l_t> with p_t computed from the losses before round t only, minus "
                                   "the best expert's total loss.")}
        raise _explain(err, says, ref="experts-thm-ewa") from None
    return p
