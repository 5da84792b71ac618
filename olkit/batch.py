"""From online to batch (the lecture notes on Chapter 21, part 2; Mohri, Rostamizadeh and Talwalkar,
Section 7.4; UML Section 21.1 and Chapter 21's exercises).

An online learner run on an i.i.d. sample (x_1, y_1), ..., (x_T, y_T) ~ D produces hypotheses
h_1, h_2, ..., h_{T+1}, h_t being the one it predicts with in round t (it has seen rounds 1..t-1 only).
A *conversion* turns them into one hypothesis for D.  This module has

* **distributions whose true risk is known exactly**: :class:`FiniteDistribution` (a finite domain
  with given probabilities, a target labeling, label noise of a given rate, and optional feature
  vectors, so that the risk of any hypothesis under any loss is a finite sum) and
  :class:`CircleDistribution` (points on the unit circle labelled by a halfspace through the
  origin, with an optional margin band removed; the 0-1 risk of any halfspace through the origin is
  a closed form in the angle);
* **the hypotheses of a run** on the domain: :func:`hypothesis_path` plays the game with an olkit
  learner and records h_t(x) for every point x of the domain before every round, and
  :class:`SeenSetPaths` does the same for many runs at once for learners whose hypothesis depends
  only on the set of labelled points seen (the version-space learners: Halving, SOA, Consistent
  with the version-space update);
* **conversions**: :func:`random_iterate` (h_r, r uniform on [T]), :func:`last_iterate` (h_{T+1}),
  :func:`average_iterate` (the mean of w_1, ..., w_T for a convex loss) and
  :func:`validation_choice` (the h_t with the fewest errors on a held-out sample), each returning a
  :class:`Converted` with the hypothesis, the round it came from and its exact risk;
* **Monte Carlo**: :func:`monte_carlo` repeats a whole experiment over independent seeds,
  :func:`mean_ci` and :func:`frequency_ci` give means and failure frequencies with confidence intervals.

**Exactness.**  Probabilities given as :class:`fractions.Fraction` are kept: :meth:`FiniteDistribution.risk_exact`
returns a Fraction.  With dyadic probabilities (1/2, 1/4, 1/8, ...) the float risks are exact too,
since every partial sum is a dyadic rational with few bits; the book's examples use them, so that
every printed risk is the same on every machine.
"""
from __future__ import annotations

import itertools
import math
import statistics
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable, Sequence

import numpy as np

from . import fp
from .game import int_at_least

__all__ = [
    "CircleDistribution",
    "ConvergedPerceptron",
    "Converted",
    "Estimate",
    "FiniteDistribution",
    "SeenSetPaths",
    "average_iterate",
    "count_test",
    "CountTest",
    "check_delta",
    "frequency_ci",
    "hypothesis_path",
    "labelled_points",
    "all_samples",
    "last_iterate",
    "loo_error",
    "margin_2d",
    "perceptron_to_convergence",
    "markov_sample_size",
    "mean_ci",
    "monte_carlo",
    "random_iterate",
    "validation_choice",
]

#: |sum(p) - 1| allowed for float probabilities (Fractions must sum to 1 exactly).
SUM_TOL = 1e-9


def check_delta(delta) -> float:
    """delta as a float in the open interval (0, 1); a ValueError naming it otherwise."""
    if isinstance(delta, (bool, np.bool_)) or not isinstance(delta, (int, float, np.integer, np.floating, Fraction)):
        raise ValueError(f"delta must be a number in (0, 1); got {delta!r}")
    d = float(delta)
    if not (0.0 < d < 1.0):
        raise ValueError(f"delta must be in the open interval (0, 1); got {delta!r}")
    return d


def markov_sample_size(mistake_bound, eps, delta) -> int:
    """The smallest T with mistake_bound / (T eps) <= delta: by Markov's inequality and the theorem
    E L_D(h_r) <= M_A / T (the lecture notes on Chapter 21, part 2), P[L_D(h_r) >= eps] <= delta
    for every sample size T >= this one.  eps and delta in (0, 1); mistake_bound >= 0."""
    eps, delta = float(eps), check_delta(delta)
    if not (0.0 < eps < 1.0):
        raise ValueError(f"eps must be in the open interval (0, 1); got {eps!r}")
    m = float(mistake_bound)
    if not (m >= 0.0 and math.isfinite(m)):
        raise ValueError(f"mistake_bound must be a finite number >= 0; got {mistake_bound!r}")
    return max(1, math.ceil(m / (eps * delta)))


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
        if not np.all(np.isin(h, self.labels)):
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


