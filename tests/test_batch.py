"""olkit.batch: distributions with exact risks, the hypotheses of a run, conversions, Monte Carlo."""
from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import olkit
from olkit import batch, distributions, estimates

P8 = [Fraction(1, 4)] * 2 + [Fraction(1, 8)] * 2 + [Fraction(1, 16)] * 4


# -- distributions ----------------------------------------------------------------------------
def test_risk_by_hand_with_and_without_noise():
    D = distributions.FiniteDistribution([Fraction(1, 2), Fraction(1, 4), Fraction(1, 4)], [0, 1, 1])
    assert D.risk([0, 1, 1]) == 0.0
    assert D.risk([1, 1, 1]) == 0.5
    assert D.risk_exact([0, 0, 1]) == Fraction(1, 4)
    Dn = distributions.FiniteDistribution([Fraction(1, 2), Fraction(1, 4), Fraction(1, 4)], [0, 1, 1], noise=Fraction(1, 8))
    # right on every point: wrong only when the label flips
    assert Dn.risk_exact([0, 1, 1]) == Fraction(1, 8) and Dn.risk([0, 1, 1]) == 0.125
    # wrong on the first point: 1/2 * 7/8 + 1/2 * 1/8
    assert Dn.risk_exact([1, 1, 1]) == Fraction(1, 2) * Fraction(7, 8) + Fraction(1, 2) * Fraction(1, 8)
    assert Dn.bayes_risk() == 0.125
    many = Dn.risk(np.array([[0, 1, 1], [1, 1, 1]]))
    assert many.tolist() == [0.125, 0.5]


def test_exact_risks_match_large_sample_estimates():
    rng = np.random.default_rng(3)
    D = distributions.FiniteDistribution(P8, [0, 0, 1, 1, 0, 1, 0, 1], noise=0.2)
    xs, ys = D.sample(400_000, rng)
    freq = np.bincount(xs, minlength=8) / xs.size
    assert np.all(np.abs(freq - D.p) < 5 * np.sqrt(D.p * (1 - D.p) / xs.size))
    for h in [D.target, 1 - D.target, np.zeros(8, dtype=int), rng.integers(0, 2, 8)]:
        est = np.mean(h[xs] != ys)
        assert abs(est - D.risk(h)) < 5 * math.sqrt(0.25 / xs.size)


def test_loss_risk_is_the_weighted_sum_and_handles_noise():
    X = np.array([[1.0, 0.0], [0.0, 2.0], [-1.0, -1.0]])
    D = distributions.FiniteDistribution([0.5, 0.25, 0.25], [1, 1, -1], noise=0.25, labels=(-1, 1), X=X)
    hinge = lambda s, y: np.maximum(0.0, 1.0 - y * s)  # noqa: E731
    w = np.array([0.5, -0.25])
    s = X @ w
    clean = hinge(s, np.array([1, 1, -1]))
    flipped = hinge(s, -np.array([1, 1, -1]))
    want = float(np.dot([0.5, 0.25, 0.25], 0.75 * clean + 0.25 * flipped))
    assert D.loss_risk(w, hinge) == pytest.approx(want, abs=1e-15)
    assert D.loss_risk(np.stack([w, w]), hinge).shape == (2,)
    rng = np.random.default_rng(0)
    xs, ys = D.sample(200_000, rng)
    assert abs(np.mean(hinge(X[xs] @ w, ys)) - want) < 0.01


@pytest.mark.parametrize("gamma", [0.0, 0.3, 0.7])
@pytest.mark.parametrize("angle", [0.2, 1.3, 2.9])
def test_circle_risk_formula_matches_a_large_sample(gamma, angle):
    C = distributions.CircleDistribution(angle=0.4, gamma=gamma)
    X, y = C.sample(200_000, np.random.default_rng(1))
    assert np.all(np.abs(X @ C.u) >= gamma - 1e-12)
    assert np.all(np.sign(X @ C.u) == y)
    w = np.array([math.cos(0.4 + angle), math.sin(0.4 + angle)])
    est = np.mean(np.where(X @ w > 0, 1, -1) != y)
    assert abs(est - C.risk(w)) < 5 * math.sqrt(0.25 / 200_000) + 1e-3
    assert C.risk(C.u) == 0.0 and C.risk(-C.u) == pytest.approx(1.0)


