"""Consistent, Halving and ThresholdHalving (olkit/finite.py): definitions, bounds, equalities, bad input."""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import olkit
from olkit.finite import Consistent, Halving, ThresholdHalving

CHOICES = ("first", "last", "random")
UPDATES = ("version_space", "remove_chosen")


def version_space(H, xs, ys):
    """Brute force: indices of the rows of H that agree with (xs, ys)."""
    H = np.asarray(H)
    if len(xs) == 0:
        return np.arange(H.shape[0])
    return np.flatnonzero((H[:, np.asarray(xs)] == np.asarray(ys)).all(axis=1))


def make_consistent(H, choice, update, seed=0):
    return Consistent(H, choice=choice, update=update, rng=np.random.default_rng(seed))


# -- strategies ---------------------------------------------------------------------------------------

@st.composite
def realizable(draw, max_rows=12, max_points=8, max_T=30):
    """A random 0/1 class (rows may repeat), a target row and a sequence labelled by it."""
    rows = draw(st.integers(1, max_rows))
    points = draw(st.integers(1, max_points))
    bits = draw(st.lists(st.integers(0, 1), min_size=rows * points, max_size=rows * points))
    H = np.array(bits, dtype=np.uint8).reshape(rows, points)
    target = draw(st.integers(0, rows - 1))
    xs = draw(st.lists(st.integers(0, points - 1), max_size=max_T))
    return H, target, np.array(xs, dtype=np.int64), H[target, xs].astype(np.int64)


@st.composite
def threshold_sequence(draw, max_n=40, max_T=40):
    """Thresholds on n points, a target k in 0..n and a labelled sequence; half of the draws are
    bisection sequences that show the tie point of the consistent interval whenever it has one."""
    n = draw(st.integers(1, max_n))
    target = draw(st.integers(0, n))
    if draw(st.booleans()):
        xs = draw(st.lists(st.integers(0, n - 1), max_size=max_T))
    else:
        lo, hi, xs = 0, n, []
        while hi > lo:
            s = hi - lo + 1
            x = lo + s // 2 - 1 if s % 2 == 0 else lo + draw(st.integers(0, s - 2))
            xs.append(x)
            lo, hi = (lo, min(hi, x)) if x >= target else (max(lo, x + 1), hi)
    xs = np.array(xs, dtype=np.int64)
    return n, target, xs, (xs >= target).astype(np.int64)


# -- Consistent -----------------------------------------------------------------------------------

@settings(max_examples=150, deadline=None)
@given(realizable(), st.sampled_from(CHOICES), st.sampled_from(UPDATES), st.integers(0, 2**16))
def test_consistent_bound_and_telescoping(case, choice, update, seed):
    H, target, xs, ys = case
    tr = olkit.run(make_consistent(H, choice, update, seed), xs, ys)
    V, m = tr.state["V_size"], tr.mistake.astype(int)
    assert tr.M <= len(H) - 1 == olkit.consistent_bound(len(H))
    if update == "remove_chosen":
        assert np.array_equal(V[1:], V[:-1] - m)  # Telgarsky: |V_{t+1}| = |V_t| - 1[mistake]
    else:
        assert np.all(V[1:] <= V[:-1] - m)
        # the version-space variant keeps exactly the brute-force version space
        for t in range(len(xs) + 1):
            assert V[t] == len(version_space(H, xs[:t], ys[:t]))
    assert V.min() >= 1


@settings(max_examples=100, deadline=None)
@given(realizable(), st.sampled_from(UPDATES))
def test_consistent_predicts_with_a_member_of_v(case, update):
    H, target, xs, ys = case
    for choice in ("first", "last"):
        learner = make_consistent(H, choice, update)
        for x, y in zip(xs, ys):
            V = learner.V.copy()
            yhat = learner.predict(int(x))
            h = learner.details["chosen"]
            assert h == (V[0] if choice == "first" else V[-1])
            assert yhat == H[h, x]
            learner.update(int(x), int(y))


def test_consistent_random_choice_is_drawn_once_per_round_and_seeded():
    H = olkit.random_class(50, 10, np.random.default_rng(0))
    xs = np.random.default_rng(1).integers(0, 10, 40)
    ys = H[7, xs]
    a = olkit.run(make_consistent(H, "random", "version_space", 3), xs, ys)
    b = olkit.run(make_consistent(H, "random", "version_space", 3), xs, ys)
    assert np.array_equal(a.details["chosen"], b.details["chosen"]) and np.array_equal(a.yhat, b.yhat)
    learner = make_consistent(H, "random", "version_space", 5)
    first = learner.predict(0)
    h = learner.details["chosen"]
    for _ in range(5):
        assert learner.predict(0) == first and learner.details["chosen"] == h