# ---------------------------------------------------------------------------------------------
# The hypotheses of a run
# ---------------------------------------------------------------------------------------------
def hypothesis_of(learner, n: int) -> np.ndarray:
    """The learner's current hypothesis as its labels on the domain {0, ..., n-1}: learner.predict(x)
    for every x (predict does not change a learner's state)."""
    return np.array([learner.predict(x) for x in range(n)], dtype=np.int64)


def hypothesis_path(learner, xs, ys, n: int) -> np.ndarray:
    """Play the online game on (x_1, y_1), ..., (x_T, y_T) and return H of shape (T + 1, n), row t - 1
    being h_t on the domain (the hypothesis used in round t, before x_t is seen), row T being h_{T+1}.

    The learner is fed exactly as :func:`olkit.run` feeds it: predict(x_t), then update(x_t, y_t)."""
    xs, ys = np.asarray(xs), np.asarray(ys)
    if xs.shape != ys.shape or xs.ndim != 1:
        raise ValueError(f"xs and ys must be 1-d of equal length; got shapes {xs.shape} and {ys.shape}")
    n = int_at_least(n, "n", 1)
    path = np.empty((xs.size + 1, n), dtype=np.int64)
    for t, (x, y) in enumerate(zip(xs.tolist(), ys.tolist())):
        path[t] = hypothesis_of(learner, n)
        learner.predict(x)
        learner.update(x, y)
    path[-1] = hypothesis_of(learner, n)
    return path


class SeenSetPaths:
    """h_t on the domain for many runs at once, for learners whose hypothesis depends only on the
    set of labelled points seen so far (Halving, SOA and Consistent with the version-space update:
    their version space V_t = {h in H : h(x_s) = y_s, s < t} depends on nothing else).

    ``make_learner()`` returns a fresh learner; ``target`` labels the domain (the realizable case).
    The hypothesis after a seen set S is computed once, by feeding a fresh learner the points of S
    in increasing order, and cached by the bitmask of S; :meth:`paths` returns, for samples XS of
    shape (runs, T), the indices into :attr:`table` of h_1, ..., h_{T+1} for every run.

    This is a shortcut, valid only for such learners; the book checks it against
    :func:`hypothesis_path` (the real game, round by round) on some runs.
    """

    def __init__(self, make_learner: Callable, target, n: int | None = None):
        self.make_learner = make_learner
        self.target = np.asarray(target, dtype=np.int64)
        self.n = self.target.size if n is None else int_at_least(n, "n", 1)
        if self.target.shape != (self.n,):
            raise ValueError(f"target must have shape ({self.n},); got {self.target.shape}")
        if self.n > 62:
            raise ValueError(f"SeenSetPaths keys seen sets by a 64-bit mask: n <= 62; got n = {self.n}")
        self._index: dict[int, int] = {}
        self._rows: list[np.ndarray] = []

    def hypothesis(self, mask: int) -> int:
        """Index into :attr:`table` of the hypothesis after seeing the points of ``mask``."""
        k = self._index.get(mask)
        if k is None:
            learner = self.make_learner()
            for x in range(self.n):
                if mask >> x & 1:
                    learner.predict(x)
                    learner.update(x, int(self.target[x]))
            k = len(self._rows)
            self._rows.append(hypothesis_of(learner, self.n))
            self._index[mask] = k
        return k

    def labels_after(self, mask: int) -> np.ndarray:
        """The hypothesis after seeing the points of ``mask``, as its labels on the domain."""
        return self._rows[self.hypothesis(mask)]

    @property
    def table(self) -> np.ndarray:
        """The distinct hypotheses met so far, one row each (labels on the domain)."""
        return np.array(self._rows, dtype=np.int64).reshape(len(self._rows), self.n)

    def paths(self, XS) -> np.ndarray:
        """Indices (shape (runs, T + 1)) of h_1, ..., h_{T+1} for each run (row) of XS, into
        :attr:`table` as it is *after* this call (the call may add hypotheses to it)."""
        XS = np.atleast_2d(np.asarray(XS, dtype=np.int64))
        if XS.size and (XS.min() < 0 or XS.max() >= self.n):
            raise ValueError(f"points must be in 0..{self.n - 1}")
        runs, T = XS.shape
        bits = np.left_shift(np.int64(1), XS)
        masks = np.zeros((runs, T + 1), dtype=np.int64)
        masks[:, 1:] = np.bitwise_or.accumulate(bits, axis=1)
        uniq, inverse = np.unique(masks, return_inverse=True)
        ids = np.array([self.hypothesis(int(m)) for m in uniq.tolist()], dtype=np.int64)
        return ids[inverse.reshape(masks.shape)]


