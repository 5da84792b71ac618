"""olkit.fp: tie-tolerant decisions, the perturbation mode, and learners whose games do not depend
on the last bits of their arithmetic."""
import math

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import olkit
from olkit import fp
from olkit.ellipsoid import Ellipsoid, realizable_grid_sequence


def test_sign_with_a_tolerance_relative_to_the_scale():
    assert fp.sign(1e-17, 1.0) == 0 and fp.sign(-1e-17, 1.0) == 0 and fp.sign(0.0, 0.0) == 0
    assert fp.sign(2e-9, 1.0) == 1 and fp.sign(-2e-9, 1.0) == -1
    assert fp.sign(1e-12, 1e-6) == 1  # relative: a small scale makes a small score significant
    np.testing.assert_array_equal(fp.sign(np.array([1.0, -1.0, 1e-20]), np.ones(3)), [1, -1, 0])
    assert fp.sign(1e-17, 1.0, rtol=0) == 1  # rtol = 0 is the plain sign


def test_first_min_picks_the_first_of_near_ties():
    v = np.array([3.0, 1.0 + 1e-15, 1.0, 2.0])
    assert int(np.argmin(v)) == 2 and fp.first_min(v) == 1
    assert fp.first_min([0.0, 1e-13, 0.5], atol=1e-12) == 0
    assert fp.first_min([1e-13, 0.0], atol=1e-12) == 0
    with pytest.raises(ValueError, match="empty"):
        fp.first_min([])


def test_perturbed_kernels_keep_exact_sums_exact_and_move_inexact_ones():
    rng = np.random.default_rng(0)
    A = rng.integers(-50, 50, size=(40, 7)).astype(float)
    x = rng.integers(-50, 50, size=7).astype(float)
    exact = A @ x
    with fp.perturbed(3):
        np.testing.assert_array_equal(fp.matvec(A, x), exact)  # integers: every order is exact
        assert fp.dot(A[0], x) == exact[0]
        # a cancelling sum of inexact terms comes out with other last bits for some operands
        moved = {fp.dot(np.array([0.1, 0.2, -0.3, s]), np.ones(4)) - s for s in np.linspace(1, 2, 50)}
        # and the same operands always give the same result, as on a real machine
        a, b = rng.standard_normal(9), rng.standard_normal(9)
        assert fp.dot(a, b) == fp.dot(a.copy(), b.copy())
    assert len(moved) > 1
    assert not fp.perturbing()
    with pytest.raises(ValueError, match="seed"):
        with fp.perturbed(0):
            pass


def test_ulp_jitter_moves_inexact_values_by_a_few_ulps_only():
    v = np.array([math.pi, -math.e, 1e-3, 0.0, 3.0, 0.5, np.inf])
    with fp.perturbed(5):
        j = fp.ulp_jitter(v)
    ulps = np.abs(j[:3] - v[:3]) / np.spacing(np.abs(v[:3]))
    assert np.all(ulps <= 2)
    np.testing.assert_array_equal(j[3:], v[3:])  # zero, numbers with few bits and inf are kept


def _trace_key(tr):
    return tr.yhat.tolist(), tr.state["updates"].tolist()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(1, 4), d=st.integers(2, 4))
def test_ellipsoid_game_does_not_depend_on_the_last_bits(seed, n, d):
    """On grid data <w_t, x_t> is often 0 in exact arithmetic; the game must not depend on rounding:
    the same under another summation order, and with every instance moved by a few ulps."""
    X, y, _ = realizable_grid_sequence(n, d, 60, np.random.default_rng(seed))
    base = _trace_key(olkit.run(Ellipsoid(d), X, y))
    with fp.perturbed(1 + seed % 7):
        assert _trace_key(olkit.run(Ellipsoid(d), X, y)) == base
        assert _trace_key(olkit.run(Ellipsoid(d), fp.ulp_jitter(X), y)) == base


