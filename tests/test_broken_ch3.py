"""Broken pieces of olkit.experts make Chapter 3's checks fail.

Each test executes a Chapter 3 notebook with one broken piece patched in (``tests/notebooks.py``) and asserts
that a proof check stops it, naming the step that caught the bug.
"""
import pytest

from notebooks import patch_code, run_broken

WRONG_NORMALIZATION = '''
import numpy as np
class WrongNormHedge(olkit.experts.Hedge):
    """Broken: divides the weights by N, their sum before round 1, instead of by W_t."""
    def distribution(self):
        w = np.exp(-self._rate(self.t) * (self.L - self.L.min()))
        return w / self.N
'''

ETA_TWICE = '''
class EtaTwiceHedge(olkit.experts.Hedge):
    """Broken: uses twice the rate it was given."""
    def _rate(self, t):
        return 2 * super()._rate(t)
'''

WM_EVERY_ROUND = '''
class EveryRoundWM(olkit.experts.WeightedMajority):
    """Broken: multiplies the erring experts' weights by beta on every round, not only after a mistake."""
    def update(self, ell, loss):
        super().update(ell, 1.0)
'''

WM_TIES_TO_ZERO = '''
class TieZeroWM(olkit.experts.WeightedMajority):
    """Broken: predicts 0 when the weighted vote is an exact tie."""
    def predict(self, f):
        yhat = super().predict(f)
        return 0 if self.details["tie"] else yhat
'''

RWM_PUNISHES_WINNERS = '''
import numpy as np
class PunishWinnersRWM(olkit.experts.RandomizedWeightedMajority):
    """Broken: multiplies by beta the experts that did *not* lose."""
    def update(self, ell, loss=None):
        super().update(1 - np.asarray(ell), loss)
'''

AGREEING_COVER = '''
import numpy as np
class AgreeingCover(olkit.experts.CoverAdversary):
    """Broken: answers the learner's prediction instead of its opposite (after the same input check)."""
    def outcome(self, t, yhat, p):
        y, _ = super().outcome(t, yhat, p)
        y = 1 - y
        return y, np.array([float(y != 0), float(y != 1)])
'''

DOUBLING_NO_RESET = '''
class NoResetDoubling(olkit.experts.Doubling):
    """Broken: changes the rate at each period but keeps the old cumulative losses (no restart)."""
    def _enter(self):
        old = self.inner
        super()._enter()
        if old is not None and self.inner is not old:
            self.inner.L = old.L.copy()
'''

PEEKING_HEDGE = '''
import numpy as np
_hedge = olkit.experts.hedge
def peeking_hedge(losses, eta, **kw):
    """Broken: the vectorized run weights round t by L_t, peeking at the losses of round t."""
    tr = _hedge(losses, eta, **kw)
    L = np.asarray(losses, dtype=float)
    C = np.cumsum(L, axis=0)
    e = np.asarray(eta, dtype=float)
    e = e[:len(L), None] if e.ndim else e  # a rate per round, or one rate
    W = np.exp(-e * (C - C.min(axis=1, keepdims=True)))
    P = W / W.sum(axis=1, keepdims=True)
    if "p" in tr.details:
        tr.details["p"] = P
    tr.loss = (P * L).sum(axis=1)
    return tr
'''

UNIFORM_MINIMAX = '''
from fractions import Fraction
class UniformMinimax(olkit.experts.TwoExpertMinimax):
    """Broken: plays 1/2 whatever the lead (keeps the correct values)."""
    def p(self, r, d):
        super().p(r, d)
        return Fraction(1, 2)
'''

SOA_EXPERTS_TIE_ZERO = '''
_soa_experts = olkit.experts.soa_experts
def uml_tie_soa_experts(H, xs, max_flips=None, tie=1, solver=None):
    """Broken: builds the experts with UML's tie rule (ties to 0), whatever the tie asked for."""
    return _soa_experts(H, xs, max_flips, 0, solver)
'''

CASES = [
    ("ch3/3_2_exponential_weights.ipynb", "Hedge", WRONG_NORMALIZATION, "WrongNormHedge", "step 0 "),
    ("ch3/3_2_exponential_weights.ipynb", "Hedge", ETA_TWICE, "EtaTwiceHedge", "step 0 "),
    ("ch3/3_1_weighted_majority.ipynb", "WeightedMajority", WM_EVERY_ROUND, "EveryRoundWM", "step 0 "),
    ("ch3/3_1_weighted_majority.ipynb", "WeightedMajority", WM_TIES_TO_ZERO, "TieZeroWM", "step 0''"),
    ("ch3/3_1_weighted_majority.ipynb", "RandomizedWeightedMajority", RWM_PUNISHES_WINNERS, "PunishWinnersRWM",
     "step 0 "),
    ("ch3/3_1_weighted_majority.ipynb", "CoverAdversary", AGREEING_COVER, "AgreeingCover", "step 1 "),
    ("ch3/3_2_exponential_weights.ipynb", "Doubling", DOUBLING_NO_RESET, "NoResetDoubling", "step 0''"),
    ("ch3/3_2_exponential_weights.ipynb", "hedge", PEEKING_HEDGE, "peeking_hedge", "step vec "),
    ("ch3/3_3_lower_bounds_minimax.ipynb", "TwoExpertMinimax", UNIFORM_MINIMAX, "UniformMinimax", "step p "),
    ("ch3/3_3_lower_bounds_minimax.ipynb", "soa_experts", SOA_EXPERTS_TIE_ZERO, "uml_tie_soa_experts", "step d "),
]


@pytest.mark.parametrize("notebook, name, source, replacement, step", CASES, ids=[c[3] for c in CASES])
def test_chapter_checks_catch_broken_variant(notebook, name, source, replacement, step):
    ename, evalue = run_broken(notebook, patch_code("experts", name, source, replacement))
    assert ename == "ProofStepError", f"the notebook did not fail on a proof check: {ename}: {evalue}"
    assert step in evalue, evalue
