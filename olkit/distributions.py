"""Distributions whose risks are known exactly, for checking online-to-batch conversions (Chapter 6).

:class:`FiniteDistribution` is a finite domain {0, ..., n-1} with given probabilities, a target
labeling, label noise of a given rate and optional feature vectors, so that the risk of any hypothesis
under any loss is a finite sum; :class:`CircleDistribution` is the uniform distribution on the unit
circle labelled by a halfspace through the origin, with an optional margin band removed, where the 0-1
risk of any halfspace through the origin is a closed form in the angle.  :func:`labelled_points` lists
a finite distribution's labelled examples with their probabilities, and :func:`all_samples` every
sample of a given size with its probability, so that an expectation over the sample is an exact sum.

**Exactness.**  Probabilities given as :class:`fractions.Fraction` are kept:
:meth:`FiniteDistribution.risk_exact` returns a Fraction.  With dyadic probabilities (1/2, 1/4, 1/8, ...)
the float risks are exact too, since every partial sum is a dyadic rational with few bits; the book's
examples use them, so that every printed risk is the same on every machine.
"""
from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Callable, Sequence

import numpy as np

from .game import int_at_least

__all__ = ["CircleDistribution", "FiniteDistribution", "all_samples", "labelled_points"]

#: |sum(p) - 1| allowed for float probabilities (Fractions must sum to 1 exactly).
SUM_TOL = 1e-9

def _probabilities(p) -> tuple[np.ndarray, tuple[Fraction, ...] | None]:
    """(float array, exact Fractions or None) of a probability vector; ValueError if it is not one."""
    items = list(p) if not isinstance(p, np.ndarray) else list(p.ravel())
    if len(items) == 0:
        raise ValueError("p must hold at least one probability; got an empty sequence")
    exact = all(isinstance(v, (Fraction, int, np.integer)) and not isinstance(v, (bool, np.bool_)) for v in items)
    if exact:
        fr = tuple(Fraction(int(v)) if not isinstance(v, Fraction) else v for v in items)
        if any(v < 0 for v in fr):
            raise ValueError(f"p must be non-negative; got {[str(v) for v in fr]}")
        if sum(fr) != 1:
            raise ValueError(f"p must sum to 1; its Fractions sum to {sum(fr)}")
        return np.array([float(v) for v in fr]), fr
    arr = np.asarray(items, dtype=float)
    if not np.all(np.isfinite(arr)) or np.any(arr < 0):
        raise ValueError(f"p must be finite and non-negative; got {arr.tolist()}")
    if abs(float(arr.sum()) - 1.0) > SUM_TOL:
        raise ValueError(f"p must sum to 1 (within {SUM_TOL}); it sums to {float(arr.sum()):.6g}")
    return arr, None


