"""Simple learners that any environment can be played against.

They make no use of a class and serve as foils: the bisection adversary beats
them all, which is the point of "prior knowledge is needed".
"""
from __future__ import annotations

import numpy as np

__all__ = ["Constant", "MidpointThreshold", "RandomGuess"]


class Constant:
    """Always predicts ``label``."""

    labels = (0, 1)

    def __init__(self, label: int = 1):
        if label not in (0, 1):
            raise ValueError(f"label must be 0 or 1; got {label!r}")
        self.label = label

    def predict(self, x) -> int:
        return self.label

    def update(self, x, y) -> None:
        pass


class RandomGuess:
    """Predicts a fair coin drawn from the seeded ``rng``; the draw for a round is made once."""

    labels = (0, 1)

    def __init__(self, rng: np.random.Generator):
        if not isinstance(rng, np.random.Generator):
            raise ValueError(f"rng must be a numpy Generator; got {type(rng).__name__}")
        self.rng = rng
        self._coin: int | None = None

    def predict(self, x) -> int:
        if self._coin is None:
            self._coin = int(self.rng.integers(2))
        return self._coin

    def update(self, x, y) -> None:
        self._coin = None


class MidpointThreshold:
    """A consistent learner for thresholds 1[x >= theta] on [0, 1].

    Keeps the interval (a, b] of consistent thresholds and predicts with theta
    at its midpoint: the 'Halving' of a continuous class.
    """

    labels = (0, 1)

    def __init__(self):
        self.a, self.b = 0.0, 1.0

    def predict(self, x) -> int:
        return int(x >= (self.a + self.b) / 2)

    def update(self, x, y) -> None:
        if y == 1:
            self.b = min(self.b, x)
        else:
            self.a = max(self.a, x)

    def state(self) -> dict:
        return {"a": self.a, "b": self.b}