@pytest.mark.parametrize(
    "kwargs, name",
    [
        (dict(p=[0.5, 0.4], target=[0, 1]), "sum to 1"),
        (dict(p=[Fraction(1, 2), Fraction(1, 3)], target=[0, 1]), "sum to 1"),
        (dict(p=[1.5, -0.5], target=[0, 1]), "non-negative"),
        (dict(p=[Fraction(3, 2), Fraction(-1, 2)], target=[0, 1]), "non-negative"),
        (dict(p=[], target=[]), "at least one"),
        (dict(p=[0.5, 0.5], target=[0, 1, 1]), "target"),
        (dict(p=[0.5, 0.5], target=[0, 2]), "target labels"),
        (dict(p=[0.5, 0.5], target=[0, 1], noise=0.7), "noise"),
        (dict(p=[0.5, 0.5], target=[0, 1], noise=True), "noise"),
        (dict(p=[0.5, 0.5], target=[0, 1], labels=(1, 2)), "labels"),
        (dict(p=[0.5, 0.5], target=[0, 1], X=np.zeros((3, 2))), "X"),
    ],
)
def test_bad_distributions_are_refused(kwargs, name):
    with pytest.raises(ValueError, match=name):
        distributions.FiniteDistribution(**kwargs)


def test_bad_inputs_to_sampling_and_risks():
    D = distributions.FiniteDistribution([0.5, 0.5], [0, 1])
    rng = np.random.default_rng(0)
    for T in (0, -1, 2.5, True):
        with pytest.raises(ValueError, match="T"):
            D.sample(T, rng)
    with pytest.raises(ValueError, match="runs"):
        D.sample(3, rng, runs=0)
    with pytest.raises(ValueError, match="rng"):
        D.sample(3, 0)
    with pytest.raises(ValueError, match="last axis"):
        D.risk([0, 1, 1])
    with pytest.raises(ValueError, match="labels"):
        D.risk([0, 2])
    with pytest.raises(ValueError, match="Fractions"):
        D.risk_exact([0, 1])
    with pytest.raises(ValueError, match="feature"):
        D.loss_risk([1.0], lambda s, y: s)
    with pytest.raises(ValueError, match="gamma"):
        distributions.CircleDistribution(gamma=1.0)
    with pytest.raises(ValueError, match="shape"):
        distributions.CircleDistribution().risk([0.0, 0.0, 1.0])
    assert distributions.CircleDistribution().risk([0.0, 0.0]) == 0.5  # a constant label: half the mass
    C = distributions.CircleDistribution(0.3, 0.2)
    W = np.random.default_rng(0).standard_normal((5, 2))
    assert C.risk(W).tolist() == [C.risk(w) for w in W]


@pytest.mark.parametrize("delta", [0, 1, -0.1, 1.5, float("nan"), True, "0.1", None])
def test_delta_outside_the_open_unit_interval_is_refused(delta):
    with pytest.raises(ValueError, match="delta"):
        batch.check_delta(delta)


def test_markov_sample_size():
    assert batch.markov_sample_size(4, 0.1, 0.5) == 80
    assert batch.markov_sample_size(math.log2(9), 0.1, 0.1) == 317
    assert batch.markov_sample_size(0, 0.1, 0.1) == 1
    for bad in (0, 1, 1.5, -0.2):
        with pytest.raises(ValueError, match="delta"):
            batch.markov_sample_size(3, 0.1, bad)
        with pytest.raises(ValueError, match="eps"):
            batch.markov_sample_size(3, bad, 0.5)
    with pytest.raises(ValueError, match="mistake_bound"):
        batch.markov_sample_size(-1, 0.1, 0.5)


def test_erm_sample_size_of_the_broken_variants():
    from olkit.broken.batch import erm_sample_size, log_markov_sample_size

    # ceil(ln(|H|/delta)/eps), UML Corollary 2.3: the chapter's two-point class and its exercise
    assert [erm_sample_size(2, 1 / 8, d) for d in (0.5, 0.25, 0.1)] == [12, 17, 24]
    assert erm_sample_size(15, 0.05, 0.01) == 147
    # not the M ln(1/delta)/eps of log_markov_sample_size (6, 12, 19 on the same instance)
    assert [log_markov_sample_size(1, 1 / 8, d) for d in (0.5, 0.25, 0.1)] == [6, 12, 19]
    # at ERM's sizes the random iterate of the two-point instance fails: 8 (1 - (7/8)^T) / T > delta
    for d in (0.5, 0.25, 0.1):
        T = erm_sample_size(2, 1 / 8, d)
        assert 8 * (1 - Fraction(7, 8) ** T) / T > Fraction(d)
    for bad in ((0, 0.1, 0.5), (1.5, 0.1, 0.5), (2, 0, 0.5), (2, 0.1, 1)):
        with pytest.raises(ValueError):
            erm_sample_size(*bad)


def test_delta_inside_is_accepted():
    assert batch.check_delta(0.05) == 0.05 and batch.check_delta(Fraction(1, 2)) == 0.5


