"""Broken variants for Chapter 1: Consistent, Halving, threshold Halving, the Ellipsoid learner, the
bisection environment, and wrong constants of the chapter's bounds.

Each variant has one thing wrong (its docstring says which).  The book runs the chapter's own check
functions on it inside :func:`olkit.negative_control`, next to the proof table that the variant must
fail; ``tests/test_broken_1_1_1_2.py``, ``tests/test_broken_1_3.py`` and
``tests/test_broken_ellipsoid.py`` use them too.
"""
from __future__ import annotations

import math

import numpy as np

from ..adversaries import BisectionAdversary
from ..ellipsoid import Ellipsoid
from .. import fp
from ..finite import Consistent, Halving, ThresholdHalving
from ..linear import Perceptron

__all__ = [
    "AgreeingBisection",
    "ChoiceOutsideConsistent",
    "MajorityOverH",
    "TieZeroThresholdHalving",
    "OffByOneThresholdHalving",
    "HalfCutEllipsoid",
    "NoInflationEllipsoid",
    "DeepCutEllipsoid",
    "EagerEllipsoid",
    "StrictPerceptron",
    "halfspace_bound_without_zero",
    "coarse_cover_step",
]


class AgreeingBisection(BisectionAdversary):
    """Broken environment for the thresholds theorem: it *confirms* the prediction (y_t = yhat_t)
    instead of contradicting it, while keeping the bisection interval of the label it gives."""

    def label(self, x: float, yhat: int) -> int:
        super().label(x, 1 - yhat)  # the interval update of the label yhat
        return int(yhat)


class ChoiceOutsideConsistent(Consistent):
    """Broken Consistent: always predicts with row 0 of H, whether or not it is still in V_t (the
    choice is not restricted to the version space).  The version space itself is kept correctly."""

    def chosen(self) -> int:
        self._chosen = 0
        return 0


class MajorityOverH(Halving):
    """Broken Halving (the rule as printed in Telgarsky's Lecture 10): the majority vote over the
    whole class H (ties: 1) instead of over the version space V_t; V_t is kept as before."""

    def predict(self, x) -> int:
        x = self._x(x)
        ones = int(np.asarray(self.H.values(np.arange(self.H.shape[0]), x)).sum())
        self.details = {"ones": ones, "size": self.H.shape[0]}
        return 1 if 2 * ones >= self.H.shape[0] else 0


class TieZeroThresholdHalving(ThresholdHalving):
    """Broken threshold Halving: a tie predicts 0, while Halving (and the lemma) predict 1."""

    def __init__(self, n: int, tie: int = 1):
        super().__init__(n, tie=0)


class OffByOneThresholdHalving(ThresholdHalving):
    """Broken threshold Halving: on a label 0 it keeps the threshold k = x_t (lo = max(lo, x_t)
    instead of x_t + 1), so its interval is one threshold too large."""

    def update(self, x, y) -> None:
        if y == 0:
            self.lo = max(self.lo, int(x))
            self.t += 1
        else:
            super().update(x, y)


class HalfCutEllipsoid(Ellipsoid):
    """Broken Ellipsoid learner: 1/(d+1) instead of 2/(d+1) in the update of A, so each update
    shrinks the volume by less than rho_d."""

    def cut(self, x, y) -> None:
        d = self.d
        Ax = self.A @ x
        xAx = float(x @ Ax)
        self.w = self.w + (y / (d + 1)) * Ax / math.sqrt(xAx)
        A = (d * d / (d * d - 1.0)) * (self.A - (1.0 / ((d + 1.0) * xAx)) * np.outer(Ax, Ax))
        self.A = (A + A.T) / 2


class NoInflationEllipsoid(Ellipsoid):
    """Broken Ellipsoid learner: the update of A lacks the factor d^2/(d^2 - 1), so each update
    shrinks the volume by sqrt(1 - 2/(d+1)) (too much) and E_{t+1} no longer holds the kept half."""

    def cut(self, x, y) -> None:
        d = self.d
        Ax = self.A @ x
        xAx = float(x @ Ax)
        self.w = self.w + (y / (d + 1)) * Ax / math.sqrt(xAx)
        A = self.A - (2.0 / ((d + 1.0) * xAx)) * np.outer(Ax, Ax)
        self.A = (A + A.T) / 2


class DeepCutEllipsoid(Ellipsoid):
    """Broken Ellipsoid learner: the centre moves by A x / sqrt(x'Ax) / d instead of / (d + 1), so
    E_{t+1} is shifted too far into the kept half (its volume factor is still rho_d)."""

    def cut(self, x, y) -> None:
        w = self.w.copy()
        super().cut(x, y)
        d = self.d
        self.w = self.w + (self.w - w) / d  # (d + 1)/d times the step: y/d A x / sqrt(x'Ax)


class StrictPerceptron(Perceptron):
    """Broken Perceptron: updates only when y_t <w_t, x_t> < 0 strictly, not on a tie.  Since
    w_1 = 0 makes every score 0, it never updates, and errs on every round it predicts wrongly."""

    def _violated(self, x, y) -> bool:
        return y * fp.sign(fp.dot(self.w, x), fp.tie_scale(self.w, x)) < 0


def halfspace_bound_without_zero(n: int, d: int) -> float:
    """A wrong constant for Halving on the grid halfspaces: d log2(2n), as if the grid G had 2n
    values (forgetting 0); the right bound is d log2(2n + 1)."""
    return d * math.log2(2 * n)


def coarse_cover_step(d: int, gamma: float) -> float:
    """A wrong constant for the grid cover: the step gamma/sqrt(d), twice the gamma/(2 sqrt(d)) of
    the lemma, so rounding can move u by gamma/2 instead of gamma/4."""
    return gamma / math.sqrt(d)


class EagerEllipsoid(Ellipsoid):
    """Broken Ellipsoid learner: cuts on every round, also where y_t <w_t, x_t> > 0 (a right prediction
    that is no tie).  The cut then passes on the label's side of the centre, and may cut off
    consistent weights."""

    def update(self, x, y) -> None:
        x, y = self._x(x), self._y(y)
        self.cut(x, y)
        self.updates += 1
        self.t += 1