def test_without_the_tie_tolerance_the_ellipsoid_game_depends_on_rounding(monkeypatch):
    """The test above can fail: with the plain sign (TIE_RTOL = 0) some grid run plays differently
    under another summation order."""
    monkeypatch.setattr(fp, "TIE_RTOL", 0.0)
    differs = 0
    for seed in range(40):
        X, y, _ = realizable_grid_sequence(3, 3, 80, np.random.default_rng(seed))
        base = _trace_key(olkit.run(Ellipsoid(3), X, y))
        with fp.perturbed(1 + seed % 5):
            differs += _trace_key(olkit.run(Ellipsoid(3), X, y)) != base
    assert differs > 0


def zigzag(gamma, T):
    s = math.sqrt(1 - gamma**2)
    X = np.zeros((T, 2))
    X[:, 0] = gamma
    X[0, 1] = s / 2
    X[1:, 1] = s * np.where(np.arange(1, T) % 2 == 1, -1, 1)
    return X, np.ones(T, dtype=np.int64)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(1, 10**6))
def test_perceptron_on_the_zigzag_counts_the_exact_tie(seed):
    """gamma = 0.2: after 12 updates the score is exactly 0; the 13th update happens on every machine."""
    X, y = zigzag(0.2, 50)
    with fp.perturbed(seed):
        tr = olkit.run(olkit.Perceptron(2), fp.ulp_jitter(X), y)
    assert tr.state["updates"][-1] == 13
    assert tr.details["tie"][12]


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("m, k, n", [(3, 4, 0), (3, 0, 2), (0, 4, 2), (3, 4, 2)])
def test_matmat_shapes_including_empty_ones(seed, m, k, n):
    """A B has shape (m, n) in every mode, also with no columns (a kernel Perceptron before its first
    update: no support vectors) or an empty inner dimension."""
    rng = np.random.default_rng(seed)
    A, B = rng.standard_normal((m, k)), rng.standard_normal((k, n))
    with fp.perturbed(seed):
        out = fp.matmat(A, B)
    assert out.shape == (m, n) and np.allclose(out, A @ B, rtol=1e-12, atol=1e-12)


def test_sign_broadcasts_a_scalar_against_an_array_either_way():
    s = np.array([1e-12, 1.0, -1.0, -1e-12])
    assert fp.sign(s, 1.0).tolist() == [0, 1, -1, 0]
    assert fp.sign(1e-12, np.array([1.0, 1e-4])).tolist() == [0, 1]
    assert fp.sign(1e-12, 1.0) == 0 and fp.sign(2e-9, 1.0) == 1


def test_in_the_perturbation_mode_learners_receive_jittered_vectors():
    """olkit.game.check_vector (the input of every learner on R^d) moves inexact entries by a few ulps
    in the mode, keeps exact ones, and is the identity outside it."""
    from olkit.game import check_vector

    x = np.array([1 / 3, 0.1, 0.5, 0.0, -2.0])
    assert check_vector(x, 5, 1).tolist() == x.tolist()
    moved = set()
    for seed in range(1, 9):
        with fp.perturbed(seed):
            v = check_vector(x, 5, 1)
        assert v[2:].tolist() == [0.5, 0.0, -2.0]
        assert np.all(np.abs(v[:2] - x[:2]) <= 2 * np.spacing(x[:2]))
        moved.add(tuple(v[:2].tolist()))
    assert len(moved) > 1


def test_perturbed_defaults_to_seed_1_and_restores_the_mode():
    assert not fp.perturbing()
    with fp.perturbed():
        assert fp.perturbing()
    assert not fp.perturbing()


