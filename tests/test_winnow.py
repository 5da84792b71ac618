"""Winnow (olkit/winnow.py): the update rules, exact integer decisions, the mistake bounds, the baselines,
the look-ahead, the adversary and the exact worst case, bad input."""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import olkit
import olkit.game as game
from olkit.adversaries import WinnowAdversary, winnow_worst_case
from olkit.winnow import DisjunctionHalving, EliminationLearner, NormalizedWinnow, Winnow, relative_entropy


def ceil_lg(d):
    return (d - 1).bit_length()


def test_winnow_rule_by_hand():
    w = Winnow(4)
    assert w.predict([1, 1, 1, 1]) == 1 and w.details == {"sum": 4}  # sum = d: a tie predicts +1
    w.update([1, 1, 0, 0], 1)  # sum 2 < 4: predicts -1, promotion
    assert w.w.tolist() == [2, 2, 1, 1] and (w.P, w.N, w.updates) == (1, 0, 1)
    w.update([0, 1, 1, 1], -1)  # sum 4 >= 4: predicts +1, elimination
    assert w.w.tolist() == [2, 0, 0, 0] and (w.P, w.N) == (1, 1)
    w.update([1, 0, 0, 0], 1)  # sum 2: promotion
    w.update([1, 0, 0, 0], 1)  # sum 4: a tie predicts +1, correct: no update
    st_ = w.state()
    assert st_["w"].tolist() == [4, 0, 0, 0] and (st_["w_l1"], st_["P"], st_["N"], st_["updates"]) == (4, 2, 1, 3)
    st_["w"][0] = 99
    assert w.w[0] == 4, "state() returns a copy"
    strict = Winnow(4, tie=-1)
    strict.update([1, 1, 1, 1], 1)  # sum 4 = d: the strict rule predicts -1, a promotion
    assert strict.w.tolist() == [2, 2, 2, 2]


def test_elimination_sequence():
    for d in (2, 5, 17):
        X, y = olkit.elimination_sequence(d)
        e = olkit.run(EliminationLearner(d), list(X), y)
        assert e.M == d - 1 and e.state["C_size"].tolist() == list(range(d, 0, -1))
        assert olkit.run(Winnow(d), list(X), y).M == 0
        assert olkit.run_stream(EliminationLearner(d), X, y).M == d - 1


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 40), st.integers(1, 4), st.integers(0, 2**16), st.sampled_from([1, -1]),
       st.sampled_from([64, 1 << 20]))
def test_winnow_bound_and_lookahead_on_random_disjunctions(d, k, seed, tie, block_bytes):
    k = min(k, d)
    rng = np.random.default_rng(seed)
    rel = rng.choice(d, size=k, replace=False)
    X, y = olkit.disjunction_stream(400, d, rel, rng)
    slow = olkit.run(Winnow(d, tie), list(X), y)
    old = game.LOOKAHEAD_BYTES
    game.LOOKAHEAD_BYTES = block_bytes
    try:
        fast = olkit.run_stream(Winnow(d, tie), X, y)
    finally:
        game.LOOKAHEAD_BYTES = old
    full = fast.to_trace()
    assert np.array_equal(full.yhat, slow.yhat) and np.array_equal(full.state["w"], slow.state["w"])
    assert slow.M == slow.state["updates"][-1] <= 1 + 2 * k * ceil_lg(d)
    if tie == 1:
        assert slow.state["P"][-1] <= k * ceil_lg(d) and slow.state["N"][-1] <= 1 + slow.state["P"][-1]
    assert (slow.state["w"][:, rel] > 0).all(), "relevant weights are never eliminated"
    e = olkit.run(EliminationLearner(d), list(X), y)
    assert e.M <= d - k and not (e.mistake & (y == 1)).any()
    ef = olkit.run_stream(EliminationLearner(d), X, y)
    assert np.array_equal(ef.to_trace().yhat, e.yhat)