# -- the hypotheses of a run -----------------------------------------------------------------
def _realizable(H, k, T, rng):
    D = distributions.FiniteDistribution([Fraction(1, H.shape[1])] * H.shape[1], H[k])
    return D, *D.sample(T, rng)


@pytest.mark.parametrize("name", ["Halving", "SOA", "Consistent"])
def test_seen_set_paths_equal_the_round_by_round_game(name):
    rng = np.random.default_rng(7)
    H = np.unique(olkit.random_class(20, 6, rng), axis=0)
    make = {
        "Halving": lambda: olkit.Halving(H),
        "SOA": lambda: olkit.SOA(H),
        "Consistent": lambda: olkit.Consistent(H),
    }[name]
    D = distributions.FiniteDistribution([Fraction(1, 6)] * 6, H[2])
    XS, YS = D.sample(12, rng, runs=30)
    seen = batch.SeenSetPaths(make, H[2])
    ids = seen.paths(XS)
    table = seen.table
    for r in range(30):
        path = batch.hypothesis_path(make(), XS[r], YS[r], 6)
        assert np.array_equal(table[ids[r]], path)
        trace = olkit.run(make(), XS[r], YS[r])
        assert np.array_equal(path[np.arange(12), XS[r]], trace.yhat)


def test_hypothesis_path_rows_are_before_each_round():
    H = olkit.thresholds(4)
    path = batch.hypothesis_path(olkit.Halving(H), [2, 0], [1, 0], 4)
    assert path.shape == (3, 4)
    # h_1: majority of all 5 thresholds; h_2: thresholds with h(2) = 1 (k <= 2); h_3: also h(0) = 0
    assert path[0].tolist() == [0, 0, 1, 1]  # on x, x + 1 of the 5 thresholds say 1
    assert path[1].tolist() == [0, 1, 1, 1]  # V = {k <= 2}: on 1, 2 of 3 say 1
    assert path[2].tolist() == [0, 1, 1, 1]  # V = {1, 2}: on 1, a tie, which goes to 1


def test_hypothesis_path_and_seen_sets_refuse_bad_input():
    with pytest.raises(ValueError, match="equal length"):
        batch.hypothesis_path(olkit.Halving(olkit.thresholds(3)), [0, 1], [1], 3)
    with pytest.raises(ValueError, match="n"):
        batch.hypothesis_path(olkit.Halving(olkit.thresholds(3)), [0], [1], 0)
    with pytest.raises(ValueError, match="n <= 62"):
        batch.SeenSetPaths(lambda: None, np.zeros(70, dtype=int))
    seen = batch.SeenSetPaths(lambda: olkit.Halving(olkit.thresholds(3)), [0, 1, 1])
    with pytest.raises(ValueError, match="points"):
        seen.paths([[0, 3]])


# -- conversions -------------------------------------------------------------------------------
def test_conversions_return_what_they_claim():
    rng = np.random.default_rng(11)
    H = olkit.thresholds(8)
    D = distributions.FiniteDistribution(P8, H[5])
    xs, ys = D.sample(20, rng)
    path = batch.hypothesis_path(olkit.Halving(H), xs, ys, 8)
    picks = [batch.random_iterate(path, D, rng) for _ in range(2000)]
    ts = np.array([c.t for c in picks])
    assert ts.min() == 1 and ts.max() == 20  # never h_(T+1)
    assert all(np.array_equal(c.h, path[c.t - 1]) and c.risk == D.risk(path[c.t - 1]) for c in picks)
    last = batch.last_iterate(path, D)
    assert last.t == 21 and np.array_equal(last.h, path[20]) and last.risk == D.risk(path[20])
    W = rng.standard_normal((11, 3))
    avg = batch.average_iterate(W, lambda w: float(np.sum(w * w)))
    assert np.allclose(avg.h, W[:10].mean(axis=0)) and avg.t is None
    assert avg.risk == pytest.approx(float(np.sum(W[:10].mean(axis=0) ** 2)))
    xv, yv = D.sample(15, rng)
    val = batch.validation_choice(path, D, xv, yv)
    errors = (path[:, xv] != yv).sum(axis=1)
    assert errors[val.t - 1] == errors.min() and np.all(errors[: val.t - 1] > errors.min())


def test_conversions_refuse_bad_input():
    D = distributions.FiniteDistribution([0.5, 0.5], [0, 1])
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="T >= 1"):
        batch.random_iterate(np.zeros((1, 2), dtype=int), D, rng)
    with pytest.raises(ValueError, match="T >= 1"):
        batch.last_iterate(np.zeros(2, dtype=int), D)
    with pytest.raises(ValueError, match="validation sample"):
        batch.validation_choice(np.zeros((3, 2), dtype=int), D, [], [])


