"""Lab 3b: checking the proof of Hedge's regret bound (Theorem 3.4 of the book; Mohri, Rostamizadeh and
Talwalkar 2012, Theorem 7.6).

The student writes the checks of the potential argument, not the algorithm: two functions of a recorded
run of Hedge, ``(losses, P, eta)`` (the T x N loss matrix, the distributions p_1..p_T the learner played,
the rate), that build an ``olkit.Proof`` on the potential Phi_t = ln W_t, W_t = sum_i exp(-eta L_{t-1,i}),
computed from the losses.  Question 1 checks one round (step 1: the potential moves by
ln sum_i p_{t,i} exp(-eta l_{t,i}), which ties the record to the algorithm; step 3: Hoeffding's lemma
gives at most eta^2/8 - eta <p_t, l_t>); question 2 checks the chain to the bound (step 5: the sum;
step 6: ln W_{t+1} >= -eta min_i L_{t,i} and ln W_1 = ln N; step 7: the regret bound), on every prefix.
:func:`olkit.labs.proofcheck.grade_checks` grades them by mutation: they must hold on correct runs and
fail on broken ones.

The correct runs are those of :func:`olkit.hedge`; the broken learners come from
:mod:`olkit.broken.experts` (the rate 3 eta, the peeking Hedge, the division by N) or are written here
(weights that are never normalized), and one stream breaks the theorem's assumption (a loss outside
[0, 1]).
"""
from __future__ import annotations

import math

import numpy as np

from .proofcheck import ProofCheckQuestion, Variant, grade_checks

__all__ = ["check_hedge_round_checks", "check_hedge_bound_checks", "hedge_run_record",
           "HEDGE_ROUND_CHECKS", "HEDGE_BOUND_CHECKS"]


def _stream(case: str) -> tuple[np.ndarray, float]:
    """(losses, eta): ``public`` (T = 40, N = 5, the tuned rate), ``ties`` (three experts with the same
    losses), ``single`` (N = 1), ``one_round`` (T = 1), ``coins`` (0/1 losses, T = 200, N = 10),
    ``large`` (T = 400, eta = 8: exp(-eta L) underflows unless the potential is computed in log space),
    ``alternating`` (two experts whose lead changes every round, T = 8)."""
    eta = None
    if case == "public":
        losses = np.random.default_rng(2026).random((40, 5))
    elif case == "ties":
        losses = np.repeat(np.random.default_rng(3).random((12, 1)), 3, axis=1)
    elif case == "single":
        losses, eta = np.random.default_rng(1).random((10, 1)), 1.0
    elif case == "one_round":
        losses = np.random.default_rng(2).random((1, 4))
    elif case == "coins":
        losses = (np.random.default_rng(5).random((200, 10)) < 0.5).astype(float)
    elif case == "large":
        rng = np.random.default_rng(4)
        losses, eta = np.clip(rng.random((400, 6)) + np.array([0.0, 0.2, 0.3, 0.4, 0.5, 0.6]), 0, 1), 8.0
    elif case == "alternating":
        losses = np.zeros((8, 2))
        losses[0] = [0.5, 0.0]
        losses[1::2] = [0.0, 1.0]
        losses[2::2] = [1.0, 0.0]
    else:
        raise ValueError(f"no stream {case!r} in lab 3b")
    T, N = losses.shape
    return losses, (eta if eta is not None else math.sqrt(8 * math.log(N) / T))


def _before(losses: np.ndarray) -> np.ndarray:
    """L_0, ..., L_{T-1}: the cumulative losses before each round."""
    return np.vstack([np.zeros((1, losses.shape[1])), np.cumsum(losses, axis=0)[:-1]])


def _hedge_p(losses: np.ndarray, eta: float) -> np.ndarray:
    """Hedge's distributions on any loss matrix (olkit.hedge refuses losses outside [0, 1])."""
    L = _before(losses)
    w = np.exp(-eta * (L - L.min(axis=1, keepdims=True)))
    return w / w.sum(axis=1, keepdims=True)


def hedge_run_record(case: str = "public") -> tuple[np.ndarray, np.ndarray, float]:
    """A recorded run of the correct Hedge (:func:`olkit.hedge`) on a lab stream: (losses, P, eta), with
    P[t - 1] the distribution p_t played in round t."""
    from ..experts import hedge

    losses, eta = _stream(case)
    return losses, hedge(losses, eta).details["p"].copy(), eta


