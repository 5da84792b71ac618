"""olkit/experts.py: the expert learners, their bounds, the vectorized run, exactness, bad input."""
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import olkit
from olkit import experts as E

SETTINGS = settings(max_examples=40, deadline=None)


# -- strategies ---------------------------------------------------------------------------------------
@st.composite
def loss_matrix(draw, max_T=60, max_N=8, binary=False):
    """A (T, N) loss matrix in [0, 1] (or {0, 1}), T >= 1."""
    T = draw(st.integers(1, max_T))
    N = draw(st.integers(1, max_N))
    seed = draw(st.integers(0, 2**32 - 1))
    r = np.random.default_rng(seed)
    if binary:
        return r.integers(0, 2, size=(T, N))
    kind = draw(st.sampled_from(["uniform", "grid", "extreme"]))
    if kind == "uniform":
        return r.random((T, N))
    if kind == "grid":
        return r.integers(0, 5, size=(T, N)) / 4
    return r.choice([0.0, 1.0, 1e-12, 1 - 1e-12], size=(T, N))


@st.composite
def advice_game(draw, max_T=60, max_N=10):
    """0/1 advice (T, N) and labels (T,)."""
    T = draw(st.integers(1, max_T))
    N = draw(st.integers(1, max_N))
    r = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    return r.integers(0, 2, size=(T, N)), r.integers(0, 2, size=T)


@st.composite
def realizable(draw, max_rows=16, max_points=6, max_T=30):
    rows = draw(st.integers(1, max_rows))
    points = draw(st.integers(1, max_points))
    r = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    H = r.integers(0, 2, size=(rows, points)).astype(np.uint8)
    target = int(r.integers(rows))
    xs = r.integers(0, points, size=draw(st.integers(1, max_T)))
    return H, target, xs, H[target, xs].astype(np.int64)


def exact_wm_predictions(F, y, beta):
    """Weighted Majority by its definition, in Fractions: weights, votes (ties to 1), updates after mistakes."""
    b = Fraction(beta)
    w = [Fraction(1)] * F.shape[1]
    preds = []
    for f, yt in zip(F.tolist(), y.tolist()):
        one = sum((wi for wi, fi in zip(w, f) if fi == 1), Fraction(0))
        zero = sum((wi for wi, fi in zip(w, f) if fi == 0), Fraction(0))
        yhat = 1 if one >= zero else 0
        preds.append(yhat)
        if yhat != yt:
            w = [wi * b if fi != yt else wi for wi, fi in zip(w, f)]
    return np.array(preds)


def multiplicative_hedge(losses, eta):
    """The textbook recursion w_{t+1,i} = w_{t,i} exp(-eta l_{t,i}) in plain Python floats: (p_t), (mixture losses)."""
    T, N = losses.shape
    w = [1.0] * N
    P, loss = [], []
    for row in losses.tolist():
        Z = sum(w)
        p = [wi / Z for wi in w]
        P.append(p)
        loss.append(sum(pi * li for pi, li in zip(p, row)))
        w = [wi * math.exp(-eta * li) for wi, li in zip(w, row)]
    return np.array(P), np.array(loss)


# -- the trace and the protocol ------------------------------------------------------------------------
def test_trace_conventions():
    L = np.random.default_rng(0).random((7, 3))
    tr = E.run_experts(E.Hedge(3, 0.5), L)
    assert tr.T == 7 and tr.N == 3
    assert tr.state["L"].shape == (8, 3) and tr.state["Phi"].shape == (8,)
    assert tr.details["p"].shape == (7, 3) and tr.details["eta"].shape == (7,)
    assert np.array_equal(tr.expert_cum[1:], np.cumsum(L, axis=0)) and tr.expert_cum[0].sum() == 0
    assert tr.regret[0] == 0 and tr.R == pytest.approx(tr.loss.sum() - L.sum(axis=0).min())
    assert np.allclose(tr.state["L"], tr.expert_cum)
    assert tr.state["Phi"][0] == pytest.approx(math.log(3))


def test_advice_game_records_predictions_and_mistakes():
    F, y = olkit.noisy_experts(50, 6, np.random.default_rng(1), error=0.1, noise=0.3)
    tr = E.run_experts(E.WeightedMajority(6, 0.5), advice=F, y=y)
    assert tr.advice.shape == (50, 6) and tr.y.shape == (50,) and tr.yhat.shape == (50,)
    assert np.array_equal(tr.loss, np.abs(tr.yhat - y))
    assert np.array_equal(tr.losses, np.abs(F - y[:, None]))
    assert tr.mistake.sum() == tr.loss.sum()
    with pytest.raises(ValueError, match="mistakes"):
        _ = E.run_experts(E.Hedge(6, 0.5), np.abs(F - y[:, None])).mistake


def test_empty_game():
    tr = E.play_experts(E.Hedge(3, 1.0), E.LossSequence(np.zeros((0, 3))), 0)
    assert tr.T == 0 and tr.R == 0 and tr.state["L"].shape == (1, 3)
    v = E.hedge(np.zeros((0, 3)), 1.0)
    assert v.T == 0 and v.state["Phi"].shape == (1,) and v.state["Phi"][0] == pytest.approx(math.log(3))


# -- bad input -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("bad, match", [
    (np.array([[0.5, 1.5]]), "losses must lie in"),
    (np.array([[-0.1, 0.5]]), "losses must lie in"),
    (np.array([[np.nan, 0.5]]), "losses must not contain NaN"),
    (np.array([[0.5, 0.5, 0.5]]), r"losses must have shape"),
    (np.array([["a", "b"]]), "losses must be a numeric array"),
    (np.array([[True, False]]), "losses must be a numeric array"),
])
def test_bad_losses(bad, match):
    with pytest.raises(ValueError, match=match):
        E.run_experts(E.Hedge(2, 1.0), bad)