# -- Monte Carlo and intervals -------------------------------------------------------------------
def test_monte_carlo_is_reproducible_and_its_runs_independent():
    exp = lambda rng: {"u": rng.random(), "v": rng.random(3)}  # noqa: E731
    a, b = estimates.monte_carlo(exp, 50, seed=5), estimates.monte_carlo(exp, 50, seed=5)
    assert np.array_equal(a["u"], b["u"]) and a["v"].shape == (50, 3)
    assert len(np.unique(a["u"])) == 50
    with pytest.raises(ValueError, match="dict"):
        estimates.monte_carlo(lambda rng: 1.0, 3, seed=0)
    with pytest.raises(ValueError, match="runs"):
        estimates.monte_carlo(exp, 0, seed=0)


def test_intervals_by_hand():
    e = estimates.mean_ci([0.0, 1.0, 2.0, 3.0], level=0.95)
    assert e.mean == 1.5 and e.se == pytest.approx(math.sqrt(5 / 3) / 2)
    assert e.hi - e.mean == pytest.approx(1.959964 * e.se, rel=1e-6)
    f = estimates.frequency_ci([0] * 10, level=0.95)
    assert f.mean == 0 and f.lo == pytest.approx(0, abs=1e-15) and 0.2 < f.hi < 0.35  # Wilson: not empty
    c = estimates.count_test([[0.5, 0.0], [0.5, 0.0], [0.0, 0.0]], [[1, 0], [0, 0], [0, 0]])
    assert c.k.tolist() == [1, 0] and c.mu.tolist() == [1.0, 0.0] and c.p_value.tolist() == [1.0, 1.0]
    # 3 events where 1 is expected: 2 exp(-(3 ln 3 - 3 + 1))
    c = estimates.count_test([[0.5, 0.5, 0.0]] * 1 + [[0.0, 0.0, 0.0]], [[1, 1, 0], [1, 0, 0]], axis=1)
    assert c.p_value[0] == 1.0 and c.p_value[1] == 0.0  # an event of probability 0 happened
    c = estimates.count_test(np.full(10, 0.1), np.r_[np.ones(3), np.zeros(7)].astype(int))
    assert c.p_value == pytest.approx(2 * math.exp(-(3 * math.log(3) - 3 + 1)))
    for bad in (0, 1, 1.5):
        with pytest.raises(ValueError, match="level"):
            estimates.mean_ci([1.0, 2.0], level=bad)
    with pytest.raises(ValueError, match="2 runs"):
        estimates.mean_ci([1.0])
    with pytest.raises(ValueError, match="0/1"):
        estimates.frequency_ci([0, 2])
    with pytest.raises(ValueError, match="same shape"):
        estimates.count_test([0.5], [1, 0])
    with pytest.raises(ValueError, match="prob"):
        estimates.count_test([1.5], [1])
    with pytest.raises(ValueError, match="0/1"):
        estimates.count_test([0.5], [2])


@settings(max_examples=25, deadline=None)
@given(p=st.floats(0.01, 0.99), seed=st.integers(0, 2**32 - 1))
def test_wilson_interval_covers_at_about_its_level(p, seed):
    rng = np.random.default_rng(seed)
    events = rng.random((400, 60)) < p  # 400 experiments of 60 runs
    f = estimates.frequency_ci(events, level=0.95, axis=1)
    coverage = np.mean((f.lo <= p) & (p <= f.hi))
    assert coverage >= 0.88


# -- the theorem's step 2, exactly, and the broken conversion --------------------------------------
def _exact_sides(H, k, p, t, peek=False):
    D = distributions.FiniteDistribution(p, H[k])
    seen = batch.SeenSetPaths(lambda: olkit.Halving(H), H[k])
    lhs = rhs = Fraction(0)
    n = H.shape[1]
    for xs in itertools.product(range(n), repeat=t):
        before = sum(1 << x for x in set(xs[:-1]))
        h = seen.labels_after(before | (1 << xs[-1]) if peek else before)
        pr = math.prod((p[x] for x in xs), start=Fraction(1))
        lhs += pr * D.risk_exact(h)
        rhs += pr * int(h[xs[-1]] != H[k][xs[-1]])
    return lhs, rhs


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), t=st.integers(1, 3))
def test_step_two_holds_exactly_on_random_classes_and_fails_for_a_peeking_conversion(seed, t):
    rng = np.random.default_rng(seed)
    H = np.unique(olkit.random_class(6, 4, rng), axis=0)
    k = int(rng.integers(len(H)))
    w = rng.integers(1, 5, 4)
    p = [Fraction(int(v), int(w.sum())) for v in w]
    lhs, rhs = _exact_sides(H, k, p, t)
    assert lhs == rhs
    lhs_peek, rhs_peek = _exact_sides(H, k, p, t, peek=True)
    assert rhs_peek == 0  # a version-space learner never errs on a point it has seen
    if lhs_peek > 0:
        assert lhs_peek != rhs_peek


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), T=st.integers(1, 3))
def test_expected_risk_of_the_random_iterate_is_at_most_the_mistake_bound_over_T(seed, T):
    rng = np.random.default_rng(seed)
    H = np.unique(olkit.random_class(8, 4, rng), axis=0)
    k = int(rng.integers(len(H)))
    p = [Fraction(1, 4)] * 4
    e_hr = sum(_exact_sides(H, k, p, t)[0] for t in range(1, T + 1)) / T
    assert e_hr <= Fraction(math.floor(math.log2(len(H))), T)  # Halving: M <= floor(log2 |H|)


