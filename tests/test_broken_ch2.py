"""Broken pieces of olkit.littlestone and the tree environment make Chapter 2's checks fail.

Each notebook test executes a Chapter 2 notebook with one broken piece patched in
(``tests/notebooks.py``; most pieces come from :mod:`olkit.broken.littlestone`) and asserts that a
proof check stops it, naming the step that caught the bug.  The function-level tests run the book's
check functions on the broken variants directly, inside :func:`olkit.negative_control`.
"""
import numpy as np
import pytest

import olkit
from olkit.broken import littlestone as broken
from notebooks import patch_code, run_broken

def _broken(name: str) -> str:
    """Source of a first cell that takes the variant ``name`` from olkit.broken.littlestone."""
    return f"from olkit.broken.littlestone import {name}\n"


TIE_ZERO_SOA, MAJORITY_SOA, LOG2_SOA = _broken("TieZeroSOA"), _broken("MajoritySOA"), _broken("Log2SOA")
WRONG_CHILD_TREE_ADVERSARY = _broken("WrongChildTreeAdversary")
AGREEING_TREE_ADVERSARY = _broken("AgreeingTreeAdversary")

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
    # the rule check recomputes every Ldim by the definition; the log2 SOA predicts like SOA on the rule
    # check's runs, and the Ldims it records (step 0 of that check) stop it
    ("ch2/2_2_soa.ipynb", "littlestone", "SOA", LOG2_SOA, "Log2SOA", "(6 runs of 30 rounds), step 0"),
    ("ch2/2_2_soa.ipynb", "littlestone", "SOA", MAJORITY_SOA, "MajoritySOA", "step A"),
    ("ch2/2_1_littlestone_dimension.ipynb", "adversaries", "TreeAdversary", WRONG_CHILD_TREE_ADVERSARY,
     "WrongChildTreeAdversary", "step 2"),
    ("ch2/2_1_littlestone_dimension.ipynb", "adversaries", "TreeAdversary", AGREEING_TREE_ADVERSARY,
     "AgreeingTreeAdversary", "step 1"),
    # the recursion lemma checks the solver's trees (LdimSolver.tree); the witness tree that olkit.shattered_tree
    # hands to the tree environment is checked by Lemma 21.6's steps
    ("ch2/2_1_littlestone_dimension.ipynb", "littlestone", "shattered_tree", MIRRORED_TREE, "mirrored_tree",
     "Lemma 21.6: the tree environment against 4 learners on 5 classes, step 3"),
    ("ch2/2_1_littlestone_dimension.ipynb", "littlestone", "shattered_tree", SHALLOW_TREE, "shallow_tree",
     "Lemma 21.6: the tree environment against 4 learners on 5 classes, step 4"),
    ("ch2/2_1_littlestone_dimension.ipynb", "littlestone", "ldim", LDIM_FORGETS_A_POINT, "ldim_forgets_a_point",
     "step D21.5"),
]


@pytest.mark.parametrize("notebook, module, name, source, replacement, step", CASES, ids=[c[4] for c in CASES])
def test_chapter_checks_catch_broken_variant(notebook, module, name, source, replacement, step):
    ename, evalue = run_broken(notebook, patch_code(module, name, source, replacement))
    assert ename == "ProofStepError", f"the notebook did not fail on a proof check: {ename}: {evalue}"
    assert step in evalue, evalue



#: The class of Section 2.2 on which Halving is not optimal, and Halving's worst sequence on it: in
#: round 1 both parts have 4 hypotheses, but the part of label 0 has the larger Ldim.
HALVING_LOSES = np.array([[0, 1, 0, 0], [1, 0, 0, 1], [0, 0, 0, 0], [1, 1, 1, 0],
                          [0, 0, 0, 1], [1, 1, 0, 0], [0, 0, 1, 1], [0, 1, 0, 1]], dtype=np.uint8)


@pytest.mark.parametrize(
    "variant, step",
    [(broken.MinLdimSOA, "4"), (broken.MajoritySOA, "4"), (broken.Log2SOA, "0")],
    ids=["MinLdimSOA", "MajoritySOA", "Log2SOA"],
)
def test_check_soa_catches_broken_soa(variant, step):
    H = olkit.random_class(500, 40, np.random.default_rng(1), p=0.15)  # Ldim well below log2 |H|
    runs = {"greedy": (olkit.play(variant(H), olkit.GreedyAdversary(H), 100), H),
            "Halving's worst sequence": (olkit.run(variant(HALVING_LOSES), [3, 0, 1], [0, 0, 0]),
                                         HALVING_LOSES)}
    with olkit.negative_control(variant.__name__, expect=step) as ctl:
        olkit.soa.check_soa(runs, "Lemma 21.7")
    assert step in {f.step for f in ctl.caught}


def test_broken_soa_variants_decide_wrongly():
    rng = np.random.default_rng(2)
    H = olkit.thresholds(15)
    xs, ys = olkit.soa.random_realizable(H, 40, rng)
    _, _, rule = olkit.soa.soa_rule(H, xs, ys)
    for variant in (broken.TieZeroSOA, broken.MinLdimSOA):
        assert not np.array_equal(olkit.run(variant(H), xs, ys).yhat, rule), variant.__name__
    assert np.array_equal(olkit.run(olkit.SOA(H), xs, ys).yhat, rule)


def test_broken_solvers_and_vc_search_are_wrong():
    T7 = olkit.thresholds(7)
    assert broken.MaxRecursionSolver(T7).ldim() == 7 != olkit.ldim(T7)
    assert not olkit.is_shattered(broken.MaxRecursionSolver(T7).tree(), T7)
    assert broken.OneTooDeepSolver(T7).ldim() == olkit.ldim(T7) + 1
    assert not olkit.is_shattered(broken.OneTooDeepSolver(T7).tree(), T7)
    d, S = broken.vcdim_one_too_many(T7, return_set=True)
    assert d == 2 and not olkit.is_shattered_set(S, T7)


@pytest.mark.parametrize("variant", [broken.WrongChildTreeAdversary, broken.AgreeingTreeAdversary])
def test_broken_tree_environments_break_the_game(variant):
    H = olkit.thresholds(15)
    tree = olkit.shattered_tree(H)
    tr = olkit.play(olkit.RandomGuess(np.random.default_rng(0)), variant(tree, H), 10)
    i_t = olkit.soa.tree_nodes(tr.y)[:-1]
    wrong_walk = (tr.x != tree[i_t - 1]).any()
    assert wrong_walk or not tr.mistake.all()
