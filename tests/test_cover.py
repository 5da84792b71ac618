"""Covers of the sphere and separable sequences (olkit/cover.py), and Telgarsky's remark."""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import olkit
from olkit.cover import covering_radius, linear_class, margin_sequence, nearest, random_unit_vectors, sphere_cover


def test_random_unit_vectors_are_unit_and_seeded():
    U = random_unit_vectors(100, 4, np.random.default_rng(0))
    assert U.shape == (100, 4) and np.allclose(np.linalg.norm(U, axis=1), 1)
    assert np.array_equal(U, random_unit_vectors(100, 4, np.random.default_rng(0)))


def test_cover_in_one_dimension_is_plus_minus_one():
    assert sphere_cover(1, 0.3).tolist() == [[-1.0], [1.0]]


@pytest.mark.parametrize("d, radius", [(2, 0.25), (2, 0.05), (3, 0.15), (4, 0.6)])
def test_cover_rows_are_distinct_unit_directions(d, radius):
    W = sphere_cover(d, radius)
    assert W.shape[1] == d
    assert np.allclose(np.linalg.norm(W, axis=1), 1)
    ip = W @ W.T
    np.fill_diagonal(ip, -1)
    assert ip.max() < 1 - 1e-12, "one row per direction"


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 4), st.floats(0.15, 1.0), st.integers(0, 2**16))
def test_every_sampled_unit_vector_is_within_radius(d, radius, seed):
    if d == 4:
        radius = max(radius, 0.5)  # keep the grid small
    W = sphere_cover(d, radius)
    U = random_unit_vectors(2000, d, np.random.default_rng(seed))
    # the proof: the rounded grid point g is in the shell and g/||g|| is within radius of u
    h = radius / math.sqrt(d)
    G = h * np.round(U / h)
    norms = np.linalg.norm(G, axis=1)
    assert np.all(np.abs(norms - 1) <= radius / 2 + 1e-12)
    D = G / norms[:, None]
    assert np.all(np.linalg.norm(D - W[np.argmax(D @ W.T, axis=1)], axis=1) < 1e-9), "g/||g|| is a row of W"
    assert np.all(np.linalg.norm(D - U, axis=1) <= radius + 1e-12)
    assert np.all(np.sqrt(np.maximum(0, 2 - 2 * (U @ W.T).max(axis=1))) <= radius + 1e-12)


def test_covering_radius_estimate():
    W = sphere_cover(2, 0.2)
    r = covering_radius(W, np.random.default_rng(1), n_samples=5000)
    assert 0 < r <= 0.2
    assert r == covering_radius(W, np.random.default_rng(1), n_samples=5000, chunk=777)
    # a regular N-gon has covering radius 2 sin(pi / (2N)); sampling approaches it from below
    N = 12
    a = 2 * np.pi * np.arange(N) / N
    ngon = np.stack([np.cos(a), np.sin(a)], axis=1)
    est = covering_radius(ngon, np.random.default_rng(2), n_samples=50_000)
    assert 0.98 * 2 * np.sin(np.pi / (2 * N)) <= est <= 2 * np.sin(np.pi / (2 * N)) + 1e-12


def test_cover_size_grows_like_one_over_radius_to_the_d_minus_1():
    sizes = [len(sphere_cover(3, r)) for r in (0.2, 0.1)]
    assert 3 < sizes[1] / sizes[0] < 5.5  # about 2^(d-1) = 4


@pytest.mark.parametrize("call, msg", [
    (lambda: sphere_cover(0, 0.1), "d must be a positive integer"),
    (lambda: sphere_cover(2, 0.0), "radius"),
    (lambda: sphere_cover(2, 2.5), "radius"),
    (lambda: sphere_cover(2, "0.1"), "radius"),
    (lambda: sphere_cover(8, 0.05), "limit"),
    (lambda: covering_radius(np.ones((3, 2)), np.random.default_rng(0)), "unit rows"),
    (lambda: covering_radius(np.zeros((0, 2)), np.random.default_rng(0)), "non-empty"),
    (lambda: covering_radius(np.eye(2), 0), "Generator"),
    (lambda: covering_radius(np.eye(2), np.random.default_rng(0), n_samples=0), "n_samples"),
    (lambda: nearest(np.eye(2), [1.0, 0.0, 0.0]), "shape"),
])
def test_bad_arguments(call, msg):
    with pytest.raises(ValueError, match=msg):
        call()