def test_count_test_passes_the_honest_conversion_and_rejects_a_peeking_one():
    rng = np.random.default_rng(2)
    H = olkit.thresholds(8)
    D = distributions.FiniteDistribution(P8, H[5])
    seen = batch.SeenSetPaths(lambda: olkit.Halving(H), H[5])
    XS, YS = D.sample(6, rng, runs=3000)
    ids = seen.paths(XS)
    tab = seen.table
    risk, mistake = D.risk(tab)[ids], tab[ids[:, :6], XS] != YS
    assert np.all(estimates.count_test(risk[:, :6], mistake).p_value >= 0.001 / 6)
    peek_mistake = tab[ids[:, 1:], XS] != YS  # h_(t+1) on x_t
    assert np.any(estimates.count_test(risk[:, 1:], peek_mistake).p_value < 1e-6)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), scale=st.sampled_from([1e-4, 1e-2, 0.3]))
def test_count_test_p_values_are_valid(seed, scale):
    """Under the null (outcomes drawn with their probabilities), p < alpha happens at most about
    alpha of the time: 2000 tests at alpha = 0.05 reject at most ~5% (the bound is conservative)."""
    rng = np.random.default_rng(seed)
    q = rng.random((50, 2000)) * scale
    o = rng.random(q.shape) < q
    p = estimates.count_test(q, o).p_value
    assert np.mean(p < 0.05) <= 0.05


# -- edges that the notebooks do not reach ----------------------------------------------------------
def test_edges_one_round_one_point_and_extreme_probabilities():
    X, y = distributions.CircleDistribution(gamma=0.5).sample(1, np.random.default_rng(0))
    assert X.shape == (1, 2) and y.shape == (1,)
    with pytest.raises(ValueError, match="T"):
        distributions.CircleDistribution().sample(0, np.random.default_rng(0))
    seen = batch.SeenSetPaths(lambda: olkit.Halving(np.array([[1]])), [1], n=1)
    assert seen.paths([[0, 0]]).shape == (1, 3) and seen.table.tolist() == [[1], [1]]  # before, after
    with pytest.raises(ValueError, match="n"):
        batch.SeenSetPaths(lambda: None, [1], n=0)
    seen2 = batch.SeenSetPaths(lambda: olkit.Halving(olkit.thresholds(3)), [0, 1, 1])
    assert seen2.paths([[1, 2, 1]]).shape == (1, 4)  # no point 0 in the sample: still valid
    c = estimates.count_test([1.0, 1.0, 0.0], [1, 1, 0])  # probabilities 0 and 1 are valid
    assert c.p_value == 1.0 and c.mu == 2.0


