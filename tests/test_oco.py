"""Online convex optimization (olkit/oco.py): projections against a convex solver, subgradients, the
regret bounds as properties of random runs, EG = Hedge, the doubling trick, the Perceptron as OGD,
the best fixed point in hindsight, and bad input."""
import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import olkit
from olkit import convex, oco, oco_proof

cp = pytest.importorskip("cvxpy")


# ---------------------------------------------------------------------------------------------
# Projections
# ---------------------------------------------------------------------------------------------
def cvxpy_projection(K, z):
    w = cp.Variable(K.d)
    if isinstance(K, convex.Ball):
        cons = [cp.norm(w, 2) <= K.B]
    elif isinstance(K, convex.Box):
        cons = [w >= K.lo, w <= K.hi]
    else:
        cons = [w >= 0, cp.sum(w) == 1]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "solution may be inaccurate": compared with a tolerance below
        cp.Problem(cp.Minimize(cp.sum_squares(w - z)), cons).solve(
            solver="CLARABEL", tol_gap_abs=1e-12, tol_gap_rel=1e-12, tol_feas=1e-12
        )
    return np.asarray(w.value)


SETS = [convex.Ball(4, 1.5), convex.Box(4, [-1.0, 0.0, -2.0, 0.5], [1.0, 3.0, -1.0, 2.0]), convex.Simplex(4), convex.Simplex(7)]


@pytest.mark.parametrize("K", SETS, ids=repr)
def test_projection_matches_a_convex_solver(K):
    rng = np.random.default_rng(1)
    Z = np.vstack([3 * rng.standard_normal((12, K.d)), np.round(2 * rng.standard_normal((6, K.d))),
                   np.zeros((1, K.d)), np.full((1, K.d), 0.3)])
    for z in Z:
        p = K.project(z)
        q = cvxpy_projection(K, z)
        assert K.distance(p) <= 1e-12
        # an interior-point solver is accurate to ~1e-6 at points on the boundary: agree to that, be at
        # least as close to z, and satisfy the optimality condition <z - p, u - p> <= 0 for all u in K
        # exactly (the largest <z - p, u> over K is a closed form, K.min_linear)
        assert np.abs(p - q).max() <= 1e-5, (z, p, q)
        assert ((p - z) ** 2).sum() <= ((q - z) ** 2).sum() + 1e-9
        assert (z - p) @ (K.min_linear(p - z, 1.0) - p) <= 1e-12


def test_projection_is_the_identity_inside_and_idempotent():
    rng = np.random.default_rng(2)
    for K in SETS:
        for z in 4 * rng.standard_normal((20, K.d)):
            p = K.project(z)
            assert np.allclose(K.project(p), p, atol=1e-14)


def test_ball_and_box_projection_formulas():
    assert np.allclose(convex.Ball(2, 2.0).project([3.0, 4.0]), [1.2, 1.6], rtol=0, atol=1e-15)
    assert convex.Ball(2, 5.0).project([3.0, 4.0]).tolist() == [3.0, 4.0]  # on the sphere: unchanged
    assert convex.Box(3, -1.0, 1.0).project([-2.0, 0.5, 7.0]).tolist() == [-1.0, 0.5, 1.0]
    assert convex.Space(2).project([5.0, -7.0]).tolist() == [5.0, -7.0]


@given(st.lists(st.integers(-3, 3), min_size=2, max_size=9), st.randoms(use_true_random=False))
@settings(max_examples=80, deadline=None)
def test_simplex_projection_does_not_depend_on_the_order_of_tied_entries(vals, rnd):
    """Integer points are full of ties; permuting z permutes the projection, bit for bit."""
    z = np.array(vals, dtype=float) / 2
    K = convex.Simplex(len(z))
    perm = list(range(len(z)))
    rnd.shuffle(perm)
    p = K.project(z)
    assert np.array_equal(K.project(z[perm]), p[perm])
    assert abs(p.sum() - 1) <= 1e-12 and p.min() >= 0


