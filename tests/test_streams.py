"""Streams (olkit/streams.py): the margins, radii and tight sequences they promise, and bad input."""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import olkit
from olkit.streams import (
    disjunction_stream,
    elimination_sequence,
    expert_stream,
    hadamard_stream,
    noisy_stream,
    orthonormal_stream,
    separable_stream,
    tie_threshold_stream,
)


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 300), st.integers(1, 8), st.floats(0.01, 1.0), st.floats(0.1, 5.0), st.integers(0, 2**16))
def test_separable_stream(T, d, g, r, seed):
    gamma = g * r
    X, y, u = separable_stream(T, d, gamma, np.random.default_rng(seed), r=r)
    assert X.shape == (T, d) and y.shape == (T,) and set(np.unique(y)) <= {-1, 1}
    assert abs(np.linalg.norm(u) - 1) < 1e-12
    assert (np.linalg.norm(X, axis=1) <= r).all()
    assert (y * (X @ u) >= gamma - 1e-12 * r).all()
    tr = olkit.run_stream(olkit.Perceptron(d), X, y)
    assert tr.U <= r**2 / (gamma - 1e-12 * r) ** 2


def test_separable_stream_is_reproducible_and_block_independent():
    a = separable_stream(70000, 3, 0.1, np.random.default_rng(1))
    b = separable_stream(70000, 3, 0.1, np.random.default_rng(1))
    assert all(np.array_equal(p, q) for p, q in zip(a, b))


def test_noisy_stream_flips_labels():
    X, y, u, flipped = noisy_stream(5000, 4, 0.1, np.random.default_rng(2), noise=0.2)
    assert 0.15 < flipped.mean() < 0.25
    assert np.array_equal(np.sign(X @ u) != y, flipped)


@pytest.mark.parametrize("n, d, r, seed", [(5, 5, 1.0, None), (7, 10, 2.5, 3), (30, 30, 0.1, 4)])
def test_orthonormal_stream_makes_the_bound_tight(n, d, r, seed):
    rng = None if seed is None else np.random.default_rng(seed)
    X, y, u = orthonormal_stream(n, d, r, rng)
    assert np.allclose(X @ X.T, r * r * np.eye(n))
    rho = (y * (X @ u)).min()
    assert math.isclose(rho, r / math.sqrt(n), rel_tol=1e-12)
    tr = olkit.run_stream(olkit.Perceptron(d), X, y)
    assert tr.U == n == round(r**2 / rho**2)


def test_hadamard_stream():
    for N in (1, 2, 8, 64):
        X, y = hadamard_stream(N)
        assert np.array_equal(X @ X.T, N * np.eye(N)) and (X[:, 0] == y).all()
        assert olkit.run_stream(olkit.Perceptron(N), X, y).U == N
    with pytest.raises(ValueError, match="N must be a power of two"):
        hadamard_stream(6)


def test_expert_and_disjunction_streams():
    X, y = expert_stream(1000, 16, np.random.default_rng(0), relevant=3)
    assert set(np.unique(X)) == {-1.0, 1.0} and np.array_equal(X[:, 3], y)
    X, y = disjunction_stream(4000, 10, [2, 5], np.random.default_rng(1))
    assert X.dtype == np.int8 and np.array_equal(y == 1, (X[:, [2, 5]] == 1).any(axis=1))
    assert 0.45 < (y == 1).mean() < 0.55
    X, y = elimination_sequence(4)
    assert X.tolist() == [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]] and y.tolist() == [-1, -1, -1]


@pytest.mark.parametrize("call, msg", [
    (lambda: separable_stream(10, 2, 0.0, np.random.default_rng(0)), "gamma must be a positive finite number"),
    (lambda: separable_stream(10, 2, 2.0, np.random.default_rng(0)), "gamma must be at most r"),
    (lambda: separable_stream(10, 2, 0.5, 0), "rng must be a numpy Generator"),
    (lambda: separable_stream(0, 2, 0.5, np.random.default_rng(0)), "T must be an integer >= 1"),
    (lambda: separable_stream(10, 2, 0.5, np.random.default_rng(0), u=[1.0, 1.0]), "u must be a unit vector"),
    (lambda: noisy_stream(10, 2, 0.5, np.random.default_rng(0), noise=1.5), "noise must be a probability"),
    (lambda: orthonormal_stream(5, 3), "n orthonormal points need n <= d"),
    (lambda: expert_stream(10, 4, np.random.default_rng(0), relevant=4), "relevant must be an expert index"),
    (lambda: disjunction_stream(10, 4, [7], np.random.default_rng(0)), "relevant must be a non-empty set"),
    (lambda: elimination_sequence(1), "d must be an integer >= 2"),
    (lambda: tie_threshold_stream(10, 1, np.random.default_rng(0)), "d must be an integer >= 2"),
    (lambda: tie_threshold_stream(10, 3, np.random.default_rng(0), size=0.0), "size must be a positive finite"),
    (lambda: tie_threshold_stream(10, 3, np.random.default_rng(0), offset=0.5), "offset must be below 0.5"),
    (lambda: tie_threshold_stream(10, 3, 7), "rng must be a numpy Generator"),
])
def test_bad_arguments(call, msg):
    with pytest.raises(ValueError, match=msg):
        call()


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 200), st.integers(2, 7), st.sampled_from([1.0, 60.0]), st.integers(0, 2**16))
def test_tie_threshold_stream_puts_the_decisions_at_the_tie_band(T, d, size, seed):
    """Recomputed here from the Perceptron's recorded weights: no score is within rounding of the tie
    band's edge 1e-9 ||w_t|| ||x_t||, most sit at 0 or at 1e-9 (1 +- 1e-4) of the scale; and the
    Perceptron (round by round and by look-ahead) updates exactly where the stream's own rule says."""
    X, y = tie_threshold_stream(T, d, np.random.default_rng(seed), size=size)
    assert X.shape == (T, d) and set(np.unique(y)) <= {-1, 1}
    assert np.allclose(np.linalg.norm(X, axis=1), size, rtol=1e-12, atol=0)
    tr = olkit.run(olkit.Perceptron(d), list(X), y)
    W = tr.state["w"][:-1]
    nw = np.linalg.norm(W, axis=1)
    ratio = np.abs(np.einsum("td,td->t", W, X)) / np.where(nw > 0, nw * size, 1.0)
    assert (np.abs(ratio - 1e-9) >= 0.99e-13).all()  # no decision within rounding of the band's edge
    at_band = (nw > 0) & ((ratio < 1e-14) | (np.abs(np.abs(ratio - 1e-9) - 1e-13) <= 1e-16))
    assert T < 40 or at_band[nw > 0].mean() >= 0.5  # three rounds in four on average, once w != 0
    tie = (nw > 0) & (ratio <= 1e-9)
    violated = (nw == 0) | tie | (np.sign(np.einsum("td,td->t", W, X)) != y)
    assert np.array_equal(np.diff(tr.state["updates"]), violated.astype(int))
    assert np.array_equal(np.asarray(tr.details["tie"])[nw > 0], tie[nw > 0])
    fast = olkit.run_stream(olkit.Perceptron(d, eta=1e-4), X, y).to_trace()
    assert np.array_equal(fast.state["updates"], tr.state["updates"])