class FiniteDistribution:
    """D on the finite domain {0, ..., n-1}: x ~ p, y = target(x), flipped with probability ``noise``.

    ``p``: the probabilities (floats summing to 1 within 1e-9, or Fractions/ints summing to 1
    exactly, which :meth:`risk_exact` then uses).  ``target``: the label of each point, in ``labels``
    ((0, 1) by default, or (-1, 1)).  ``noise`` in [0, 1/2]: the probability that a label is flipped
    (0: the realizable case).  ``X`` (optional, shape (n, d)): a feature vector per point, for
    hypotheses that are weight vectors (:meth:`loss_risk`).

    The 0-1 risk of a hypothesis given by its labels h(0), ..., h(n-1) on the domain is
    L_D(h) = sum_x p(x) [(1 - noise) 1[h(x) != target(x)] + noise 1[h(x) = target(x)]].
    """

    def __init__(self, p, target, noise=0, labels: tuple[int, int] = (0, 1), X=None):
        self.p, self.p_exact = _probabilities(p)
        self.n = self.p.size
        if tuple(labels) not in ((0, 1), (-1, 1)):
            raise ValueError(f"labels must be (0, 1) or (-1, 1); got {labels!r}")
        self.labels = tuple(labels)
        t = np.asarray(target)
        if t.shape != (self.n,):
            raise ValueError(f"target must give one label per point: shape ({self.n},); got shape {t.shape}")
        if not np.all(np.isin(t, self.labels)):
            bad = t[~np.isin(t, self.labels)][0]
            raise ValueError(f"target labels must be in {self.labels}; got {bad.item()!r}")
        self.target = t.astype(np.int64)
        if isinstance(noise, (bool, np.bool_)):
            raise ValueError(f"noise must be a number in [0, 1/2]; got {noise!r}")
        self.noise_exact = noise if isinstance(noise, Fraction) else Fraction(noise) if isinstance(noise, (int, np.integer)) else None
        self.noise = float(noise)
        if not (0.0 <= self.noise <= 0.5):
            raise ValueError(f"noise must be in [0, 1/2]; got {noise!r}")
        if X is None:
            self.X = None
        else:
            X = np.asarray(X, dtype=float)
            if X.ndim != 2 or X.shape[0] != self.n or not np.all(np.isfinite(X)):
                raise ValueError(f"X must be a finite array of shape ({self.n}, d); got shape {X.shape}")
            self.X = X

    def __repr__(self) -> str:
        return f"FiniteDistribution(n={self.n}, noise={self.noise:g})"

    # -- sampling --------------------------------------------------------------------------------
    def sample(self, T: int, rng: np.random.Generator, runs: int | None = None):
        """(xs, ys): T i.i.d. examples (arrays of shape (T,)), or ``runs`` independent samples of T
        (shape (runs, T)).  x is drawn by inverse CDF from one uniform per example; a flip from a second."""
        T = int_at_least(T, "T", 1)
        shape = (T,) if runs is None else (int_at_least(runs, "runs", 1), T)
        if not isinstance(rng, np.random.Generator):
            raise ValueError("rng must be a seeded np.random.default_rng(seed)")
        cdf = np.cumsum(self.p)
        cdf[-1] = 1.0
        xs = np.minimum(np.searchsorted(cdf, rng.random(shape), side="right"), self.n - 1)
        # never draw a point of probability 0 (searchsorted can land on one only at a repeated cdf value)
        ys = self.target[xs]
        if self.noise > 0:
            flip = rng.random(shape) < self.noise
            lo, hi = self.labels
            ys = np.where(flip, lo + hi - ys, ys)
        return xs.astype(np.int64), ys.astype(np.int64)

    # -- risks -----------------------------------------------------------------------------------
    def _hyp(self, h) -> np.ndarray:
        h = np.asarray(h)
        if h.shape[-1:] != (self.n,):
            raise ValueError(f"a hypothesis is given by its labels on the {self.n} points: last axis of "
                             f"length {self.n}; got shape {h.shape}")
        if h.dtype.kind in "biuf":  # isin's test by ==, without its cost (some 90 us a call)
            lo, hi = self.labels
            valid = bool(((h == lo) | (h == hi)).all())
        else:
            valid = bool(np.all(np.isin(h, self.labels)))
        if not valid:
            raise ValueError(f"hypothesis labels must be in {self.labels}")
        return h

    def risk(self, h) -> np.ndarray | float:
        """L_D(h) for a hypothesis (labels on the domain, shape (n,)) or many (shape (..., n))."""
        h = self._hyp(h)
        wrong = (h != self.target).astype(float)
        per_point = (1.0 - self.noise) * wrong + self.noise * (1.0 - wrong)
        out = per_point @ self.p
        return float(out) if np.ndim(out) == 0 else out

    def absolute_risk(self, h) -> np.ndarray | float:
        """E_D |h(x) - y| for a hypothesis with values in [0, 1] on the domain (labels (0, 1) only):
        a forecast such as the exponentially weighted average of experts (Mohri et al. Section 7.4,
        the bounded loss L(y', y) = |y' - y|, convex in y').  For 0/1 values it is the 0-1 risk.
        ``h`` has shape (n,) or (..., n)."""
        if self.labels != (0, 1):
            raise ValueError("absolute_risk needs labels (0, 1)")
        h = np.asarray(h, dtype=float)
        if h.shape[-1:] != (self.n,):
            raise ValueError(f"a hypothesis is given by its values on the {self.n} points: last axis of "
                             f"length {self.n}; got shape {h.shape}")
        if not np.all((h >= -1e-9) & (h <= 1 + 1e-9)):  # a weighted average may round past 0 or 1
            raise ValueError("absolute_risk needs hypothesis values in [0, 1]")
        h = np.clip(h, 0.0, 1.0)
        c = self.target
        per_point = (1.0 - self.noise) * np.abs(h - c) + self.noise * np.abs(h - (1 - c))
        out = per_point @ self.p
        return float(out) if np.ndim(out) == 0 else out

    def risk_exact(self, h) -> Fraction:
        """L_D(h) as a Fraction (needs Fraction probabilities, and a Fraction or 0 noise)."""
        if self.p_exact is None or self.noise_exact is None:
            raise ValueError("risk_exact needs p given as Fractions and noise as a Fraction (or 0)")
        h = self._hyp(h)
        if h.ndim != 1:
            raise ValueError(f"risk_exact takes one hypothesis, shape ({self.n},); got shape {h.shape}")
        q = self.noise_exact
        return sum(
            (pi * ((1 - q) if int(hx) != int(tx) else q) for pi, hx, tx in zip(self.p_exact, h, self.target)),
            Fraction(0),
        )

    def bayes_risk(self) -> float:
        """min_h L_D(h) = noise (the target is the Bayes classifier when noise < 1/2)."""
        return self.noise

    def loss_risk(self, w, loss: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> np.ndarray | float:
        """E_D[loss(<w, x>, y)] for a weight vector w (shape (d,)) or many (shape (k, d)), where
        ``loss(scores, y)`` is vectorized (scores of shape (k, n), y of shape (n,)); labels are
        flipped with probability ``noise``.  Needs ``X``."""
        if self.X is None:
            raise ValueError("loss_risk needs feature vectors: FiniteDistribution(..., X=...)")
        W = np.atleast_2d(np.asarray(w, dtype=float))
        if W.shape[-1] != self.X.shape[1]:
            raise ValueError(f"w must have {self.X.shape[1]} coordinates; got shape {np.shape(w)}")
        S = W @ self.X.T
        lo, hi = self.labels
        clean = np.asarray(loss(S, self.target), dtype=float)
        per_point = clean if self.noise == 0 else (1 - self.noise) * clean + self.noise * np.asarray(
            loss(S, lo + hi - self.target), dtype=float)
        out = per_point @ self.p
        return float(out[0]) if np.ndim(w) == 1 else out


class CircleDistribution:
    """x uniform on the unit circle {(cos a, sin a)} outside the band |<u, x>| < gamma, labelled
    y = sign(<u, x>) in {-1, +1}; u is a unit vector at angle ``angle``.  gamma in [0, 1).

    The risk of the halfspace x -> sign(<w, x>) is a closed form in the angle alpha in [0, pi]
    between w and u: the two wedges where the signs differ have angular size alpha each, and of each
    wedge the part outside the band has size max(0, min(alpha, pi - a) - a) with a = arcsin(gamma),
    out of a total 4 arccos(gamma):  L_D(w) = max(0, min(alpha, pi - a) - a) / (2 arccos(gamma)).
    With gamma = 0 this is alpha / pi.
    """

    def __init__(self, angle: float = 0.0, gamma: float = 0.0):
        if not np.isfinite(angle):
            raise ValueError(f"angle must be finite; got {angle!r}")
        if not (0.0 <= float(gamma) < 1.0):
            raise ValueError(f"gamma must be in [0, 1); got {gamma!r}")
        self.angle, self.gamma = float(angle), float(gamma)
        self.u = np.array([math.cos(self.angle), math.sin(self.angle)])

    def sample(self, T: int, rng: np.random.Generator):
        """(X, y): T points (shape (T, 2)) and labels in {-1, +1}, i.i.d.: the angle from the u axis is
        uniform on the allowed arcs [-(pi/2 - a), pi/2 - a] and its mirror, a = arcsin(gamma)."""
        T = int_at_least(T, "T", 1)
        half = math.acos(self.gamma)  # allowed angles from u: |phi| <= half, or |phi - pi| <= half
        phi = (2 * rng.random(T) - 1) * half
        side = rng.random(T) < 0.5
        phi = np.where(side, phi + math.pi, phi)
        th = self.angle + phi
        X = np.stack([np.cos(th), np.sin(th)], axis=1)
        y = np.where(side, -1, 1).astype(np.int64)
        return X, y

    def risk(self, w) -> float | np.ndarray:
        """The 0-1 risk of x -> sign(<w, x>), for one w (shape (2,)) or many (shape (k, 2)).

        w = 0 predicts one constant label (the Perceptron's sign(0) = -1); each label has probability
        1/2 by symmetry, so its risk is 1/2.  (The set of x with <w, x> = 0 has probability 0 for w != 0.)
        """
        W = np.asarray(w, dtype=float)
        if W.shape[-1:] != (2,) or W.ndim > 2 or not np.all(np.isfinite(W)):
            raise ValueError(f"w must be a finite array of shape (2,) or (k, 2); got shape {W.shape}")
        W2 = np.atleast_2d(W)
        nw = np.hypot(W2[:, 0], W2[:, 1])
        zero = nw == 0  # exactly the zero vector: no direction
        c = np.clip((W2 @ self.u) / np.where(zero, 1.0, nw), -1.0, 1.0)
        alpha = np.arccos(c)
        a = math.asin(self.gamma)
        out = np.maximum(0.0, np.minimum(alpha, math.pi - a) - a) / (2 * math.acos(self.gamma))
        out = np.where(zero, 0.5, out)
        return float(out[0]) if W.ndim == 1 else out


def labelled_points(dist: FiniteDistribution) -> list[tuple[int, int, Fraction]]:
    """The labelled examples (x, y) of ``dist`` with positive probability, and that probability as a
    Fraction: (x, target(x)) with p(x)(1 - noise), and (x, flipped label) with p(x) noise."""
    if dist.p_exact is None or dist.noise_exact is None:
        raise ValueError("labelled_points needs p given as Fractions and noise as a Fraction (or 0)")
    lo, hi = dist.labels
    out = []
    for x, (px, c) in enumerate(zip(dist.p_exact, dist.target.tolist())):
        for y, w in ((c, 1 - dist.noise_exact), (lo + hi - c, dist.noise_exact)):
            if px * w > 0:
                out.append((x, y, px * w))
    return out


def all_samples(points: Sequence[tuple], m: int):
    """Every sample of size m from the finite distribution ``points`` (a list whose entries end with
    their probability, as :func:`labelled_points` returns), as (tuple of indices into ``points``,
    probability), i.i.d. draws: len(points)^m samples whose probabilities sum to 1 exactly."""
    m = int_at_least(m, "m", 1)
    probs = [pt[-1] for pt in points]
    if any(not isinstance(q, Fraction) or q < 0 for q in probs) or sum(probs) != 1:
        raise ValueError("points must end with Fraction probabilities that sum to 1")
    if len(points) ** m > 10**6:
        raise ValueError(f"{len(points)}^{m} samples is too many to enumerate (at most 10^6)")
    for idx in itertools.product(range(len(points)), repeat=m):
        yield idx, math.prod((probs[i] for i in idx), start=Fraction(1))
