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


def test_update_trace_expands_to_the_round_by_round_trace():
    import olkit

    X = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0], [-1.0, 0.5]])
    y = np.array([1, 1, -1, -1])
    fast = olkit.run_stream(olkit.Perceptron(2), X, y)
    slow = olkit.run(olkit.Perceptron(2), list(X), y)
    assert isinstance(fast, olkit.UpdateTrace) and fast.T == 4
    assert fast.rounds.tolist() == [1, 3] and fast.U == 2 and fast.M == slow.M
    assert fast.updated.tolist() == [True, False, True, False]
    assert fast.updates_before(np.array([1, 2, 3, 4, 5])).tolist() == [0, 1, 1, 2, 2]
    assert np.array_equal(fast.state_at("w"), slow.state["w"][:-1])
    full = fast.to_trace()
    assert np.array_equal(full.state["w"], slow.state["w"]) and np.array_equal(full.yhat, slow.yhat)
    assert np.array_equal(full.mistake, fast.mistake)


def test_run_stream_falls_back_to_run():
    import olkit

    H = olkit.thresholds(10)
    tr = olkit.run_stream(olkit.Halving(H), np.arange(10), H[4])
    assert isinstance(tr, olkit.Trace) and tr.T == 10


def test_int_checks_refuse_floats_and_bools():
    from olkit.game import check_label01, check_point

    with pytest.raises(ValueError):
        check_point(1.0, 5, 1)
    with pytest.raises(ValueError):
        check_point(True, 5, 1)
    with pytest.raises(ValueError):
        check_label01(1.0, 1)
    assert check_point(np.int64(3), 5, 1) == 3


def test_a_learner_without_labels_plays_zero_one_labels():
    class Bare:
        def predict(self, x):
            return 1

        def update(self, x, y):
            pass

    tr = olkit.run(Bare(), [0, 1, 2], [1, 0, 1])
    assert tr.M == 1
    with pytest.raises(ValueError, match="label set"):
        olkit.run(Bare(), [0], [2])


def test_an_empty_game_has_an_empty_trace():
    tr = olkit.play(olkit.Constant(1), olkit.BisectionAdversary(), 0)
    assert tr.T == 0 and tr.x.shape == (0,) and tr.M == 0
    tr = olkit.run(olkit.Halving(olkit.thresholds(3)), [], [])
    assert tr.T == 0 and tr.x.shape == (0,) and tr.state["V_size"].tolist() == [4]


def test_check_stream_names_each_shape_mismatch():
    from olkit.game import check_stream

    X, y = np.zeros((4, 3)), np.array([1, -1, 1, 1])
    A, b = check_stream(X, y, 3)
    assert A is X and b.dtype == np.int64
    A, _ = check_stream(np.ones((4, 3), dtype=np.int64), y, 3)
    assert A.dtype == np.float64
    with pytest.raises(ValueError, match=r"shape \(T, d\) = \(T, 2\)"):
        check_stream(X, y, 2)
    with pytest.raises(ValueError, match=r"shape \(T, d\)"):
        check_stream(np.zeros(4), y, 1)
    with pytest.raises(ValueError, match=r"shape \(T,\) = \(4,\)"):
        check_stream(X, y[:3], 3)
    with pytest.raises(ValueError, match=r"shape \(T,\) = \(4,\)"):
        check_stream(X, y[None, :], 3)
    with pytest.raises(ValueError, match="at round 2"):
        check_stream(X, np.array([1, 0, 1, 1]), 3)


def test_row_norm_bound_bounds_every_row_norm():
    from olkit.game import row_norm_bound

    rng = np.random.default_rng(0)
    for scale in (1e-3, 1.0, 4.0, 1e3):
        X = scale * rng.standard_normal((50, 7))
        assert row_norm_bound(X) >= np.linalg.norm(X, axis=1).max()
    assert row_norm_bound(np.array([[3.0, 4.0]])) == pytest.approx(4 * np.sqrt(2))


def test_check_comparator_refuses_the_zero_vector():
    from olkit.game import check_comparator

    assert check_comparator([0.0, 2.0], 2).tolist() == [0.0, 2.0]
    for bad in ([0.0, 0.0], [-1.0, 2.0], [1.0], [np.nan, 1.0]):
        with pytest.raises(ValueError):
            check_comparator(bad, 2)


def test_look_ahead_names_the_round_of_a_non_finite_instance_after_an_update():
    """A non-finite instance after updates (and block restarts) is named by its round in the whole stream."""
    from olkit.linear import Perceptron

    X = np.tile([[1.0, 0.5], [-1.0, 0.25]], (100, 1))
    y = np.tile([1, -1], 100)
    X[149], y[149] = [1.0, 0.5], -1  # a mistake just before: the scan resumes mid-block, at row 150
    X[150] = [np.nan, 1.0]
    with pytest.raises(ValueError, match="round 151"):
        Perceptron(2).play_stream(X, y)


def test_look_ahead_blocks_grow_to_their_cap_and_the_run_is_unchanged(monkeypatch):
    """Blocks double up to LOOKAHEAD_BYTES of rows (here 128 rows of d = 16), as integers; the updates found
    are those of the round-by-round run."""
    import olkit.game as game
    from olkit.linear import Perceptron

    monkeypatch.setattr(game, "LOOKAHEAD_BYTES", 128 * 16 * 8)
    rng = np.random.default_rng(4)
    X = rng.standard_normal((40000, 16))
    y = np.where(X[:, 0] > 0, 1, -1)
    X[:, 0] += 0.5 * y  # margin 0.5 along the first axis
    fast = Perceptron(16).play_stream(X, y)
    slow = olkit.run(Perceptron(16), X, y)
    assert fast.rounds.tolist() == (np.flatnonzero(np.diff(slow.state["updates"]) > 0) + 1).tolist()