def test_consistent_remove_chosen_removes_only_the_erring_hypothesis():
    S = olkit.singletons(6)
    learner = Consistent(S, update="remove_chosen")
    assert learner.predict(0) == 1  # h_0 is chosen and says 1 on x = 0
    learner.update(0, 0)
    assert learner.V.tolist() == [1, 2, 3, 4, 5]
    assert learner.predict(3) == 0  # h_1 says 0 on x = 3: correct, nothing removed
    learner.update(3, 0)
    assert learner.V.tolist() == [1, 2, 3, 4, 5]


def test_consistent_attains_h_minus_one_on_singletons():
    d = 8
    xs = np.arange(d - 1)
    for update in UPDATES:
        tr = olkit.run(Consistent(olkit.singletons(d), update=update), xs, np.zeros(d - 1, dtype=int))
        assert tr.M == d - 1 and tr.mistake.all()


# -- Halving --------------------------------------------------------------------------------------

@settings(max_examples=150, deadline=None)
@given(realizable())
def test_halving_is_the_majority_vote_of_the_version_space(case):
    H, target, xs, ys = case
    learner = Halving(H)
    for t, (x, y) in enumerate(zip(xs, ys)):
        V = version_space(H, xs[:t], ys[:t])
        ones = int(H[V, x].sum())
        yhat = learner.predict(int(x))
        assert learner.details == {"ones": ones, "size": len(V)}
        assert yhat == (1 if 2 * ones >= len(V) else 0)  # a tie predicts 1
        learner.update(int(x), int(y))
    assert len(learner.V) == len(version_space(H, xs, ys))


@settings(max_examples=150, deadline=None)
@given(realizable(max_rows=40))
def test_halving_bound_and_halving_step(case):
    H, target, xs, ys = case
    tr = olkit.run(Halving(H), xs, ys)
    V, m = tr.state["V_size"], tr.mistake
    assert tr.M <= math.log2(len(H)) == olkit.halving_bound(len(H))
    assert np.all(V[1:][m] <= V[:-1][m] / 2)
    assert np.all(V[1:] <= len(H) * 2.0 ** -tr.cum_mistakes) and V.min() >= 1


def test_halving_tie_parameter():
    H = olkit.thresholds(3)  # 4 thresholds; x = 1 is a tie (k = 0, 1 say 1; k = 2, 3 say 0)
    assert Halving(H).predict(1) == 1
    assert Halving(H, tie=0).predict(1) == 0
    with pytest.raises(ValueError, match="tie must be 0 or 1"):
        Halving(H, tie=2)


def test_halving_on_an_implicit_class_equals_the_dense_one():
    n = 60
    rng = np.random.default_rng(2)
    xs = rng.integers(0, n, 80)
    ys = (xs >= 17).astype(int)
    a = olkit.run(Halving(olkit.thresholds(n)), xs, ys)
    b = olkit.run(Halving(olkit.ImplicitThresholds(n)), xs, ys)
    assert np.array_equal(a.yhat, b.yhat) and np.array_equal(a.state["V_size"], b.state["V_size"])


# -- ThresholdHalving -----------------------------------------------------------------------------

@settings(max_examples=300, deadline=None)
@given(threshold_sequence())
def test_threshold_halving_equals_matrix_halving_ties_included(case):
    n, target, xs, ys = case
    slow = olkit.run(Halving(olkit.thresholds(n)), xs, ys)
    fast = olkit.run(ThresholdHalving(n), xs, ys)
    assert np.array_equal(fast.yhat, slow.yhat)
    assert np.array_equal(fast.state["V_size"], slow.state["V_size"])
    if len(xs):
        assert np.array_equal(fast.details["ones"], slow.details["ones"])
        assert np.array_equal(fast.details["size"], slow.details["size"])
    assert np.array_equal(fast.state["hi"] - fast.state["lo"] + 1, fast.state["V_size"])
    assert fast.state["lo"][-1] <= target <= fast.state["hi"][-1]
    assert fast.M <= math.log2(n + 1)


def test_threshold_halving_ties_predict_one_and_tie_zero_differs():
    n = 7  # 8 thresholds: the first round on x = 3 is a tie
    fast = ThresholdHalving(n)
    assert fast.predict(3) == 1 and fast.details == {"ones": 4, "size": 8}
    assert ThresholdHalving(n, tie=0).predict(3) == 0
    xs = np.array([3, 1, 0])
    ys = (xs >= 0).astype(int)
    for tie in (0, 1):
        assert np.array_equal(olkit.run(ThresholdHalving(n, tie=tie), xs, ys).yhat,
                              olkit.run(Halving(olkit.thresholds(n), tie=tie), xs, ys).yhat)


