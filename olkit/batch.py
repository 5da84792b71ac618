"""From online to batch (the lecture notes on Chapter 21, part 2; Mohri, Rostamizadeh and Talwalkar,
Section 7.4; UML Section 21.1 and Chapter 21's exercises).

An online learner run on an i.i.d. sample (x_1, y_1), ..., (x_T, y_T) ~ D produces hypotheses
h_1, h_2, ..., h_{T+1}, h_t being the one it predicts with in round t (it has seen rounds 1..t-1 only).
A *conversion* turns them into one hypothesis for D.  This module has

* **the hypotheses of a run** on the domain: :func:`hypothesis_path` plays the game with an olkit
  learner and records h_t(x) for every point x of the domain before every round, and
  :class:`SeenSetPaths` does the same for many runs at once for learners whose hypothesis depends
  only on the set of labelled points seen (the version-space learners: Halving, SOA, Consistent
  with the version-space update);
* **conversions**: :func:`random_iterate` (h_r, r uniform on [T]), :func:`last_iterate` (h_{T+1}),
  :func:`average_iterate` (the mean of w_1, ..., w_T for a convex loss) and
  :func:`validation_choice` (the h_t with the fewest errors on a held-out sample), each returning a
  :class:`Converted` with the hypothesis, the round it came from and its exact risk;
* **the leave-one-out error** (Mohri et al., Lemma 4.1 and Theorem 7.9) and the Perceptron trained to
  convergence;
* **the exact computations of the chapter's checks**: the expected risk of each round's hypothesis,
  by enumerating every sample of a finite distribution.

The distributions whose risks are known exactly are :mod:`olkit.distributions`; the estimates over
many runs (means, frequencies, the count test, Monte Carlo) are :mod:`olkit.estimates`.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Sequence

import numpy as np

from . import fp
from .distributions import FiniteDistribution, all_samples
from .game import int_at_least

__all__ = [
    "ConvergedPerceptron",
    "Converted",
    "SeenSetPaths",
    "average_iterate",
    "check_delta",
    "hypothesis_path",
    "last_iterate",
    "loo_error",
    "margin_2d",
    "perceptron_to_convergence",
    "markov_sample_size",
    "random_iterate",
    "validation_choice",
]

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