def test_simplex_projection_at_a_tie_of_the_threshold_test():
    # u = (1, 0, 0): theta_1 = 0 and u_2 = theta_2 = 0 exactly; either rho gives the vertex e_1
    assert convex.Simplex(3).project([1.0, 0.0, 0.0]).tolist() == [1.0, 0.0, 0.0]
    assert convex.Simplex(3).project([2.0, 1.0, 1.0]).tolist() == [1.0, 0.0, 0.0]
    assert convex.Simplex(2).project([0.5, 0.5]).tolist() == [0.5, 0.5]


def test_min_linear_is_the_minimum_over_the_set():
    rng = np.random.default_rng(3)
    for K in SETS:
        U = np.array([K.project(z) for z in 3 * rng.standard_normal((400, K.d))])
        for g in rng.standard_normal((10, K.d)):
            u = K.min_linear(g, 1.0)
            assert K.distance(u) <= 1e-12
            assert g @ u <= (U @ g).min() + 1e-12
    assert convex.Ball(3, 2.0).min_linear(np.zeros(3), 1.0).tolist() == [0.0, 0.0, 0.0]
    assert convex.Simplex(3).min_linear([1.0, 0.0, 0.0], 1.0).tolist() == [0.0, 1.0, 0.0]  # first of the tie
    assert convex.Box(2, -1.0, 3.0).min_linear([0.0, 1.0], 1.0).tolist() == [1.0, -1.0]  # midpoint on g_i = 0


# ---------------------------------------------------------------------------------------------
# Losses
# ---------------------------------------------------------------------------------------------
def random_losses(kind, T, d, rng, grid=False):
    X = rng.integers(-1, 2, (T, d)).astype(float) if grid else rng.standard_normal((T, d))
    y = np.where(rng.uniform(size=T) < 0.5, -1.0, 1.0)
    if kind == "linear":
        return [convex.Linear(x) for x in X]
    if kind == "quadratic":
        return [convex.Quadratic(x, 0.5) for x in X]
    if kind == "regularized hinge":
        return [convex.Regularized(f, 0.3) for f in convex.Hinge.sequence(X, y)]
    cls = {"hinge": convex.Hinge, "logistic": convex.Logistic, "squared": convex.Squared, "absolute": convex.Absolute}[kind]
    return cls.sequence(X, y if kind != "squared" else rng.standard_normal(T))


KINDS = ["linear", "hinge", "logistic", "squared", "absolute", "quadratic", "regularized hinge"]


@pytest.mark.parametrize("kind", KINDS)
def test_subgradient_inequality(kind):
    """f(u) >= f(w) + <v, u - w> (+ lam/2 |u - w|^2 for the strongly convex ones), also at kinks."""
    rng = np.random.default_rng(4)
    for grid in (False, True):
        for f in random_losses(kind, 30, 3, rng, grid=grid):
            W = np.round(2 * rng.standard_normal((10, 3))) / 2 if grid else rng.standard_normal((10, 3))
            for w in W:
                v = f.subgradient(w)
                for u in rng.standard_normal((10, 3)):
                    lhs = f.value(u)
                    rhs = f.value(w) + v @ (u - w) + f.lam / 2 * ((u - w) ** 2).sum()
                    assert lhs >= rhs - 1e-9


def test_kink_rules_take_the_least_norm_subgradient():
    h = convex.Hinge([1.0, 0.0], 1)
    assert h.subgradient([1.0, 5.0]).tolist() == [0.0, 0.0]  # margin exactly 1
    assert h.subgradient([0.5, 0.0]).tolist() == [-1.0, -0.0]
    assert h.subgradient([1.0 + 1e-13, 0.0]).tolist() == [0.0, 0.0]  # within the tie tolerance: the kink
    a = convex.Absolute([1.0, 2.0], 3.0)
    assert a.subgradient([1.0, 1.0]).tolist() == [0.0, 0.0]
    assert a.subgradient([2.0, 1.0]).tolist() == [1.0, 2.0]
    assert a.subgradient([0.0, 1.0]).tolist() == [-1.0, -2.0]


