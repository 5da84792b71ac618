"""Broken pieces of olkit.experts make Chapter 3's checks fail.

Each test executes a Chapter 3 notebook with one broken piece patched in (``tests/notebooks.py``) and asserts
that a proof check stops it, naming the step that caught the bug.
"""
import pytest

from notebooks import patch_code, run_broken


def broken(name: str) -> str:
    """A first cell's source that imports ``name`` from olkit.broken.experts."""
    return f"from olkit.broken.experts import {name}\n"


ETA_TWICE = """
from olkit.broken.experts import ScaledRateHedge
def EtaTwiceHedge(N, eta):
    return ScaledRateHedge(N, eta, factor=2)
"""

CASES = [
    ("ch3/3_2_exponential_weights.ipynb", "Hedge", broken("WrongNormHedge"), "WrongNormHedge", "step 0 "),
    ("ch3/3_2_exponential_weights.ipynb", "Hedge", ETA_TWICE, "EtaTwiceHedge", "step 0 "),
    ("ch3/3_1_weighted_majority.ipynb", "WeightedMajority", broken("EveryRoundWM"), "EveryRoundWM", "step 0 "),
    ("ch3/3_1_weighted_majority.ipynb", "WeightedMajority", broken("TieZeroWM"), "TieZeroWM", "step 0''"),
    ("ch3/3_1_weighted_majority.ipynb", "RandomizedWeightedMajority", broken("PunishWinnersRWM"), "PunishWinnersRWM",
     "step 0 "),
    ("ch3/3_1_weighted_majority.ipynb", "CoverAdversary", broken("AgreeingCover"), "AgreeingCover", "step 1 "),
    ("ch3/3_2_exponential_weights.ipynb", "Doubling", broken("NoResetDoubling"), "NoResetDoubling", "step 0''"),
    ("ch3/3_2_exponential_weights.ipynb", "hedge", broken("peeking_hedge"), "peeking_hedge", "step vec "),
    ("ch3/3_3_lower_bounds_minimax.ipynb", "TwoExpertMinimax", broken("UniformMinimax"), "UniformMinimax", "step p "),
    ("ch3/3_3_lower_bounds_minimax.ipynb", "soa_experts", broken("uml_tie_soa_experts"), "uml_tie_soa_experts", "step d "),
]


@pytest.mark.parametrize("notebook, name, source, replacement, step", CASES, ids=[c[3] for c in CASES])
def test_chapter_checks_catch_broken_variant(notebook, name, source, replacement, step):
    ename, evalue = run_broken(notebook, patch_code("experts", name, source, replacement))
    assert ename == "ProofStepError", f"the notebook did not fail on a proof check: {ename}: {evalue}"
    assert step in evalue, evalue