@pytest.mark.parametrize("d, k", [(4, 1), (6, 1), (6, 2), (5, 2)])
def test_exact_worst_case_and_the_adversary(d, k):
    M, seq = winnow_worst_case(d, k)
    assert M == len(seq) <= 1 + 2 * k * ceil_lg(d)
    X = np.array(seq)
    y = np.where(X[:, :k].any(axis=1), 1, -1)
    tr = olkit.run(Winnow(d), list(X), y)
    assert tr.M == M and tr.mistake.all()
    adv = olkit.play(Winnow(d), WinnowAdversary(d, range(k)), 200)
    assert 1 <= adv.M <= M and adv.mistake.all()


def test_known_worst_cases():
    assert winnow_worst_case(4, 1)[0] == 3 and winnow_worst_case(4, 1, tie=-1)[0] == 4
    assert winnow_worst_case(2, 1)[0] == 1


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 200), st.integers(1, 8), st.integers(0, 2**16))
def test_adversary_respects_the_bound(d, k, seed):
    k = min(k, d)
    rel = np.random.default_rng(seed).choice(d, size=k, replace=False)
    adv = WinnowAdversary(d, rel)
    tr = olkit.play(Winnow(d), adv, 10_000)
    assert tr.mistake.all() and tr.M <= 1 + 2 * k * ceil_lg(d)
    assert np.array_equal(tr.y, [adv.target(x) for x in tr.x])


@settings(max_examples=20, deadline=None)
@given(st.integers(3, 12), st.integers(1, 3), st.integers(0, 2**16))
def test_halving_over_disjunctions(d, k, seed):
    k = min(k, d - 1)
    rng = np.random.default_rng(seed)
    rel = rng.choice(d, size=k, replace=False)
    X, y = olkit.disjunction_stream(200, d, rel, rng)
    h = DisjunctionHalving(d, k)
    tr = olkit.run(h, list(X), y)
    assert tr.M <= math.log2(math.comb(d, k)) + 1e-12
    assert tr.state["V_size"][0] == math.comb(d, k) and (np.diff(tr.state["V_size"]) <= 0).all()
    assert any(set(row) == set(rel.tolist()) for row in h.target_terms())
    assert np.array_equal(tr.details["work"], tr.state["V_size"][:-1] * k)
    assert (tr.state["V_size"][1:][tr.mistake] <= tr.state["V_size"][:-1][tr.mistake] / 2).all()


def test_halving_over_disjunctions_not_realizable():
    h = DisjunctionHalving(3, 1)
    with pytest.raises(olkit.NotRealizableError, match="no disjunction of 1 features"):
        olkit.run(h, [np.array([1, 1, 1])], [-1])


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 300), st.integers(0, 2**16), st.sampled_from([64, 1 << 20]))
def test_normalized_winnow_on_one_relevant_expert(N, seed, block_bytes):
    rng = np.random.default_rng(seed)
    X, y = olkit.expert_stream(300, N, rng, relevant=int(rng.integers(N)))
    v = np.zeros(N)
    v[np.flatnonzero(X[:, :] .T @ y == len(y))[0]] = 1.0  # an expert that is right on every round
    slow = olkit.run(NormalizedWinnow(N, 1.0, v=v), list(X), y)
    old = game.LOOKAHEAD_BYTES
    game.LOOKAHEAD_BYTES = block_bytes
    try:
        fast = olkit.run_stream(NormalizedWinnow(N, 1.0, v=v), X, y)
    finally:
        game.LOOKAHEAD_BYTES = old
    assert np.array_equal(fast.to_trace().yhat, slow.yhat)
    assert np.array_equal(fast.state["w"], slow.state["w"][np.r_[0, fast.rounds]])
    U = slow.state["updates"][-1]
    assert U <= 2 * math.log(N) + 1e-12  # Theorem 7.12 with rho = r = 1, eta = 1
    phi = slow.state["phi"]
    assert phi[0] <= math.log(N) + 1e-12 and (phi >= -1e-12).all()
    assert np.allclose(slow.state["w"].sum(axis=1), 1)
    upd = np.flatnonzero(np.diff(slow.state["updates"]))
    assert (np.diff(phi)[upd] <= 1 / 2 - 1 + 1e-12).all()  # eta^2 r^2 / 2 - eta rho
    assert np.allclose([relative_entropy(v / v.sum(), w) for w in slow.state["w"]], phi)