def test_loss_values():
    w = np.array([0.5, -1.0])
    x = np.array([2.0, 1.0])
    assert convex.Linear(x).value(w) == 0.0
    assert convex.Hinge(x, -1).value(w) == 1.0
    assert convex.Squared(x, 1.0).value(w) == 0.5
    assert convex.Absolute(x, 1.0).value(w) == 1.0
    assert math.isclose(convex.Logistic(x, 1).value(w), math.log(2))
    assert convex.Quadratic([0.5, 0.0], 2.0).value(w) == 1.0
    assert convex.Regularized(convex.Linear(x), 2.0).value(w) == 1.25
    assert np.allclose(convex.Logistic(x, 1).subgradient(w), -0.5 * x)


def test_perceptron_loss_is_zero_on_correct_rounds():
    x = np.array([1.0, 1.0])
    right = convex.PerceptronLoss(x, 1, [1.0, 0.0])
    wrong = convex.PerceptronLoss(x, -1, [1.0, 0.0])
    tie = convex.PerceptronLoss(x, 1, [1.0, -1.0])  # score 0: an error, as for the Perceptron
    assert not right.erred and right.value([-5.0, 0.0]) == 0.0 and not right.subgradient([0.0, 0.0]).any()
    assert wrong.erred and wrong.value([0.0, 0.0]) == 1.0 and wrong.subgradient([0.0, 0.0]).tolist() == [1.0, 1.0]
    assert tie.erred


# ---------------------------------------------------------------------------------------------
# Regret bounds as properties of random runs
# ---------------------------------------------------------------------------------------------
def random_set(rng, d):
    k = rng.integers(3)
    if k == 0:
        return convex.Ball(d, float(rng.uniform(0.2, 3)))
    if k == 1:
        lo = rng.uniform(-2, 0, d)
        return convex.Box(d, lo, lo + rng.uniform(0.1, 2, d))
    return convex.Simplex(d)


def random_member(K, rng):
    return K.project(3 * rng.standard_normal(K.d))


@given(st.integers(0, 10**6), st.sampled_from(KINDS[:5]), st.floats(1e-3, 3.0))
@settings(max_examples=60, deadline=None)
def test_ogd_regret_bound_on_random_convex_losses(seed, kind, eta):
    rng = np.random.default_rng(seed)
    d = int(rng.integers(1, 5))
    K = random_set(rng, d)
    losses = random_losses(kind, int(rng.integers(1, 40)), d, rng, grid=bool(rng.integers(2)))
    tr = oco.play(oco.OGD(K, eta), losses)
    assert tr.w.shape == (len(losses) + 1, d) and K.distance(tr.w[-1]) <= 1e-12
    assert np.allclose(tr.record["z"], tr.w[:-1] - eta * tr.v)
    for _ in range(5):
        u = random_member(K, rng)
        bound = ((u - tr.w[0]) ** 2).sum() / (2 * eta) + eta / 2 * tr.v_sq.sum()
        assert oco.regret(tr, u, K) <= bound + 1e-9


@given(st.integers(0, 10**6))
@settings(max_examples=30, deadline=None)
def test_anytime_and_strongly_convex_bounds(seed):
    rng = np.random.default_rng(seed)
    d, T = 3, int(rng.integers(1, 60))
    B, rho = float(rng.uniform(0.5, 2)), 1.0
    K = convex.Ball(d, B)
    G = rng.standard_normal((T, d))
    G /= np.linalg.norm(G, axis=1, keepdims=True)
    tr = oco.play(oco.OGD(K, oco.anytime(B, rho)), [convex.Linear(g) for g in G])
    assert np.allclose(tr.record["eta"], B / (rho * np.sqrt(np.arange(1, T + 1))))
    u, _ = oco.best_fixed(tr.losses, K)
    assert oco.regret(tr, u, K) <= 3 * B * rho * math.sqrt(T) + 1e-9
    lam = float(rng.uniform(0.1, 1))
    quad = [convex.Quadratic(c, lam) for c in rng.standard_normal((T, d))]
    tr = oco.play(oco.OGD(K, oco.strongly_convex(lam)), quad)
    assert np.allclose(tr.record["eta"], 1 / (lam * np.arange(1, T + 1)))
    u = K.project(np.mean([f.c for f in quad], axis=0))  # the best point in hindsight
    G2 = tr.v_sq.max()
    assert oco.regret(tr, u, K) <= G2 * (1 + math.log(T)) / (2 * lam) + 1e-9