CORRECT = {
    "public": ("Hedge on the public stream: 5 experts, 40 rounds, the tuned rate", lambda: hedge_run_record("public")),
    "ties": ("Hedge on three experts with the same losses", lambda: hedge_run_record("ties")),
    "single": ("Hedge with a single expert", lambda: hedge_run_record("single")),
    "one_round": ("Hedge on a single round", lambda: hedge_run_record("one_round")),
    "coins": ("Hedge on 10 experts with 0/1 losses, 200 rounds", lambda: hedge_run_record("coins")),
    "large": ("Hedge with eta = 8 on 400 rounds, where exp(-eta L) underflows",
              lambda: hedge_run_record("large")),
}


def _rate3(case: str) -> tuple:
    from ..broken.experts import ScaledRateHedge
    from ..expert_game import run_experts

    losses, eta = _stream(case)
    return losses, run_experts(ScaledRateHedge(losses.shape[1], eta, 3.0), losses).details["p"], eta


def _peeking(case: str) -> tuple:
    from ..broken.experts import peeking_hedge

    losses, eta = _stream(case)
    return losses, peeking_hedge(losses, eta).details["p"], eta


def _wrong_norm(case: str) -> tuple:
    from ..broken.experts import WrongNormHedge
    from ..expert_game import run_experts

    losses, eta = _stream(case)
    return losses, run_experts(WrongNormHedge(losses.shape[1], eta), losses).details["p"], eta


def _unnormalized(case: str) -> tuple:
    losses, eta = _stream(case)
    return losses, np.exp(-eta * _before(losses)), eta  # the weights w_t, never divided by W_t


def _outside(case: str) -> tuple:
    losses, eta = _stream(case)
    losses = losses.copy()
    losses[0] = np.where(np.arange(losses.shape[1]) % 2 == 1, 3.0, 0.0)  # round 1: losses 0 and 3
    return losses, _hedge_p(losses, eta), eta


ROUND_VARIANTS = (
    Variant("unnormalized", "a Hedge that plays its weights e^(-eta L_{t-1,i}) without dividing them by W_t",
            lambda: _unnormalized("public")),
    Variant("rate3", "a Hedge that plays the rate 3 eta", lambda: _rate3("public")),
    Variant("peeking", "a Hedge whose weights use the losses of rounds 1..t, round t's included (it peeks)",
            lambda: _peeking("public")),
    Variant("outside", "a correct Hedge on a stream with losses 0 and 3 in round 1 (the theorem assumes losses "
            "in [0, 1])", lambda: _outside("public")),
)

BOUND_VARIANTS = (
    Variant("unnormalized", "a Hedge that plays its weights e^(-eta L_{t-1,i}) without dividing them by W_t",
            lambda: _unnormalized("coins")),
    Variant("rate3", "a Hedge that plays the rate 3 eta, on two experts whose lead changes every round",
            lambda: _rate3("alternating")),
    Variant("outside", "a correct Hedge on a stream with losses 0 and 3 in round 1 (the theorem assumes losses "
            "in [0, 1])", lambda: _outside("public")),
)

HEDGE_ROUND_CHECKS = ProofCheckQuestion("hedge_round_checks", "losses, P, eta", "experts-thm-ewa", CORRECT,
                                        ROUND_VARIANTS)
HEDGE_BOUND_CHECKS = ProofCheckQuestion("hedge_bound_checks", "losses, P, eta", "experts-thm-ewa", CORRECT,
                                        BOUND_VARIANTS)


def check_hedge_round_checks(hedge_round_checks, variant: str, cases: tuple[str, ...] | None = None):
    """Question 1: the student's checks of steps 1 and 3 hold on the correct runs and stop ``variant``."""
    return grade_checks(HEDGE_ROUND_CHECKS, hedge_round_checks, variant, cases)


def check_hedge_bound_checks(hedge_bound_checks, variant: str, cases: tuple[str, ...] | None = None):
    """Question 2: the student's checks of the chain (steps 5-7) hold on the correct runs and stop ``variant``."""
    return grade_checks(HEDGE_BOUND_CHECKS, hedge_bound_checks, variant, cases)