def test_nearest():
    W = sphere_cover(2, 0.3)
    u = np.array([np.cos(1.0), np.sin(1.0)])
    i = nearest(W, u)
    assert np.linalg.norm(W[i] - u) == np.linalg.norm(W - u, axis=1).min()


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6), st.floats(0.01, 1.0), st.floats(0, 1), st.booleans(), st.integers(0, 2**16))
def test_margin_sequence(d, gamma, spread, on_sphere, seed):
    margin_max = gamma + spread * (1 - gamma)
    on_sphere = on_sphere and d > 1
    X, y, u = margin_sequence(200, d, gamma, np.random.default_rng(seed), margin_max=margin_max, on_sphere=on_sphere)
    assert X.shape == (200, d) and y.shape == (200,) and set(np.unique(y)) <= {-1, 1}
    assert abs(np.linalg.norm(u) - 1) < 1e-12
    norms = np.linalg.norm(X, axis=1)
    assert np.all(norms <= 1)
    if on_sphere:
        assert np.allclose(norms, 1)
    m = y * (X @ u)
    assert np.all(m >= gamma - 1e-12) and np.all(m <= margin_max + 1e-12)


def test_margin_sequence_is_seeded_and_uses_u():
    a = margin_sequence(50, 3, 0.2, np.random.default_rng(4))
    b = margin_sequence(50, 3, 0.2, np.random.default_rng(4))
    assert all(np.array_equal(p, q) for p, q in zip(a, b))
    u = np.array([0.0, 0.6, 0.8])
    X, y, u2 = margin_sequence(50, 3, 0.3, np.random.default_rng(0), u=u)
    assert np.array_equal(u, u2) and np.all(y * (X @ u) >= 0.3 - 1e-12)
    assert set(np.unique(y)) == {-1, 1}


@pytest.mark.parametrize("kw, msg", [
    (dict(T=0), "T must be"), (dict(d=0), "d must be"), (dict(gamma=0.0), "gamma"), (dict(gamma=1.5), "gamma"),
    (dict(margin_max=0.1), "margin_max"), (dict(margin_max=1.2), "margin_max"), (dict(rng=3), "Generator"),
    (dict(u=np.array([1.0, 1.0])), "unit vector"), (dict(u=np.array([1.0, 0.0, 0.0])), "unit vector"),
    (dict(d=1, on_sphere=True), "d >= 2"),
])
def test_margin_sequence_bad_arguments(kw, msg):
    args = dict(T=10, d=2, gamma=0.2, rng=np.random.default_rng(0))
    args.update(kw)
    with pytest.raises(ValueError, match=msg):
        margin_sequence(**args)


def test_linear_class():
    W = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]])
    X = np.array([[1.0, 1.0], [-1.0, 0.5], [0.0, -1.0], [0.0, 0.0]])
    H = linear_class(W, X)
    assert H.dtype == np.uint8 and H.flags.f_contiguous
    assert H.tolist() == [[1, 0, 0, 0], [1, 1, 0, 0], [0, 1, 0, 0]]
    with pytest.raises(ValueError, match="X must have shape"):
        linear_class(W, np.zeros((3, 3)))
    with pytest.raises(ValueError, match="W must be"):
        linear_class(np.zeros(2), X)
    with pytest.raises(ValueError, match="W must be"):
        linear_class(np.zeros((0, 2)), X)
    # one weight vector, one point: the smallest class there is
    assert linear_class(W[:1], X[:1]).tolist() == [[1]]


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 3), st.sampled_from([0.5, 0.3, 0.2]), st.integers(0, 2**16))
def test_telgarsky_remark(d, gamma, seed):
    """The cover point nearest to u separates with margin gamma/2, so Consistent and Halving meet their bounds."""
    rng = np.random.default_rng(seed)
    W = sphere_cover(d, gamma / 2)
    X, y, u = margin_sequence(120, d, gamma, rng, margin_max=min(1.0, 2 * gamma))
    i0 = nearest(W, u)
    dist = np.linalg.norm(W[i0] - u)
    assert dist <= gamma / 2
    m = y * (X @ W[i0])
    assert np.all(m >= gamma - dist - 1e-12) and np.all(m >= gamma / 2 - 1e-12)
    H = linear_class(W, X)
    y01 = olkit.to_01(y)
    assert np.array_equal(H[i0], y01)
    xs = np.arange(len(X))
    assert olkit.run(olkit.Consistent(H), xs, y01).M <= len(W) - 1
    assert olkit.run(olkit.Halving(H), xs, y01).M <= math.log2(len(W))


