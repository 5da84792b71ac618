"""olkit.baselines: the learners the book plays against its environments."""
from __future__ import annotations

import numpy as np

import olkit
from olkit.baselines import Constant, MidpointThreshold, RandomGuess


def test_midpoint_threshold_predicts_with_the_midpoint_of_its_interval():
    """After a label 0 on 0.25 and a label 1 on 0.75 the consistent interval is (0.25, 0.75]: the learner
    predicts with theta = 0.5, so 1 exactly on x >= 0.5."""
    h = MidpointThreshold()
    assert h.predict(0.5) == 1 and h.predict(0.49) == 0  # (0, 1]: midpoint 1/2
    h.update(0.25, 0)
    h.update(0.75, 1)
    assert (h.a, h.b) == (0.25, 0.75)
    assert [h.predict(x) for x in (0.3, 0.4999, 0.5, 0.6, 0.75)] == [0, 0, 1, 1, 1]
    h.update(0.5, 1)  # (0.25, 0.5]: midpoint 0.375
    assert [h.predict(x) for x in (0.374, 0.375)] == [0, 1]


def test_midpoint_threshold_is_consistent_on_every_realizable_sequence():
    rng = np.random.default_rng(3)
    for _ in range(50):
        theta = rng.random()
        xs = rng.random(40)
        ys = (xs >= theta).astype(int)
        h = MidpointThreshold()
        tr = olkit.run(h, xs, ys)
        assert h.a < theta <= h.b or np.isclose(theta, h.b)
        # a prediction is never contradicted by a point seen before it
        for t in range(tr.T):
            seen = xs[:t]
            if (seen[ys[:t] == 1] <= xs[t]).any():
                assert tr.yhat[t] == 1
            if (seen[ys[:t] == 0] >= xs[t]).any():
                assert tr.yhat[t] == 0


def test_constant_and_random_guess():
    assert [Constant(1).predict(x) for x in range(3)] == [1, 1, 1]
    g = RandomGuess(np.random.default_rng(0))
    assert g.predict(0) == g.predict(0)  # one coin per round
    assert {RandomGuess(np.random.default_rng(s)).predict(0) for s in range(20)} == {0, 1}
