"""olkit: the companion package of the executable textbook *Online Learning, Numerically*.

Public names used by the book's notebooks are importable from here; they are
kept stable once published.
"""
__version__ = "0.1.0"

from . import cover, ellipsoid, linear, plots
from .adversaries import BisectionAdversary, GreedyAdversary, TreeAdversary
from .baselines import Constant, MidpointThreshold, RandomGuess
from .bounds import consistent_bound, halfspace_halving_bound, halving_bound
from .classes import (
    ImplicitThresholds,
    all_functions,
    check_class,
    halfspace_grid,
    halfspaces_on_grid,
    programs,
    random_class,
    singletons,
    thresholds,
)
from .ellipsoid import Ellipsoid, ellipsoid_bound, ellipsoid_bound_lecture, volume_ratio
from .cover import covering_radius, linear_class, margin_sequence, sphere_cover
from .linear import Perceptron
from .finite import Consistent, Halving, ThresholdHalving
from .littlestone import SOA, LdimSolver, is_shattered, is_shattered_set, ldim, ldim_at_least, shattered_tree, vcdim
from .game import NotRealizableError, Trace, play, run, to_01, to_pm1, worst_case_mistakes
from .proof import Proof, ProofStepError, counterexample

__all__ = [
    "BisectionAdversary",
    "Consistent",
    "Constant",
    "GreedyAdversary",
    "LdimSolver",
    "SOA",
    "TreeAdversary",
    "is_shattered",
    "is_shattered_set",
    "ldim",
    "ldim_at_least",
    "shattered_tree",
    "vcdim",
    "Ellipsoid",
    "Halving",
    "ImplicitThresholds",
    "MidpointThreshold",
    "NotRealizableError",
    "Perceptron",
    "Proof",
    "ProofStepError",
    "RandomGuess",
    "ThresholdHalving",
    "Trace",
    "all_functions",
    "check_class",
    "consistent_bound",
    "counterexample",
    "covering_radius",
    "ellipsoid_bound",
    "ellipsoid_bound_lecture",
    "halfspace_grid",
    "halfspace_halving_bound",
    "halfspaces_on_grid",
    "halving_bound",
    "linear_class",
    "margin_sequence",
    "play",
    "programs",
    "random_class",
    "run",
    "singletons",
    "sphere_cover",
    "thresholds",
    "to_01",
    "to_pm1",
    "volume_ratio",
    "worst_case_mistakes",
]