def test_eg_is_hedge_and_obeys_its_bound():
    rng = np.random.default_rng(5)
    T, d, eta = 300, 6, 0.2
    G = rng.uniform(0, 1, (T, d))
    tr = oco.play(oco.EG(d, eta), [convex.Linear(g) for g in G])
    L = np.vstack([np.zeros(d), np.cumsum(G, axis=0)])
    H = np.exp(-eta * (L - L.min(axis=1, keepdims=True)))
    assert np.abs(tr.w - H / H.sum(axis=1, keepdims=True)).max() <= 1e-12
    assert tr.loss.sum() - L[-1].min() <= math.log(d) / eta + eta * T / 8
    assert np.allclose(tr.record["logZ"], np.log((tr.w[:-1] * np.exp(-eta * G)).sum(axis=1)))


def test_doubling_blocks_restarts_and_bound():
    K = convex.Ball(3, 1.0)
    rng = np.random.default_rng(6)
    T = 100
    G = rng.standard_normal((T, 3))
    G /= np.linalg.norm(G, axis=1, keepdims=True)
    tr = oco.play(oco.Doubling(lambda n: oco.OGD(K, 1 / math.sqrt(n))), [convex.Linear(g) for g in G])
    t = np.arange(1, T + 1)
    m = np.floor(np.log2(t)).astype(int)
    assert tr.record["block"].tolist() == m.tolist()
    assert np.allclose(tr.record["eta"], 1 / np.sqrt(2.0**m))
    assert tr.record["restart"].tolist() == ((t + 1) == 2 ** (m + 1)).tolist()
    assert not tr.w[np.flatnonzero(t == 2**m)].any()  # every block starts at 0
    u, _ = oco.best_fixed(tr.losses, K)
    assert oco.regret(tr, u, K) <= (2 + math.sqrt(2)) * math.sqrt(T)


def test_ogd_on_the_perceptron_surrogate_is_the_perceptron():
    rng = np.random.default_rng(7)
    X = rng.standard_normal((200, 4))
    y = np.where(X @ [1.0, -1.0, 0.0, 0.5] > 0, 1, -1)
    pt = olkit.run(olkit.Perceptron(4), list(X), y)
    tr = oco.play(oco.OGD(convex.Space(4), 1.0), lambda t, w: convex.PerceptronLoss(X[t - 1], y[t - 1], w), T=200)
    assert np.array_equal(tr.w, pt.state["w"])
    assert [f.erred for f in tr.losses] == np.diff(pt.state["updates"]).astype(bool).tolist()