def test_threshold_halving_interval_updates():
    learner = ThresholdHalving(10)
    learner.update(6, 1)
    assert (learner.lo, learner.hi) == (0, 6)
    learner.update(2, 0)
    assert (learner.lo, learner.hi) == (3, 6)
    learner.update(8, 1)  # outside the interval: nothing changes
    assert (learner.lo, learner.hi) == (3, 6)
    assert learner.state() == {"V_size": 4, "lo": 3, "hi": 6}


def test_threshold_halving_against_the_greedy_environment():
    for n in (1, 5, 31, 100):
        tr = olkit.play(ThresholdHalving(n), olkit.GreedyAdversary(olkit.thresholds(n)), 1000)
        assert tr.M == int(math.floor(math.log2(n + 1)))


# -- bad input ------------------------------------------------------------------------------------

LEARNERS = [
    lambda H: Consistent(H),
    lambda H: Consistent(H, update="remove_chosen"),
    lambda H: Halving(H),
]


@pytest.mark.parametrize("make", LEARNERS)
@pytest.mark.parametrize("y", [2, -1, True, 0.5, "1"])
def test_label_outside_01(make, y):
    learner = make(olkit.thresholds(4))
    learner.predict(1)
    with pytest.raises(ValueError, match="label y"):
        learner.update(1, y)


def test_threshold_halving_label_outside_01():
    with pytest.raises(ValueError, match="round 1: label y = 2"):
        ThresholdHalving(4).update(1, 2)
    with pytest.raises(ValueError, match="label set"):
        olkit.run(ThresholdHalving(4), [1], [-1])


@pytest.mark.parametrize("make", LEARNERS + [lambda H: ThresholdHalving(H.shape[1])])
@pytest.mark.parametrize("x", [-1, 4, 10, 1.0, True, "2", None])
def test_x_outside_the_domain(make, x):
    learner = make(olkit.thresholds(4))
    with pytest.raises(ValueError, match="is not a point of the domain"):
        learner.predict(x)
    with pytest.raises(ValueError, match="is not a point of the domain"):
        learner.update(x, 1)


@pytest.mark.parametrize("cls", [Consistent, Halving])
@pytest.mark.parametrize("H, msg", [(np.zeros((0, 3)), "empty class"), (np.zeros((2, 0)), "empty domain"),
                                    (np.array([[0, 2], [1, 0]]), "entries in"), (np.array([[0.5, 1]]), "entries in"),
                                    (np.zeros(4), "2-D")])
def test_bad_classes(cls, H, msg):
    with pytest.raises(ValueError, match=msg):
        cls(H)


@pytest.mark.parametrize("n", [0, -3, 2.5, True, "5"])
def test_threshold_halving_bad_n(n):
    with pytest.raises(ValueError, match="n must be a positive integer"):
        ThresholdHalving(n)


def test_consistent_bad_options():
    H = olkit.singletons(3)
    with pytest.raises(ValueError, match="choice"):
        Consistent(H, choice="best")
    with pytest.raises(ValueError, match="update"):
        Consistent(H, update="all")
    with pytest.raises(ValueError, match="rng"):
        Consistent(H, choice="random")


@pytest.mark.parametrize("make", [LEARNERS[0], LEARNERS[2], lambda H: ThresholdHalving(H.shape[1])])
def test_non_realizable_sequence_names_the_round(make):
    H = olkit.thresholds(6)
    xs, ys = [4, 2, 5, 1, 3], [1, 0, 1, 0, 0]  # rounds 1-4 fit k in {3, 4}; round 5 says h(3) = 0, so k = 4
    xs, ys = xs + [4], ys + [0]  # round 6: h(4) = 0 contradicts k = 4
    with pytest.raises(olkit.NotRealizableError, match="round 6") as err:
        olkit.run(make(H), xs, ys)
    assert err.value.round == 6


def test_remove_chosen_raises_when_the_last_candidate_errs():
    # Telgarsky's variant keeps candidates, not the version space: it notices only when none is left
    S = olkit.singletons(3)
    with pytest.raises(olkit.NotRealizableError, match="round 3") as err:
        olkit.run(Consistent(S, update="remove_chosen"), [0, 1, 2], [0, 0, 0])
    assert err.value.round == 3


def test_non_realizable_immediately_and_on_a_repeated_point():
    H = np.array([[1, 0], [1, 1]], dtype=np.uint8)
    with pytest.raises(olkit.NotRealizableError, match="round 1") as err:
        olkit.run(Halving(H), [0], [0])
    assert err.value.round == 1
    with pytest.raises(olkit.NotRealizableError, match="round 3") as err:
        olkit.run(Halving(H), [1, 0, 1], [1, 1, 0])  # x = 1 seen with 1, then shown again with 0
    assert err.value.round == 3


# -- a broken learner that the checks above catch --------------------------------------------------

class TieZeroThresholdHalving(ThresholdHalving):
    """Broken: breaks ties towards 0."""

    def __init__(self, n):
        super().__init__(n, tie=0)


