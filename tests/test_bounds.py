"""olkit.bounds: each theorem's right-hand side, its value on small cases computed by hand, and its
input checks (a bound of an invalid instance is an error, never a number)."""
from __future__ import annotations

import math

import numpy as np
import pytest

from olkit.bounds import (
    consistent_bound,
    halfspace_halving_bound,
    halving_bound,
    hinge_losses,
    nonseparable_bounds,
    normalized_winnow_bound,
    perceptron_bound,
    winnow_disjunction_bound,
)


def test_values_by_hand():
    assert consistent_bound(1) == 0 and consistent_bound(12) == 11
    assert halving_bound(1) == 0.0 and halving_bound(1024) == 10.0
    assert halfspace_halving_bound(1, 1) == pytest.approx(math.log2(3))
    assert halfspace_halving_bound(2, 3) == pytest.approx(3 * math.log2(5))
    assert perceptron_bound(2.0, 0.5) == pytest.approx(16.0)
    assert winnow_disjunction_bound(1, 1) == 1 and winnow_disjunction_bound(8, 2) == 1 + 2 * 2 * 3
    assert winnow_disjunction_bound(9, 1) == 1 + 2 * 4


def test_normalized_winnow_default_rate_is_rho_over_r_squared():
    """With eta = rho_inf / r_inf^2 the bound is 2 (r_inf / rho_inf)^2 ln N; r_inf != 1 tells the rate
    from rho_inf * r_inf^2."""
    N, r, rho = 16, 2.0, 0.5
    assert normalized_winnow_bound(N, r, rho) == pytest.approx(2 * (r / rho) ** 2 * math.log(N))
    eta = 0.05
    assert normalized_winnow_bound(N, r, rho, eta) == pytest.approx(math.log(N) / (eta * rho - eta**2 * r**2 / 2))


def test_nonseparable_bounds_on_a_separable_stream_reduce_to_the_perceptron_bound():
    X = np.array([[1.0, 0.0], [0.0, 1.0], [0.6, 0.8]])
    y = np.array([1, 1, 1])
    u = np.array([1.0, 1.0]) / math.sqrt(2)
    rho = min(y * (X @ u))
    assert hinge_losses(X, y, u, rho).max() == pytest.approx(0.0, abs=1e-15)
    b = nonseparable_bounds(X, y, [1, 2], u, rho)
    assert b["L2, r"] == pytest.approx((1 / rho) ** 2)
    assert b["L1"] == pytest.approx(math.sqrt(2) / rho)


@pytest.mark.parametrize("call, msg", [
    (lambda: consistent_bound(0), "positive integer"),
    (lambda: halving_bound(0), "positive integer"),
    (lambda: halving_bound(True), "positive integer"),
    (lambda: halving_bound(2.0), "positive integer"),
    (lambda: halfspace_halving_bound(0, 2), "positive integers"),
    (lambda: halfspace_halving_bound(2, 0), "positive integers"),
    (lambda: perceptron_bound(0.0, 1.0), "positive"),
    (lambda: perceptron_bound(1.0, 0.0), "positive"),
    (lambda: hinge_losses(np.eye(2), [1, 1], [1.0, 0.0], 0.0), "positive"),
    (lambda: nonseparable_bounds(np.eye(2), [1, 1], [1], [1.5, 0.0], 0.5), "norm at most 1"),
    (lambda: nonseparable_bounds(np.eye(2), [1, 1], [1], [1.0, 0.0], [0.5, 0.0]), "positive"),
    (lambda: winnow_disjunction_bound(0, 1), "positive integers"),
    (lambda: winnow_disjunction_bound(4, 0), "positive integers"),
    (lambda: winnow_disjunction_bound(True, 1), "positive integers"),
    (lambda: normalized_winnow_bound(0, 1.0, 0.5), "N >= 1"),
    (lambda: normalized_winnow_bound(4, 0.0, 0.5), "N >= 1"),
    (lambda: normalized_winnow_bound(4, 1.0, 0.0), "N >= 1"),
    (lambda: normalized_winnow_bound(4, 1.0, 0.5, eta=1.0), "gives no bound"),
])
def test_invalid_instances_are_errors(call, msg):
    with pytest.raises(ValueError, match=msg):
        call()