def test_best_fixed_closed_forms_and_solver():
    rng = np.random.default_rng(8)
    G = rng.standard_normal((20, 3))
    lin = [convex.Linear(g) for g in G]
    u, gap = oco.best_fixed(lin, convex.Ball(3, 2.0))
    assert np.allclose(u, -2 * G.sum(0) / np.linalg.norm(G.sum(0))) and abs(gap) <= 1e-9
    u, _ = oco.best_fixed(lin, convex.Simplex(3))
    assert u.tolist() == np.eye(3)[np.argmin(G.sum(0))].tolist()
    u, _ = oco.best_fixed(lin, convex.Box(3, -1.0, 2.0))
    assert u.tolist() == np.where(G.sum(0) > 0, -1.0, 2.0).tolist()
    X = rng.standard_normal((60, 3))
    y = np.where(X[:, 0] + rng.normal(0, 1, 60) > 0, 1.0, -1.0)
    for K, diam in ((convex.Ball(3, 0.5), 1.0), (convex.Box(3, -0.3, 0.4), 0.7 * 3**0.5), (convex.Simplex(3), 2**0.5)):
        losses = convex.Logistic.sequence(X, y)
        u, gap = oco.best_fixed(losses, K)
        # the gap is >= 0 up to min_linear's tie width: a coordinate of G within 1e-9 scale of 0 counts
        # as 0 (the box's midpoint, the ball's centre, the first near-minimal vertex), which can make
        # <G, u> - <G, u'> negative by up to 1e-9 scale sqrt(d) diam(K).  (SLSQP's point on the box
        # has two such coordinates or not depending on the machine's BLAS: -4.2e-9 with one thread.)
        scale = sum(np.linalg.norm(f.subgradient(u)) for f in losses) + 1.0
        assert K.distance(u) <= 1e-12 and -1e-9 * scale * 3**0.5 * diam <= gap <= 1e-6
        F = sum(f.value(u) for f in losses)
        for _ in range(50):  # no point of K does better than the certificate allows
            v = random_member(K, rng)
            assert sum(f.value(v) for f in losses) >= F - gap - 1e-9


def test_fw_gap_treats_a_total_subgradient_of_norm_within_the_tie_width_as_zero():
    """The tie width of fw_gap is 1e-9 (sum_t ||v_t|| + 1): a total subgradient of norm 1e-9 is 0 up to
    rounding, so every point of the ball is a minimizer of <G, .> and the centre's gap is 0 (not B ||G||)."""
    K = convex.Ball(2, 1.0)
    assert oco.fw_gap([convex.Linear([1e-9, 0.0])], K, [0.0, 0.0]) == 0.0
    assert oco.fw_gap([convex.Linear([1e-6, 0.0])], K, [0.0, 0.0]) == pytest.approx(1e-6, rel=1e-12)


def test_play_without_points_keeps_the_sums():
    rng = np.random.default_rng(9)
    losses = random_losses("hinge", 50, 4, rng)
    full = oco.play(oco.OGD(convex.Ball(4, 1.0), 0.1), losses)
    lean = oco.play(oco.OGD(convex.Ball(4, 1.0), 0.1), losses, keep_points=False)
    assert lean.w.shape == (2, 4) and lean.v is None and "z" not in lean.record
    assert np.array_equal(lean.w[-1], full.w[-1]) and np.array_equal(lean.loss, full.loss)
    assert np.allclose(lean.v_sq, (full.v**2).sum(axis=1))