def test_the_equality_check_catches_a_tie_to_zero_variant():
    n = 7
    xs = np.array([3, 1, 0])
    ys = (xs >= 2).astype(int)
    slow = olkit.run(Halving(olkit.thresholds(n)), xs, ys)
    broken = olkit.run(TieZeroThresholdHalving(n), xs, ys)
    assert not np.array_equal(broken.yhat, slow.yhat)


@pytest.mark.parametrize("tie", [2, -1, 1.0, True])
def test_threshold_halving_refuses_a_bad_tie_label(tie):
    with pytest.raises(ValueError, match="tie"):
        olkit.ThresholdHalving(5, tie=tie)


# -- the proof checks of Section 1.2 (olkit.finite.consistent_proof, halving_proof) ---------------------


def _sequence(H, T, seed):
    rng = np.random.default_rng(seed)
    target = int(rng.integers(H.shape[0]))
    xs = rng.integers(0, H.shape[1], size=T)
    return xs, H[target, xs].astype(int)


@pytest.mark.parametrize("update", UPDATES)
@pytest.mark.parametrize("choice", CHOICES)
def test_consistent_proof_holds_on_consistent(update, choice):
    H = olkit.random_class(60, 20, np.random.default_rng(1))
    xs, ys = _sequence(H, 80, 2)
    tr = olkit.run(make_consistent(H, choice, update), xs, ys)
    p = olkit.finite.consistent_proof(tr, H, "Consistent", update)
    assert [r.step for r in p.rows] == ["0", "0'", "0''", "1", "2", "3", "4"]
    assert [r.kind for r in p.rows].count("identity") == 1  # step 3
    V = olkit.finite.consistent_sizes(H, tr, update)
    assert V[0] == len(H) and (V[1:] >= 1).all() and (np.diff(V) <= 0).all()
    if update == "version_space":
        assert (V == [len(version_space(H, xs[:t], ys[:t])) for t in range(len(xs) + 1)]).all()


def test_consistent_proof_catches_a_learner_that_does_not_update():
    class Lazy(Consistent):
        def update(self, x, y):  # never removes anything
            self.t += 1

    H = olkit.singletons(6)
    tr = olkit.play(Lazy(H), olkit.GreedyAdversary(H), 20)
    with pytest.raises(olkit.proof.ProofStepError, match="step 0 "):
        olkit.finite.consistent_proof(tr, H, "lazy")


def test_consistent_sizes_refuses_an_unknown_update():
    H = olkit.singletons(3)
    tr = olkit.run(Consistent(H), [0], [0])
    with pytest.raises(ValueError, match="update"):
        olkit.finite.consistent_sizes(H, tr, "forget")


@pytest.mark.parametrize("tie", (0, 1))
def test_halving_proof_holds_on_halving(tie):
    H = olkit.thresholds(31)
    tr = olkit.play(Halving(H, tie=tie), olkit.GreedyAdversary(H), 100)
    p = olkit.finite.halving_proof(tr, H, "Halving", tie=tie)
    assert [r.step for r in p.rows] == ["0", "0'", "1", "2", "3", "4a", "4b", "5"]
    assert [r.step for r in p.rows if r.kind == "identity"] == ["1", "4a"]


def test_halving_proof_catches_a_minority_vote_and_a_wrong_tie():
    class Minority(Halving):
        def predict(self, x):
            return 1 - super().predict(x)

    H = olkit.random_class(64, 16, np.random.default_rng(3))
    xs, ys = _sequence(H, 40, 4)
    with pytest.raises(olkit.proof.ProofStepError, match="step 0'"):
        olkit.finite.halving_proof(olkit.run(Minority(H), xs, ys), H, "minority")
    tr = olkit.run(Halving(olkit.thresholds(7), tie=0), [3], [1])  # a tie: |V_1| = 8, 4 votes for 1
    with pytest.raises(olkit.proof.ProofStepError, match="step 0'"):
        olkit.finite.halving_proof(tr, olkit.thresholds(7), "tie 0 checked as tie 1", tie=1)


@pytest.mark.parametrize("update", ["version_space", "remove_chosen"])
def test_consistent_proof_checks_the_choice_rule(update):
    H = olkit.random_class(60, 20, np.random.default_rng(1))
    xs, ys = _sequence(H, 80, 2)
    for choice in ("first", "last"):
        tr = olkit.run(make_consistent(H, choice, update), xs, ys)
        p = olkit.finite.consistent_proof(tr, H, "Consistent", update, choice)
        assert "0c" in [r.step for r in p.rows]
    # the run of "last" claimed as "first": step 0c fails (at the first round, where V_1 = H)
    with pytest.raises(olkit.proof.ProofStepError, match="step 0c .* fails at round 1"):
        olkit.finite.consistent_proof(tr, H, "Consistent", update, "first")
