"""olkit.ellipsoid: the Ellipsoid learner, its bounds, the exact ball-in-ellipsoid test, grid instances."""
import math

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import olkit  # noqa: E402
from olkit.adversaries import GridAdversary, grid_worst_case  # noqa: E402
from olkit.plots import draw_ellipse, draw_step  # noqa: E402
from olkit.ellipsoid import (  # noqa: E402
    Ellipsoid,
    ball_in_ellipsoid,
    ellipsoid_bound,
    ellipsoid_bound_lecture,
    ellipsoid_form,
    inner_ball,
    max_form_on_ball,
    realizable_grid_sequence,
    volume_ratio,
    volume_ratio_bound,
)


# -- the update ------------------------------------------------------------
def test_worked_example_of_the_lecture():
    L = Ellipsoid(2)
    assert L.predict(np.array([1.0, 0.0])) == -1  # w_1 = 0: a tie predicts -1
    L.update(np.array([1.0, 0.0]), 1)
    np.testing.assert_allclose(L.w, [1 / 3, 0], rtol=0, atol=1e-15)
    # the update gives diag(4/9, 4/3); the slide prints diag(4/3, 4/9)
    np.testing.assert_allclose(L.A, np.diag([4 / 9, 4 / 3]), rtol=0, atol=1e-15)
    # (0, 1) is in the half-disk {||w|| <= 1, w_1 >= 0}: in E_2 (on its boundary), outside the slide's ellipsoid
    assert ellipsoid_form(np.array([0.0, 1.0]), L.w, L.A) == pytest.approx(1.0)  # on the boundary
    assert ellipsoid_form(np.array([0.0, 1.0]), L.w, np.diag([4 / 3, 4 / 9])) == pytest.approx(7 / 3)
    # the whole boundary of the half-disk lies in E_2 and touches it at (1, 0) and (0, +-1)
    th = np.linspace(-np.pi / 2, np.pi / 2, 2001)
    arc = np.stack([np.cos(th), np.sin(th)], axis=1)
    flat = np.stack([np.zeros(2001), np.linspace(-1, 1, 2001)], axis=1)
    vals = ellipsoid_form(np.concatenate([arc, flat]), L.w, L.A)
    assert vals.max() == pytest.approx(1.0, abs=1e-12)


def test_updates_on_mistakes_and_ties_only():
    L = Ellipsoid(3)
    x = np.array([1.0, 0.5, -1.0])
    L.predict(x)
    L.update(x, -1)  # a tie (w_1 = 0) that the prediction -1 got right: still an update
    assert L.updates == 1 and not np.allclose(L.A, np.eye(3))
    w, A = L.w.copy(), L.A.copy()
    assert L.predict(x) == -1  # now <w, x> < 0
    L.update(x, -1)  # correct and not a tie: no update
    assert L.updates == 1 and np.array_equal(L.w, w) and np.array_equal(L.A, A)
    L.update(x, 1)  # a mistake
    assert L.updates == 2