def test_normalized_winnow_update_by_hand():
    nw = NormalizedWinnow(3, math.log(2))
    nw.update(np.array([1.0, -1.0, 1.0]), -1)  # score 1/3 > 0, y = -1: update, w ~ (1/2, 2, 1/2)
    assert np.allclose(nw.w, [1 / 6, 2 / 3, 1 / 6]) and nw.updates == 1
    nw.update(np.array([1.0, -1.0, 1.0]), -1)  # now correct
    assert nw.updates == 1


@pytest.mark.parametrize("x, msg", [([1, 0, 2], r"features in \{0, 1\}"), ([1, -1, 0], r"features in \{0, 1\}"),
                                    ([0.5, 0, 0], r"features in \{0, 1\}"), ([1, 0], r"shape \(3,\)"),
                                    (["a", "b", "c"], r"features in \{0, 1\}")])
def test_winnow_rejects_non_binary_features(x, msg):
    for learner in (Winnow(3), EliminationLearner(3), DisjunctionHalving(3, 1)):
        with pytest.raises(ValueError, match=msg):
            learner.predict(x)
        with pytest.raises(ValueError, match=msg):
            learner.update(x, 1)


@pytest.mark.parametrize("y", [0, 2, True, 1.0, None])
def test_winnow_rejects_bad_labels(y):
    for learner in (Winnow(3), EliminationLearner(3), DisjunctionHalving(3, 1), NormalizedWinnow(3, 1.0)):
        with pytest.raises(ValueError, match=r"label y = .* is not in \{-1, \+1\}"):
            learner.update([1, 0, 0], y)


def test_winnow_bad_arguments_and_streams():
    with pytest.raises(ValueError, match="d must be an integer >= 1"):
        Winnow(0)
    with pytest.raises(ValueError, match=r"tie must be one of \(-1, 1\)"):
        Winnow(3, tie=0)
    with pytest.raises(ValueError, match="eta must be a positive finite number"):
        NormalizedWinnow(3, 0.0)
    with pytest.raises(ValueError, match="v must be a non-negative, non-zero vector"):
        NormalizedWinnow(3, 1.0, v=[1.0, -1.0, 0.0])
    with pytest.raises(ValueError, match="k must be at most d"):
        DisjunctionHalving(3, 4)
    with pytest.raises(ValueError, match=r"X: round 2, feature 1 is -1"):
        Winnow(3).play_stream(np.array([[1, 0, 0], [0, -1, 0]]), np.array([1, -1]))
    with pytest.raises(ValueError, match=r"X must have shape \(T, d\) = \(T, 3\)"):
        Winnow(3).play_stream(np.zeros((2, 4), dtype=int), np.array([1, -1]))
    with pytest.raises(ValueError, match=r"y: label 0 at round 1"):
        Winnow(3).play_stream(np.zeros((2, 3), dtype=int), np.array([0, -1]))
    with pytest.raises(ValueError, match="relevant must be a non-empty set"):
        WinnowAdversary(3, [5])
    with pytest.raises(ValueError, match="winnow_worst_case needs"):
        winnow_worst_case(9, 1)
    with pytest.raises(ValueError, match="p and q must have the same shape"):
        relative_entropy([1.0], [0.5, 0.5])


@pytest.mark.parametrize("make, bad", [
    (lambda: Winnow(3), [0, 2, 0]),
    (lambda: EliminationLearner(3), [0, 2, 0]),
    (lambda: DisjunctionHalving(3, 1), [0, 2, 0]),
    (lambda: NormalizedWinnow(3, 1.0), [0.0, np.nan, 0.0]),
])
@pytest.mark.parametrize("fast", [False, True])
def test_errors_name_the_round_after_rounds_with_and_without_updates(make, bad, fast):
    """learner.t counts every round played, updates or not, by run and by the look-ahead alike."""
    X = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0], [0, 0, 0]])
    y = np.array([1, -1, -1, 1, -1])
    learner = make()
    if fast and hasattr(learner, "play_stream"):
        learner.play_stream(X.astype(float) if isinstance(learner, NormalizedWinnow) else X, y)
    else:
        olkit.run(learner, list(X), y)
    assert learner.t == 6
    with pytest.raises(ValueError, match="round 6"):
        learner.update(np.array(bad), 1)


