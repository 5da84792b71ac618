"""The broken variants of Chapter 1 (olkit.broken.finite) fail the chapter's check functions.

The notebooks show one negative control per theorem; these tests run each variant (and the wrong
constants) through the same check functions on small instances, and also check that the correct
learner passes them, so that the failure is the variant's.
"""
import math

import numpy as np
import pytest

import olkit
from olkit.broken import finite as broken
from olkit.adversaries import GridAdversary
from olkit.ellipsoid import Ellipsoid
from olkit.ellipsoid_proof import ball_proof, theorem_proof


def _sequence(H, T, seed):
    rng = np.random.default_rng(seed)
    target = int(rng.integers(H.shape[0]))
    xs = rng.integers(0, H.shape[1], size=T)
    return xs, H[target, xs].astype(int)


def _failing(run):
    with olkit.negative_control("variant") as ctl:
        run()
    return {f.step for f in ctl.caught}


@pytest.mark.parametrize("update", ("version_space", "remove_chosen"))
def test_consistent_choosing_outside_the_version_space_fails_step_0pp(update):
    H = olkit.random_class(200, 40, np.random.default_rng(12))
    xs, ys = _sequence(H, 300, 5)
    olkit.finite.consistent_proof(olkit.run(olkit.Consistent(H, update=update), xs, ys), H, "ok", update)
    tr = olkit.run(broken.ChoiceOutsideConsistent(H, update=update), xs, ys)
    failed = _failing(lambda: olkit.finite.consistent_proof(tr, H, "broken", update))
    assert {"0''", "1"} <= failed and "0" not in failed


def test_remove_chosen_counts_a_removed_row_once():
    H = olkit.singletons(4)
    tr = olkit.run(broken.ChoiceOutsideConsistent(H, update="remove_chosen"), [0, 0], [0, 0])
    assert list(olkit.finite.consistent_sizes(H, tr, "remove_chosen")) == [4, 3, 3]


def test_halving_over_h_fails_the_majority_step_and_step_2():
    H = olkit.random_class(4096, 64, np.random.default_rng(12))
    xs, ys = _sequence(H, 200, 6)
    tr = olkit.run(broken.MajorityOverH(H), xs, ys)
    assert {"0'", "2"} <= _failing(lambda: olkit.finite.halving_proof(tr, H, "broken"))


@pytest.mark.parametrize("variant", (broken.TieZeroThresholdHalving, broken.OffByOneThresholdHalving))
def test_threshold_halving_variants_differ_from_halving(variant):
    n = 1023
    H = olkit.thresholds(n)
    xs, ys = np.array([511]), np.array([0])  # a tie (1024 thresholds), labelled 0
    good = olkit.run(olkit.Halving(H), xs, ys)
    bad = olkit.run(variant(n), xs, ys)
    assert (bad.yhat != good.yhat).any() or (bad.state["V_size"] != good.state["V_size"]).any()


def test_agreeing_bisection_confirms_every_prediction():
    tr = olkit.play(olkit.MidpointThreshold(), broken.AgreeingBisection(), 10)
    assert tr.M == 0


def _grid_runs(make):
    runs = []
    for dd, nn in ((2, 3), (3, 2)):
        env = GridAdversary(nn, dd, "shallow")
        tr = olkit.play(Ellipsoid(dd), env, 100)
        runs.append((f"d={dd}", olkit.run(make(dd), tr.x, tr.y), env.witness(), nn))
    return runs


def test_the_correct_ellipsoid_passes_the_ball_and_theorem_checks():
    runs = _grid_runs(Ellipsoid)
    ball_proof(runs, "ok")
    theorem_proof(runs, "ok")


def test_deep_cut_fails_step_6_and_no_inflation_fails_step_1():
    assert "6" in _failing(lambda: ball_proof(_grid_runs(broken.DeepCutEllipsoid), "deep"))
    assert "1" in _failing(lambda: theorem_proof(_grid_runs(broken.NoInflationEllipsoid), "flat"))


def test_half_cut_shrinks_the_volume_by_the_wrong_factor():
    tr = olkit.run(broken.HalfCutEllipsoid(2), [np.array([1.0, 0.0])], [1])
    ratio = math.exp((tr.state["logdet"][1] - tr.state["logdet"][0]) / 2)
    assert abs(ratio - olkit.ellipsoid.volume_ratio(2)) > 0.01


def test_strict_perceptron_never_updates_from_zero():
    tr = olkit.run(broken.StrictPerceptron(2), [np.array([0.5, 0.5])] * 3, [1, 1, 1])
    assert tr.state["updates"][-1] == 0 and tr.M == 3


def test_wrong_constants_are_below_the_right_ones():
    assert broken.halfspace_bound_without_zero(3, 3) < olkit.halfspace_halving_bound(3, 3)
    assert broken.coarse_cover_step(2, 0.5) == 2 * 0.5 / (2 * math.sqrt(2))


def test_eager_ellipsoid_fails_the_update_condition():
    runs = _grid_runs(broken.EagerEllipsoid)
    tr = olkit.run(broken.EagerEllipsoid(2), [np.array([1.0, 0.0]), np.array([1.0, 0.0])], [1, 1])
    assert tr.state["updates"][-1] == 2  # round 2 is right (<w_2, x> = 1/3 > 0) and still cuts
    assert "5" in _failing(lambda: ball_proof([("eager", tr, np.array([1.0, 0.0]), 1)], "eager"))
    ball_proof(runs, "greedy runs: every round is a mistake, so eager and lazy cuts agree")