# ---------------------------------------------------------------------------------------------
# Leave-one-out (Mohri et al.: the leave-one-out error, Lemma 4.1, Theorem 7.9)
# ---------------------------------------------------------------------------------------------
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


def loo_error(train: Callable, xs: Sequence, ys: Sequence) -> Fraction:
    """The leave-one-out error (1/m) sum_i 1[h_{S minus i}(x_i) != y_i] of the learning algorithm
    ``train(xs, ys) -> h`` (h callable on one x) on the sample S = ((x_1, y_1), ..., (x_m, y_m)),
    m >= 2 (Mohri et al. Definition of the leave-one-out error)."""
    m = len(xs)
    if m != len(ys):
        raise ValueError(f"xs and ys must have the same length; got {m} and {len(ys)}")
    if m < 2:
        raise ValueError(f"the leave-one-out error needs a sample of size m >= 2; got m = {m}")
    wrong = 0
    for i in range(m):
        h = train([x for j, x in enumerate(xs) if j != i], [y for j, y in enumerate(ys) if j != i])
        wrong += int(h(xs[i]) != ys[i])
    return Fraction(wrong, m)


@dataclass
class ConvergedPerceptron:
    """The Perceptron cycled over a sample in its order until a full pass makes no update: the final
    weights ``w``, the number of updates ``M``, the sample positions it ever updated on
    (``support``, sorted) and the number of ``passes`` (the last one without an update)."""

    w: np.ndarray
    M: int
    support: tuple[int, ...]
    passes: int

    def __call__(self, x) -> int:
        """The prediction sign(<w, x>) with the book's sign(0) = -1 (olkit.fp.sign's tie rule)."""
        x = np.asarray(x, dtype=float)
        return 1 if fp.sign(fp.dot(self.w, x), fp.tie_scale(self.w, x)) > 0 else -1


def perceptron_to_convergence(X, y, max_passes: int = 1000) -> ConvergedPerceptron:
    """Train :class:`olkit.Perceptron` (eta = 1, its update and tie rules) by passes over the sample
    (rows of X, labels y in {-1, +1}) in order until a pass has no update (Mohri et al. Theorem 7.9's
    "trained via a number of passes till convergence").  A ValueError after ``max_passes`` passes
    with updates (the sample is not linearly separable through the origin, or its margin is tiny)."""
    from .linear import Perceptron

    X = np.atleast_2d(np.asarray(X, dtype=float))
    y = np.asarray(y)
    if X.shape[0] != y.shape[0] or X.shape[0] == 0:
        raise ValueError(f"X and y must have the same positive number of rows; got {X.shape[0]} and {y.shape[0]}")
    learner = Perceptron(X.shape[1])
    support: set[int] = set()
    max_passes = int_at_least(max_passes, "max_passes", 1)
    for k in range(1, max_passes + 1):
        before = learner.updates
        for i in range(X.shape[0]):
            u = learner.updates
            learner.predict(X[i])
            learner.update(X[i], int(y[i]))
            if learner.updates > u:
                support.add(i)
        if learner.updates == before:
            return ConvergedPerceptron(learner.w.copy(), learner.updates, tuple(sorted(support)), k)
    raise ValueError(f"the Perceptron still updates after max_passes = {max_passes} passes: the sample is not "
                     "linearly separable through the origin (or its margin is too small for this many passes)")


