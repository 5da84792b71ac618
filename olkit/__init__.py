"""olkit: the companion package of the executable textbook *Online Learning, Numerically*.

Public names used by the book's notebooks are importable from here; they are
kept stable once published.  A new public name is imported below, once: ``__all__`` is made from the
names imported here (tests/test_book.py checks that each has a docstring and an API entry).
"""
__version__ = "0.2.0"

from types import ModuleType as _ModuleType

from . import batch, claimtex, convex, cover, distributions, ellipsoid, ellipsoid_proof, estimates
from . import expert_game, fp, linear, minimax, oco, oco_proof, plots, soa, soa_experts, streams, winnow, work
from .adversaries import BisectionAdversary, GreedyAdversary, GridAdversary, TreeAdversary, grid_worst_case
from .adversaries import WinnowAdversary, winnow_worst_case, worst_case_mistakes
from .baselines import Constant, MidpointThreshold, RandomGuess
from .bounds import consistent_bound, halfspace_halving_bound, halving_bound
from .bounds import (
    hinge_losses,
    nonseparable_bounds,
    normalized_winnow_bound,
    perceptron_bound,
    winnow_disjunction_bound,
)
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
from .linear import (
    AveragedPerceptron,
    GaussianKernel,
    KernelPerceptron,
    LinearKernel,
    Perceptron,
    PolynomialKernel,
    VotedPerceptron,
)
from .finite import Consistent, Halving, ThresholdHalving
from .soa import SOA
from .littlestone import (
    LdimByDefinition,
    LdimSolver,
    is_shattered,
    is_shattered_set,
    ldim,
    ldim_at_least,
    ldim_brute,
    shattered_tree,
    vcdim,
)
from .game import NotRealizableError, Trace, play, run, to_01, to_pm1
from .game import UpdateTrace, run_stream
from .streams import (
    disjunction_stream,
    elimination_sequence,
    expert_stream,
    hadamard_stream,
    noisy_stream,
    orthonormal_stream,
    separable_stream,
    tie_threshold_stream,
)
from .winnow import (
    DisjunctionHalving,
    EliminationLearner,
    NormalizedWinnow,
    Winnow,
    relative_entropy,
)
from .proof import NegativeControl, Proof, ProofShapeError, ProofStepError, counterexample, negative_control
from .prose import glue
from . import experts
from .experts import (
    AdviceSequence,
    AnytimeHedge,
    CoverAdversary,
    Doubling,
    ExpertTrace,
    FollowTheLeader,
    Hedge,
    LossSequence,
    MinimaxLearner,
    RandomizedWeightedMajority,
    TwoExpertMinimax,
    WeightedMajority,
    hedge,
    noisy_experts,
    play_experts,
    run_experts,
    soa_experts,
    two_expert_losses,
)
# olkit.Doubling is Chapter 3's doubling trick for experts; Chapter 5's, for OGD, is olkit.oco.Doubling
from .convex import Ball, Box, Simplex
from .oco import EG, OGD, OCOTrace, best_fixed, fw_gap, regret
# Chapter 6: from online to batch (olkit.batch), the distributions of exact risk and the estimates
from .batch import (
    SeenSetPaths,
    average_iterate,
    hypothesis_path,
    last_iterate,
    loo_error,
    margin_2d,
    markov_sample_size,
    perceptron_to_convergence,
    random_iterate,
    validation_choice,
)
from .distributions import CircleDistribution, FiniteDistribution, all_samples, labelled_points
from .estimates import count_test, frequency_ci, mean_ci, monte_carlo

# The public names are the ones imported above, each listed once: every name bound here that is not
# private and not a module, and the two modules that the chapters use as namespaces.
__all__ = sorted(
    [_name for _name, _value in list(globals().items())
     if not _name.startswith("_") and not isinstance(_value, _ModuleType)]
    + ["batch", "experts"]
)
