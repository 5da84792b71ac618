"""Linear learners on R^d with labels in {-1, +1}: the Perceptron.

A linear learner keeps a weight vector ``w`` and predicts sign(<w, x>), with
the convention that a score <w, x> <= 0 predicts -1.  Instances are 1-D arrays
of length ``d``; labels are -1 and +1 (use :func:`olkit.to_pm1` to convert from
{0, 1}).  Like every olkit learner, a linear learner has ``labels``,
``predict``, ``update``, ``state()`` (recorded before round 1 and after every
update) and ``details`` (filled by ``predict``); see :mod:`olkit.game`.
"""
from __future__ import annotations

import numpy as np

from .game import check_vector

__all__ = ["Perceptron"]


class _Linear:
    """Shared bookkeeping of linear learners: the dimension, the weights, input checks."""

    labels = (-1, 1)

    def __init__(self, d: int):
        if isinstance(d, bool) or not isinstance(d, (int, np.integer)) or d < 1:
            raise ValueError(f"d must be a positive integer (the dimension of x); got {d!r}")
        self.d = int(d)
        self.w = np.zeros(self.d)
        self.t = 1  # the round about to be played
        self.details: dict = {}

    def _x(self, x) -> np.ndarray:
        """x as a float vector of shape (d,); raise a ValueError naming the round otherwise."""
        return check_vector(x, self.d, self.t)

    def _y(self, y) -> int:
        if isinstance(y, (bool, np.bool_)) or not isinstance(y, (int, np.integer)) or y not in (-1, 1):
            raise ValueError(f"round {self.t}: label y = {y!r} is not in {{-1, +1}} (convert 0/1 labels with olkit.to_pm1)")
        return int(y)

    def score(self, x) -> float:
        """The score <w, x> on which the prediction is based."""
        return float(self.w @ self._x(x))

    def predict(self, x) -> int:
        s = self.score(x)
        self.details = {"score": s}
        return 1 if s > 0 else -1


class Perceptron(_Linear):
    """The Perceptron (Rosenblatt): w_1 = 0; predict 1 if <w_t, x_t> > 0, else -1;
    if y_t <w_t, x_t> <= 0, update w_{t+1} = w_t + y_t x_t, else w_{t+1} = w_t.

    The update condition counts a score of exactly 0 as an error even when the
    prediction -1 happens to be right, so the number of updates is at least the
    number of mistakes.  Mistake bound (Mohri et al. Theorem 7.8; UML Section
    21.4; Telgarsky, Lecture 10): if ||x_t|| <= R and some unit u has
    y_t <u, x_t> >= gamma > 0 for all t, there are at most R^2 / gamma^2 updates.

    ``state()`` records ``w`` (a copy), ``w_sq`` = ||w||^2 and ``updates``, the
    number of updates so far; ``details["score"]`` is <w_t, x_t>.  A round
    costs O(d).
    """

    def __init__(self, d: int):
        super().__init__(d)
        self.updates = 0

    def update(self, x, y) -> None:
        x, y = self._x(x), self._y(y)
        if y * float(self.w @ x) <= 0:
            self.w = self.w + y * x
            self.updates += 1
        self.t += 1

    def state(self) -> dict:
        return {"w": self.w.copy(), "w_sq": float(self.w @ self.w), "updates": self.updates}