def test_frequency_interval_by_hand_with_events():
    e = np.r_[np.ones(3, dtype=int), np.zeros(7, dtype=int)]
    f = estimates.frequency_ci(e, level=0.95)
    z = 1.959963984540054
    n, ph = 10, 0.3
    centre = (ph + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(ph * (1 - ph) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    assert f.mean == 0.3 and f.se == pytest.approx(math.sqrt(0.3 * 0.7 / 10), rel=1e-12)
    assert f.lo == pytest.approx(centre - half, rel=1e-12) and f.hi == pytest.approx(centre + half, rel=1e-12)


def test_circle_risk_does_not_depend_on_the_length_of_w():
    C = distributions.CircleDistribution(angle=0.4, gamma=0.3)
    w = np.array([math.cos(1.5), math.sin(1.5)])
    assert C.risk(3.0 * w) == pytest.approx(C.risk(w), abs=1e-15)
    assert C.risk(0.01 * w) == pytest.approx(C.risk(w), abs=1e-15)


def test_absolute_risk_of_forecasts():
    D = distributions.FiniteDistribution([0.5, 0.25, 0.25], [0, 1, 1], noise=0.125)
    assert D.absolute_risk([0, 1, 1]) == D.risk([0, 1, 1]) == 0.125
    # h = 1/2 everywhere: |1/2 - y| = 1/2 whatever the label
    assert D.absolute_risk([0.5, 0.5, 0.5]) == 0.5
    # point 1 at 0.25: (7/8)(3/4) + (1/8)(1/4) = 0.6875, weight 1/4; the others exact
    assert D.absolute_risk([0.0, 0.25, 1.0]) == pytest.approx(0.5 * 0.125 + 0.25 * 0.6875 + 0.25 * 0.125)
    assert D.absolute_risk(np.array([[0.5] * 3, [0, 1, 1]])).tolist() == [0.5, 0.125]
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        D.absolute_risk([0.0, 1.5, 1.0])
    with pytest.raises(ValueError, match="labels"):
        distributions.FiniteDistribution([0.5, 0.5], [-1, 1], labels=(-1, 1)).absolute_risk([0.5, 0.5])


# -- leave-one-out ------------------------------------------------------------------------------
def test_labelled_points_and_all_samples():
    D = distributions.FiniteDistribution([Fraction(1, 2), Fraction(1, 2)], [0, 1], noise=Fraction(1, 4))
    pts = distributions.labelled_points(D)
    assert pts == [(0, 0, Fraction(3, 8)), (0, 1, Fraction(1, 8)), (1, 1, Fraction(3, 8)), (1, 0, Fraction(1, 8))]
    samples = list(distributions.all_samples(pts, 3))
    assert len(samples) == 64 and sum(q for _, q in samples) == 1
    assert dict(samples)[(0, 2, 1)] == Fraction(3, 8) ** 2 * Fraction(1, 8)
    clean = distributions.FiniteDistribution([Fraction(1, 2), Fraction(1, 2)], [0, 1])
    assert distributions.labelled_points(clean) == [(0, 0, Fraction(1, 2)), (1, 1, Fraction(1, 2))]
    with pytest.raises(ValueError, match="m"):
        list(distributions.all_samples(pts, 0))
    with pytest.raises(ValueError, match="sum to 1"):
        list(distributions.all_samples([(0, Fraction(1, 2))], 2))
    with pytest.raises(ValueError, match="too many"):
        list(distributions.all_samples(pts, 11))
    with pytest.raises(ValueError, match="Fractions"):
        distributions.labelled_points(distributions.FiniteDistribution([0.5, 0.5], [0, 1]))


def test_loo_error_by_hand():
    majority = lambda xs, ys: (lambda x: int(2 * sum(ys) >= len(ys)))  # noqa: E731  constant majority
    # labels 1, 1, 0: leaving out a 1 leaves {1, 0} -> tie -> 1 (right); leaving out the 0 -> 1 (wrong)
    assert batch.loo_error(majority, [0, 1, 2], [1, 1, 0]) == Fraction(1, 3)
    with pytest.raises(ValueError, match="m >= 2"):
        batch.loo_error(majority, [0], [1])
    with pytest.raises(ValueError, match="same length"):
        batch.loo_error(majority, [0, 1], [1])


def test_perceptron_to_convergence_and_margin():
    run = batch.perceptron_to_convergence([[10.0, 1.0], [10.0, -1.0]], [1, -1])
    assert run.M == 2 and run.support == (0, 1) and run.passes == 2 and run.w.tolist() == [0.0, 2.0]
    assert run([1.0, 1.0]) == 1 and run([1.0, 0.0]) == -1  # a score of 0 predicts -1
    # the support is where the run updated; a correctly classified point never enters it
    run = batch.perceptron_to_convergence([[1.0, 0.0], [2.0, 0.0], [0.0, 1.0]], [1, 1, 1])
    assert run.support == (0, 2) and run.M == 2
    with pytest.raises(ValueError, match="not\\s+linearly separable|max_passes"):
        batch.perceptron_to_convergence([[1.0, 0.0], [1.0, 0.0]], [1, -1], max_passes=20)
    with pytest.raises(ValueError, match="rows"):
        batch.perceptron_to_convergence([[1.0, 0.0]], [1, -1])
    assert batch.margin_2d([[10.0, 1.0], [10.0, -1.0]], [1, -1]) == 1.0
    assert batch.margin_2d([[3.0, 4.0]], [1]) == 5.0
    assert batch.margin_2d([[1.0, 0.0], [-1.0, 0.0]], [1, 1]) == 0.0  # not separable
    assert batch.margin_2d([[1.0, 1.0], [1.0, -1.0]], [1, 1]) == 1.0  # the closest point is an endpoint
    with pytest.raises(ValueError, match="plane"):
        batch.margin_2d([[1.0, 0.0, 0.0]], [1])


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), m=st.integers(2, 7))
def test_margin_2d_is_the_best_direction_and_bounds_the_perceptron(seed, m):
    rng = np.random.default_rng(seed)
    X = rng.integers(-5, 6, size=(m, 2)).astype(float)
    X = X[np.any(X != 0, axis=1)]
    if len(X) == 0:
        return
    u = np.array([math.cos(seed), math.sin(seed)])
    s = X @ u
    keep = np.abs(s) > 1e-9
    X, y = X[keep], np.where(s[keep] > 0, 1, -1)
    if len(X) == 0:
        return
    rho = batch.margin_2d(X, y)
    assert rho > 0
    angles = np.linspace(0, 2 * np.pi, 20001)
    W = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    best = np.max(np.min((W @ (y[:, None] * X).T), axis=1))
    assert best <= rho + 1e-12 and rho - best < 1e-3 * max(1.0, rho)
    run = batch.perceptron_to_convergence(X, y, max_passes=10_000)
    r2 = float(np.max(np.sum(X * X, axis=1)))
    assert run.M <= r2 / rho**2 + 1e-9
    # step 1 of Theorem 7.9: an example off the support is classified correctly by the run without it
    for i in range(len(X)):
        if i not in run.support:
            h = batch.perceptron_to_convergence(np.delete(X, i, axis=0), np.delete(y, i), max_passes=10_000)
            assert h(X[i]) == y[i]


