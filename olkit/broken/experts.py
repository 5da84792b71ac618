"""Broken variants of the learners and environments of :mod:`olkit.experts` (Chapter 3's negative controls).

Each variant has exactly one thing wrong, named in its docstring.  The chapter runs its proof checks
on them inside :func:`olkit.negative_control`, and ``tests/test_broken_ch3.py`` runs whole notebooks
with them patched in; a check that lets one of them through has no teeth.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from .. import experts

#: The originals, captured at import: a test may patch ``olkit.experts.hedge`` (or ``soa_experts``) with
#: the broken variant, which must still call the real one.
_hedge = experts.hedge
_soa_experts = experts.soa_experts

__all__ = [
    "AgreeingCover",
    "EveryRoundWM",
    "NoResetDoubling",
    "PunishWinnersRWM",
    "ScaledRateAnytimeHedge",
    "ScaledRateHedge",
    "TieZeroWM",
    "UniformMinimax",
    "WrongNormHedge",
    "peeking_hedge",
    "uml_tie_soa_experts",
]


class WrongNormHedge(experts.Hedge):
    """Broken: divides the weights by N, their sum before round 1, instead of by W_t (p_t is no
    distribution once the weights move)."""

    def distribution(self):
        if self._p is None:
            w = np.exp(-self._rate(self.t) * (self.L - self.L.min()))
            self._E, self._Z = w[None, :], np.array([float(self.N)])
            self._p = w / self.N
        return self._p


class ScaledRateHedge(experts.Hedge):
    """Broken: plays (and records) the rate ``factor`` x eta instead of the eta it was given; the
    proof is then checked with the eta it claims to use (``self.eta``)."""

    def __init__(self, N: int, eta, factor: float = 3.0):
        super().__init__(N, eta)
        self.factor = float(factor)

    def _rate(self, t: int) -> float:
        return self.factor * super()._rate(t)


class ScaledRateAnytimeHedge(experts.AnytimeHedge):
    """Broken: the anytime learner with ``factor`` x sqrt(8 ln N / t) in round t."""

    def __init__(self, N: int, factor: float = 3.0):
        super().__init__(N)
        self.factor = float(factor)

    def _rate(self, t: int) -> float:
        return self.factor * super()._rate(t)


class EveryRoundWM(experts.WeightedMajority):
    """Broken: multiplies the erring experts' weights by beta on every round, not only after a mistake
    of the learner (Randomized Weighted Majority's update in a deterministic learner)."""

    def update(self, ell, loss) -> None:
        super().update(ell, 1.0)


class TieZeroWM(experts.WeightedMajority):
    """Broken: predicts 0 when the weighted vote is an exact tie (the algorithm predicts 1)."""

    def predict(self, f) -> int:
        yhat = super().predict(f)
        return 0 if self.details["tie"] else yhat


class PunishWinnersRWM(experts.RandomizedWeightedMajority):
    """Broken: multiplies by beta the experts that did *not* lose."""

    def update(self, ell, loss=None) -> None:
        super().update(1 - np.asarray(ell), loss)


class AgreeingCover(experts.CoverAdversary):
    """Broken: answers the learner's prediction instead of its opposite (after the same input check)."""

    def outcome(self, t: int, yhat, p):
        y, _ = super().outcome(t, yhat, p)
        y = 1 - y
        return y, np.array([float(y != 0), float(y != 1)])


class NoResetDoubling(experts.Doubling):
    """Broken: changes the rate at each period but keeps the old cumulative losses (no restart)."""

    def _enter(self) -> None:
        old = self.inner
        super()._enter()
        if old is not None and self.inner is not old:
            self.inner.L = old.L.copy()


def peeking_hedge(losses, eta, **kw) -> experts.ExpertTrace:
    """Broken: the vectorized run weights round t by the cumulative losses L_t, *including* round t's
    losses (it peeks at the losses it is about to pay)."""
    tr = _hedge(losses, eta, **kw)
    L = np.asarray(losses, dtype=float)
    C = np.cumsum(L, axis=0)
    e = np.asarray(eta, dtype=float)
    e = e[: len(L), None] if e.ndim else e  # a rate per round, or one rate
    W = np.exp(-e * (C - C.min(axis=1, keepdims=True)))
    P = W / W.sum(axis=1, keepdims=True)
    if "p" in tr.details:
        tr.details["p"] = P
    tr.loss = (P * L).sum(axis=1)
    return tr


class UniformMinimax(experts.TwoExpertMinimax):
    """Broken: plays 1/2 whatever the lead and the rounds to go (the values V_r(d) are kept correct)."""

    def p(self, r: int, d: int) -> Fraction:
        super().p(r, d)
        return Fraction(1, 2)


def uml_tie_soa_experts(H, xs, max_flips=None, tie=1, solver=None):
    """Broken: builds the experts with UML's tie rule (ties to 0) whatever tie rule was asked for."""
    return _soa_experts(H, xs, max_flips, 0, solver)