def margin_2d(X, y) -> float:
    """The largest margin rho = max_{||w|| = 1} min_i y_i <w, x_i> of a separator through the origin,
    for points in the plane: the distance from 0 to the convex hull of the points z_i = y_i x_i,
    found exactly as the smallest distance from 0 to the hull's vertices and segments (the closest
    point of a polygon lies on one of them).  0 if the points are not strictly separable (the
    closest point u does not satisfy <u, z_i> >= ||u||^2 for every i, up to 1e-12 relative)."""
    X = np.atleast_2d(np.asarray(X, dtype=float))
    y = np.asarray(y, dtype=float)
    if X.ndim != 2 or X.shape[1] != 2 or X.shape[0] != y.shape[0] or X.shape[0] == 0:
        raise ValueError(f"margin_2d takes points in the plane, X of shape (m, 2) with m labels; got {X.shape}")
    Z = np.unique(y[:, None] * X, axis=0)
    best, u = np.inf, None
    for a in range(len(Z)):
        for b in range(a, len(Z)):
            A, Bv = Z[a], Z[b]
            d = Bv - A
            dd = float(d @ d)
            s = 0.0 if dd == 0 else min(1.0, max(0.0, -float(A @ d) / dd))
            c = A + s * d
            n2 = float(c @ c)
            if n2 < best:
                best, u = n2, c
    if best == 0 or np.any(Z @ u < best * (1 - 1e-12)):
        return 0.0
    return math.sqrt(best)


# ---------------------------------------------------------------------------------------------
# Conversions
# ---------------------------------------------------------------------------------------------
@dataclass
class Converted:
    """The hypothesis a conversion returns: ``h`` (labels on the domain, or a weight vector), the
    round it came from (``t``: h = h_t; None for an average), and its risk under the distribution."""

    h: np.ndarray
    t: int | None
    risk: float
    how: str = ""


def _check_path(path) -> np.ndarray:
    path = np.asarray(path)
    if path.ndim != 2 or path.shape[0] < 2:
        raise ValueError(f"path must have shape (T + 1, ...) with T >= 1 (h_1, ..., h_(T+1)); got shape {path.shape}")
    return path


def random_iterate(path, dist, rng: np.random.Generator) -> Converted:
    """h_r with r uniform on {1, ..., T} (the lecture notes' conversion): ``path`` holds h_1, ..., h_{T+1}
    (:func:`hypothesis_path`); h_{T+1} is never chosen."""
    path = _check_path(path)
    T = path.shape[0] - 1
    r = int(rng.integers(1, T + 1))
    return Converted(path[r - 1], r, dist.risk(path[r - 1]), "random iterate")


def last_iterate(path, dist) -> Converted:
    """h_{T+1}, the hypothesis after the whole sample."""
    path = _check_path(path)
    T = path.shape[0] - 1
    return Converted(path[T], T + 1, dist.risk(path[T]), "last iterate")


def average_iterate(W, risk: Callable[[np.ndarray], float]) -> Converted:
    """(1/T) sum_{t=1}^T w_t for the points w_1, ..., w_{T+1} of a run (``W`` of shape (T + 1, d); the
    last is not averaged), with ``risk(w)`` its risk (Mohri et al. Theorem 7.13; the notes' corollary)."""
    W = _check_path(np.asarray(W, dtype=float))
    w_bar = W[:-1].mean(axis=0)
    return Converted(w_bar, None, float(risk(w_bar)), "average of w_1..w_T")


def validation_choice(path, dist, xs_val, ys_val) -> Converted:
    """The h_t (t = 1, ..., T + 1) with the fewest errors on the held-out sample (xs_val, ys_val); the
    first such t on a tie (error counts are integers, so the tie is exact)."""
    path = _check_path(path)
    xs_val, ys_val = np.asarray(xs_val, dtype=np.int64), np.asarray(ys_val, dtype=np.int64)
    if xs_val.shape != ys_val.shape or xs_val.ndim != 1 or xs_val.size == 0:
        raise ValueError(f"the validation sample must be two 1-d arrays of equal positive length; got shapes "
                         f"{xs_val.shape} and {ys_val.shape}")
    errors = (path[:, xs_val] != ys_val).sum(axis=1)
    t = int(np.argmin(errors))  # integers: the first minimum, exactly
    return Converted(path[t], t + 1, dist.risk(path[t]), "validation choice")


# ---------------------------------------------------------------------------------------------
# Monte Carlo
# ---------------------------------------------------------------------------------------------
@dataclass
class Estimate:
    """A mean over independent runs with its standard error and a normal confidence interval."""

    mean: float
    se: float
    n: int
    level: float
    lo: float = field(init=False)
    hi: float = field(init=False)

    def __post_init__(self):
        z = statistics.NormalDist().inv_cdf(0.5 + self.level / 2)
        self.lo, self.hi = self.mean - z * self.se, self.mean + z * self.se

    def __repr__(self) -> str:
        return f"{self.mean:.4f} ± {self.hi - self.mean:.4f} ({self.level:.0%}, n = {self.n})"