def test_halving_over_disjunctions_size_limit(monkeypatch):
    import olkit.winnow as winnow

    monkeypatch.setattr(winnow, "MAX_DISJUNCTIONS", 10)
    assert len(DisjunctionHalving(5, 2).terms) == 10  # C(5, 2) = 10: exactly the limit is allowed
    with pytest.raises(ValueError, match="exceed 10"):
        DisjunctionHalving(6, 2)


# -- the proof checks of Chapter 4 (olkit.winnow.*_proof) --------------------------------------
def test_disjunction_labels():
    X = np.array([[0, 0, 1], [1, 0, 0], [0, 1, 0]])
    assert olkit.winnow.disjunction_labels(X, [0, 1]).tolist() == [-1, 1, 1]
    assert olkit.winnow.disjunction_labels(X, 2).tolist() == [1, -1, -1]


def test_winnow_proof_holds_on_both_kinds_of_trace_and_against_the_environment():
    rng = np.random.default_rng(3)
    J = rng.choice(40, size=2, replace=False)
    X, y = olkit.disjunction_stream(2000, 40, J, rng)
    for tr in (olkit.run_stream(Winnow(40), X, y), olkit.run(Winnow(40), list(X), y),
               olkit.play(Winnow(40), WinnowAdversary(40, J), 500)):
        p = olkit.winnow.winnow_proof(tr, J, 40, "test")
        assert {row.step for row in p.rows} >= {"0", "rule", "1", "2", "3", "3'", "4a", "4b", "5", "6"}


def test_winnow_proof_catches_a_wrong_rule_and_wrong_tie():
    rng = np.random.default_rng(4)
    J = np.array([1, 7])
    X, y = olkit.disjunction_stream(2000, 16, J, rng)
    tr = olkit.run_stream(Winnow(16), X, y)
    tr.state["w"] = tr.state["w"] * np.r_[1, np.full(len(tr.state["w"]) - 1, 3)][:, None]  # tripled
    with pytest.raises(olkit.ProofStepError):
        olkit.winnow.winnow_proof(tr, J, 16, "broken")
    strict = olkit.run_stream(Winnow(16, tie=-1), X, y)  # the strict rule, checked against Blum's
    if strict.M != olkit.run_stream(Winnow(16), X, y).M:
        with pytest.raises(olkit.ProofStepError, match="step 0 "):
            olkit.winnow.winnow_proof(strict, J, 16, "strict")
    # the strict rule's promotion three times at d = 4 (the erratum of Section 4.3) fails step 3
    e1 = olkit.run(Winnow(4, tie=-1), [np.array([1, 0, 0, 0])] * 3, np.array([1, 1, 1]))
    with pytest.raises(olkit.ProofStepError, match="step 0 "):
        olkit.winnow.winnow_proof(e1, [0], 4, "strict at d = 4")


def test_elimination_proof_holds_and_catches_a_wrong_target():
    d = 12
    X, y = olkit.elimination_sequence(d)
    tr = olkit.run(EliminationLearner(d), list(X), y)
    assert olkit.winnow.elimination_proof(tr, [d - 1], d, "cx").rows[-1].step == "4"
    with pytest.raises(olkit.ProofStepError, match="step 0 "):
        olkit.winnow.elimination_proof(tr, [0], d, "wrong target")


def test_normalized_winnow_proof_holds_and_catches_a_missing_normalization():
    rng = np.random.default_rng(6)
    X, y = olkit.expert_stream(2000, 64, rng)
    v = np.eye(64)[0]
    tr = olkit.run_stream(NormalizedWinnow(64, 1.0, v=v), X, y)
    p, r_inf, rho_inf = olkit.winnow.normalized_winnow_proof(tr, v, 1.0, "test")
    assert r_inf == 1 and rho_inf == 1 and p.rows[-1].step == "7"
    tr.state["w"] = tr.state["w"] * 1.5  # not a probability vector any more
    with pytest.raises(olkit.ProofStepError):
        olkit.winnow.normalized_winnow_proof(tr, v, 1.0, "broken")