def test_bad_losses_vectorized_and_wrappers():
    with pytest.raises(ValueError, match="losses must lie in"):
        E.hedge(np.array([[2.0, 0.0]]), 1.0)
    with pytest.raises(ValueError, match="losses must be a"):
        E.hedge(np.zeros(3), 1.0)
    with pytest.raises(ValueError, match="threads > 1 needs integer losses"):
        E.hedge(np.zeros((3, 2)), 1.0, threads=2)
    with pytest.raises(ValueError, match="losses must be 0/1"):
        E.run_experts(E.RandomizedWeightedMajority(2, 0.5), np.array([[0.5, 0.0]]))
    with pytest.raises(ValueError, match="advice must be 0/1"):
        E.run_experts(E.WeightedMajority(2, 0.5), advice=np.array([[0.5, 1.0]]), y=np.array([1]))
    with pytest.raises(ValueError, match=r"advice must be \(T, N\) and y \(T,\)"):
        E.run_experts(E.Hedge(2, 1.0), advice=np.zeros((3, 2)), y=np.zeros(4))
    with pytest.raises(ValueError, match="advice must have shape"):
        E.run_experts(E.Hedge(3, 1.0), advice=np.zeros((3, 2)), y=np.zeros(3))
    with pytest.raises(ValueError, match="give either losses"):
        E.run_experts(E.Hedge(2, 1.0))
    with pytest.raises(ValueError, match="y must lie in"):
        E.run_experts(E.Hedge(2, 1.0), advice=np.zeros((2, 2)), y=np.array([0, 2]))


@pytest.mark.parametrize("eta", [0, -1.0, float("nan"), float("inf"), "1", True, None])
def test_bad_eta(eta):
    with pytest.raises(ValueError, match="eta"):
        E.Hedge(3, eta)
    with pytest.raises(ValueError, match="eta"):
        E.hedge(np.zeros((2, 3)), eta)


def test_bad_eta_schedule():
    with pytest.raises(ValueError, match="eta must be a positive number, or T"):
        E.hedge(np.zeros((4, 2)), np.ones(3))
    with pytest.raises(ValueError, match="eta must be a positive number, or T"):
        E.hedge(np.zeros((4, 2)), np.array([1.0, 1.0, 0.0, 1.0]))
    with pytest.raises(ValueError, match="eta"):
        E.ewa_bound(3, 10, eta=0.0)


@pytest.mark.parametrize("beta", [1.0, 1.5, -0.1, float("nan"), "0.5"])
def test_bad_beta(beta):
    with pytest.raises(ValueError, match="beta"):
        E.WeightedMajority(3, beta)
    with pytest.raises(ValueError, match="beta"):
        E.RandomizedWeightedMajority(3, beta)


def test_rwm_rejects_beta_zero_and_wm_accepts_it():
    with pytest.raises(ValueError, match=r"beta must be in \(0, 1\)"):
        E.RandomizedWeightedMajority(3, 0)
    assert E.WeightedMajority(3, 0).beta == 0


@pytest.mark.parametrize("N", [0, -2, 2.5, True, "3"])
def test_bad_number_of_experts(N):
    with pytest.raises(ValueError, match="N"):
        E.Hedge(N, 1.0)
    with pytest.raises(ValueError, match="N"):
        E.WeightedMajority(N, 0.5)


def test_other_bad_input():
    with pytest.raises(ValueError, match="N must be >= 2"):
        E.AnytimeHedge(1)
    with pytest.raises(ValueError, match="make must be a callable"):
        E.Doubling(2, None)
    with pytest.raises(ValueError, match="rng"):
        E.two_expert_losses(5, 3)
    with pytest.raises(ValueError, match="error must be a probability"):
        E.noisy_experts(5, 3, np.random.default_rng(0), error=1.5, noise=0.3)
    with pytest.raises(ValueError, match="Cover's adversary needs a deterministic prediction"):
        E.play_experts(E.Hedge(2, 1.0), E.CoverAdversary(), 3)
    with pytest.raises(ValueError, match="Weighted Majority needs the experts' advice"):
        E.run_experts(E.WeightedMajority(2, 0.5), np.zeros((2, 2)))
    with pytest.raises(ValueError, match="T_max"):
        E.TwoExpertMinimax(-1)
    G = E.TwoExpertMinimax(4)
    with pytest.raises(ValueError, match="T must be <= T_max"):
        G.value(5)
    with pytest.raises(ValueError, match="outside the computed game"):
        G.p(2, 3)
    with pytest.raises(ValueError, match="T must be <= the game's T_max"):
        E.MinimaxLearner(G, 5)
    with pytest.raises(ValueError, match="tie must be 0 or 1"):
        E.soa_expert_predictions(np.eye(3, dtype=np.uint8), [0, 1], [1], tie=2)
    with pytest.raises(ValueError, match="is not a point of the domain"):
        E.soa_experts(np.eye(3, dtype=np.uint8), [0, 5])
    with pytest.raises(ValueError, match="labels must be"):
        E.soa_mistake_rounds(np.eye(3, dtype=np.uint8), [0, 1], [1, 2])
    with pytest.raises(ValueError, match="ldim"):
        E.soa_expert_count_bound(5, 0)


