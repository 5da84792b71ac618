"""Broken Ellipsoid learners make the checks of section 1.4 fail.

Each test executes chapters/ch1/1_4_ellipsoid.ipynb with a broken variant of
``olkit.ellipsoid.Ellipsoid`` patched in, and asserts that a proof check
(``olkit.proof.ProofStepError``) stops it -- naming the proof and the step that
caught the bug.
"""
import pytest

from notebooks import patch_code, run_broken

HALF_CUT = "from olkit.broken.finite import HalfCutEllipsoid"  # 1/(d+1) for 2/(d+1) in A's update

WRONG_SIGN = '''
import olkit.ellipsoid

class WrongSignEllipsoid(olkit.ellipsoid.Ellipsoid):
    """Broken: moves the centre away from the label's side (w - y/(d+1) ...)."""
    def cut(self, x, y):
        super().cut(x, -y)
'''

NO_SQRT = '''
import olkit.ellipsoid

class NoSqrtEllipsoid(olkit.ellipsoid.Ellipsoid):
    """Broken: divides A x by x'Ax instead of sqrt(x'Ax) in the update of w.

    Right whenever x'Ax = 1, as on the lecture's first cut; the volume lemma does not look at w.
    """
    def cut(self, x, y):
        d = self.d
        Ax = self.A @ x
        xAx = float(x @ Ax)
        self.w = self.w + (y / (d + 1)) * Ax / xAx
        self.A = (d * d / (d * d - 1.0)) * (self.A - (2.0 / ((d + 1.0) * xAx)) * np.outer(Ax, Ax))
'''

DEEP_CUT = "from olkit.broken.finite import DeepCutEllipsoid"  # the centre moves by 1/d

CASES = [
    (HALF_CUT, "HalfCutEllipsoid", "The first cut", "step A"),
    (DEEP_CUT, "DeepCutEllipsoid", "The first cut", "step w"),
    (WRONG_SIGN, "WrongSignEllipsoid", "The first cut", "step w"),
    (NO_SQRT, "NoSqrtEllipsoid", "John's certificate", "step J1"),
]


@pytest.mark.parametrize("source, replacement, proof, step", CASES, ids=[c[1] for c in CASES])
def test_ellipsoid_checks_catch_broken_variant(source, replacement, proof, step):
    patch = "import numpy as np\n" + patch_code("ellipsoid", "Ellipsoid", source, replacement)
    ename, evalue = run_broken("ch1/1_4_ellipsoid.ipynb", patch)
    assert ename == "ProofStepError", f"the notebook did not fail on a proof check: {ename}: {evalue}"
    assert evalue.startswith(proof) and step in evalue, evalue
