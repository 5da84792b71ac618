"""Broken variants of :mod:`olkit.oco`: the negative controls of Chapter 5.

Each class below is the learner, set or loss of :mod:`olkit.oco` with one thing wrong; its docstring
says what.  Chapter 5 runs each theorem's check function on one of them inside
:func:`olkit.negative_control`, and ``tests/test_broken_ch5.py`` patches some of them into the
notebooks.  None of them is imported by ``import olkit``.
"""
from __future__ import annotations

import math

import numpy as np

from .. import convex, oco

__all__ = [
    "FirstThresholdSimplex",
    "NoProjectionOGD",
    "NoRestartDoubling",
    "ScaledStepOGD",
    "StrictPerceptronLoss",
    "WrongRadiusBall",
    "WrongSignEG",
    "WrongSignOGD",
]


class NoProjectionOGD(oco.OGD):
    """Broken: forgets the projection, w_{t+1} = w_t - eta_t v_t (the iterates may leave K)."""

    def update(self, v) -> None:
        super().update(v)
        self.w = self.record["z"].copy()


class ScaledStepOGD(oco.OGD):
    """Broken: a wrong constant in the step size, eta_t times ``factor`` (e.g. B/sqrt(T) written
    B sqrt(T)/T with the wrong T, or a 1/(lambda t) schedule with lambda off by a factor).  The learner
    records the step it takes."""

    def __init__(self, K, eta, w1=None, factor: float = 2.0):
        super().__init__(K, eta, w1)
        self.factor = float(factor)

    def step(self) -> float:
        return self.factor * super().step()


class WrongSignOGD(oco.OGD):
    """Broken: steps along +v_t (ascent instead of descent): w_{t+1} = Proj(w_t + eta_t v_t).  It
    records z_t = w_t - eta_t v_t as OGD would, but projects w_t + eta_t v_t."""

    def update(self, v) -> None:
        v = self.K.check(v, "v")
        eta = self.step()
        self.record = {"eta": eta, "z": self.w - eta * v}
        self.w = self.K._project(self.w + eta * v)
        self.t += 1


class WrongRadiusBall(convex.Ball):
    """Broken: the ball of radius B whose projection maps onto the ball of radius ``factor`` B
    (a projection onto the wrong radius; ``factor`` < 1 keeps the points in the set, but too deep)."""

    def __init__(self, d: int, B: float = 1.0, factor: float = 0.5):
        super().__init__(d, B)
        self.factor = float(factor)

    def _project(self, z: np.ndarray) -> np.ndarray:
        n = math.sqrt(float(z @ z))
        r = self.factor * self.B
        return z if n <= r else z * (r / n)


class FirstThresholdSimplex(convex.Simplex):
    """Broken: the sort-based simplex projection with rho = 1 (the first index whose test passes)
    instead of the last: the threshold is u_1 - 1, so every coordinate but the largest is cut to 0."""

    def _project(self, z: np.ndarray) -> np.ndarray:
        u = np.sort(z)[::-1]
        return np.maximum(z - (u[0] - 1), 0.0)


class WrongSignEG(oco.EG):
    """Broken: exponentiated gradient with the wrong sign, w_{t+1, i} proportional to
    w_{t, i} exp(+eta v_{t, i}): it moves weight towards the experts with the largest losses."""

    def update(self, v) -> None:
        super().update(-np.asarray(v, dtype=float))


class NoRestartDoubling(oco.Doubling):
    """Broken: the doubling trick without the restart; a new block gets the step size tuned for its
    horizon but keeps the previous block's point instead of starting again from w_1."""

    def update(self, v) -> None:
        old = self.inner
        super().update(v)
        if self.inner is not old:
            self.inner.w = old.w.copy()


class StrictPerceptronLoss(convex.PerceptronLoss):
    """Broken: UML's Perceptron surrogate with a strict error test, y_t <w_t, x_t> < 0; a score of
    exactly 0 (the first round, where w_1 = 0) is not an error, so OGD does not update where the
    Perceptron does."""

    def __init__(self, x, y, w_t):
        super().__init__(x, y, w_t)
        self.erred = bool(self.y * float(np.asarray(w_t, dtype=float) @ self.x) < 0)