# -- exactness: the vectorized run, log space, the plain definitions ------------------------------------
@SETTINGS
@given(loss_matrix(), st.floats(0.01, 5.0), st.integers(1, 17))
def test_vectorized_hedge_equals_round_by_round_exactly(L, eta, block):
    a = E.run_experts(E.Hedge(L.shape[1], eta), L)
    b = E.hedge(L, eta, block=block)
    for key in ("L", "Phi"):
        assert np.array_equal(a.state[key], b.state[key]), key
    assert np.array_equal(a.details["p"], b.details["p"])
    assert np.array_equal(a.loss, b.loss)
    c = E.hedge(L, eta, record=False, block=block)
    assert np.array_equal(c.loss, a.loss) and np.array_equal(c.state["Phi"], a.state["Phi"])
    assert np.array_equal(c.best, a.best) and np.array_equal(c.state["L_final"], a.state["L"][-1])


@SETTINGS
@given(loss_matrix(binary=True), st.floats(0.01, 5.0), st.integers(1, 9), st.integers(2, 3))
def test_vectorized_hedge_on_integer_losses_and_threads(L, eta, block, threads):
    a = E.run_experts(E.Hedge(L.shape[1], eta), L)
    for kw in ({}, {"threads": threads}):
        b = E.hedge(L.astype(np.uint8), eta, block=block, **kw)
        assert np.array_equal(a.details["p"], b.details["p"])
        assert np.array_equal(a.loss, b.loss) and np.array_equal(a.state["Phi"], b.state["Phi"])
    c = E.hedge(L.astype(np.uint8), eta, block=block, record=False, threads=threads)
    assert np.array_equal(c.loss, a.loss) and np.array_equal(c.state["Lmin"], a.best)


@SETTINGS
@given(loss_matrix(max_N=6))
def test_vectorized_anytime_schedule_equals_anytime_learner(L):
    N = max(L.shape[1], 2)
    L = np.hstack([L, np.zeros((L.shape[0], N - L.shape[1]))])
    T = L.shape[0]
    a = E.run_experts(E.AnytimeHedge(N), L)
    rates = np.sqrt(8 * np.log(N) / np.arange(1, T + 2))
    b = E.hedge(L, rates)
    assert np.array_equal(a.details["p"], b.details["p"]) and np.array_equal(a.loss, b.loss)
    assert np.array_equal(a.state["Phi"], b.state["Phi"])
    assert np.array_equal(a.details["eta"], rates[:T])


@SETTINGS
@given(loss_matrix(max_T=40), st.floats(0.01, 3.0))
def test_hedge_equals_the_multiplicative_definition(L, eta):
    """Stated tolerance: the plain recursion multiplies t rounded factors exp(-eta l), olkit exponentiates the
    cumulative loss once, so the two agree to a relative error of order t * 2^-52; 1e-12 is a generous bound."""
    P, loss = multiplicative_hedge(L, eta)
    tr = E.run_experts(E.Hedge(L.shape[1], eta), L)
    assert np.allclose(tr.details["p"], P, rtol=1e-12, atol=1e-300)
    assert np.allclose(tr.loss, loss, rtol=1e-12, atol=1e-15)


def test_log_space_result_unchanged_where_plain_weights_underflow():
    r = np.random.default_rng(3)
    L = r.integers(0, 2, size=(400, 4))
    shifted = np.vstack([np.ones((900, 4), dtype=int), L])  # e^-900 underflows to 0 in the plain formula
    a = E.run_experts(E.Hedge(4, 1.0), L)
    b = E.run_experts(E.Hedge(4, 1.0), shifted)
    assert np.array_equal(b.details["p"][900:], a.details["p"])
    assert np.allclose(b.state["Phi"][900:], a.state["Phi"] - 900.0, rtol=0, atol=1e-9)
    assert np.isfinite(b.details["p"]).all() and np.isfinite(b.state["Phi"]).all()
    with np.errstate(under="ignore", invalid="ignore"):
        plain = np.exp(-1.0 * b.expert_cum[:-1])
        plain = plain / plain.sum(axis=1, keepdims=True)
    assert np.isnan(plain[-1]).all()  # the plain formula fails where olkit does not
    # and where the plain formula works, they agree
    with np.errstate(under="ignore"):
        ok = E.run_experts(E.Hedge(4, 0.01), shifted)
        P = np.exp(-0.01 * ok.expert_cum[:-1])
    assert np.allclose(ok.details["p"], P / P.sum(axis=1, keepdims=True), rtol=1e-12)


def test_wm_log_weight_does_not_underflow():
    F = np.tile(np.array([[0, 1, 1]]), (3000, 1))
    y = np.zeros(3000, dtype=int)  # experts 1 and 2 err on every round; WM errs while they outweigh expert 0
    tr = E.run_experts(E.WeightedMajority(3, 0.5), advice=F, y=y)
    assert np.isfinite(tr.state["logW"]).all()
    k = tr.state["k"][-1]
    assert tr.state["logW"][-1] == pytest.approx(np.logaddexp.reduce(k * np.log(0.5)))


@SETTINGS
@given(advice_game(), st.sampled_from([0, 0.5, 0.25, 0.75, 0.3, Fraction(1, 3), 0.999]))
def test_weighted_majority_decides_exactly(game, beta):
    F, y = game
    tr = E.run_experts(E.WeightedMajority(F.shape[1], beta), advice=F, y=y)
    assert np.array_equal(tr.yhat, exact_wm_predictions(F, y, beta))


def test_weighted_majority_ties_go_to_one():
    tr = E.play_experts(E.WeightedMajority(2, 0.5), E.CoverAdversary(), 10)
    assert tr.details["tie"][::2].all() and not tr.details["tie"][1::2].any()
    assert (tr.yhat[::2] == 1).all()


def test_wm_float_vote_near_tie_goes_to_fractions():
    # weights 1/3^k: the float vote of (1/3 + 1/3 + 1/3) against 1 is a tie only in exact arithmetic
    F = np.array([[1, 1, 1, 0]] * 1 + [[1, 1, 1, 0]])
    wm = E.WeightedMajority(4, Fraction(1, 3))
    wm.k = np.array([1, 1, 1, 0])
    assert wm.predict(F[0]) == 1 and wm.details["tie"]


