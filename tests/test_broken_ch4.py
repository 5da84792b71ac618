"""Broken learners make the checks of Chapter 4 fail.

Each test executes a chapter 4 notebook with one broken piece of olkit patched in (as a subclass that
changes one rule, consistently in the round-by-round and the look-ahead code) and asserts that a proof
check stops it, naming the step that caught the bug.
"""
import pytest

from notebooks import patch_code, run_broken

EVERY_ROUND = '''
import olkit.linear
class EveryRoundPerceptron(olkit.linear.Perceptron):
    """Broken: updates on every round."""
    def _violated(self, x, y):
        return True
    def _first_update(self, Xb, yb, t0, info=None):
        return 0
'''

WRONG_SIGN = '''
import olkit.linear
class WrongSignPerceptron(olkit.linear.Perceptron):
    """Broken: w -= eta y x on an update."""
    def update(self, x, y):
        x, y = self._x(x), self._y(y)
        if self._violated(x, y):
            self.w = self.w - (self.eta * y) * x
            self.updates += 1
        self.t += 1
'''

NO_ETA = '''
import olkit.linear
class NoStepPerceptron(olkit.linear.Perceptron):
    """Broken: ignores the step size (w += y x)."""
    def update(self, x, y):
        x, y = self._x(x), self._y(y)
        if self._violated(x, y):
            self.w = self.w + y * x
            self.updates += 1
        self.t += 1
'''

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

PROMOTE_BY_3 = '''
import olkit.winnow, olkit.game
class TriplingWinnow(olkit.winnow.Winnow):
    """Broken: a promotion triples the active weights."""
    def update(self, x, y):
        x, y = olkit.game.check_binary(x, self.d, self.t), olkit.game.check_label_pm1(y, self.t)
        if self._predict_sum(int(self.w @ x)) != y:
            if y == 1:
                self.w[x == 1] *= 3
                self.P += 1
            else:
                self.w[x == 1] = 0
                self.N += 1
            self.updates += 1
        self.t += 1
'''

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

UNNORMALIZED = '''
import math, numpy as np, olkit.winnow, olkit.game
class UnnormalizedWinnow(olkit.winnow.NormalizedWinnow):
    """Broken: multiplies by exp(eta y x) but forgets to divide by Z_t."""
    def update(self, x, y):
        x, y = self._x(x), olkit.game.check_label_pm1(y, self.t)
        if self._violated(x, y):
            self.log_w = self.log_w + (self.eta * y) * x
            self.w = np.exp(self.log_w)
            self.updates += 1
        self.t += 1
'''

WRONG_SET = '''
import olkit.winnow, olkit.game
class WrongSetElimination(olkit.winnow.EliminationLearner):
    """Broken: on a mistake it removes the inactive candidates instead of the active ones."""
    def update(self, x, y):
        x, y = olkit.game.check_binary(x, self.d, self.t), olkit.game.check_label_pm1(y, self.t)
        on = self.C & (x == 1)
        if (1 if on.any() else -1) != y:
            self.C &= x == 1
            self.updates += 1
        self.t += 1
'''

MINORITY_HALVING = '''
import numpy as np, olkit.winnow
class MinorityHalving(olkit.winnow.DisjunctionHalving):
    """Broken: predicts with the minority of the version space."""
    def predict(self, x):
        return -super().predict(x)
'''

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
]


@pytest.mark.parametrize("module, name, source, replacement, notebook, step", CASES, ids=[c[3] for c in CASES])
def test_chapter_4_checks_catch_broken_variant(module, name, source, replacement, notebook, step):
    ename, evalue = run_broken(f"ch4/{notebook}.ipynb", patch_code(module, name, source, replacement))
    assert ename == "ProofStepError", f"the notebook did not fail on a proof check: {ename}: {evalue}"
    assert f"step {step} (" in evalue, evalue