def _level(level) -> float:
    level = float(level)
    if not (0.0 < level < 1.0):
        raise ValueError(f"level must be in (0, 1); got {level!r}")
    return level


def mean_ci(values, level: float = 0.95, axis: int = 0) -> Estimate:
    """The mean of ``values`` along ``axis`` (the runs), its standard error s / sqrt(n) and the normal
    ``level`` confidence interval (arrays if ``values`` has more axes)."""
    level = _level(level)
    v = np.asarray(values, dtype=float)
    n = v.shape[axis]
    if n < 2:
        raise ValueError(f"a confidence interval needs at least 2 runs; got {n}")
    return Estimate(v.mean(axis=axis), v.std(axis=axis, ddof=1) / math.sqrt(n), n, level)


@dataclass
class CountTest:
    """Observed counts ``k`` of 0/1 outcomes against their expected counts ``mu`` (the sums of the
    outcomes' probabilities), with a two-sided ``p_value`` per entry (see :func:`count_test`)."""

    k: np.ndarray
    mu: np.ndarray
    p_value: np.ndarray


def _poisson_kl(k: np.ndarray, mu: np.ndarray) -> np.ndarray:
    """k ln(k / mu) - k + mu (0 ln 0 = 0), the exponent of the Chernoff bound; inf where mu = 0 < k."""
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(k > 0, k * np.log(np.where(k > 0, k, 1.0) / np.where(mu > 0, mu, 1.0)), 0.0)
        out = t - k + mu
    return np.where((mu == 0) & (k > 0), np.inf, out)


def count_test(prob, outcome, axis: int = 0) -> CountTest:
    """Are 0/1 ``outcome`` draws consistent with their probabilities ``prob``?  Along ``axis`` (the runs)
    the count K = sum of the outcomes is compared with mu = sum of the probabilities: a mistake of h_t
    on a fresh x_t has probability L_D(h_t), independently over the runs, so K is a sum of independent
    Bernoulli variables with mean mu.

    The p-value is the Chernoff bound for such sums, doubled for two sides:
    P(K >= k) <= exp(-(k ln(k/mu) - k + mu)) for k >= mu, and the same expression bounds P(K <= k) for
    k <= mu.  It holds for any probabilities, with no normal approximation, so it stays valid for rare
    events (late rounds where a mistake has probability 1e-4), where a normal interval does not.  A
    p-value below alpha happens with probability at most alpha when the probabilities are right."""
    q, o = np.asarray(prob, dtype=float), np.asarray(outcome)
    if q.shape != o.shape:
        raise ValueError(f"prob and outcome must have the same shape; got {q.shape} and {o.shape}")
    if q.size == 0:
        raise ValueError("count_test needs at least one run")
    if np.any(q < 0) or np.any(q > 1) or not np.all(np.isfinite(q)):
        raise ValueError("prob must be in [0, 1]")
    if not np.all(np.isin(o, (0, 1))):
        raise ValueError("outcome must be 0/1 (or booleans)")
    k = o.sum(axis=axis).astype(float)
    mu = q.sum(axis=axis)
    p = np.minimum(1.0, 2.0 * np.exp(-_poisson_kl(k, mu)))
    return CountTest(k, mu, p)