@SETTINGS
@given(realizable())
def test_wm_beta0_is_halving_updated_on_mistakes(case):
    H, target, xs, ys = case
    tr = E.run_experts(E.WeightedMajority(len(H), 0), advice=H[:, xs].T, y=ys)
    hv, preds = olkit.Halving(H), []
    for x, y, m in zip(xs, ys, tr.mistake):
        preds.append(hv.predict(int(x)))
        if m:
            hv.update(int(x), int(y))
    assert np.array_equal(tr.yhat, preds)
    assert tr.mistake.sum() <= math.log2(len(H)) + 1e-12
    alive = tr.state["k"][-1] == 0
    assert alive[target]


def test_wm_beta0_can_differ_from_uml_halving():
    H = np.array([[1, 1, 0, 0], [1, 1, 1, 1], [0, 1, 1, 0], [1, 0, 0, 0], [1, 0, 0, 1]], dtype=np.uint8)
    xs, ys = np.array([0, 0, 3, 3]), np.array([1, 1, 1, 1])
    wm = E.run_experts(E.WeightedMajority(5, 0), advice=H[:, xs].T, y=ys)
    uml = olkit.run(olkit.Halving(H), xs, ys)
    assert wm.yhat.tolist() == [1, 1, 0, 1] and uml.yhat.tolist() == [1, 1, 1, 1]


# -- the bounds, on random sequences ---------------------------------------------------------------------
@SETTINGS
@given(advice_game(max_T=80), st.floats(0.01, 0.99))
def test_weighted_majority_bound(game, beta):
    F, y = game
    tr = E.run_experts(E.WeightedMajority(F.shape[1], beta), advice=F, y=y)
    m_star = tr.expert_cum[-1].min()
    assert tr.mistake.sum() <= E.wm_bound(F.shape[1], m_star, beta) + 1e-9
    # the weights: w = beta^k with k <= m (Mohri's proof writes = ; only <= holds)
    assert (tr.state["k"][-1] <= tr.expert_cum[-1]).all()


@SETTINGS
@given(loss_matrix(binary=True, max_T=80), st.floats(0.5, 0.99))
def test_rwm_bound(L, beta):
    tr = E.run_experts(E.RandomizedWeightedMajority(L.shape[1], beta), L)
    assert tr.cum_loss[-1] <= E.rwm_bound(L.shape[1], tr.best[-1], beta) + 1e-9
    # the exact recursion W_{t+1} = W_t (1 - (1 - beta) L_t)
    W = np.exp(tr.state["Phi"])
    assert np.allclose(W[1:], W[:-1] * (1 - (1 - beta) * tr.loss), rtol=1e-10)
    T, N = L.shape
    if N < 2:
        return
    b0 = E.rwm_beta0(N, T)
    tr0 = E.run_experts(E.RandomizedWeightedMajority(N, b0), L)
    cap = 2 * math.sqrt(T * math.log(N)) if math.sqrt(math.log(N) / T) <= 0.5 else 2 * math.log(N) + T / 2
    assert tr0.R <= cap + 1e-9


@SETTINGS
@given(loss_matrix(max_T=80), st.floats(0.01, 4.0))
def test_ewa_bound_any_eta_and_tuned(L, eta):
    T, N = L.shape
    tr = E.run_experts(E.Hedge(N, eta), L)
    assert (tr.regret[1:] <= np.log(N) / eta + eta * tr.rounds / 8 + 1e-9).all()
    if N > 1:
        tuned = E.run_experts(E.Hedge(N, E.ewa_eta(N, T)), L)
        assert tuned.R <= E.ewa_bound(N, T) + 1e-9
        uml = E.run_experts(E.Hedge(N, E.uml_eta(N, T)), L)
        assert uml.R <= E.uml_bound(N, T) + 1e-9


@SETTINGS
@given(st.integers(1, 60), st.integers(1, 6), st.integers(0, 2**32 - 1), st.sampled_from(["abs", "sq"]))
def test_ewa_with_advice_convex_losses(T, N, seed, kind):
    r = np.random.default_rng(seed)
    F, y = r.random((T, N)), r.random(T)
    loss = E.absolute_loss if kind == "abs" else E.squared_loss
    eta = E.ewa_eta(N, T) if N > 1 else 1.0
    tr = E.run_experts(E.Hedge(N, eta), advice=F, y=y, loss=loss)
    mix = (tr.details["p"] * tr.losses).sum(axis=1)
    assert (tr.loss <= mix + 1e-12).all()  # Jensen
    assert tr.R <= np.log(N) / eta + eta * T / 8 + 1e-9


@SETTINGS
@given(loss_matrix(max_T=150, max_N=6))
def test_doubling_and_anytime_bounds(L):
    T, N = L.shape
    if N == 1:
        L = np.hstack([L, L])
        N = 2
    tr = E.run_experts(E.Doubling(N, lambda h: E.Hedge(N, E.ewa_eta(N, h))), L)
    t = tr.rounds
    assert (tr.regret[1:] <= [E.doubling_bound(N, int(s)) + 1e-9 for s in t]).all()
    assert np.array_equal(tr.details["period"], np.floor(np.log2(t)).astype(int))
    assert np.array_equal(tr.details["horizon"], 2 ** tr.details["period"])
    any_ = E.run_experts(E.AnytimeHedge(N), L)
    assert (any_.regret[1:] <= [E.anytime_bound(N, int(s)) + 1e-9 for s in t]).all()


@pytest.mark.parametrize("learner", [lambda: E.WeightedMajority(2, 0.5), lambda: E.WeightedMajority(2, 0),
                                     lambda: E.FollowTheLeader(2)])
