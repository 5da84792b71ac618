import numpy as np
import pytest

import olkit


@pytest.mark.parametrize("learner", [olkit.MidpointThreshold(), olkit.Constant(0), olkit.Constant(1),
                                     olkit.RandomGuess(np.random.default_rng(0))])
def test_bisection_forces_a_mistake_every_round_and_stays_realizable(learner):
    adv = olkit.BisectionAdversary()
    tr = olkit.play(learner, adv, 45)
    assert tr.M == 45
    theta = adv.witness()
    assert np.array_equal((tr.x >= theta).astype(int), tr.y)


def test_bisection_refuses_to_exceed_float_precision():
    adv = olkit.BisectionAdversary()
    with pytest.raises(ValueError, match="precision"):
        olkit.play(olkit.Constant(1), adv, 60)


@pytest.mark.parametrize("n", [1, 2, 6, 7, 20, 33])
def test_greedy_pushes_halving_to_floor_log2(n):
    H = olkit.thresholds(n)
    adv = olkit.GreedyAdversary(H)
    tr = olkit.play(olkit.Halving(H), adv, 1000)
    assert tr.M == int(np.floor(np.log2(n + 1)))
    assert np.array_equal(H[adv.witness(), tr.x], tr.y)


def test_greedy_forces_consistent_to_h_minus_one_on_singletons():
    S = olkit.singletons(10)
    tr = olkit.play(olkit.Consistent(S), olkit.GreedyAdversary(S), 100)
    assert tr.M == 9 and tr.mistake.all()


def test_baselines_validate():
    with pytest.raises(ValueError):
        olkit.Constant(2)
    with pytest.raises(ValueError):
        olkit.RandomGuess(0)


def test_bisection_plays_exactly_its_limit_of_50_rounds():
    tr = olkit.play(olkit.Constant(1), olkit.BisectionAdversary(), 50)
    assert tr.T == 50 and tr.M == 50
    with pytest.raises(ValueError, match="more than 50 rounds"):
        olkit.play(olkit.Constant(1), olkit.BisectionAdversary(), 51)


def test_grid_adversary_size_limit_is_on_the_grid_size():
    from olkit.adversaries import GridAdversary

    assert len(GridAdversary(8, 3).K) == 17**3 - 1  # 4913 points: under the limit of 5000
    with pytest.raises(ValueError, match="too many"):
        GridAdversary(35, 2)  # 71^2 = 5041 points


def test_grid_worst_case_node_budget_is_exact():
    from olkit.adversaries import grid_worst_case

    assert grid_worst_case(1, 2, max_nodes=81) == 2  # the complete tree has 81 nodes
    with pytest.raises(ValueError, match="max_nodes"):
        grid_worst_case(1, 2, max_nodes=80)


@pytest.mark.parametrize("d, k", [(4, 0), (0, 1), (3, 4), (9, 2)])
def test_winnow_worst_case_needs_1_le_k_le_d_le_8(d, k):
    from olkit.adversaries import winnow_worst_case

    with pytest.raises(ValueError):
        winnow_worst_case(d, k)
