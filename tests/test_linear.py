"""The Perceptron (olkit/linear.py): the update rule, the recorded state, the margin bound, bad input."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import olkit
from olkit.cover import margin_sequence
from olkit.linear import Perceptron


def novikoff_steps_hold(trace, u, gamma) -> bool:
    """The steps of Mohri et al. Theorem 7.8 (r = 1) on a recorded run, as in the notebooks."""
    k = trace.state["updates"]
    w = trace.state["w"][1:]
    return bool(
        np.array_equal(np.diff(k), ((trace.y * trace.details["score"] <= 0) | trace.details["tie"]).astype(int))
        and np.all(w @ u >= gamma * k[1:] - 1e-9)
        and np.all(trace.state["w_sq"][1:] <= k[1:] + 1e-9)
        and k[-1] <= 1 / gamma**2 + 1e-9
        and np.all(trace.cum_mistakes <= k[1:])
    )


def test_starts_at_zero_and_predicts_minus_one_on_a_zero_score():
    p = Perceptron(3)
    assert p.labels == (-1, 1)
    assert np.array_equal(p.w, np.zeros(3))
    assert p.predict([1.0, 2.0, 3.0]) == -1 and p.details == {"score": 0.0, "tie": True}


def test_update_rule():
    p = Perceptron(2)
    p.update(np.array([1.0, 0.0]), 1)  # score 0: y * score <= 0 -> update
    assert p.w.tolist() == [1.0, 0.0] and p.updates == 1
    p.update(np.array([0.5, 1.0]), 1)  # score 0.5 > 0 and y = 1: no update
    assert p.w.tolist() == [1.0, 0.0] and p.updates == 1
    p.update(np.array([0.5, 1.0]), -1)  # y * score = -0.5: update with the label
    assert p.w.tolist() == [0.5, -1.0] and p.updates == 2
    assert p.predict([1.0, 0.0]) == 1 and p.details["score"] == 0.5


def test_a_correct_prediction_with_zero_score_still_updates():
    # the Perceptron's update condition is y <w, x> <= 0, so a score of 0 with y = -1 updates
    p = Perceptron(1)
    assert p.predict([1.0]) == -1
    p.update([1.0], -1)
    assert p.updates == 1 and p.w.tolist() == [-1.0]


def test_state_is_recorded_and_copied():
    X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    y = np.array([1, -1, 1])
    tr = olkit.run(Perceptron(2), list(X), y)
    assert tr.state["w"].shape == (4, 2) and tr.state["w_sq"].shape == (4,)
    assert tr.state["w"][0].tolist() == [0.0, 0.0]
    assert tr.state["w"][-1].tolist() == [2.0, 0.0]  # every score was 0, so every round updated
    assert np.allclose(tr.state["w_sq"], (tr.state["w"] ** 2).sum(axis=1))
    assert tr.state["updates"].tolist() == [0, 1, 2, 3]
    assert tr.details["score"].tolist() == [0.0, 0.0, 0.0]
    p = Perceptron(2)
    s = p.state()
    p.update([1.0, 0.0], 1)
    assert s["w"].tolist() == [0.0, 0.0], "state() must return a copy of w"


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6), st.floats(0.05, 1.0), st.integers(0, 2**16), st.booleans(), st.floats(0, 1))
def test_margin_bound_on_separable_sequences(d, gamma, seed, on_sphere, spread):
    rng = np.random.default_rng(seed)
    X, y, u = margin_sequence(150, d, gamma, rng, margin_max=gamma + spread * (1 - gamma), on_sphere=on_sphere and d > 1)
    tr = olkit.run(Perceptron(d), list(X), y)
    assert novikoff_steps_hold(tr, u, gamma)
    assert tr.M <= tr.state["updates"][-1] <= 1 / gamma**2


def test_cycling_over_a_separable_set_converges():
    rng = np.random.default_rng(3)
    X, y, u = margin_sequence(40, 3, 0.2, rng, margin_max=0.3)
    idx = np.tile(np.arange(40), 30)
    tr = olkit.run(Perceptron(3), list(X[idx]), y[idx])
    assert tr.state["updates"][-1] <= 25
    w = tr.state["w"][-1]
    assert np.all(y * (X @ w) > 0), "after convergence the Perceptron separates the set"


@pytest.mark.parametrize("d", [0, -1, 2.0, True, "3", None])
def test_bad_dimension(d):
    with pytest.raises(ValueError, match="d must be a positive integer"):
        Perceptron(d)


@pytest.mark.parametrize("x, msg", [([1.0, 2.0], r"shape \(3,\)"), (np.zeros((1, 3)), r"shape \(3,\)"),
                                    (5.0, r"shape \(3,\)"), (["a", "b", "c"], "numeric"),
                                    ([1.0, np.nan, 0.0], "finite"), ([np.inf, 0, 0], "finite")])
def test_bad_x(x, msg):
    p = Perceptron(3)
    with pytest.raises(ValueError, match=msg):
        p.predict(x)
    with pytest.raises(ValueError, match=msg):
        p.update(x, 1)


@pytest.mark.parametrize("y", [0, 2, True, 1.0, "1", None])
def test_bad_label(y):
    with pytest.raises(ValueError, match=r"label y = .* is not in \{-1, \+1\}"):
        Perceptron(2).update([1.0, 0.0], y)


def test_run_rejects_01_labels_and_to_pm1_converts():
    X = [np.array([1.0]), np.array([-1.0])]
    with pytest.raises(ValueError, match="label set"):
        olkit.run(Perceptron(1), X, [1, 0])
    tr = olkit.run(Perceptron(1), X, olkit.to_pm1([1, 0]))
    assert tr.y.tolist() == [1, -1]


class FlippedPerceptron(Perceptron):
    """Broken: w -= y x."""

    def update(self, x, y):
        x, y = self._x(x), self._y(y)
        if y * float(self.w @ x) <= 0:
            self.w = self.w - y * x
            self.updates += 1
        self.t += 1


class UnlabelledPerceptron(Perceptron):
    """Broken: w += x, forgetting the label."""

    def update(self, x, y):
        x, y = self._x(x), self._y(y)
        if y * float(self.w @ x) <= 0:
            self.w = self.w + x
            self.updates += 1
        self.t += 1


@pytest.mark.parametrize("broken", [FlippedPerceptron, UnlabelledPerceptron])
def test_the_proof_steps_catch_broken_updates(broken):
    rng = np.random.default_rng(1)
    X, y, u = margin_sequence(200, 3, 0.2, rng)
    assert novikoff_steps_hold(olkit.run(Perceptron(3), list(X), y), u, 0.2)
    assert not novikoff_steps_hold(olkit.run(broken(3), list(X), y), u, 0.2)


# ---------------------------------------------------------------------------------------------
# Chapter 4: step size, block look-ahead, kernels, voted and averaged Perceptron
# ---------------------------------------------------------------------------------------------
import math

import olkit.game as game
from olkit import fp
from olkit.linear import AveragedPerceptron, GaussianKernel, KernelPerceptron, LinearKernel, PolynomialKernel, VotedPerceptron


def same_run(a, b) -> bool:
    """Two round-by-round traces with the same predictions, weights and update counts (exactly)."""
    return (np.array_equal(a.yhat, b.yhat) and np.array_equal(a.state["w"], b.state["w"])
            and np.array_equal(a.state["updates"], b.state["updates"]))


def streams(kind: str, T: int, d: int, rng):
    """Streams of several kinds: Gaussian, integer grid (exact ties), repeated points, rotated orthonormal."""
    if kind == "gauss":
        return rng.standard_normal((T, d)), np.where(rng.random(T) < 0.5, -1, 1)
    if kind == "grid":  # small integers: many scores are exactly 0
        X = rng.integers(-1, 2, size=(T, d)).astype(float)
        return X, np.where(rng.random(T) < 0.5, -1, 1)
    if kind == "repeat":  # a few points cycled, some of them zero
        P = rng.standard_normal((4, d))
        P[0] = 0
        idx = rng.integers(0, 4, size=T)
        return P[idx], np.where(idx % 2 == 0, 1, -1)
    n = min(T, d)
    Q, y, _ = olkit.orthonormal_stream(n, d, 3.0, rng)
    return Q, y


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(["gauss", "grid", "repeat", "orth"]), st.integers(1, 300), st.integers(1, 12),
       st.sampled_from([1.0, 0.5, 0.1, 3.0]), st.integers(0, 2**16), st.sampled_from([64, 100, 1 << 20]))
def test_lookahead_equals_the_round_by_round_run(kind, T, d, eta, seed, block_bytes):
    rng = np.random.default_rng(seed)
    X, y = streams(kind, T, d, rng)
    old = game.LOOKAHEAD_BYTES
    game.LOOKAHEAD_BYTES = block_bytes  # small blocks: many scans, updates at block boundaries
    try:
        fast = olkit.run_stream(Perceptron(X.shape[1], eta), X, y)
    finally:
        game.LOOKAHEAD_BYTES = old
    slow = olkit.run(Perceptron(X.shape[1], eta), list(X), y)
    assert same_run(slow, fast.to_trace())
    assert np.array_equal(fast.rounds, np.flatnonzero(np.diff(slow.state["updates"])) + 1)
    assert np.array_equal(fast.details["score"], slow.details["score"][fast.rounds - 1])
    assert fast.M == slow.M and fast.U == slow.state["updates"][-1]


def test_lookahead_continues_from_the_current_state_and_counts_rounds():
    rng = np.random.default_rng(5)
    X, y, _ = olkit.separable_stream(500, 4, 0.1, rng)
    p = Perceptron(4)
    a = p.play_stream(X[:200], y[:200])
    b = p.play_stream(X[200:], y[200:])
    assert p.t == 501
    whole = Perceptron(4).play_stream(X, y)
    assert np.array_equal(whole.rounds, np.concatenate([a.rounds, 200 + b.rounds]))
    assert np.array_equal(whole.state["w"][-1], b.state["w"][-1])


def near_threshold(w, rng, d):
    """A unit-norm x with <w, x> within a few ulps of the tie threshold 1e-9 ||w|| ||x||."""
    z = rng.standard_normal(d)
    z -= (z @ w) / (w @ w) * w
    z /= np.linalg.norm(z)
    c = fp.TIE_RTOL * (1 + rng.uniform(-4e-16, 4e-16) * d)
    return z * math.sqrt(1 - c * c) + c * w / np.linalg.norm(w)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 40), st.integers(0, 2**16))
def test_the_block_decision_at_the_tie_threshold_is_the_per_round_decision(d, seed):
    rng = np.random.default_rng(seed)
    p = Perceptron(d)
    p.w = rng.standard_normal(d)
    rows = [near_threshold(p.w, rng, d) for _ in range(6)] + [rng.standard_normal(d)]
    X = np.array(rows)
    y = np.where(rng.random(len(X)) < 0.7, 1, -1)
    want = [i for i in range(len(X)) if p._violated(X[i], int(y[i]))]
    first = p._first_update(X, y, 0)  # the first row that might update: never after the first update
    if want:
        assert first is not None and first <= want[0]
    # and the whole look-ahead run on these rows is the round-by-round run
    q = Perceptron(d)
    q.w = p.w.copy()
    fast = q.play_stream(X, y)
    r = Perceptron(d)
    r.w = p.w.copy()
    slow = olkit.run(r, list(X), y)
    assert np.array_equal(fast.to_trace().state["w"], slow.state["w"])


def test_step_size_scales_the_weights_and_keeps_the_updates():
    rng = np.random.default_rng(2)
    X, y, _ = olkit.separable_stream(2000, 6, 0.05, rng)
    base = Perceptron(6).play_stream(X, y)
    for eta in (0.25, 4.0, 0.1):
        tr = Perceptron(6, eta).play_stream(X, y)
        assert np.array_equal(tr.rounds, base.rounds)
        assert np.allclose(tr.state["w"], eta * base.state["w"], rtol=1e-12, atol=1e-12)
    assert np.array_equal(Perceptron(6, 0.25).play_stream(X, y).state["w"], 0.25 * base.state["w"])  # exact: 2^-2


@pytest.mark.parametrize("eta", [0, -1.0, float("nan"), float("inf"), True, "1", None])
def test_bad_eta(eta):
    with pytest.raises(ValueError, match="eta must be a positive finite number"):
        Perceptron(3, eta)
    with pytest.raises(ValueError, match="eta must be a positive finite number"):
        KernelPerceptron(3, eta=eta)


@pytest.mark.parametrize("X, y, msg", [
    (np.zeros((4, 2)), np.ones(4, dtype=int), r"X must have shape \(T, d\) = \(T, 3\)"),
    (np.zeros((4, 3)), np.ones(5, dtype=int), r"y must have shape \(T,\) = \(4,\)"),
    (np.zeros((4, 3)), np.array([1, 0, 1, 1]), r"y: label 0 at round 2 is not in"),
    (np.zeros((4, 3)), np.array([1.0, -1.0, 1.0, 1.0]), "y must hold integer labels"),
    (np.zeros((4, 3)), np.array([True, False, True, True]), "y must hold integer labels"),
    (np.array([[0, 0, 0], [1, np.nan, 0]], dtype=float), np.array([1, 1]), "round 2: x must be finite"),
    ([["a", "b", "c"]], [1], "X must be a numeric array"),
])
def test_bad_streams(X, y, msg):
    with pytest.raises(ValueError, match=msg):
        Perceptron(3).play_stream(X, y)


# -- scikit-learn's Perceptron: the same updates and weights ------------------------------------
sklearn = pytest.importorskip("sklearn.linear_model")


def sk_perceptron():
    return sklearn.Perceptron(fit_intercept=False, shuffle=False, eta0=1, max_iter=1, tol=None, penalty=None)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("kind, seed", [("separable", 0), ("separable", 1), ("noisy", 2), ("noisy", 3), ("gauss", 4)])
def test_same_weights_as_scikit_learn(kind, seed):
    """scikit-learn's Perceptron (SGD on max(0, -y <w, x>), one epoch, no shuffling) updates when
    y <w, x> <= 0: the same rule, except that olkit also counts |<w, x>| <= 1e-9 ||w|| ||x|| as 0.
    On random real data no score other than the first (w_1 = 0, an exact 0 for both) falls in that
    band, so the two runs make the same updates and end at the same weights, bit for bit."""
    rng = np.random.default_rng(seed)
    if kind == "separable":
        X, y, _ = olkit.separable_stream(20000, 10, 0.02, rng)
    elif kind == "noisy":
        X, y, _, _ = olkit.noisy_stream(20000, 10, 0.05, rng, noise=0.1)
    else:
        X, y = rng.standard_normal((20000, 10)), np.where(rng.random(20000) < 0.5, -1, 1)
    ours = Perceptron(10).play_stream(X, y)
    theirs = sk_perceptron().fit(X, y)
    assert np.array_equal(ours.state["w"][-1], theirs.coef_[0])
    # no score strictly inside the tie band (other than exact zeros) on these streams
    w_t = ours.state_at("w")
    s = np.einsum("ij,ij->i", w_t, X)
    band = (np.abs(s) <= 1e-9 * np.linalg.norm(w_t, axis=1) * np.linalg.norm(X, axis=1)) & (s != 0)
    assert not band.any()


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("seed", [0, 1])
def test_same_update_rounds_as_scikit_learn(seed):
    rng = np.random.default_rng(seed)
    X, y, _, _ = olkit.noisy_stream(300, 5, 0.05, rng, noise=0.15)
    clf = sk_perceptron()
    w_prev, rounds = np.zeros(5), []
    for t in range(len(y)):
        clf.partial_fit(X[t:t + 1], y[t:t + 1], classes=np.array([-1, 1]))
        if not np.array_equal(clf.coef_[0], w_prev):
            rounds.append(t + 1)
        w_prev = clf.coef_[0].copy()
    ours = Perceptron(5).play_stream(X, y)
    assert ours.rounds.tolist() == rounds and np.array_equal(ours.state["w"][-1], w_prev)


# -- the dual and kernel Perceptron ------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["gauss", "grid", "repeat", "orth"]), st.integers(1, 200), st.integers(1, 8), st.integers(0, 2**16))
def test_linear_kernel_is_the_primal_perceptron(kind, T, d, seed):
    rng = np.random.default_rng(seed)
    X, y = streams(kind, T, d, rng)
    d = X.shape[1]
    primal = olkit.run(Perceptron(d), list(X), y)
    k = KernelPerceptron(d, LinearKernel())
    dual = olkit.run(k, list(X), y)
    assert np.array_equal(primal.yhat, dual.yhat)
    assert np.array_equal(primal.state["updates"], dual.state["updates"])
    w_dual = k.coef @ k.support if k.updates else np.zeros(d)
    assert np.allclose(w_dual, primal.state["w"][-1], atol=1e-9)
    assert np.allclose(dual.state["f_sq"], primal.state["w_sq"], rtol=1e-9, atol=1e-9)
    fast = olkit.run_stream(KernelPerceptron(d, LinearKernel()), X, y)
    assert np.array_equal(fast.rounds, k.support_rounds)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from([PolynomialKernel(2, 1.0), PolynomialKernel(3, 0.0), GaussianKernel(0.5), GaussianKernel(2.0)]),
       st.integers(1, 150), st.integers(1, 5), st.integers(0, 2**16))
def test_kernel_lookahead_equals_the_round_by_round_run(kernel, T, d, seed):
    rng = np.random.default_rng(seed)
    X, y = rng.standard_normal((T, d)), np.where(rng.random(T) < 0.5, -1, 1)
    slow = KernelPerceptron(d, kernel)
    tr = olkit.run(slow, list(X), y)
    fast = KernelPerceptron(d, kernel).play_stream(X, y)
    assert np.array_equal(fast.rounds, slow.support_rounds)
    assert np.array_equal(fast.to_trace().yhat, tr.yhat)
    assert fast.state["f_sq"][-1] == tr.state["f_sq"][-1]


def test_a_kernel_separates_what_no_line_can():
    rng = np.random.default_rng(3)
    X = rng.uniform(-1, 1, size=(400, 2))
    r = np.linalg.norm(X, axis=1)
    X, y = X[(r < 0.4) | (r > 0.6)], np.where(r[(r < 0.4) | (r > 0.6)] < 0.4, 1, -1)
    idx = np.tile(np.arange(len(y)), 20)
    k = KernelPerceptron(2, PolynomialKernel(2, 1.0)).play_stream(X[idx], y[idx])
    last_epoch = k.rounds[k.rounds > 19 * len(y)]
    assert len(last_epoch) == 0, "the kernel Perceptron converged"
    p = Perceptron(2).play_stream(X[idx], y[idx])
    assert (p.rounds > 19 * len(y)).any(), "no homogeneous line separates a disc from a ring around it"


def test_kernel_input_checks():
    with pytest.raises(ValueError, match="degree must be an integer >= 1"):
        PolynomialKernel(0)
    with pytest.raises(ValueError, match="c must be a non-negative finite number"):
        PolynomialKernel(2, -1.0)
    with pytest.raises(ValueError, match="sigma must be a positive finite number"):
        GaussianKernel(0.0)
    with pytest.raises(ValueError, match="kernel must be a kernel object"):
        KernelPerceptron(2, kernel=lambda a, b: a @ b.T)
    with pytest.raises(ValueError, match=r"round 1: x must have shape \(2,\)"):
        KernelPerceptron(2).update([1.0, 2.0, 3.0], 1)
    with pytest.raises(ValueError, match=r"label y = 0 is not in"):
        KernelPerceptron(2).update([1.0, 2.0], 0)


# -- voted and averaged --------------------------------------------------------------------------
@settings(max_examples=30, deadline=None)
@given(st.integers(1, 120), st.integers(1, 6), st.integers(1, 3), st.integers(0, 2**16))
def test_averaged_weights_are_the_mean_of_w_t_plus_1(T, d, epochs, seed):
    rng = np.random.default_rng(seed)
    X, y = rng.standard_normal((T, d)), np.where(rng.random(T) < 0.5, -1, 1)
    a = AveragedPerceptron(d, epochs=epochs).fit(X, y)
    idx = np.tile(np.arange(T), epochs)
    tr = olkit.run(Perceptron(d), list(X[idx]), y[idx])
    assert a.T == T * epochs and a.counts.sum() == a.T and (a.counts >= 0).all()
    assert np.allclose(a.w, tr.state["w"][1:].mean(axis=0), atol=1e-12)
    v = VotedPerceptron(d, epochs=epochs).fit(X, y)
    votes = sum(c * np.sign(np.round(X @ w, 12)) for w, c in zip(v.W, v.counts))
    assert np.array_equal(v.votes(X), votes.astype(int)) or not np.isfinite(votes).all()
    assert set(np.unique(v.predict(X))) <= {-1, 1}


def test_voted_and_averaged_can_disagree():
    """sign(sum_k c_k sign(<w_k, x>)) is not sign(<sum_k c_k w_k, x>) in general."""
    W = np.array([[1.0, 0.0], [-0.2, 1.0], [-0.2, -1.0]])
    v = VotedPerceptron(2)
    v.W, v.counts, v.T = W, np.array([1, 1, 1]), 3
    x = np.array([[1.0, 0.1]])
    assert v.predict(x)[0] == -1 and np.sign((v.counts @ W) @ x[0]) == 1


def test_gaussian_kernel_default_is_sigma_one():
    X = np.array([[0.0, 0.0], [1.0, 2.0]])
    S = np.array([[1.0, 0.0]])
    assert GaussianKernel().sigma == 1.0
    assert np.allclose(GaussianKernel()(X, S)[:, 0], np.exp(-np.array([1.0, 4.0]) / 2), rtol=1e-15, atol=0)


# -- the proof checks of Chapter 4 (olkit.linear.margin_proof, update_condition) ---------------
def test_margin_proof_holds_on_runs_and_update_condition_is_the_learners():
    rng = np.random.default_rng(11)
    for eta in (1.0, 0.3):
        X, y, u = olkit.separable_stream(3000, 6, 0.05, rng, margin_max=0.3)
        tr = olkit.run_stream(Perceptron(6, eta), X, y)
        assert np.array_equal(olkit.linear.update_condition(tr), tr.updated)
        p, r, rho = olkit.linear.margin_proof(tr, u, eta, "test")
        assert [row.step for row in p.rows] == ["0", "1a", "1", "2", "3", "4", "5a", "5b", "6", "M"]
        assert r == np.linalg.norm(X, axis=1).max() and rho > 0 and tr.U <= r**2 / rho**2


def test_margin_proof_on_a_tight_stream_has_zero_slack():
    X, y, v = olkit.orthonormal_stream(16, 16, 1.0)
    tr = olkit.run_stream(Perceptron(16), X, y)
    p, r, rho = olkit.linear.margin_proof(tr, v, 1.0, "tight")
    assert tr.U == 16 and {row.step: row.slack for row in p.rows}["6"] == 0


@pytest.mark.parametrize("tamper, step", [("flip", "0"), ("eta", "3"), ("skip", "0")])
def test_margin_proof_catches_wrong_weights(tamper, step):
    rng = np.random.default_rng(12)
    X, y, u = olkit.separable_stream(2000, 5, 0.05, rng, margin_max=0.3)
    tr = olkit.run_stream(Perceptron(5), X, y)
    if tamper == "flip":  # w -= y x: the recorded weights point the wrong way
        tr.state["w"] = -tr.state["w"]
    elif tamper == "eta":  # the weights of eta = 2 checked as eta = 1
        tr.state["w"] = 2 * tr.state["w"]
    else:  # an update round dropped: the weights stay, the round claims no update
        tr.state["w"] = np.delete(tr.state["w"], 2, axis=0)
        tr.rounds = np.delete(tr.rounds, 1)
    with pytest.raises(olkit.ProofStepError, match=f"step {step} "):
        olkit.linear.margin_proof(tr, u, 1.0, "broken")