def test_lecture_code_is_the_same_update():
    rng = np.random.default_rng(0)
    X, y, _ = realizable_grid_sequence(3, 4, 80, rng)
    L = Ellipsoid(4)
    d = 4
    w, A = np.zeros(d), np.eye(d)
    eta = d * d / (d * d - 1.0)
    for x, yt in zip(X, y):
        L.predict(x)
        L.update(x, int(yt))
        if yt * np.dot(w, x) <= 0:  # the lecture's code, where sign(0) = 0 counts as a mistake
            Ax = A @ x
            xAx = x @ Ax
            w = w + yt / ((d + 1) * np.sqrt(xAx)) * Ax
            A = eta * (A - (2.0 / ((d + 1.0) * xAx)) * np.outer(Ax, Ax))
        np.testing.assert_allclose(L.w, w, rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(L.A, A, rtol=1e-12, atol=1e-14)


def test_trace_records_what_the_proofs_need():
    X, y, _ = realizable_grid_sequence(2, 2, 30, np.random.default_rng(1))
    tr = olkit.run(Ellipsoid(2), X, y)
    assert tr.state["w"].shape == (31, 2) and tr.state["A"].shape == (31, 2, 2)
    assert tr.state["logdet"][0] == 0 and tr.state["updates"][0] == 0
    upd = (tr.y * tr.details["wx"] <= 0) | tr.details["tie"]
    assert tr.state["updates"][-1] == upd.sum() >= tr.M
    assert np.all(tr.mistake <= upd)  # every mistake is an update
    np.testing.assert_allclose(tr.details["xAx"], np.einsum("ti,tij,tj->t", X, tr.state["A"][:-1], X))


# -- volumes and determinants -------------------------------------------------
@pytest.mark.parametrize("d", [2, 3, 5, 9])
def test_volume_factor_and_sylvester(d):
    rng = np.random.default_rng(d)
    X, y, _ = realizable_grid_sequence(4, d, 60, rng)
    tr = olkit.run(Ellipsoid(d), X, y)
    upd = (tr.y * tr.details["wx"] <= 0) | tr.details["tie"]
    ld = tr.state["logdet"]
    ratio = np.exp((ld[1:] - ld[:-1]) / 2)
    np.testing.assert_allclose(ratio[upd], volume_ratio(d), rtol=1e-11)
    np.testing.assert_array_equal(ratio[~upd], 1.0)
    assert volume_ratio(d) <= volume_ratio_bound(d)
    # Sylvester: det(I + u v^T) = 1 + <u, v> with u = -2/(d+1) xt/|xt|^2, v = xt, A_t = U D^2 U^T, xt = D U^T x
    for t in np.flatnonzero(upd):
        a, U = np.linalg.eigh(tr.state["A"][t])
        xt = np.sqrt(a) * (U.T @ X[t])
        u = -2 / (d + 1) * xt / (xt @ xt)
        assert np.linalg.det(np.eye(d) + np.outer(u, xt)) == pytest.approx(1 + u @ xt, abs=1e-12)
        assert 1 + u @ xt == pytest.approx(1 - 2 / (d + 1), abs=1e-14)


def test_volume_ratio_values():
    assert volume_ratio(2) == pytest.approx((4 / 3) * (1 / 3) ** 0.5)
    assert volume_ratio_bound(2) == pytest.approx(math.exp(-1 / 6))
    for d in range(2, 40):
        assert volume_ratio(d) <= volume_ratio_bound(d) < 1


def test_bounds():
    assert ellipsoid_bound_lecture(1, 2) == 0
    assert ellipsoid_bound_lecture(3, 2) == pytest.approx(24 * math.log(3))
    assert ellipsoid_bound(3, 2) == pytest.approx(12 * math.log(36))
    for n in (1, 2, 5, 100):
        for d in (2, 3, 7):
            assert ellipsoid_bound(n, d) > ellipsoid_bound_lecture(n, d)
    with pytest.raises(ValueError, match="n must be an integer >= 1"):
        ellipsoid_bound(0, 2)
    with pytest.raises(ValueError, match="d must be an integer >= 2"):
        ellipsoid_bound_lecture(2, 1)
    with pytest.raises(ValueError, match="d must be an integer >= 2"):
        volume_ratio(1)


# -- the exact ball-in-ellipsoid test --------------------------------------------
def _sphere(d, m, rng):
    if d == 2:
        th = np.linspace(0, 2 * np.pi, m, endpoint=False)
        return np.stack([np.cos(th), np.sin(th)], axis=1)
    U = rng.standard_normal((m, d))
    return U / np.linalg.norm(U, axis=1, keepdims=True)


@pytest.mark.parametrize("seed", range(12))
def test_max_form_on_ball_against_sampling(seed):
    rng = np.random.default_rng(seed)
    d = 2 + seed % 3
    B = rng.standard_normal((d, d))
    A = B @ B.T + 0.05 * np.eye(d)
    w = rng.standard_normal(d)
    c = w + rng.standard_normal(d) * (0.1 if seed % 2 else 2.0)
    r = float(rng.uniform(0.05, 1.5))
    best = max_form_on_ball(c, r, w, A)
    lo, hi = max_form_on_ball(c, r, w, A, return_bounds=True)
    assert lo == best and hi - lo <= 1e-9 * max(1.0, abs(hi))
    m = 20000 if d == 2 else 200000
    sampled = ellipsoid_form(c + r * _sphere(d, m, rng), w, A).max()
    assert sampled <= best * (1 + 1e-12) + 1e-12  # no sampled point beats the exact maximum
    assert sampled >= best * (1 - (2e-4 if d == 2 else 3e-2))  # and the samples come close to it
    inner = ellipsoid_form(c + r * rng.uniform(0, 1, (2000, 1)) * _sphere(d, 2000, rng), w, A)
    assert inner.max() <= best * (1 + 1e-12)


def test_max_form_on_ball_known_cases():
    I2 = np.eye(2)
    # unit ball: max over B(c, r) of ||z||^2 is (||c|| + r)^2
    assert max_form_on_ball([0.3, 0.4], 0.2, [0, 0], I2) == pytest.approx(0.49)
    # centred ball (q = 0, the hard case): r^2 / smallest eigenvalue of A
    assert max_form_on_ball([1.0, 2.0], 0.5, [1.0, 2.0], np.diag([4.0, 0.25])) == pytest.approx(1.0)
    # hard case with an offset along the flat axis: max over theta of cos^2 + (0.1 + sin)^2 / 4
    th = np.linspace(0, 2 * np.pi, 2_000_001)
    want = np.max(np.cos(th) ** 2 + (0.1 + np.sin(th)) ** 2 / 4)
    lo, hi = max_form_on_ball([0.0, 0.1], 1.0, [0, 0], np.diag([1.0, 4.0]), return_bounds=True)
    assert lo == pytest.approx(want, abs=1e-10) and hi == pytest.approx(want, abs=1e-10)
    # nearly the hard case: a tiny offset on the top axis
    lo, hi = max_form_on_ball([1e-9, 0.1], 1.0, [0, 0], np.diag([1.0, 4.0]), return_bounds=True)
    assert lo == pytest.approx(want, abs=1e-8) and hi - lo <= 1e-8
    # radius 0: the form at the centre
    assert max_form_on_ball([0.5, 0.0], 0.0, [0, 0], np.diag([0.25, 1.0])) == pytest.approx(1.0)
    assert ball_in_ellipsoid([0, 0], 1.0, [0, 0], I2)
    assert not ball_in_ellipsoid([0, 0], 1.01, [0, 0], I2)
    assert not ball_in_ellipsoid([0.5, 0.5], 0.3, [0, 0], I2)  # sqrt(.5) + .3 > 1


def test_ellipsoid_checks():
    with pytest.raises(ValueError, match=r"A must have shape \(2, 2\)"):
        ellipsoid_form([0, 0], [0, 0], np.eye(3))
    with pytest.raises(ValueError, match="positive definite"):
        max_form_on_ball([0, 0], 1.0, [0, 0], np.diag([1.0, -1.0]))
    with pytest.raises(ValueError, match="r .* must be >= 0"):
        max_form_on_ball([0, 0], -1.0, [0, 0], np.eye(2))
    with pytest.raises(ValueError, match="c .* must have shape"):
        max_form_on_ball([0, 0, 0], 1.0, [0, 0], np.eye(2))


# -- bad input -----------------------------------------------------------------
@pytest.mark.parametrize("d", [1, 0, -3, 2.5, True, "2"])
def test_dimension_must_be_at_least_two(d):
    with pytest.raises(ValueError, match=r"d must be an integer >= 2 \(the update divides by d\^2 - 1\)"):
        Ellipsoid(d)


def test_bad_instances_and_labels():
    L = Ellipsoid(2)
    with pytest.raises(ValueError, match=r"round 1: x must have shape \(2,\); got shape \(3,\)"):
        L.predict(np.ones(3))
    with pytest.raises(ValueError, match=r"round 1: x must have shape \(2,\).* got shape \(1, 2\)"):
        L.update(np.ones((1, 2)), 1)
    with pytest.raises(ValueError, match="round 1: x must be non-zero"):
        L.predict(np.zeros(2))
    with pytest.raises(ValueError, match="round 1: x must be finite"):
        L.predict(np.array([np.nan, 1.0]))
    with pytest.raises(ValueError, match="round 1: x must be a numeric vector"):
        L.predict("ab")
    for bad in (0, 2, True, 1.0, "1"):
        with pytest.raises(ValueError, match=r"round 1: label y = .* is not in \{-1, \+1\}"):
            L.update(np.ones(2), bad)
    L.update(np.ones(2), 1)
    with pytest.raises(ValueError, match="round 2: x must be non-zero"):
        L.update(np.zeros(2), 1)
    with pytest.raises(ValueError, match="round 1: label y = 0 is not in the learner's label set"):
        olkit.run(Ellipsoid(2), [np.ones(2)], [0])


# -- instances -------------------------------------------------------------------
@pytest.mark.parametrize("n, d", [(1, 2), (3, 2), (2, 5)])
def test_realizable_grid_sequence(n, d):
    X, y, w_star = realizable_grid_sequence(n, d, 500, np.random.default_rng(5))
    assert X.shape == (500, d) and y.shape == (500,) and w_star.shape == (d,)
    for v in (X, w_star[None, :]):
        k = v * n
        assert np.allclose(k, np.rint(k)) and np.abs(k).max() <= n + 1e-9
    margins = y * (X @ w_star)
    assert margins.min() >= 1 / n**2 - 1e-12  # grid margins are positive multiples of 1/n^2
    assert np.abs(np.linalg.norm(X, axis=1)).max() <= math.sqrt(d) + 1e-12
    X2, y2, w2 = realizable_grid_sequence(n, d, 500, np.random.default_rng(5))
    assert np.array_equal(X, X2) and np.array_equal(y, y2) and np.array_equal(w_star, w2)


def test_realizable_grid_sequence_checks():
    rng = np.random.default_rng(0)
    X, y, w = realizable_grid_sequence(2, 2, 10, rng, w_star=[1.0, 0.5])
    assert np.array_equal(w, [1.0, 0.5]) and np.all(np.sign(X @ w) == y)
    with pytest.raises(ValueError, match="w_star must be a vector on the grid"):
        realizable_grid_sequence(2, 2, 10, rng, w_star=[0.3, 0.5])
    with pytest.raises(ValueError, match="non-zero point"):
        realizable_grid_sequence(2, 2, 10, rng, w_star=[0.0, 0.0])
    with pytest.raises(ValueError, match="rng must be a numpy Generator"):
        realizable_grid_sequence(2, 2, 10, 3)
    assert realizable_grid_sequence(2, 2, 0, rng)[0].shape == (0, 2)


def test_inner_ball_is_consistent_and_in_the_unit_ball():
    for n, d in ((1, 2), (2, 2), (3, 3), (1, 4)):
        env = GridAdversary(n, d)
        for k in env.K[:: max(1, len(env.K) // 40)]:
            w_star = k / n
            c, r = inner_ball(w_star, n)
            assert np.linalg.norm(c) + r < 1
            keep = env.K @ k != 0  # integer margins: exact
            X, y = env.X[keep], np.sign(env.K[keep] @ k)
            # min over the ball of y <w, x> is y <c, x> - r ||x||
            assert (y * (X @ c) - r * np.linalg.norm(X, axis=1)).min() >= -1e-15


# -- the corrected theorem, as a property ---------------------------------------------
@settings(max_examples=30, deadline=None)
@given(n=st.integers(1, 5), d=st.integers(2, 4), T=st.integers(1, 120), seed=st.integers(0, 2**32 - 1))
def test_corrected_mistake_bound_holds(n, d, T, seed):
    X, y, w_star = realizable_grid_sequence(n, d, T, np.random.default_rng(seed))
    tr = olkit.run(Ellipsoid(d), X, y)
    U = int(tr.state["updates"][-1])
    assert tr.M <= U <= ellipsoid_bound(n, d)
    c, r = inner_ball(w_star, n)
    for t in range(tr.T + 1):
        assert max_form_on_ball(c, r, tr.state["w"][t], tr.state["A"][t]) <= 1 + 1e-9
    assert tr.state["logdet"][-1] / 2 >= d * math.log(r) - 1e-9


# -- the greedy environment and the exact worst case --------------------------------------
@pytest.mark.parametrize("rule", ["largest", "smallest", "shallow", "random"])
def test_grid_adversary_forces_mistakes_on_realizable_labels(rule):
    n, d = 3, 2
    env = GridAdversary(n, d, rule, rng=np.random.default_rng(0))
    tr = olkit.play(Ellipsoid(d), env, 500)
    assert 1 <= tr.T < 500 and tr.mistake.all()
    w_star = env.witness()
    assert (tr.y * (tr.x @ w_star)).min() >= 1 / n**2 - 1e-12
    assert tr.M <= ellipsoid_bound(n, d)


def test_grid_adversary_fixed_target_and_checks():
    env = GridAdversary(2, 2, "shallow", w_star=[1.0, 0.5])
    tr = olkit.play(Ellipsoid(2), env, 100)
    assert np.array_equal(env.witness(), [1.0, 0.5]) and (tr.y * (tr.x @ [1.0, 0.5])).min() > 0
    assert env.version_space().shape == (1, 2)
    with pytest.raises(ValueError, match="rule must be"):
        GridAdversary(2, 2, "best")
    with pytest.raises(ValueError, match="needs rng"):
        GridAdversary(2, 2, "random")
    with pytest.raises(ValueError, match="too many"):
        GridAdversary(10, 4)


def test_grid_worst_case_small_grids():
    assert grid_worst_case(1, 2) == 2  # > 0 = the lecture's bound for n = 1
    assert grid_worst_case(2, 2) == 3
    with pytest.raises(ValueError, match="max_nodes"):
        grid_worst_case(2, 2, max_nodes=10)


# -- drawing ---------------------------------------------------------------------------
def test_draw_ellipse_traces_the_boundary():
    fig, ax = plt.subplots()
    w, A = np.array([0.2, -0.1]), np.array([[0.5, 0.2], [0.2, 0.3]])
    line = draw_ellipse(ax, w, A, color="k")
    pts = np.stack(line.get_data(), axis=1)
    np.testing.assert_allclose(ellipsoid_form(pts, w, A), 1.0, rtol=1e-12)
    draw_step(ax, w, A, x=[1.0, 0.5], y=-1, w_star=[0.5, -1.0], ball=inner_ball([0.5, -1.0], 2), title="t")
    with pytest.raises(ValueError, match="2-D"):
        draw_ellipse(ax, np.zeros(3), np.eye(3))
    plt.close(fig)


# -- John's certificate and ties -----------------------------------------------
def test_john_weights_certify_the_ball_and_reject_a_one_sided_set():
    from olkit.ellipsoid import john_weights

    E = np.vstack([np.eye(3), -np.eye(3)])  # the unit ball is the minimum-volume ellipsoid of the cross-polytope
    lam, res = john_weights(E)
    assert res < 1e-12 and np.all(lam > 0)
    lam, res = john_weights(np.eye(3))  # three points on one side: sum lam u = 0 is impossible with lam > 0
    assert res > 0.1 or np.any(lam <= 0)
    with pytest.raises(ValueError):
        john_weights(np.zeros((0, 2)))


def test_ellipsoid_ties_are_counted_with_a_relative_tolerance():
    L = Ellipsoid(2)
    L.w = np.array([0.5, 1e-17])  # the second coordinate is a rounding error of an exact 0
    x = np.array([0.0, 1.0])
    assert L.predict(x) == -1 and L.details["tie"]
    assert L.sides(np.array([[0.0, 1.0], [1.0, 0.0], [-1.0, 0.0]])).tolist() == [0, 1, -1]
    L.update(x, 1)  # a tie is an update, whatever the label
    assert L.updates == 1


def test_max_form_on_ball_needs_a_positive_definite_matrix():
    with pytest.raises(ValueError, match="positive definite"):
        max_form_on_ball(np.zeros(2), 0.1, np.zeros(2), np.diag([1.0, 0.0]))


def test_realizable_grid_sequence_draws_w_star_from_the_whole_grid():
    """w* is uniform on G^d minus 0: with n = 1, d = 2 every coordinate takes each of -1, 0, 1, and
    (0, 0) never comes."""
    seen = set()
    for seed in range(60):
        _, _, w = realizable_grid_sequence(1, 2, 1, np.random.default_rng(seed))
        seen.add(tuple(np.rint(w).astype(int).tolist()))
    assert (0, 0) not in seen
    assert {c for w in seen for c in w} == {-1, 0, 1} and len(seen) == 8


# -- the proof checks of Section 1.4 (olkit.ellipsoid_proof.ball_proof, theorem_proof, update_rounds) ----------


def _grid_runs(learner=None):
    from olkit.adversaries import GridAdversary
    from olkit.ellipsoid import Ellipsoid, realizable_grid_sequence

    make = learner or Ellipsoid
    rng = np.random.default_rng(5)
    X, y, w = realizable_grid_sequence(2, 2, 60, rng)
    runs = [("random", olkit.run(make(2), X, y), w, 2)]
    env = GridAdversary(2, 3, "shallow")
    runs.append(("greedy", olkit.play(make(3), env, 100), env.witness(), 2))
    return runs


def test_update_rounds_reads_the_counter():
    from olkit.ellipsoid_proof import update_rounds

    tr = _grid_runs()[0][1]
    upd = update_rounds(tr)
    assert upd.shape == (tr.T,) and upd[0] and upd.sum() == tr.state["updates"][-1]
    assert (upd >= tr.mistake).all()  # every mistake is an update


def test_ball_and_theorem_proofs_hold_on_the_ellipsoid():
    runs = _grid_runs()
    ball = olkit.ellipsoid_proof.ball_proof(runs, "ball")
    assert [r.step for r in ball.rows] == ["1", "2", "3", "4", "5", "6", "6", "7", "7'", "7''", "7h", "8"]
    thm = olkit.ellipsoid_proof.theorem_proof(runs, "theorem")
    assert [r.step for r in thm.rows] == ["1", "1", "2", "3", "3'", "4"]


def test_the_proofs_catch_a_broken_update():
    from olkit.ellipsoid import Ellipsoid

    class HalfCut(Ellipsoid):  # 1/(d+1) instead of 2/(d+1): the volume shrinks too little
        def cut(self, x, y):
            d, Ax = self.d, self.A @ x
            xAx = float(x @ Ax)
            self.w = self.w + (y / (d + 1)) * Ax / xAx**0.5
            self.A = (d * d / (d * d - 1.0)) * (self.A - (1.0 / ((d + 1.0) * xAx)) * np.outer(Ax, Ax))

    class WrongSign(Ellipsoid):  # moves the centre away from the label's side
        def cut(self, x, y):
            super().cut(x, -y)

    with pytest.raises(olkit.proof.ProofStepError, match="step 1 "):
        olkit.ellipsoid_proof.theorem_proof(_grid_runs(HalfCut), "half cut")
    with pytest.raises(olkit.proof.ProofStepError):
        olkit.ellipsoid_proof.ball_proof(_grid_runs(WrongSign), "wrong sign")
