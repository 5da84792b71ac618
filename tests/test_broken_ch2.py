"""Broken pieces of olkit.littlestone and the tree environment make Chapter 2's checks fail.

Each test executes a Chapter 2 notebook with one broken piece patched in (``tests/notebooks.py``)
and asserts that a proof check stops it, naming the step that caught the bug.
"""
import pytest

from notebooks import patch_code, run_broken

TIE_ZERO_SOA = '''
class TieZeroSOA(olkit.littlestone.SOA):
    """Broken: breaks ties towards 0, whatever the tie parameter says (UML's SOA predicts 1)."""
    def predict(self, x):
        yhat = super().predict(x)
        return 0 if self.details["ldim0"] == self.details["ldim1"] else yhat
'''

MAJORITY_SOA = '''
class MajoritySOA(olkit.littlestone.SOA):
    """Broken: predicts the label of the larger part of V_t (Halving's rule), not of the part with larger Ldim."""
    def predict(self, x):
        super().predict(x)  # keeps the recorded Ldim of both parts
        ones = (self.V & self._cols[int(x)]).bit_count()
        zeros = self.V.bit_count() - ones
        return 1 if ones > zeros else 0 if zeros > ones else self.tie
'''

LOG2_SOA = '''
class Log2SOA(olkit.littlestone.SOA):
    """Broken: floor(log2 |V|) (an upper bound on Ldim) in place of Ldim, in its decisions and in its record."""
    @staticmethod
    def _L(V):
        return V.bit_count().bit_length() - 1 if V else -1
    def predict(self, x):
        x = self._x(x)
        V1 = self.V & self._cols[x]
        l0, l1 = self._L(self.V & ~V1), self._L(V1)
        self.details = {"ldim0": l0, "ldim1": l1}
        return 1 if l1 > l0 else 0 if l0 > l1 else self.tie
    def state(self):
        return {"ldim": self._L(self.V), "V_size": self.V.bit_count()}
'''

WRONG_CHILD_TREE_ADVERSARY = '''
class WrongChildTreeAdversary(olkit.adversaries.TreeAdversary):
    """Broken: moves to the child of the other label (the convention of UML's prose), i_{t+1} = 2 i_t + 1 - y_t."""
    def label(self, x, yhat):
        y = super().label(x, yhat)
        self.i += 1 - 2 * y
        return y
'''

AGREEING_TREE_ADVERSARY = '''
class AgreeingTreeAdversary(olkit.adversaries.TreeAdversary):
    """Broken: confirms the prediction instead of contradicting it."""
    def label(self, x, yhat):
        super().label(x, 1 - int(yhat))
        self.path[-1] = (int(x), int(yhat))
        return int(yhat)
'''

MIRRORED_TREE = '''
import numpy as np
_shattered_tree = olkit.littlestone.shattered_tree
def mirrored_tree(H):
    """Broken: swaps left and right at every node of the witness tree."""
    t = _shattered_tree(H)
    d = int(np.log2(len(t) + 1))
    return np.concatenate([t[2**k - 1: 2 ** (k + 1) - 1][::-1] for k in range(d)]) if d else t
'''

SHALLOW_TREE = '''
import numpy as np
_shattered_tree = olkit.littlestone.shattered_tree
def shallow_tree(H):
    """Broken: returns a shattered tree one level short of Ldim(H)."""
    t = _shattered_tree(H)
    d = int(np.log2(len(t) + 1))
    return t[: 2 ** max(d - 1, 0) - 1]
'''

LDIM_FORGETS_A_POINT = '''
import numpy as np
_ldim = olkit.littlestone.ldim
def ldim_forgets_a_point(H):
    """Broken: the solver ignores the last point of the domain."""
    H = np.asarray(H)
    return _ldim(H[:, :-1]) if H.shape[1] > 1 else _ldim(H)
'''

CASES = [
    ("ch2/2_2_soa.ipynb", "littlestone", "SOA", TIE_ZERO_SOA, "TieZeroSOA", "step A"),
    # UML Lemma 21.7's check recomputes every Ldim by the definition; the log2 SOA predicts like SOA on the
    # rule check's runs, and the lemma's step 0 stops it
    ("ch2/2_2_soa.ipynb", "littlestone", "SOA", LOG2_SOA, "Log2SOA", "Lemma 21.7 on 15 random realizable sequences, step 0"),
    ("ch2/2_2_soa.ipynb", "littlestone", "SOA", MAJORITY_SOA, "MajoritySOA", "step A"),
    ("ch2/2_1_littlestone_dimension.ipynb", "adversaries", "TreeAdversary", WRONG_CHILD_TREE_ADVERSARY,
     "WrongChildTreeAdversary", "step 2"),
    ("ch2/2_1_littlestone_dimension.ipynb", "adversaries", "TreeAdversary", AGREEING_TREE_ADVERSARY,
     "AgreeingTreeAdversary", "step 1"),
    ("ch2/2_1_littlestone_dimension.ipynb", "littlestone", "shattered_tree", MIRRORED_TREE, "mirrored_tree", "step 1"),
    ("ch2/2_1_littlestone_dimension.ipynb", "littlestone", "shattered_tree", SHALLOW_TREE, "shallow_tree", "step W"),
    ("ch2/2_1_littlestone_dimension.ipynb", "littlestone", "ldim", LDIM_FORGETS_A_POINT, "ldim_forgets_a_point",
     "step D21.5"),
]


@pytest.mark.parametrize("notebook, module, name, source, replacement, step", CASES, ids=[c[4] for c in CASES])
def test_chapter_checks_catch_broken_variant(notebook, module, name, source, replacement, step):
    ename, evalue = run_broken(notebook, patch_code(module, name, source, replacement))
    assert ename == "ProofStepError", f"the notebook did not fail on a proof check: {ename}: {evalue}"
    assert step in evalue, evalue