def test_numpy_is_patched_only_when_the_variable_is_set():
    """At import, OLKIT_FP_PERTURB wraps numpy's exp, log and linalg; without it they are numpy's own."""
    import os
    import subprocess
    import sys

    code = ("import math, numpy as np, olkit; "
            "print(isinstance(np.exp, np.ufunc), type(math.log).__name__ == 'builtin_function_or_method')")
    env = {k: v for k, v in os.environ.items() if k != "OLKIT_FP_PERTURB"}
    plain = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    on = subprocess.run([sys.executable, "-c", code], env=dict(env, OLKIT_FP_PERTURB="2"), capture_output=True,
                        text=True, check=True).stdout
    assert plain.split() == ["True", "True"], plain
    assert on.split() == ["False", "False"], on


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 12), st.integers(1, 90), st.integers(1, 9), st.booleans())
def test_perturbed_matmat_is_matvec_column_by_column_bit_for_bit(seed, m, k, n, dyadic):
    """matmat computes many columns at once (and short rows in Python floats): each column must be the
    bits matvec gives for it, and a short row the bits of dot, whatever the order and fused choice."""
    rng = np.random.default_rng(seed)
    A, B = rng.normal(size=(m, k)), rng.normal(size=(k, n))
    if dyadic:
        A, B = np.round(A * 4) / 4, np.round(B * 4) / 4
    A[:, ::3] *= -0.0  # signed zeros: a sum of -0.0 terms keeps its sign only in the long-row path
    for s in (1, 2, 3):
        with fp.perturbed(s):
            C = fp.matmat(A, B)
            cols = np.stack([fp.matvec(A, B[:, j]) for j in range(n)], axis=1)
            dots = np.array([[fp.dot(A[i], B[:, j]) for j in range(n)] for i in range(m)])
        assert np.array_equal(C.view(np.int64), cols.view(np.int64))
        if m == 1:
            assert np.array_equal(C.view(np.int64), dots.view(np.int64))


def test_an_integer_sum_exact_in_any_order_is_computed_once_and_still_perturbed_otherwise():
    """Sums whose products and partial sums are integers below 2^53 are the same in every order and
    arithmetic: the perturbation mode computes them once (Winnow's weights on 0/1 points), a zero sum
    as +0.0; a sum of non-integers is still perturbed."""
    rng = np.random.default_rng(5)
    W = rng.integers(-8, 9, size=(40, 300)).astype(float)
    X = rng.integers(0, 2, size=(300, 7)).astype(float)
    F = W + rng.normal(size=W.shape) * 1e-3
    with fp.perturbed(1):
        assert fp._exact_in_any_order(W, X)
        assert np.array_equal(fp.matmat(W, X), W @ X)
        assert np.array_equal(fp.matvec(W, X[:, 0]), W @ X[:, 0])
        zero = fp.matvec(np.full((40, 300), -0.0), np.abs(X[:, 0]) + 1)  # every product is -0.0
        assert np.all(zero == 0) and not np.any(np.signbit(zero))
        assert not fp._exact_in_any_order(F, X)
        assert not fp._exact_in_any_order(W * 2.0**40, X * 2.0**10)  # too large to be exact in every order
        ys = [rng.normal(size=300) for _ in range(5)]
        moved = sum(not np.array_equal(fp.matvec(F, y), F @ y) for y in ys)
    assert moved >= 1, "non-integer sums are still summed in another order"


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 12), st.integers(1, 64), st.sampled_from(["normal", "signed zeros", "wide"]))
@example(0, 4, 64, "signed zeros").via("the size where sums of integers start to be computed exactly")
@example(0, 5, 51, "signed zeros").via("just below it")
def test_small_sums_in_python_floats_equal_the_array_kernel_bit_for_bit(key, m, d, kind):
    """The row sums that ``_sum_rows`` computes in Python floats for a small matrix (``_sum_small``) and
    those of the array kernel (``_sum_columns``) have the same bits, the sign of a zero sum included:
    where the threshold ``_PY_TERMS`` lies is a matter of speed only."""
    rng = np.random.default_rng(key)
    if kind == "normal":
        A, x = rng.standard_normal((m, d)), rng.standard_normal(d)
    elif kind == "signed zeros":
        A, x = -np.zeros((m, d)), rng.choice([0.0, 1.0], d)  # every product -0.0: a sum of -0.0
    else:
        A, x = rng.standard_normal((m, d)) * 1e10, rng.standard_normal(d) * 1e-10
        A[:, ::2] = -0.0
    for k in (key, key ^ (1 << 16)):  # a plain and a fused sum
        rows = fp._sum_rows(A, x, k)
        array = fp._sum_columns(A, x.reshape(-1, 1), [k])[:, 0]
        assert rows.view(np.int64).tolist() == array.view(np.int64).tolist(), (m, d, kind, k)