# ---------------------------------------------------------------------------------------------
# Bad input: clear errors that name the argument
# ---------------------------------------------------------------------------------------------
def test_bad_input_names_the_argument():
    K = convex.Ball(3, 1.0)
    with pytest.raises(ValueError, match="eta"):
        oco.OGD(K, 0.0)
    with pytest.raises(ValueError, match="eta"):
        oco.OGD(K, -1.0)
    with pytest.raises(ValueError, match="eta"):
        oco.OGD(K, float("nan"))
    with pytest.raises(ValueError, match="eta"):
        oco.EG(3, 0)
    with pytest.raises(ValueError, match="eta_1"):
        oco.OGD(K, lambda t: 0.0).update(np.ones(3))
    with pytest.raises(ValueError, match="B"):
        convex.Ball(3, 0.0)
    with pytest.raises(ValueError, match="B"):
        convex.Ball(3, -2.0)
    with pytest.raises(ValueError, match="B"):
        oco.anytime(0.0, 1.0)
    with pytest.raises(ValueError, match="rho"):
        oco.anytime(1.0, -1.0)
    with pytest.raises(ValueError, match="lam"):
        oco.strongly_convex(0.0)
    with pytest.raises(ValueError, match="d must"):
        convex.Simplex(0)
    with pytest.raises(ValueError, match="lo and hi"):
        convex.Box(2, 1.0, 1.0)
    # a point of the wrong dimension
    with pytest.raises(ValueError, match="v must have shape"):
        oco.OGD(K, 0.1).update(np.ones(2))
    with pytest.raises(ValueError, match="z must have shape"):
        K.project(np.ones(4))
    with pytest.raises(ValueError, match="w must have shape"):
        convex.Hinge(np.ones(3), 1).value(np.ones(2))
    with pytest.raises(ValueError, match="w1"):
        oco.OGD(K, 0.1, w1=[2.0, 0.0, 0.0])  # outside the ball
    with pytest.raises(ValueError, match="dimension"):
        oco.play(oco.OGD(K, 0.1), [convex.Linear(np.ones(2))])
    # non-finite data and loss values
    with pytest.raises(ValueError, match="x must be finite"):
        convex.Hinge([1.0, float("nan")], 1)
    with pytest.raises(ValueError, match="y must be"):
        convex.Squared([1.0], float("inf"))
    with pytest.raises(ValueError, match="X and Y must be finite"):
        convex.Hinge.sequence([[1.0, float("inf")]], [1])

    class Broken(convex.Linear):
        def _value(self, w):
            return float("nan")

    with pytest.raises(ValueError, match="round 1: the loss value"):
        oco.play(oco.OGD(K, 0.1), [Broken(np.ones(3))])
    # a comparator outside the set
    tr = oco.play(oco.OGD(K, 0.1), [convex.Linear(np.ones(3))])
    with pytest.raises(ValueError, match="u is not in"):
        oco.regret(tr, [1.0, 1.0, 0.0], K)
    with pytest.raises(ValueError, match="u must have shape"):
        oco.regret(tr, [0.0, 0.0], K)
    with pytest.raises(ValueError, match="losses"):
        oco.best_fixed([], K)
    with pytest.raises(ValueError, match="T is needed"):
        oco.play(oco.OGD(K, 0.1), lambda t, w: convex.Linear(np.ones(3)))
    with pytest.raises(ValueError, match="K must be"):
        oco.OGD("ball", 0.1)


