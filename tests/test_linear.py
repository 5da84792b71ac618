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
        np.array_equal(np.diff(k), (trace.y * trace.details["score"] <= 0).astype(int))
        and np.all(w @ u >= gamma * k[1:] - 1e-9)
        and np.all(trace.state["w_sq"][1:] <= k[1:] + 1e-9)
        and k[-1] <= 1 / gamma**2 + 1e-9
        and np.all(trace.cum_mistakes <= k[1:])
    )


def test_starts_at_zero_and_predicts_minus_one_on_a_zero_score():
    p = Perceptron(3)
    assert p.labels == (-1, 1)
    assert np.array_equal(p.w, np.zeros(3))
    assert p.predict([1.0, 2.0, 3.0]) == -1 and p.details == {"score": 0.0}


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