def test_one_run_is_enough_for_monte_carlo_and_a_frequency():
    out = estimates.monte_carlo(lambda g: {"u": g.random()}, 1, seed=0)
    assert out["u"].shape == (1,)
    f = estimates.frequency_ci([1], level=0.95)
    assert f.mean == 1.0 and f.n == 1 and 0 < f.lo < 1 and f.hi == pytest.approx(1.0)


# -- the helpers of the chapter's checks (moved from the notebooks of Chapter 6) ----------------
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6), t=st.integers(1, 3))
def test_round_risk_exact_equals_the_enumeration_by_sequences(seed, t):
    rng = np.random.default_rng(seed)
    H = np.unique(olkit.random_class(6, 4, rng), axis=0)
    k = int(rng.integers(len(H)))
    p = [Fraction(1, 2), Fraction(1, 4), Fraction(1, 8), Fraction(1, 8)]
    lhs, rhs = batch.round_risk_exact(distributions.FiniteDistribution(p, H[k]), lambda: olkit.Halving(H), t)
    assert (lhs, rhs) == _exact_sides(H, k, p, t)  # the independent enumeration above
    assert lhs == rhs


def test_round_risk_exact_by_hand_and_its_refusals():
    # Halving on the five thresholds of four uniform points: h_1 votes 1 on x when x + 1 of the 5
    # thresholds say 1, so from x = 2 on; that is h_2 (risk 0 for target h_2) and errs on x = 0, 1
    # for target h_0 (all ones).
    H = olkit.thresholds(4)
    D = distributions.FiniteDistribution([Fraction(1, 4)] * 4, H[2])
    assert batch.round_risk_exact(D, lambda: olkit.Halving(H), 1) == (0, 0)
    D0 = distributions.FiniteDistribution([Fraction(1, 4)] * 4, H[0])  # all ones: h_1 errs on x = 0, 1
    assert batch.round_risk_exact(D0, lambda: olkit.Halving(H), 1) == (Fraction(1, 2), Fraction(1, 2))
    with pytest.raises(ValueError, match="noise"):
        batch.round_risk_exact(distributions.FiniteDistribution([Fraction(1, 2)] * 2, [0, 1], noise=Fraction(1, 8)),
                               lambda: olkit.Halving(H[:, :2]), 1)
    with pytest.raises(ValueError, match="t"):
        batch.round_risk_exact(D, lambda: olkit.Halving(H), 0)
    with pytest.raises(ValueError, match="too many"):
        batch.round_risk_exact(D, lambda: olkit.Halving(H), 12)


def test_seen_set_runs_are_the_game_and_their_risks_exact():
    H = olkit.thresholds(8)
    D = distributions.FiniteDistribution(P8, H[5])
    XS, YS, ids, table, risk, mistake = batch.seen_set_runs(D, lambda: olkit.Halving(H), 12, 30, np.random.default_rng(4))
    assert XS.shape == YS.shape == mistake.shape == (30, 12) and risk.shape == ids.shape == (30, 13)
    for r in range(30):
        path = batch.hypothesis_path(olkit.Halving(H), XS[r], YS[r], 8)
        assert np.array_equal(path, table[ids[r]])
        assert np.array_equal(olkit.run(olkit.Halving(H), XS[r], YS[r]).mistake, mistake[r])
        assert [D.risk_exact(h) for h in path] == risk[r].tolist()
    with pytest.raises(ValueError, match="runs"):
        batch.seen_set_runs(D, lambda: olkit.Halving(H), 3, 0, np.random.default_rng(0))