def frequency_ci(events, level: float = 0.95, axis: int = 0) -> Estimate:
    """The frequency of 0/1 ``events`` along ``axis`` with the Wilson score interval (which, unlike
    the normal one, stays in [0, 1] and is not empty when no event occurred)."""
    level = _level(level)
    e = np.asarray(events)
    if not np.all(np.isin(e, (0, 1))):
        raise ValueError("events must be 0/1 (or booleans)")
    n = e.shape[axis]
    if n < 1:
        raise ValueError("a frequency needs at least one run")
    k = e.sum(axis=axis)
    f = k / n
    z = statistics.NormalDist().inv_cdf(0.5 + level / 2)
    centre = (f + z * z / (2 * n)) / (1 + z * z / n)
    half = z * np.sqrt(f * (1 - f) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    est = Estimate(f, np.sqrt(f * (1 - f) / n), n, level)
    est.lo, est.hi = centre - half, centre + half
    return est


def monte_carlo(experiment: Callable[[np.random.Generator], dict], runs: int, seed: int) -> dict[str, np.ndarray]:
    """Repeat ``experiment(rng)`` over ``runs`` independent generators spawned from ``seed``
    (np.random.SeedSequence(seed).spawn(runs): the runs are reproducible and independent of each
    other) and stack what each returns: a dict of numbers or arrays -> a dict of arrays with a first
    axis of length ``runs``."""
    runs = int_at_least(runs, "runs", 1)
    children = np.random.SeedSequence(seed).spawn(runs)
    out: dict[str, list] = {}
    for child in children:
        res = experiment(np.random.default_rng(child))
        if not isinstance(res, dict):
            raise ValueError(f"the experiment must return a dict of results; got {type(res).__name__}")
        for k, v in res.items():
            out.setdefault(k, []).append(v)
    return {k: np.asarray(v) for k, v in out.items()}


# ---------------------------------------------------------------------------------------------
# Helpers of the chapter's checks (Chapter 6 of the book), recomputed from the data
# ---------------------------------------------------------------------------------------------
def round_risk_exact(
    dist: FiniteDistribution, make_learner: Callable, t: int
) -> tuple[Fraction, Fraction]:
    """Both sides of step 2 of the online-to-batch theorem (the notes on Chapter 21, part 2; Mohri et
    al. Section 7.4) for round ``t``, exactly, by enumerating every sample x_1, ..., x_t of ``dist``:

    ``(E L_D(h_t), E 1[h_t(x_t) != y_t])`` as Fractions.  The left side sums, over the n^(t-1)
    prefixes, the prefix's probability times :meth:`FiniteDistribution.risk_exact` of h_t; the right
    side sums, over the n^t samples, the probability times the round-t mistake, with y_t the target's
    label.  h_t comes from :class:`SeenSetPaths`, so the learner must be a version-space learner
    (its hypothesis depends only on the set of labelled points seen).  ``dist`` needs Fraction
    probabilities and no noise (the realizable case)."""
    t = int_at_least(t, "t", 1)
    if dist.p_exact is None or dist.noise_exact != 0:
        raise ValueError("dist: round_risk_exact needs Fraction probabilities and noise 0")
    if dist.n ** t > 10**6:
        raise ValueError(f"t: {dist.n}^{t} samples is too many to enumerate (at most 10^6)")
    p, target = dist.p_exact, dist.target.tolist()
    seen = SeenSetPaths(make_learner, dist.target)
    lhs = rhs = Fraction(0)
    for prefix in itertools.product(range(dist.n), repeat=t - 1):
        h_t = seen.labels_after(sum(1 << x for x in set(prefix)))
        pr = math.prod((p[x] for x in prefix), start=Fraction(1))
        lhs += pr * dist.risk_exact(h_t)
        for x in range(dist.n):  # x_t, drawn after h_t is fixed
            rhs += pr * p[x] * int(int(h_t[x]) != target[x])
    return lhs, rhs


def seen_set_runs(
    dist: FiniteDistribution, make_learner: Callable, T: int, runs: int, rng: np.random.Generator,
    paths: type | None = None,
) -> tuple[np.ndarray, ...]:
    """``runs`` independent runs of a version-space learner over samples of size ``T`` from ``dist``
    (the online-to-batch theorem's setting), by :class:`SeenSetPaths`.

    Returns ``(XS, YS, ids, table, risk, mistake)``: the samples (runs, T) and their labels, the
    indices into ``table`` of h_1, ..., h_{T+1}, the table of distinct hypotheses, the exact risks
    L_D(h_t) of shape (runs, T + 1) and the mistakes 1[h_t(x_t) != y_t] of shape (runs, T), the last
    two recomputed from the table and the sample (not from the learner's predictions in the game).
    ``paths`` is the class that computes the paths (None: :class:`SeenSetPaths`; the book's
    negative controls pass a broken one)."""
    T, runs = int_at_least(T, "T", 1), int_at_least(runs, "runs", 1)
    seen = (SeenSetPaths if paths is None else paths)(make_learner, dist.target)
    XS, YS = dist.sample(T, rng, runs=runs)
    ids = seen.paths(XS)
    table = seen.table
    risk = dist.risk(table)[ids]
    mistake = table[ids[:, :T], XS] != YS
    return XS, YS, ids, table, risk, mistake


def ewa_runs(
    dist: FiniteDistribution, F, T: int, runs: int, rng: np.random.Generator, eta: float | None = None
) -> dict:
    """The exponentially weighted average forecaster (Mohri et al. Theorem 7.6; Chapter 3 of the book)
    over the N experts ``F`` (rows: labels 0/1 on the domain of ``dist``) on ``runs`` samples of size
    ``T`` from ``dist``, all at once, with the absolute loss (the setting of Theorem 7.13).

    With eta = sqrt(8 ln N / T) unless given, the weights p_{t,i} ~ exp(-eta L_{t-1,i}) give
    h_t = sum_i p_{t,i} f_i on the domain.  Returns a dict: ``risk`` (runs, T) the exact risks R(h_t)
    (:meth:`FiniteDistribution.absolute_risk`), ``loss`` (runs, T) the losses |h_t(x_t) - y_t| paid,
    ``risk_avg`` (runs,) the risk of the average hypothesis (1/T) sum_t h_t, ``ell`` (runs, T, N) the
    experts' losses and ``eta``.  The book checks the losses paid against :func:`olkit.experts.hedge`."""
    F = np.asarray(F)
    if F.ndim != 2 or F.shape[1] != dist.n or not np.isin(F, (0, 1)).all():
        raise ValueError(
            f"F: expected a 0/1 matrix with {dist.n} columns (experts on the domain); got shape {F.shape}"
        )
    T, runs = int_at_least(T, "T", 1), int_at_least(runs, "runs", 1)
    N = F.shape[0]
    if eta is None:
        eta = math.sqrt(8 * math.log(N) / T)
    XS, YS = dist.sample(T, rng, runs=runs)
    ell = (F[:, XS] != YS).transpose(1, 2, 0).astype(float)  # l_{t,i}
    L_prev = np.cumsum(ell, axis=1) - ell  # L_{t-1,i}
    P = np.exp(-eta * (L_prev - L_prev.min(axis=2, keepdims=True)))
    P /= P.sum(axis=2, keepdims=True)
    H_t = P @ F  # h_t on the domain, (runs, T, n)
    yhat = np.take_along_axis(H_t, XS[:, :, None], axis=2)[..., 0]
    return dict(
        risk=dist.absolute_risk(H_t),
        loss=np.abs(yhat - YS),
        risk_avg=dist.absolute_risk(H_t.mean(axis=1)),
        ell=ell,
        eta=eta,
    )


def loo_exact(
    train: Callable, points: Sequence[tuple], dist: FiniteDistribution, m: int, loo: Callable | None = None
) -> tuple[Fraction, list[Fraction], Fraction]:
    """The sides of the proof of Lemma 4.1 of Mohri et al. (the leave-one-out error is unbiased), as
    Fractions, by enumerating every sample of ``points`` (:func:`labelled_points` of ``dist``):

    ``(E LOO(S'), [E 1[h_(S' minus z_i)(x_i) != y_i] for i = 1..m+1], E_S R(h_S))`` with |S'| = m + 1
    and |S| = m.  E LOO comes from :func:`loo_error` (or ``loo``, called the same way: the book's
    negative control passes a broken one); each position's term is recomputed by retraining without
    position i; the risk of h_S is :meth:`FiniteDistribution.risk_exact` of its labels."""
    m = int_at_least(m, "m", 1)
    loo = loo_error if loo is None else loo
    e_loo, per_position = Fraction(0), [Fraction(0)] * (m + 1)
    for idx, pr in all_samples(points, m + 1):
        xs = [points[i][0] for i in idx]
        ys = [points[i][1] for i in idx]
        e_loo += pr * loo(train, xs, ys)
        for i in range(m + 1):
            h = train(xs[:i] + xs[i + 1 :], ys[:i] + ys[i + 1 :])
            per_position[i] += pr * int(h(xs[i]) != ys[i])
    e_risk = Fraction(0)
    for idx, pr in all_samples(points, m):
        h = train([points[i][0] for i in idx], [points[i][1] for i in idx])
        e_risk += pr * dist.risk_exact([h(x) for x in range(dist.n)])
    return e_loo, per_position, e_risk
