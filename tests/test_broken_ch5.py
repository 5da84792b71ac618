"""Broken pieces of olkit.oco make Chapter 5's checks fail.

Each test executes a Chapter 5 notebook with one broken piece patched in (``tests/notebooks.py``)
and asserts that a proof check stops it, naming the step that caught the bug.  Most variants come
from ``olkit.broken.oco`` (the book's negative controls); the rest are defined here.
"""
import pytest

import olkit
from notebooks import patch_code, run_broken

NO_PROJECTION_OGD = "from olkit.broken.oco import NoProjectionOGD"

SQRT_T_ANYTIME = '''
_anytime = olkit.oco.anytime
def sqrt_t_anytime(B, rho):
    """Broken: eta_t = B / (rho t), off by a factor sqrt(t)."""
    s = _anytime(B, rho)
    return olkit.oco._Schedule(s.scale, 1.0, s.name)
'''

SQRT_T_OGD = '''
class SqrtTOGD(olkit.oco.OGD):
    """Broken: a fixed step eta is used as eta sqrt(T) with T = 256, the horizon of the corollary runs."""
    def step(self):
        return super().step() * (16.0 if not callable(self.eta) else 1.0)
'''

WRONG_SIGN_LOGISTIC = '''
class WrongSignLogistic(olkit.convex.Logistic):
    """Broken: the gradient with the wrong sign (OGD then climbs)."""
    def _subgradient(self, w):
        return -super()._subgradient(w)
'''

KINK_ABSOLUTE = '''
class KinkAbsolute(olkit.convex.Absolute):
    """Broken: decides the kink by the float sign of <w, x> - y (no tie rule): at the kink it returns
    -x, a valid subgradient, but not the documented least-norm one."""
    def _subgradient(self, w):
        return (1.0 if float(w @ self.x) - self.y > 0 else -1.0) * self.x
'''

FIRST_THRESHOLD_SIMPLEX = "from olkit.broken.oco import FirstThresholdSimplex"

WRONG_SIGN_EG = "from olkit.broken.oco import WrongSignEG"

NO_RESTART_DOUBLING = "from olkit.broken.oco import NoRestartDoubling"

STRICT_PERCEPTRON_LOSS = "from olkit.broken.oco import StrictPerceptronLoss"

STRONG_SCHEDULE = '''
_strongly_convex = olkit.oco.strongly_convex
def late_strongly_convex(lam):
    """Broken: eta_t = 1/(lam (t + 1)), one round late."""
    s = _strongly_convex(lam)
    class Late(type(s)):
        def __call__(self, t):
            return super().__call__(t + 1)
    return Late(s.scale, s.power, s.name)
'''

N1 = "ch5/5_1_online_gradient_descent.ipynb"
N2 = "ch5/5_2_horizon_curvature_simplex.ipynb"
N3 = "ch5/5_3_perceptron_batch_worst_case.ipynb"
CASES = [
    (N1, "OGD", NO_PROJECTION_OGD, "NoProjectionOGD", "step P"),
    # the by-hand OGD run to a kink (w_t = 0, 0.1, 0.2, 0.3 with eta = 1) comes before step 0 of the theorem
    (N1, "OGD", SQRT_T_OGD, "SqrtTOGD", "step kink (OGD on |0.1 w - 0.03|"),
    (N2, "anytime", SQRT_T_ANYTIME, "sqrt_t_anytime", "step 0 (eta_t = B/(rho sqrt(t)))"),
    (N1, "Logistic", WRONG_SIGN_LOGISTIC, "WrongSignLogistic", "step v (subgradients"),
    (N1, "Absolute", KINK_ABSOLUTE, "KinkAbsolute", "step kink (at a kink"),
    (N1, "Simplex", FIRST_THRESHOLD_SIMPLEX, "FirstThresholdSimplex", "step Proj (Simplex"),
    (N2, "EG", WRONG_SIGN_EG, "WrongSignEG", "step H"),
    (N2, "Doubling", NO_RESTART_DOUBLING, "NoRestartDoubling", "step B (w_t = 0 on the first round"),
    (N2, "strongly_convex", STRONG_SCHEDULE, "late_strongly_convex", "step 0 (eta_t = 1/(lambda t))"),
    (N3, "PerceptronLoss", STRICT_PERCEPTRON_LOSS, "StrictPerceptronLoss", "step tie"),
]


@pytest.mark.parametrize("notebook, name, source, replacement, step", CASES, ids=[c[3] for c in CASES])
def test_chapter_checks_catch_broken_variant(notebook, name, source, replacement, step):
    module = "convex" if name in olkit.convex.__all__ else "oco"
    ename, evalue = run_broken(notebook, patch_code(module, name, source, replacement))
    assert ename == "ProofStepError", f"the notebook did not fail on a proof check: {ename}: {evalue}"
    assert step in evalue, evalue