@pytest.mark.parametrize("T", [1, 2, 9, 50])
def test_cover_forces_regret_half(learner, T):
    tr = E.play_experts(learner(), E.CoverAdversary(), T)
    assert (tr.loss == 1).all() and tr.R >= T / 2
    assert tr.expert_cum[-1].sum() == T


def test_doubling_constant_and_bounds_values():
    assert E.doubling_bound(2, 1) == pytest.approx(
        math.sqrt(2) / (math.sqrt(2) - 1) * math.sqrt(math.log(2) / 2) - math.sqrt(math.log(2) / 2) / (math.sqrt(2) - 1))
    assert E.ewa_bound(10, 100) == pytest.approx(math.sqrt(50 * math.log(10)))
    assert E.ewa_bound(10, 100, E.ewa_eta(10, 100)) == pytest.approx(E.ewa_bound(10, 100))
    assert E.uml_bound(10, 100) == pytest.approx(math.sqrt(200 * math.log(10)))
    assert E.wm_bound(8, 0, 0) == pytest.approx(3.0) and E.wm_bound(8, 1, 0) == math.inf
    assert E.rwm_beta0(2, 1) == 0.5 and E.rwm_beta0(2, 10**6) == pytest.approx(1 - math.sqrt(math.log(2) / 10**6))
    assert E.anytime_bound(4, 0) == pytest.approx(math.sqrt(math.log(4) / 8))


# -- lower bound and minimax -------------------------------------------------------------------------
def test_two_expert_losses_and_expected_regret():
    L = E.two_expert_losses(1000, np.random.default_rng(0))
    assert set(map(tuple, L.tolist())) == {(0.0, 1.0), (1.0, 0.0)}
    assert [E.two_expert_expected_regret(T) for T in range(5)] == [0, Fraction(1, 2), Fraction(1, 2), Fraction(3, 4),
                                                                   Fraction(3, 4)]


@pytest.mark.parametrize("T", [1, 2, 3, 5, 8])
def test_expected_regret_of_any_learner_by_enumeration(T):
    seqs = (np.arange(2**T)[:, None] >> np.arange(T)[None, :]) & 1
    R = [E.hedge(np.stack([s, 1 - s], axis=1), 0.7).R for s in seqs]
    assert np.mean(R) == pytest.approx(float(E.two_expert_expected_regret(T)), abs=1e-12)


def test_minimax_value_strategy_and_bounds():
    G = E.TwoExpertMinimax(120)
    for T in range(121):
        assert G.value(T) == E.two_expert_expected_regret(T)
        if T:
            assert math.sqrt(T / 8) <= float(G.value(T)) + 1e-15 <= math.sqrt(T / 2 * math.log(2)) + 1e-15
    for r in range(1, 40):
        for d in range(-20, 21):
            assert G.V(r, d) == (G.V(r - 1, d + 1) + G.V(r - 1, d - 1)) / 2
            assert 0 <= G.p(r, d) <= 1
            assert G.p(r, d) == Fraction(1, 2) + (G.V(r - 1, d - 1) - G.V(r - 1, d + 1)) / 2
    assert G.values()[:4] == [0, Fraction(1, 2), Fraction(1, 2), Fraction(3, 4)]


@pytest.mark.parametrize("T", [1, 2, 3, 4, 5])
def test_minimax_learner_attains_value_against_every_sequence(T):
    G = E.TwoExpertMinimax(T)
    vectors = np.array([[0, 0], [1, 1], [1, 0], [0, 1]])
    worst = -1.0
    for code in range(4**T):
        seq = vectors[[(code >> (2 * t)) & 3 for t in range(T)]]
        R = E.run_experts(E.MinimaxLearner(G, T), seq).R
        assert R <= float(G.value(T)) + 1e-12
        if (seq[:, 0] != seq[:, 1]).all():
            assert R == pytest.approx(float(G.value(T)), abs=1e-12)
        worst = max(worst, R)
    assert worst == pytest.approx(float(G.value(T)), abs=1e-12)


# -- SOA experts --------------------------------------------------------------------------------------
@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([0, 1]))
def test_soa_experts_count_and_lemma_21_13(seed, tie):
    r = np.random.default_rng(seed)
    H = np.unique(r.integers(0, 2, size=(int(r.integers(1, 14)), 5)).astype(np.uint8), axis=0)
    xs = r.integers(0, 5, size=int(r.integers(1, 9)))
    D = olkit.ldim(H)
    adv, sets = E.soa_experts(H, xs, tie=tie)
    assert adv.shape == (len(xs), E.soa_expert_count(len(xs), D)) and len(set(sets)) == len(sets)
    assert all(len(s) <= D for s in sets)
    for j, I in enumerate(sets):
        assert np.array_equal(adv[:, j], E.soa_expert_predictions(H, xs, I, tie=tie))
    for h in range(len(H)):
        I = E.soa_mistake_rounds(H, xs, H[h, xs], tie=tie)
        assert len(I) <= D
        assert np.array_equal(E.soa_expert_predictions(H, xs, I, tie=tie), H[h, xs])
        assert (adv == H[h, xs][:, None]).all(axis=0).any()


def test_uml_mixed_tie_rules_break_lemma_21_13():
    H = np.array([[0, 1], [1, 0]], dtype=np.uint8)  # round 1 on x = 0 is a tie: Ldim 0 on both sides
    xs = [0]
    I = E.soa_mistake_rounds(H, xs, [0], tie=1)  # SOA (ties to 1) errs on h = row 0
    assert I == (1,)
    assert E.soa_expert_predictions(H, xs, I, tie=0).tolist() == [1]  # UML's expert: ties to 0, flipped: wrong
    assert E.soa_expert_predictions(H, xs, I, tie=1).tolist() == [0]  # matching tie rules: right