# ---------------------------------------------------------------------------------------------
# The input checks that Section 5.1 used to demonstrate (moved here from the chapter, issue 15):
# each bad input is refused with a ValueError naming the argument; the valid inputs next to them
# are accepted.
# ---------------------------------------------------------------------------------------------
_K3 = convex.Ball(3, 2.0)
_X = np.array([2.0, 1.0, 0.0])
_BIG = convex.Squared([1e150, 0.0, 0.0], 0.0)  # (1/2)<w, x>^2 = inf at w = 1e10 e_1
_REFUSED = [
    (lambda: oco.OGD(_K3, 0.0), "eta"),
    (lambda: oco.OGD(_K3, -1.0), "eta"),
    (lambda: oco.OGD(_K3, float("inf")), "eta"),
    (lambda: oco.OGD(_K3, lambda t: -1.0).update(_X), "eta_1"),
    (lambda: oco.EG(3, float("nan")), "eta"),
    (lambda: convex.Ball(3, 0.0), "B"),
    (lambda: convex.Ball(3, -1.0), "B"),
    (lambda: oco.anytime(1.0, 0.0), "rho"),
    (lambda: oco.strongly_convex(-1.0), "lam"),
    (lambda: convex.Quadratic([1.0], 0.0), "lam"),
    (lambda: convex.Simplex(0), "d"),
    (lambda: convex.Ball(2.5, 1.0), "d"),
    (lambda: convex.Box(2, 1.0, 1.0), "lo and hi"),
    (lambda: convex.Box(2, [0.0, float("nan")], 1.0), "lo and hi"),
    (lambda: _K3.project([1.0, 2.0]), "z must have shape (3,)"),
    (lambda: _K3.project([[1.0, 2.0, 3.0]]), "z"),
    (lambda: _K3.project([1.0, float("nan"), 0.0]), "z"),
    (lambda: oco.OGD(_K3, 0.1).update([1.0, 2.0]), "v must have shape"),
    (lambda: convex.Hinge(_X, -1).value([1.0, 2.0]), "w"),
    (lambda: convex.Hinge([1.0, float("inf")], 1), "x"),
    (lambda: convex.Squared([1.0], float("nan")), "y"),
    (lambda: convex.Hinge.sequence([[1.0, 2.0]], [1, -1]), "X"),
    (lambda: convex.Hinge.sequence([[1.0, float("nan")]], [1]), "X"),
    (lambda: convex.Regularized("hinge", 0.1), "base"),
    (lambda: oco.OGD("ball", 0.1), "K"),
    (lambda: oco.Doubling(3), "make"),
    (lambda: oco.OGD(_K3, 0.1, w1=[3.0, 0.0, 0.0]), "w1"),
    (lambda: oco.play(oco.OGD(_K3, 0.1), [convex.Linear([1.0, 1.0])]), "dimension"),
    (lambda: oco.play(oco.OGD(_K3, 0.1), lambda t, w: _BIG), "T"),
    (lambda: oco.play(oco.OGD(_K3, 0.1), [convex.Linear(_X)], T=2), "T"),
    (lambda: oco.play(oco.OGD(_K3, 0.1), [convex.Linear(_X)], T=-1), "T"),
    (lambda: oco.play(oco.OGD(convex.Ball(3, 1e10), 0.1, w1=[1e10, 0, 0]), [_BIG]), "loss value"),
    (lambda: oco.regret(oco.play(oco.OGD(_K3, 0.1), [convex.Linear(_X)]), [3.0, 0.0, 0.0], _K3), "u"),
    (lambda: oco.regret(oco.play(oco.OGD(_K3, 0.1), [convex.Linear(_X)]), [0.0, 0.0], _K3), "u"),
    (lambda: oco.best_fixed([], _K3), "losses"),
]


@pytest.mark.parametrize("make, name", _REFUSED, ids=[f"{i}-{n}" for i, (_, n) in enumerate(_REFUSED)])
def test_chapter_5_1_bad_inputs_are_refused_by_name(make, name):
    with pytest.raises(ValueError) as err:
        make()
    assert name in str(err.value)


def test_chapter_5_1_valid_inputs_next_to_the_bad_ones_are_accepted():
    convex.Box(3, -1.0, [1.0, 2.0, 1.0])
    convex.Quadratic([0.5, 0.0, 1.0], 2.0)
    convex.Regularized(convex.Linear(_X), 2.0)
    oco.anytime(2.0, 4.0)
    oco.OGD(_K3, 0.1, w1=[2.0, 0.0, 0.0])  # on the sphere: in the set
    assert oco.play(oco.OGD(_K3, 0.1), [convex.Linear(_X)], T=0).T == 0
    convex.Hinge.sequence([[1.0, 2.0]], [1])
    # at distance exactly tol from the set: in it ("within tol")
    convex.Box(1, 0.0, 1.0).check_member([-(2.0**-30)], tol=2.0**-30)


# ---------------------------------------------------------------------------------------------
# The independent references of the chapter's checks (plain numpy) and the OGD proof check
# ---------------------------------------------------------------------------------------------
def test_plain_projections_agree_with_the_sets():
    rng = np.random.default_rng(7)
    Z = 3 * rng.standard_normal((200, 4))
    Z[:50] = np.round(Z[:50])  # ties
    for K in (convex.Ball(4, 1.5), convex.Box(4, -1.0, 2.0), convex.Simplex(4)):
        P = np.array([K.project(z) for z in Z])
        assert np.abs(oco_proof.plain_projection(K, Z) - P).max() < 1e-9
    assert np.allclose(oco_proof.plain_ball_projection([[3.0, 4.0]], 1.0), [[0.6, 0.8]])
    assert np.allclose(oco_proof.plain_simplex_projection([0.1, 0.5, 0.1]), [[0.2, 0.6, 0.2]])
    with pytest.raises(ValueError, match="K must be"):
        oco_proof.plain_projection(convex.Space(2), [[1.0, 2.0]])