def test_a_cover_that_is_too_coarse_is_caught():
    """Broken variant: the grid with twice the spacing is not a gamma/2-cover; the sampled radius shows it."""
    gamma = 0.3
    too_coarse = sphere_cover(2, gamma)  # a gamma-cover, not a gamma/2-cover
    assert covering_radius(too_coarse, np.random.default_rng(0), n_samples=20_000) > gamma / 4
    assert covering_radius(sphere_cover(2, gamma / 2), np.random.default_rng(0), n_samples=20_000) <= gamma / 2


def test_linear_class_takes_a_single_direction_and_a_single_point():
    from olkit.cover import linear_class

    assert linear_class(np.array([[1.0, 0.0]]), np.array([[0.5, 0.5], [-1.0, 0.0]])).tolist() == [[1, 0]]
    assert linear_class(np.array([[1.0, 0.0], [0.0, -1.0]]), np.array([[0.5, 0.5]])).tolist() == [[1], [0]]


def test_sphere_cover_grid_limit():
    from olkit.cover import MAX_GRID, sphere_cover

    with pytest.raises(ValueError, match="limit"):
        sphere_cover(6, 0.05)
    assert MAX_GRID == 2**24


def test_sphere_cover_grid_limit_is_on_the_number_of_grid_points(monkeypatch):
    """The limit counts (2K + 1)^d grid points, K = ceil((1 + radius/2) / h): a grid of exactly MAX_GRID
    points is examined, one point more is refused."""
    import math

    import olkit.cover as cover

    d, radius = 2, 0.5
    h = radius / math.sqrt(d)
    K = math.ceil((1 + radius / 2) / h)
    monkeypatch.setattr(cover, "MAX_GRID", (2 * K + 1) ** d)
    assert len(sphere_cover(d, radius)) > 0
    monkeypatch.setattr(cover, "MAX_GRID", (2 * K + 1) ** d - 1)
    with pytest.raises(ValueError, match=rf"\(2\*{K}\+1\)\^{d} = {(2 * K + 1) ** d} points"):
        sphere_cover(d, radius)


def test_linear_class_rejects_an_empty_set_of_points():
    from olkit.cover import linear_class

    with pytest.raises(ValueError, match="m >= 1"):
        linear_class(np.eye(2), np.zeros((0, 2)))
    with pytest.raises(ValueError, match="non-empty"):
        linear_class(np.zeros((0, 2)), np.eye(2))


def test_nearest_ties_are_relative_to_the_norm_of_u():
    """<w, u> within 1e-9 ||u|| of the largest is a tie, won by the first row: with ||u|| = 2 a gap of
    1.5e-9 is a tie (1.5e-9 <= 2e-9), a gap of 3e-9 is not."""
    for gap, expected in [(1.5e-9, 0), (3e-9, 1)]:
        a = math.acos(1 - gap / 2)  # <w_0, u> = 2 cos a = 2 - gap
        W = np.array([[math.cos(a), math.sin(a)], [1.0, 0.0]])
        assert nearest(W, np.array([2.0, 0.0])) == expected


def test_margin_sequence_fills_the_ball_uniformly():
    """Off the sphere, the component of x_t orthogonal to u is uniform on the (d - 1)-ball of radius
    sqrt(1 - s_t^2): its squared relative radius is uniform on [0, 1] when d = 3 (mean 1/2, and a
    quarter of the draws below 1/4)."""
    u = np.array([0.0, 0.0, 1.0])
    X, y, _ = margin_sequence(20000, 3, 0.1, np.random.default_rng(5), u=u)
    s = X @ u
    q = np.sum(X[:, :2] ** 2, axis=1) / (1 - s**2)
    assert abs(q.mean() - 0.5) < 0.01
    assert abs((q < 0.25).mean() - 0.25) < 0.01
    Xs, _, _ = margin_sequence(200, 3, 0.1, np.random.default_rng(5), u=u, on_sphere=True)
    assert np.allclose(np.linalg.norm(Xs, axis=1), 1.0)


def test_linear_class_size_limit_counts_directions_times_points(monkeypatch):
    import olkit.cover as cover

    monkeypatch.setattr(cover, "MAX_ENTRIES", 10)
    assert linear_class(np.eye(2), np.ones((5, 2))).shape == (2, 5)  # 10 entries: at the limit
    with pytest.raises(ValueError, match="2 x 6 entries exceed 10"):
        linear_class(np.eye(2), np.ones((6, 2)))
