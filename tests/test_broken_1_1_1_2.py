"""Broken learners and environments make the chapter's checks fail (sections 1.1 and 1.2).

Each test executes a notebook with one broken piece of olkit patched in, and
asserts that a proof check stops it -- naming the step that caught the bug.
"""
import pytest

from notebooks import patch_code, run_broken

MINORITY_HALVING = '''
class MinorityHalving(olkit.finite.Halving):
    """Broken: predicts the minority label."""
    def predict(self, x):
        return 1 - super().predict(x)
'''

LAZY_CONSISTENT = '''
class LazyConsistent(olkit.finite.Consistent):
    """Broken: with update="remove_chosen" it never removes the hypothesis that erred."""
    def update(self, x, y):
        if self.rule == "remove_chosen":
            self._chosen = None
            self.t += 1
        else:
            super().update(x, y)
'''

LEFT_BISECTION = '''
class LeftBisection(olkit.adversaries.BisectionAdversary):
    """Broken: shows a point at a quarter of the interval instead of its midpoint."""
    def next_x(self, learner=None):
        return self.a + (self.b - self.a) / 4
'''

AGREEING_BISECTION = "from olkit.broken.finite import AgreeingBisection"  # confirms each prediction

CHOICE_OUTSIDE = "from olkit.broken.finite import ChoiceOutsideConsistent"  # predicts with row 0 of H

LAZY_GREEDY = '''
class LazyGreedy(olkit.adversaries.GreedyAdversary):
    """Broken: shows the first point on which V disagrees, not the best one."""
    def next_x(self, learner):
        for x in range(self.n_points):
            col = self.C.values(self.V, x)
            if 0 < col.sum() < len(self.V):
                return x
        return None
'''

CASES = [
    ("ch1/1_2_consistent_halving.ipynb", "finite", "Halving", MINORITY_HALVING, "MinorityHalving", "step 0'"),
    ("ch1/1_2_consistent_halving.ipynb", "finite", "Consistent", LAZY_CONSISTENT, "LazyConsistent", "step 0 ("),
    ("ch1/1_2_consistent_halving.ipynb", "finite", "Consistent", CHOICE_OUTSIDE, "ChoiceOutsideConsistent",
     "step 0''"),
    ("ch1/1_1_online_game.ipynb", "adversaries", "BisectionAdversary", LEFT_BISECTION, "LeftBisection", "step 2"),
    ("ch1/1_1_online_game.ipynb", "adversaries", "BisectionAdversary", AGREEING_BISECTION, "AgreeingBisection", "step 2'"),
    ("ch1/1_2_consistent_halving.ipynb", "adversaries", "GreedyAdversary", LAZY_GREEDY, "LazyGreedy", "step G1"),
]


@pytest.mark.parametrize("notebook, module, name, source, replacement, step", CASES, ids=[c[4] for c in CASES])
def test_chapter_checks_catch_broken_variant(notebook, module, name, source, replacement, step):
    ename, evalue = run_broken(notebook, patch_code(module, name, source, replacement))
    assert ename == "ProofStepError", f"the notebook did not fail on a proof check: {ename}: {evalue}"
    assert step in evalue, evalue
