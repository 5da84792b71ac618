"""Broken versions of Appendix A's learner make the appendix's checks fail.

The learner of ``chapters/chA/A_1_checking_a_proof.ipynb``, ``FTRL``, is defined in the notebook (writing it
is part (a) of the method the appendix teaches), not in olkit, so a patch run before the notebook cannot
replace it as the other ``tests/test_broken_*.py`` replace an olkit name. Each test appends a broken subclass
to the notebook cell that defines ``class FTRL`` and rebinds the name ``FTRL`` to it, writes that notebook to
a temporary directory, runs it with ``run_broken`` (``tests/notebooks.py``) and asserts that a proof check
stops it, naming the step and where it fails.
"""
import nbformat
import pytest

from notebooks import CHAPTERS, run_broken

NOTEBOOK = CHAPTERS / "chA" / "A_1_checking_a_proof.ipynb"

GREEDY = '''
class BrokenFTRL(FTRL):
    """Broken: greedy, w_{t+1} = Proj_K(w_t - eta g_t) (projected OGD), while it records the lazy point."""

    def update(self, g):
        w = self.w
        super().update(g)
        self.w = self.K.project(w - self.eta * g)
'''

DOUBLE_RATE = '''
class BrokenFTRL(FTRL):
    """Broken: the rate 2 eta."""

    def __init__(self, K, eta):
        super().__init__(K, 2 * eta)
'''

LATE = '''
class BrokenFTRL(FTRL):
    """Broken: one round late, w_{t+1} = Proj_K(-eta G_{t-1})."""

    def update(self, g):
        y_before = -self.eta * self.G
        super().update(g)
        self.w = self.K.project(y_before)
'''

NO_PROJECTION = '''
class BrokenFTRL(FTRL):
    """Broken: the projection onto K is forgotten, w_{t+1} = -eta G_t."""

    def update(self, g):
        super().update(g)
        self.w = self.record["y"]
'''

LEADER_TIE = '''
class BrokenFTRL(FTRL):
    """Broken: Follow the Leader's tie: where G_t = 0 it plays a point of the boundary of K, not 0.
    The planar run never has G_t = 0; the runs against random signs often do."""

    def update(self, g):
        super().update(g)
        if not self.G.any():
            self.w = self.K.project(np.full(self.K.d, 10.0))
'''

MAIN = "Theorem (FTRL regret), eta = 1/4, T = 64, step 0"
CASES = [
    ("greedy", GREEDY, MAIN + " (w_{t+1} = Proj_K(-eta G_t) (closed form)) fails at row 6, column 1"),
    ("double_rate", DOUBLE_RATE, MAIN + " (the point projected in round t, y_{t+1} = -eta G_t) fails at row 1"),
    ("late", LATE, MAIN + " (w_{t+1} = Proj_K(-eta G_t) (closed form)) fails at row 1"),
    ("no_projection", NO_PROJECTION, MAIN + " (w_{t+1} = Proj_K(-eta G_t) (closed form)) fails at row 5"),
    ("leader_tie", LEADER_TIE,
     "Theorem (random signs), FTRL with eta = 1, T = 64, 1000 runs, step 0 (w_{t+1} = clip(-eta S_t, -1, 1)"),
]


def with_broken_ftrl(tmp_path, source):
    """The notebook with ``source`` (a class BrokenFTRL(FTRL)) appended to the cell that defines FTRL, and
    FTRL rebound to it, written to ``tmp_path``."""
    nb = nbformat.read(NOTEBOOK, as_version=4)
    (cell,) = [c for c in nb.cells if c.cell_type == "code" and c.source.startswith("class FTRL:")]
    cell.source += "\n\n" + source + "\n\nFTRL = BrokenFTRL\n"
    path = tmp_path / NOTEBOOK.name
    nbformat.write(nb, path)
    return path


@pytest.mark.parametrize("name, source, step", CASES, ids=[c[0] for c in CASES])
def test_appendix_checks_catch_broken_ftrl(tmp_path, name, source, step):
    ename, evalue = run_broken(with_broken_ftrl(tmp_path, source), "")
    assert ename == "ProofStepError", f"the notebook did not fail on a proof check: {ename}: {evalue}"
    assert step in evalue, evalue


def test_the_unbroken_notebook_runs_through(tmp_path):
    """The same runner on the notebook as it is (FTRL rebound to an unchanged subclass): no failure, so the
    failures above come from the broken learners."""
    ename, evalue = run_broken(with_broken_ftrl(tmp_path, "class BrokenFTRL(FTRL):\n    pass\n"), "")
    assert ename is None, f"{ename}: {evalue}"
