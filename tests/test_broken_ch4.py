"""Broken learners make the checks of Chapter 4 fail.

Each test executes a chapter 4 notebook with one broken piece of olkit patched in (as a subclass that
changes one rule, consistently in the round-by-round and the look-ahead code) and asserts that a proof
check stops it, naming the step that caught the bug.  Most variants are those of
:mod:`olkit.broken.linear`, which the book's negative controls use too.
"""
import pytest

from notebooks import patch_code, run_broken, stopped_by_recomputation

EVERY_ROUND = "from olkit.broken.linear import EveryRoundPerceptron"

WRONG_SIGN = "from olkit.broken.linear import WrongSignPerceptron"

NO_ETA = "from olkit.broken.linear import NoStepPerceptron"

STRICT = '''
import olkit.linear, olkit.fp as fp
class StrictPerceptron(olkit.linear.Perceptron):
    """Broken: updates only if y <w, x> < 0 (a zero score, even w = 0, keeps w)."""
    def _violated(self, x, y):
        return y * fp.sign(fp.dot(self.w, x), fp.tie_scale(self.w, x)) < 0
    def _first_update(self, Xb, yb, t0, info=None):
        for i in range(len(yb)):
            if self._violated(Xb[i], int(yb[i])):
                return i
        return None
'''

NO_TIE_TOLERANCE = '''
import numpy as np, olkit.linear
class FloatSignPerceptron(olkit.linear.Perceptron):
    """Broken: decides on the float sign of y <w, x>, without the tie tolerance."""
    def _violated(self, x, y):
        return y * float(self.w @ x) <= 0
    def _first_update(self, Xb, yb, t0, info=None):
        for i in range(len(yb)):
            if self._violated(Xb[i], int(yb[i])):
                return i
        return None
'''

PROMOTE_BY_3 = "from olkit.broken.linear import TriplingWinnow"

NEVER_ELIMINATE = '''
import olkit.winnow, olkit.game
class KeepingWinnow(olkit.winnow.Winnow):
    """Broken: an elimination (a mistake on -1) leaves the weights unchanged."""
    def update(self, x, y):
        x, y = olkit.game.check_binary(x, self.d, self.t), olkit.game.check_label_pm1(y, self.t)
        if self._predict_sum(int(self.w @ x)) != y:
            if y == 1:
                self.w[x == 1] *= 2
                self.P += 1
            else:
                self.N += 1
            self.updates += 1
        self.t += 1
'''

STRICT_WINNOW = '''
import olkit.winnow, olkit.game
class StrictWinnow(olkit.winnow.Winnow):
    """Broken: a sum equal to the threshold d predicts -1."""
    def __init__(self, d, tie=1):
        super().__init__(d, tie=-1)
'''

UNNORMALIZED = "from olkit.broken.linear import UnnormalizedWinnow"

WRONG_SET = "from olkit.broken.linear import WrongSetElimination"

MINORITY_HALVING = "from olkit.broken.linear import MinorityHalving"

UNSIGNED_DUAL = '''
import olkit.linear
class UnsignedKernelPerceptron(olkit.linear.KernelPerceptron):
    """Broken: stores the coefficient eta instead of eta y_t."""
    def update(self, x, y):
        n = self.updates
        super().update(x, y)
        if self.updates > n:
            self.coef[n] = self.eta
'''

FORGETFUL = "from olkit.broken.linear import ForgetfulKernelPerceptron"

WRONG_ROUNDS = "from olkit.broken.linear import WrongRoundsWinnow"

AVERAGE_OF_W_T = '''
import numpy as np, olkit.linear
class ShiftedAverage(olkit.linear.AveragedPerceptron):
    """Broken: averages w_1, ..., w_T (the weights before each round) instead of w_2, ..., w_{T+1}."""
    def fit(self, X, y):
        super().fit(X, y)
        c = self.counts.copy()
        c[0] += 1
        c[-1] -= 1
        self.w = (c / self.T) @ self.W
        return self
'''

CASES = [
    ("linear", "Perceptron", EVERY_ROUND, "EveryRoundPerceptron", "4_1_perceptron", "0"),
    ("linear", "Perceptron", WRONG_SIGN, "WrongSignPerceptron", "4_1_perceptron", "3"),
    ("linear", "Perceptron", NO_ETA, "NoStepPerceptron", "4_1_perceptron", "3"),
    ("linear", "Perceptron", STRICT, "StrictPerceptron", "4_1_perceptron", "p, noisy"),  # mistakes without updates
    ("linear", "Perceptron", NO_TIE_TOLERANCE, "FloatSignPerceptron", "4_1_perceptron", "0"),
    ("winnow", "Winnow", PROMOTE_BY_3, "TriplingWinnow", "4_3_winnow", "rule"),
    ("winnow", "Winnow", NEVER_ELIMINATE, "KeepingWinnow", "4_3_winnow", "rule"),
    ("winnow", "Winnow", STRICT_WINNOW, "StrictWinnow", "4_3_winnow", "0"),
    ("winnow", "NormalizedWinnow", UNNORMALIZED, "UnnormalizedWinnow", "4_3_winnow", "rule"),
    ("winnow", "EliminationLearner", WRONG_SET, "WrongSetElimination", "4_3_winnow", "cx"),
    ("winnow", "DisjunctionHalving", MINORITY_HALVING, "MinorityHalving", "4_3_winnow", "2"),
    ("linear", "KernelPerceptron", UNSIGNED_DUAL, "UnsignedKernelPerceptron", "4_2_nonseparable_kernels",
     "noisy, d=6"),
    ("linear", "AveragedPerceptron", AVERAGE_OF_W_T, "ShiftedAverage", "4_2_nonseparable_kernels", "avg"),
    ("linear", "KernelPerceptron", FORGETFUL, "ForgetfulKernelPerceptron", "4_2_nonseparable_kernels",
     "noisy, d=6"),
    ("winnow", "Winnow", WRONG_ROUNDS, "WrongRoundsWinnow", "4_3_winnow", "0"),
]


#: Variants that a cell recomputing the learner (or the run) by its definition, without olkit, stops
#: before the proof's step named in the case is reached (those cells came with mutation testing,
#: benchmarks/mutants_chN.md). The first line of that cell:
RECOMPUTED = {
    'EveryRoundPerceptron': '# The Perceptron recomputed in numpy on both streams, by its definition: w_1 = 0, predict +1 iff',
    'WrongSignPerceptron': '# The Perceptron recomputed in numpy on both streams, by its definition: w_1 = 0, predict +1 iff',
    'NoStepPerceptron': '# The Perceptron recomputed in numpy on both streams, by its definition: w_1 = 0, predict +1 iff',
    'FloatSignPerceptron': '# The Perceptron recomputed in numpy on both streams, by its definition: w_1 = 0, predict +1 iff',
}


@pytest.mark.parametrize("module, name, source, replacement, notebook, step", CASES, ids=[c[3] for c in CASES])
def test_chapter_4_checks_catch_broken_variant(module, name, source, replacement, notebook, step):
    ename, evalue = run_broken(f"ch4/{notebook}.ipynb", patch_code(module, name, source, replacement))
    if replacement in RECOMPUTED:
        assert stopped_by_recomputation(ename, evalue, RECOMPUTED[replacement]), f"{ename}: {evalue}"
        return
    assert ename == "ProofStepError", f"the notebook did not fail on a proof check: {ename}: {evalue}"
    assert f"step {step} (" in evalue, evalue
