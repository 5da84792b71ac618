import numpy as np
import pytest

import olkit


def test_run_records_state_before_and_after_each_round():
    H = olkit.thresholds(6)
    xs = [3, 1, 5]
    tr = olkit.run(olkit.Halving(H), xs, H[2, xs])
    assert tr.T == 3 and len(tr.state["V_size"]) == 4 and len(tr.details["ones"]) == 3
    assert tr.state["V_size"][0] == 7
    assert tr.cum_mistakes[-1] == tr.M == tr.mistake.sum()
    assert tr.rounds.tolist() == [1, 2, 3]


def test_run_rejects_length_mismatch_and_bad_labels():
    H = olkit.thresholds(4)
    with pytest.raises(ValueError, match="same length"):
        olkit.run(olkit.Halving(H), [0, 1], [1])
    with pytest.raises(ValueError, match="round 2: label y = 2"):
        olkit.run(olkit.Halving(H), [0, 1], [0, 2])
    with pytest.raises(ValueError, match="label set"):
        olkit.run(olkit.Halving(H), [0], [-1])


def test_label_conversions():
    assert olkit.to_pm1([0, 1, 1]).tolist() == [-1, 1, 1]
    assert olkit.to_01([-1, 1]).tolist() == [0, 1]
    with pytest.raises(ValueError):
        olkit.to_pm1([2])
    with pytest.raises(ValueError):
        olkit.to_01([0])


def test_play_stops_when_adversary_returns_none():
    S = olkit.singletons(5)
    tr = olkit.play(olkit.Consistent(S), olkit.GreedyAdversary(S), 100)
    assert tr.T == 4 and tr.M == 4
    with pytest.raises(ValueError, match="T must be"):
        olkit.play(olkit.Consistent(S), olkit.GreedyAdversary(S), -1)


def test_worst_case_mistakes_known_values():
    for k in range(1, 4):
        assert olkit.worst_case_mistakes(olkit.all_functions(k), olkit.Halving) == k
    assert olkit.worst_case_mistakes(olkit.singletons(6), olkit.Consistent) == 5
    assert olkit.worst_case_mistakes(olkit.singletons(6), olkit.Halving) == 1
    assert olkit.worst_case_mistakes(olkit.thresholds(7), olkit.Halving) == 3
    with pytest.raises(ValueError, match="max_size"):
        olkit.worst_case_mistakes(olkit.thresholds(40), olkit.Halving)


def test_worst_case_is_infinite_for_an_inconsistent_learner():
    # always predicting 1 errs forever on a point that every hypothesis labels 0
    H = np.array([[0, 0], [0, 1]])
    assert olkit.worst_case_mistakes(H, lambda H: olkit.Constant(1)) == float("inf")