def test_random_points_lie_in_the_set():
    rng = np.random.default_rng(8)
    for K in (convex.Ball(3, 2.0), convex.Box(3, -1.0, [1.0, 2.0, 1.0]), convex.Simplex(3)):
        U = oco_proof.random_points(K, 100, rng)
        assert U.shape == (100, 3)
        assert max(K.distance(u) for u in U) < 1e-12
    with pytest.raises(ValueError, match="K must be"):
        oco_proof.random_points(convex.Space(2), 3, rng)


def test_linear_regret_on_ball_is_the_sup_over_the_ball():
    rng = np.random.default_rng(9)
    G = rng.standard_normal((30, 3))
    tr = oco.play(oco.OGD(convex.Ball(3, 2.0), 0.1), [convex.Linear(g) for g in G])
    u = -2.0 * G.sum(axis=0) / np.linalg.norm(G.sum(axis=0))  # the best point of the ball
    R = oco_proof.linear_regret_on_ball(G, tr.w[:-1], 2.0)
    assert R == pytest.approx(oco.regret(tr, u))
    curve = oco_proof.linear_regret_curve(G, tr.w[:-1], 2.0)
    assert curve.shape == (30,) and curve[-1] == pytest.approx(R)


@pytest.mark.parametrize("kind", ["linear", "logistic", "absolute"])
def test_plain_losses_and_subgradients_match_the_loss_objects(kind):
    rng = np.random.default_rng(10)
    X = rng.integers(-1, 2, (40, 3)).astype(float)
    Y = rng.choice([-1.0, 1.0], 40) if kind == "logistic" else rng.integers(-1, 2, 40).astype(float)
    W = rng.integers(-2, 3, (40, 3)) / 4  # grid points: the absolute loss is often at its kink
    make = {"linear": lambda x, y: convex.Linear(x), "logistic": convex.Logistic, "absolute": convex.Absolute}[kind]
    fs = [make(x, y) for x, y in zip(X, Y)]
    assert np.allclose(oco_proof.plain_losses(kind, X, Y, W, paired=True), [f.value(w) for f, w in zip(fs, W)])
    assert np.allclose(oco_proof.plain_losses(kind, X, Y, W[:2])[:, 1], [f.value(W[1]) for f in fs])
    assert np.allclose(oco_proof.plain_subgradients(kind, X, Y, W), [f.subgradient(w) for f, w in zip(fs, W)])
    with pytest.raises(ValueError, match="kind"):
        oco_proof.plain_losses("hinge", X, Y, W)


def test_ogd_proof_holds_on_a_run_and_stops_a_run_without_projection():
    rng = np.random.default_rng(11)
    X = rng.standard_normal((60, 3))
    Y = np.where(X[:, 0] > 0, 1.0, -1.0)
    K = convex.Ball(3, 0.5)
    U = oco_proof.random_points(K, 5, rng)
    tr = oco.play(oco.OGD(K, 0.3), convex.Logistic.sequence(X, Y))
    p, q, R, bound = oco_proof.ogd_proof(K, "logistic", X, Y, 0.3, tr, U, "test")
    assert R.shape == (5,) and np.all(R <= bound)
    assert q["P_err"].max() < 1e-12 and q["v_err"].max() < 1e-12

    class NoProjection(oco.OGD):
        def update(self, v):
            super().update(v)
            self.w = self.record["z"]

    bad = oco.play(NoProjection(K, 0.3), convex.Logistic.sequence(X, Y))
    with pytest.raises(olkit.proof.ProofStepError, match="step P"):
        oco_proof.ogd_proof(K, "logistic", X, Y, 0.3, bad, U, "broken")