def test_soa_expert_count_bound():
    for D in range(1, 8):
        for T in range(D, 80):
            assert E.soa_expert_count(T, D) <= E.soa_expert_count_bound(T, D)
    assert E.soa_expert_count(4, 2) == 1 + 4 + 6
    assert E.soa_expert_count(1, 3) > E.soa_expert_count_bound(1, 3)  # fails for T < Ldim


def test_public_names():
    for name in ("Hedge", "WeightedMajority", "RandomizedWeightedMajority", "AnytimeHedge", "Doubling",
                 "CoverAdversary", "TwoExpertMinimax", "MinimaxLearner", "run_experts", "play_experts", "hedge",
                 "noisy_experts", "two_expert_losses", "soa_experts", "FollowTheLeader", "ExpertTrace"):
        assert getattr(olkit, name) is getattr(E, name)
    assert set(E.__all__) <= set(dir(E))


# -- bad input and edge cases (moved from the Chapter 3.1 notebook) ------------------------------------
# Each theorem of Chapter 3 has hypotheses (losses in [0, 1] or {0, 1}, eta > 0, beta in its range, advice
# of the right shape); olkit refuses anything else with a ValueError that names the argument, and accepts
# the edge cases below.
class Mute:
    """A learner that neither predicts nor plays a distribution."""

    N = 2

    def predict(self, f):
        return None

    def update(self, ell, loss):
        pass


def same(a, b):
    """Raise unless two traces of olkit.hedge record the same numbers."""
    for x, y in [
        (a.loss, b.loss),
        (a.state["Phi"], b.state["Phi"]),
        (a.state["Lmin"], b.state["Lmin"]),
    ]:
        if x.shape != y.shape or not np.array_equal(x, y):
            raise AssertionError("the two runs differ")


def empty_game(tr):
    """Raise unless the trace of a game of 0 rounds is empty: no losses, no
    regret, one state entry.
    """
    if tr.losses.shape != (0, 2) or tr.R != 0 or tr.state["L"].shape != (1, 2):
        raise AssertionError("the empty game is not empty")


