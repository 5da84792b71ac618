"""Broken learners make the checks of section 1.3 fail.

Each test executes the notebook with one broken piece of olkit patched in and asserts that a proof
check stops it, naming the step that caught the bug.
"""
import pytest

from notebooks import patch_code, run_broken, stopped_by_recomputation

NOTEBOOK = "ch1/1_3_efficient_halving.ipynb"

# the broken threshold Halvings of the book's negative controls (olkit.broken.finite)
OFF_BY_ONE = "from olkit.broken.finite import OffByOneThresholdHalving"
TIE_ZERO = "from olkit.broken.finite import TieZeroThresholdHalving"

UNLABELLED_PERCEPTRON = '''
import olkit.linear
class UnlabelledPerceptron(olkit.linear.Perceptron):
    """Broken: w += x on an update, forgetting the label."""
    def update(self, x, y):
        x, y = self._x(x), self._y(y)
        if y * float(self.w @ x) <= 0:
            self.w = self.w + x
            self.updates += 1
        self.t += 1
'''

FLIPPED_PERCEPTRON = '''
import olkit.linear
class FlippedPerceptron(olkit.linear.Perceptron):
    """Broken: w -= y x on an update."""
    def update(self, x, y):
        x, y = self._x(x), self._y(y)
        if y * float(self.w @ x) <= 0:
            self.w = self.w - y * x
            self.updates += 1
        self.t += 1
'''

LOOPING = '''
class LoopingThresholdHalving(olkit.finite.ThresholdHalving):
    """Broken: counts the votes with a loop over the interval [lo, hi] -- the same predictions, O(n) work."""
    def predict(self, x):
        x = self._x(x)
        size = self.hi - self.lo + 1
        ones = sum(1 for k in range(self.lo, self.hi + 1) if k <= x)
        zeros = size - ones
        self.details = {"ones": ones, "size": size}
        return 1 if ones > zeros else 0 if zeros > ones else self.tie
'''

CASES = [
    ("finite", "ThresholdHalving", OFF_BY_ONE, "OffByOneThresholdHalving", "step 2b"),
    ("finite", "ThresholdHalving", TIE_ZERO, "TieZeroThresholdHalving", "step 4"),
    ("finite", "ThresholdHalving", LOOPING, "LoopingThresholdHalving", "step 7, n=1000"),
    ("linear", "Perceptron", UNLABELLED_PERCEPTRON, "UnlabelledPerceptron", "step 5 ("),
    ("linear", "Perceptron", FLIPPED_PERCEPTRON, "FlippedPerceptron", "step 5a"),
]


#: Variants that a cell recomputing the learner (or the run) by its definition, without olkit, stops
#: before the proof's step named in the case is reached (those cells came with mutation testing,
#: benchmarks/mutants_chN.md). The first line of that cell:
RECOMPUTED = {
    'UnlabelledPerceptron': '# the sequences and classes of the table above, recomputed from their definitions:',
    'FlippedPerceptron': '# the sequences and classes of the table above, recomputed from their definitions:',
}


@pytest.mark.parametrize("module, name, source, replacement, step", CASES, ids=[c[3] for c in CASES])
def test_section_1_3_checks_catch_broken_variant(module, name, source, replacement, step):
    ename, evalue = run_broken(NOTEBOOK, patch_code(module, name, source, replacement))
    if replacement in RECOMPUTED:
        assert stopped_by_recomputation(ename, evalue, RECOMPUTED[replacement]), f"{ename}: {evalue}"
        return
    assert ename == "ProofStepError", f"the notebook did not fail on a proof check: {ename}: {evalue}"
    assert step in evalue, evalue