def test_ewa_runs_pay_what_hedge_pays_and_their_risks_are_exact():
    H = olkit.thresholds(4)
    D = distributions.FiniteDistribution([Fraction(1, 2), Fraction(1, 4), Fraction(1, 8), Fraction(1, 8)], H[2], noise=Fraction(1, 8))
    sim = batch.ewa_runs(D, H, 40, 6, np.random.default_rng(5))
    assert sim["eta"] == math.sqrt(8 * math.log(5) / 40)
    assert sim["risk"].shape == sim["loss"].shape == (6, 40) and sim["ell"].shape == (6, 40, 5)
    for r in range(6):
        assert np.max(np.abs(olkit.experts.hedge(sim["ell"][r], sim["eta"]).loss - sim["loss"][r])) <= 1e-12
    # round 1: uniform weights, h_1 = mean of the experts; its risk by hand
    h1 = H.mean(axis=0)
    assert np.allclose(sim["risk"][:, 0], D.absolute_risk(h1))
    assert np.all(sim["risk_avg"] <= sim["risk"].mean(axis=1) + 1e-12)  # Jensen (linear here)
    with pytest.raises(ValueError, match="F"):
        batch.ewa_runs(D, np.ones((2, 3)), 5, 2, np.random.default_rng(0))


def test_loo_exact_by_hand_and_unbiased():
    # the constant majority vote on two points x = 0, 1 of probability 1/2, labels = x, no noise
    D = distributions.FiniteDistribution([Fraction(1, 2)] * 2, [0, 1])
    majority = lambda xs, ys: (lambda x: int(2 * sum(ys) >= len(ys)))  # noqa: E731
    e_loo, per, e_risk = batch.loo_exact(majority, distributions.labelled_points(D), D, 1)
    # |S| = 1: h_S is the constant label of the one example, wrong on the other point: risk 1/2
    assert e_risk == Fraction(1, 2) and per == [Fraction(1, 2)] * 2 and e_loo == Fraction(1, 2)
    e_loo, per, e_risk = batch.loo_exact(majority, distributions.labelled_points(D), D, 2)
    assert e_loo == e_risk and set(per) == {e_risk}


# The inputs that olkit.batch refuses (the demonstration that Section 6.1 used to show).
_D3 = distributions.FiniteDistribution([Fraction(1, 2), Fraction(1, 4), Fraction(1, 4)], [0, 1, 1], noise=Fraction(1, 8))
_PATH1 = np.zeros((1, 4), dtype=int)
REFUSED = {
    "p not summing to 1": (lambda: distributions.FiniteDistribution([0.5, 0.4], [0, 1]), "p"),
    "negative p": (lambda: distributions.FiniteDistribution([1.5, -0.5], [0, 1]), "p"),
    "a target label 2": (lambda: distributions.FiniteDistribution([0.5, 0.5], [0, 2]), "target"),
    "noise 0.7": (lambda: distributions.FiniteDistribution([0.5, 0.5], [0, 1], noise=0.7), "noise"),
    "T = 0": (lambda: _D3.sample(0, np.random.default_rng(0)), "T"),
    "delta = 1": (lambda: batch.markov_sample_size(3, 0.1, 1), "delta"),
    "delta = 0": (lambda: batch.check_delta(0), "delta"),
    "eps = 0": (lambda: batch.markov_sample_size(3, 0, 0.5), "eps"),
    "a path with T = 0": (lambda: batch.last_iterate(_PATH1, distributions.FiniteDistribution([0.25] * 4, [0, 1, 1, 1])), "path"),
    "a risk of the wrong length": (lambda: _D3.risk([0, 1]), "hypothesis"),
    "gamma = 1": (lambda: distributions.CircleDistribution(gamma=1.0), "gamma"),
    "level = 1": (lambda: estimates.mean_ci([1.0, 2.0], 1.0), "level"),
    "probabilities above 1": (lambda: estimates.count_test([1.5], [1]), "prob"),
}


@pytest.mark.parametrize("what", list(REFUSED), ids=list(REFUSED))
def test_bad_input_is_refused_with_a_message_that_names_the_argument(what):
    make, name = REFUSED[what]
    with pytest.raises(ValueError) as err:
        make()
    assert name in str(err.value)