M5 = np.array([[0, 1, 1, 0], [1, 1, 0, 1], [0, 0, 1, 1], [1, 0, 1, 0], [1, 1, 1, 0]])
E = olkit.experts
G4 = lambda: olkit.TwoExpertMinimax(4)  # noqa: E731  (built inside each call, so that a failure is reported)
S3 = olkit.singletons(3)
gen = np.random.default_rng(0)
refused = [
    (
        "losses above 1",
        lambda: olkit.run_experts(olkit.Hedge(2, 1.0), [[0.5, 1.5]]),
        "losses must lie in [0, 1]",
    ),
    (
        "negative losses",
        lambda: olkit.hedge(np.array([[-0.1, 0.5]]), 1.0),
        "losses must lie in [0, 1]",
    ),
    (
        "NaN losses",
        lambda: olkit.run_experts(olkit.Hedge(2, 1.0), [[np.nan, 0.5]]),
        "must not contain NaN",
    ),
    (
        "boolean losses",
        lambda: olkit.run_experts(olkit.Hedge(2, 1.0), [[True, False]]),
        "numeric array",
    ),
    (
        "losses that are not numbers",
        lambda: olkit.run_experts(olkit.Hedge(2, 1.0), [[None, 0.5]]),
        "numeric array",
    ),
    (
        "3 losses for 2 experts",
        lambda: olkit.run_experts(olkit.Hedge(2, 1.0), [[0.5, 0.5, 0.5]]),
        "round 1: losses must have shape (..., 2)",
    ),
    ("a loss vector, not a matrix", lambda: olkit.hedge(np.zeros(3), 1.0), "(T, N) matrix"),
    (
        "a loss vector to run_experts",
        lambda: olkit.run_experts(olkit.Hedge(3, 1.0), np.zeros(3)),
        "(T, N) matrix",
    ),
    (
        "advice for 2 experts, learner of 3",
        lambda: olkit.run_experts(olkit.Hedge(3, 1.0), advice=np.zeros((2, 2)), y=np.zeros(2)),
        "round 1: advice must have shape",
    ),
    (
        "advice and outcomes of different lengths",
        lambda: olkit.run_experts(olkit.Hedge(2, 1.0), advice=np.zeros((3, 2)), y=np.zeros(4)),
        "advice must be (T, N)",
    ),
    (
        "an outcome above 1",
        lambda: olkit.run_experts(olkit.Hedge(2, 1.0), advice=np.zeros((2, 2)), y=[0, 2]),
        "y must lie in [0, 1]",
    ),
    (
        "advice without outcomes",
        lambda: olkit.run_experts(olkit.Hedge(2, 1.0), advice=np.zeros((2, 2))),
        "outcomes y",
    ),
    (
        "neither losses nor advice",
        lambda: olkit.run_experts(olkit.Hedge(2, 1.0)),
        "give either losses",
    ),
    (
        "both losses and advice",
        lambda: olkit.run_experts(olkit.Hedge(2, 1.0), np.zeros((1, 2)), advice=np.zeros((1, 2)), y=[0]),
        "give either losses",
    ),
    (
        "a negative number of rounds",
        lambda: olkit.play_experts(olkit.Hedge(2, 1.0), olkit.CoverAdversary(), -1),
        "T must",
    ),
    ("eta = 0", lambda: olkit.Hedge(3, 0), "eta must be > 0"),
    (
        "eta < 0 in the vectorized run",
        lambda: olkit.hedge(np.zeros((2, 3)), -1.0),
        "eta must be > 0",
    ),
    ("eta = NaN", lambda: olkit.Hedge(3, float("nan")), "eta must be finite"),
    ("eta = True", lambda: olkit.Hedge(3, True), "eta must be a real number"),
    ("eta as text", lambda: olkit.Hedge(3, "1"), "eta must be a real number"),
    (
        "a schedule of the wrong length",
        lambda: olkit.hedge(np.zeros((4, 2)), np.ones(3)),
        "eta must be a positive number",
    ),
    (
        "a schedule with a zero rate",
        lambda: olkit.hedge(np.zeros((2, 2)), np.array([1.0, 0.0])),
        "eta must be a positive",
    ),
    (
        "threads with fractional losses",
        lambda: olkit.hedge(np.zeros((3, 2)), 1.0, threads=2),
        "threads > 1 needs integer",
    ),
    ("0 threads", lambda: olkit.hedge(np.zeros((3, 2), dtype=int), 1.0, threads=0), "threads must"),
    ("blocks of 0 rounds", lambda: olkit.hedge(np.zeros((3, 2)), 1.0, block=0), "block must"),
    ("WM with beta = 1", lambda: olkit.WeightedMajority(3, 1.0), "beta must be in [0, 1)"),
    ("WM with beta < 0", lambda: olkit.WeightedMajority(3, -0.5), "beta must be in [0, 1)"),
    ("RWM with beta = 0", lambda: olkit.RandomizedWeightedMajority(3, 0), "beta must be in (0, 1)"),
    ("RWM with beta = 1", lambda: olkit.RandomizedWeightedMajority(3, 1), "beta must be in (0, 1)"),
    ("beta as text", lambda: olkit.WeightedMajority(3, "0.5"), "beta must be a real number"),
    (
        "WM with advice 1/2",
        lambda: olkit.run_experts(olkit.WeightedMajority(2, 0.5), advice=[[0.5, 1]], y=[1]),
        "advice must be 0/1",
    ),
    (
        "WM without advice",
        lambda: olkit.run_experts(olkit.WeightedMajority(2, 0.5), np.zeros((1, 2))),
        "needs the experts",
    ),
    (
        "RWM with losses 1/2",
        lambda: olkit.run_experts(olkit.RandomizedWeightedMajority(2, 0.5), [[0.5, 0]]),
        "losses must be 0/1",
    ),
    (
        "Follow the Leader without advice",
        lambda: olkit.run_experts(olkit.FollowTheLeader(2), np.zeros((1, 2))),
        "needs the experts",
    ),
    ("0 experts", lambda: olkit.Hedge(0, 1.0), "N (the number of experts) must be"),
    (
        "True experts",
        lambda: olkit.WeightedMajority(True, 0.5),
        "N (the number of experts) must be",
    ),
    ("anytime rate with 1 expert", lambda: olkit.AnytimeHedge(1), "N must be >= 2"),
    ("beta_0 with 1 expert", lambda: E.rwm_beta0(1, 10), "N must be >= 2"),
    ("tuned eta with 1 expert", lambda: E.ewa_eta(1, 10), "N must be >= 2"),
    ("UML's eta with 1 expert", lambda: E.uml_eta(1, 10), "d must be >= 2"),
    ("the bound with eta = 0", lambda: E.ewa_bound(3, 10, 0.0), "eta must be > 0"),
    (
        "a doubling trick without a learner",
        lambda: olkit.Doubling(2, None),
        "make must be a callable",
    ),
    (
        "Cover against a distribution",
        lambda: olkit.play_experts(olkit.Hedge(2, 1.0), olkit.CoverAdversary(), 1),
        "needs a deterministic prediction",
    ),
    (
        "a learner that neither predicts nor plays",
        lambda: olkit.run_experts(Mute(), np.zeros((1, 2))),
        "neither predicted",
    ),
    ("random losses without a generator", lambda: olkit.two_expert_losses(5, 3), "rng must be"),
    (
        "noisy experts without a generator",
        lambda: olkit.noisy_experts(5, 3, 3, error=0.1, noise=0.3),
        "rng must be",
    ),
    (
        "an error rate of 1.5",
        lambda: olkit.noisy_experts(5, 3, gen, error=1.5, noise=0.3),
        "error must be a probability",
    ),
    (
        "a noise rate of -1",
        lambda: olkit.noisy_experts(5, 3, gen, error=0.1, noise=-1),
        "noise must be a probability",
    ),
    ("a game of -1 rounds", lambda: olkit.TwoExpertMinimax(-1), "T_max must"),
    ("V_T beyond T_max", lambda: G4().value(5), "T must be <= T_max"),
    ("V_r(d) beyond T_max", lambda: G4().V(5, 0), "outside the computed game"),
    ("V_r(d) with a lead too large", lambda: G4().V(2, 3), "outside the computed game"),
    ("p with 0 rounds to go", lambda: G4().p(0, 0), "r must be"),
    ("p beyond T_max", lambda: G4().p(5, 0), "outside the computed game"),
    ("p with a lead too large", lambda: G4().p(2, 3), "outside the computed game"),
    (
        "a minimax learner longer than the game",
        lambda: olkit.MinimaxLearner(G4(), 5),
        "T must be <= the game's T_max",
    ),
    ("a minimax learner without a game", lambda: olkit.MinimaxLearner(None, 2), "game must be"),
    (
        "a round after the minimax game's end",
        lambda: olkit.run_experts(olkit.MinimaxLearner(G4(), 1), np.zeros((2, 2))),
        "r must be",
    ),
    (
        "an update after the minimax game's end",
        lambda: [m.update([0, 0]) for m in [olkit.MinimaxLearner(G4(), 1)] * 2],
        "the game has T = 1 rounds",
    ),
    (
        "SOA experts with a point outside the domain",
        lambda: olkit.soa_experts(S3, [0, 3]),
        "round 2: x = 3 is not a point of the domain",
    ),
    (
        "SOA experts with a negative point",
        lambda: olkit.soa_experts(S3, [-1]),
        "not a point of the domain",
    ),
    (
        "SOA experts with a boolean point",
        lambda: olkit.soa_experts(S3, [True]),
        "not a point of the domain",
    ),
    (
        "SOA experts with tie 2",
        lambda: E.soa_expert_predictions(S3, [0], [], tie=2),
        "tie must be 0 or 1",
    ),
    (
        "SOA experts with another solver",
        lambda: olkit.soa_experts(S3, [0], solver=3),
        "solver must be an LdimSolver",
    ),
    (
        "mistake rounds with a label 2",
        lambda: E.soa_mistake_rounds(S3, [0, 1], [1, 2]),
        "labels must be",
    ),
    (
        "mistake rounds with too few labels",
        lambda: E.soa_mistake_rounds(S3, [0, 1], [1]),
        "labels must be",
    ),
    ("the count bound with Ldim 0", lambda: E.soa_expert_count_bound(5, 0), "ldim must be"),
]
accepted = [
    (
        "WM with beta = 0 and beta = 0.999",
        lambda: (olkit.WeightedMajority(2, 0), olkit.WeightedMajority(2, 0.999)),
    ),
    (
        "RWM with beta near 0 and 1",
        lambda: (
            olkit.RandomizedWeightedMajority(2, 1e-9),
            olkit.RandomizedWeightedMajority(2, 0.999),
        ),
    ),
    (
        "losses of exactly 0 and 1",
        lambda: olkit.run_experts(olkit.Hedge(2, 1.0), [[0.0, 1.0], [1, 0]]),
    ),
    (
        "integer losses, two threads = one thread",
        lambda: same(
            olkit.hedge(M5, 0.5, threads=2, block=2, record=False),
            olkit.hedge(M5, 0.5, block=2, record=False),
        ),
    ),
    (
        "WM with beta = 0 on a game",
        lambda: olkit.run_experts(olkit.WeightedMajority(3, 0), advice=M5[:, :3], y=M5[:, 3]),
    ),
    (
        "a schedule of T and of T + 1 rates",
        lambda: (
            olkit.hedge(np.zeros((2, 2)), [1.0, 0.5]),
            olkit.hedge(np.zeros((2, 2)), [1.0, 0.5, 0.2]),
        ),
    ),
    ("a tiny rate", lambda: olkit.Hedge(2, 1e-12)),
    ("a single expert", lambda: olkit.run_experts(olkit.Hedge(1, 1.0), [[0.3]])),
    (
        "a game of 0 rounds has no losses and no regret",
        lambda: empty_game(olkit.play_experts(olkit.Hedge(2, 1.0), olkit.CoverAdversary(), 0)),
    ),
    (
        "games of 0 rounds",
        lambda: (
            olkit.play_experts(olkit.Hedge(2, 1.0), olkit.CoverAdversary(), 0),
            olkit.hedge(np.zeros((0, 2)), 1.0),
            olkit.two_expert_losses(0, gen),
            olkit.noisy_experts(0, 2, gen, error=0.1, noise=0.3),
        ),
    ),
    (
        "advice with outcomes in [0, 1]",
        lambda: olkit.run_experts(olkit.Hedge(2, 1.0), advice=[[0.2, 0.9]], y=[0.5]),
    ),
    ("error and noise of 0 and 1", lambda: olkit.noisy_experts(3, 2, gen, error=0, noise=1)),
    ("the anytime rate with 2 experts", lambda: olkit.AnytimeHedge(2)),
    (
        "tuned parameters with 2 experts",
        lambda: (E.rwm_beta0(2, 1), E.ewa_eta(2, 1), E.uml_eta(2, 1)),
    ),
    (
        "the minimax game at its edges",
        lambda: (
            olkit.TwoExpertMinimax(0).value(0),
            G4().value(4),
            G4().V(4, 0),
            G4().V(0, 4),
            G4().p(1, 3),
            G4().p(4, 0),
        ),
    ),
    (
        "the minimax learner over a whole game",
        lambda: olkit.run_experts(olkit.MinimaxLearner(G4(), 4), [[1, 0], [0, 1], [1, 1], [0, 0]]),
    ),
    (
        "0/1 losses and advice for WM and RWM",
        lambda: (
            olkit.run_experts(olkit.WeightedMajority(2, 0.5), advice=[[0, 1], [1, 1]], y=[1, 0]),
            olkit.run_experts(olkit.RandomizedWeightedMajority(2, 0.5), [[0, 1], [1, 0]]),
        ),
    ),
    (
        "bounds for a game of 0 rounds",
        lambda: (
            E.ewa_bound(3, 0),
            E.ewa_bound(3, 0, 1.0),
            E.uml_bound(3, 0),
            E.anytime_bound(3, 0),
        ),
    ),
    (
        "SOA experts on the last point, both tie labels",
        lambda: (
            olkit.soa_experts(S3, [2, 0], tie=0),
            olkit.soa_experts(S3, [2], solver=olkit.LdimSolver(S3)),
            E.soa_mistake_rounds(S3, [2, 1], [1, 0], tie=0),
        ),
    ),
    ("the count bound for T = Ldim = 1", lambda: E.soa_expert_count_bound(1, 1)),
]


@pytest.mark.parametrize("name, call, msg", refused, ids=[c[0] for c in refused])
def test_bad_input_is_refused_with_a_message_that_names_it(name, call, msg):
    with pytest.raises(ValueError) as err:
        call()
    assert msg in str(err.value), f"{name}: {err.value}"


@pytest.mark.parametrize("name, call", accepted, ids=[c[0] for c in accepted])
def test_edge_cases_are_accepted(name, call):
    call()
