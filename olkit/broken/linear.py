"""Broken learners of Chapter 4: the Perceptron, the kernel Perceptron and Winnow, each with one thing
wrong.

The book runs its proof checks (:func:`olkit.linear.margin_proof`, :func:`olkit.winnow.winnow_proof`,
:func:`olkit.winnow.normalized_winnow_proof`, ...) on these variants inside
:func:`olkit.negative_control`; ``tests/test_broken_ch4.py`` patches them into the notebooks.  Each
variant changes one rule consistently in the round-by-round code (``predict``/``update``) and in the
look-ahead (``_first_update``), so ``olkit.run`` and ``olkit.run_stream`` play the same broken game.
"""
from __future__ import annotations

import numpy as np

from ..game import check_binary, check_label_pm1
from ..linear import KernelPerceptron, Perceptron
from ..winnow import DisjunctionHalving, EliminationLearner, NormalizedWinnow, Winnow

__all__ = [
    "EveryRoundPerceptron",
    "ForgetfulKernelPerceptron",
    "MinorityHalving",
    "NoStepPerceptron",
    "TriplingWinnow",
    "UnnormalizedWinnow",
    "WrongRoundsWinnow",
    "WrongSetElimination",
    "WrongSignPerceptron",
]


def _first_by_rule(learner, Xb, yb) -> int | None:
    """The first row of a block on which ``learner._violated`` asks for an update (no look-ahead)."""
    for i in range(len(yb)):
        if learner._violated(Xb[i], int(yb[i])):
            return i
    return None


class EveryRoundPerceptron(Perceptron):
    """Broken: updates on correct rounds too (w += eta y_t x_t on every round; the condition
    y_t <w_t, x_t> <= 0 is dropped)."""

    def _violated(self, x, y) -> bool:
        return True

    def _first_update(self, Xb, yb, t0, info=None):
        return 0


class WrongSignPerceptron(Perceptron):
    """Broken: the update has the wrong sign, w_{t+1} = w_t - eta y_t x_t."""

    def update(self, x, y) -> None:
        x, y = self._x(x), self._y(y)
        if self._violated(x, y):
            self.w = self.w - (self.eta * y) * x
            self.updates += 1
        self.t += 1


class NoStepPerceptron(Perceptron):
    """Broken: ignores the step size, w_{t+1} = w_t + y_t x_t whatever eta."""

    def update(self, x, y) -> None:
        x, y = self._x(x), self._y(y)
        if self._violated(x, y):
            self.w = self.w + y * x
            self.updates += 1
        self.t += 1


class ForgetfulKernelPerceptron(KernelPerceptron):
    """Broken: forgets a support vector.  On its ``forget``-th update (default the 3rd) it drops the
    first support vector from f, so f is no longer the sum of alpha_s y_s K(x_s, .) over its updates."""

    def __init__(self, d: int, kernel=None, eta: float = 1.0, forget: int = 3):
        super().__init__(d, kernel, eta)
        self.forget = forget

    def update(self, x, y) -> None:
        n = self.updates
        super().update(x, y)
        if self.updates > n and self.updates == self.forget:
            self.support, self.coef = self.support[1:], self.coef[1:]
            self._root_kss = self._root_kss[1:]
            self.f_sq = float(self.coef @ self.kernel(self.support, self.support) @ self.coef)

    def _first_update(self, Xb, yb, t0, info=None):
        return _first_by_rule(self, Xb, yb)


class TriplingWinnow(Winnow):
    """Broken: a promotion triples the active weights instead of doubling them."""

    def update(self, x, y) -> None:
        x, y = check_binary(x, self.d, self.t), check_label_pm1(y, self.t)
        if self._predict_sum(int(self.w @ x)) != y:
            if y == 1:
                self.w[x == 1] *= 3
                self.P += 1
            else:
                self.w[x == 1] = 0
                self.N += 1
            self.updates += 1
        self.t += 1


class WrongRoundsWinnow(Winnow):
    """Broken: eliminates on the wrong rounds -- on every round labelled -1, a correct prediction
    included, it sets the active weights to 0 (and counts an update)."""

    def update(self, x, y) -> None:
        x, y = check_binary(x, self.d, self.t), check_label_pm1(y, self.t)
        wrong = self._predict_sum(int(self.w @ x)) != y
        if wrong or y == -1:
            if y == 1:
                self.w[x == 1] *= 2
                self.P += 1
            else:
                self.w[x == 1] = 0
                self.N += 1
            self.updates += 1
        self.t += 1

    def _first_update(self, Xb, yb, t0, info=None):
        wrong = (self._predict_sum(Xb @ self.w) != yb) | (yb == -1)
        return next(iter(np.flatnonzero(wrong)), None)


class WrongSetElimination(EliminationLearner):
    """Broken: on a mistake it removes the inactive candidates instead of the active ones."""

    def update(self, x, y) -> None:
        x, y = check_binary(x, self.d, self.t), check_label_pm1(y, self.t)
        if self._predict_active(int(x @ self.C)) != y:
            self.C &= x == 1
            self.updates += 1
        self.t += 1


class UnnormalizedWinnow(NormalizedWinnow):
    """Broken: multiplies the weights by e^(eta y_t x_t,i) but forgets to divide by Z_t."""

    def update(self, x, y) -> None:
        x, y = self._x(x), check_label_pm1(y, self.t)
        if self._violated(x, y):
            self.log_w = self.log_w + (self.eta * y) * x
            self.w = np.exp(self.log_w)
            self.updates += 1
        self.t += 1



class MinorityHalving(DisjunctionHalving):
    """Broken: predicts with the minority of the version space instead of the majority."""

    def predict(self, x) -> int:
        return -super().predict(x)
