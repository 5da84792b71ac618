"""Broken versions of :mod:`olkit.batch` and of Chapter 6's constants: the negative controls of
Sections 6.1-6.3.  Each variant has exactly one thing wrong, named in its docstring; the chapter runs
its proof checks on it inside :func:`olkit.negative_control` and shows the step that fails.
"""
from __future__ import annotations

import math

import numpy as np

from ..batch import Converted, SeenSetPaths, _check_path
from ..distributions import FiniteDistribution

__all__ = [
    "PeekingPaths",
    "last_as_random",
    "log_markov_sample_size",
    "erm_sample_size",
    "peeking_ewa_runs",
    "halved_sharp_eps",
    "training_error",
    "enclosing_radius",
]


class PeekingPaths(SeenSetPaths):
    """What it records as the round-t hypothesis is h_{t+1}, which has already seen x_t (an off-by-one
    in the seen set).  Broken: step 2 of the online-to-batch theorem (the risk of h_t is the chance
    of a mistake in round t) fails, since a version-space learner never errs on a point it has seen."""

    def paths(self, XS) -> np.ndarray:
        ids = super().paths(XS)
        return np.concatenate([ids[:, 1:], ids[:, -1:]], axis=1)


def last_as_random(path, dist, rng: np.random.Generator) -> Converted:
    """Called like :func:`olkit.batch.random_iterate` but returns the last hypothesis h_{T+1}.
    Broken: step 1 of the online-to-batch theorem (the expectation over r is the average of the
    per-round risks) fails; the last iterate is not covered by the theorem."""
    path = _check_path(path)
    T = path.shape[0] - 1
    return Converted(path[T], T + 1, dist.risk(path[T]), "random iterate")


def log_markov_sample_size(mistake_bound, eps, delta) -> int:
    """Markov's sample size with ln(1/delta) in place of 1/delta, M ln(1/delta) / eps, in place of
    M / (eps delta).  Broken: the random iterate needs the 1/delta (on the chapter's two-point
    instance P[L_D(h_r) >= eps] is about M / (T eps)), so the PAC step fails.  This is not ERM's
    sample size, which is :func:`erm_sample_size`."""
    return max(1, math.ceil(float(mistake_bound) * math.log(1 / float(delta)) / float(eps)))


def erm_sample_size(n_hypotheses, eps, delta) -> int:
    """ceil(ln(|H| / delta) / eps): the sample size that suffices for every ERM over a finite class
    H in the realizable case (Shalev-Shwartz and Ben-David, Corollary 2.3), in place of Markov's
    M_A / (eps delta) for the random iterate.  Broken: the random iterate needs the 1/delta.  On
    Section 6.1's two-point instance (|H| = 2, eps = 1/8, delta = 0.5, 0.25, 0.1: T = 12, 17, 24)
    P[L_D(h_r) >= eps] = 8 (1 - (7/8)^T) / T is 0.532, 0.422, 0.320, above delta each time."""
    n = int(n_hypotheses)
    if n < 1 or n != n_hypotheses:
        raise ValueError(f"n_hypotheses must be an integer >= 1; got {n_hypotheses!r}")
    eps, delta = float(eps), float(delta)
    if not (0.0 < eps < 1.0 and 0.0 < delta < 1.0):
        raise ValueError(f"eps and delta must be in (0, 1); got eps={eps!r}, delta={delta!r}")
    return max(1, math.ceil(math.log(n / delta) / eps))


def peeking_ewa_runs(
    dist: FiniteDistribution, F, T: int, runs: int, rng: np.random.Generator, eta: float | None = None
) -> dict:
    """:func:`olkit.batch.ewa_runs` with the weights of round t computed from the cumulative losses
    *through* round t, L_{t,i} in place of L_{t-1,i}: the forecaster peeks at round t's outcome
    before predicting.  Broken: V_t = R(h_t) - L(h_t(x_t), y_t) is no longer a martingale difference
    (it is positive on average), and Lemma 7.1's failure probability exceeds delta."""
    F = np.asarray(F)
    N = F.shape[0]
    if eta is None:
        eta = math.sqrt(8 * math.log(N) / T)
    XS, YS = dist.sample(T, rng, runs=runs)
    ell = (F[:, XS] != YS).transpose(1, 2, 0).astype(float)
    L_now = np.cumsum(ell, axis=1)  # the bug: round t's own losses are included
    P = np.exp(-eta * (L_now - L_now.min(axis=2, keepdims=True)))
    P /= P.sum(axis=2, keepdims=True)
    H_t = P @ F
    yhat = np.take_along_axis(H_t, XS[:, :, None], axis=2)[..., 0]
    return dict(
        risk=dist.absolute_risk(H_t),
        loss=np.abs(yhat - YS),
        risk_avg=dist.absolute_risk(H_t.mean(axis=1)),
        ell=ell,
        eta=eta,
    )


def halved_sharp_eps(M: float, T: int, delta: float) -> float:
    """Half of Lemma 7.1's sharp threshold, M sqrt(ln(1/delta) / (2T)) / 2 (a quarter of the
    source's M sqrt(2 ln(1/delta) / T)).  Broken: Azuma's inequality does not give it, and on an
    instance whose losses are nearly fair coins the failure frequency exceeds delta."""
    return M * math.sqrt(math.log(1 / delta) / (2 * T)) / 2


def training_error(train, xs, ys):
    """Called like :func:`olkit.batch.loo_error` but trains once on the whole sample and tests on
    it (the training error).  Broken: Section 6.3's check of step 1 of Lemma 4.1 (the estimator is
    the average of the retrain-without-i terms) fails; in the proof it is step 2 that no longer
    holds (z_i is not independent of the hypothesis it tests).  The training error is optimistic."""
    from fractions import Fraction

    h = train(list(xs), list(ys))
    return Fraction(sum(int(h(x) != y) for x, y in zip(xs, ys)), len(xs))


def enclosing_radius(X) -> float:
    """The radius of the smallest sphere containing the points, for points in the plane whose
    smallest enclosing circle has two of them as a diameter (as in the chapter's instances): half
    the largest distance between two points.  Broken as r in Theorem 7.9: the Perceptron's mistake
    bound needs the radius of the ball centred at the origin, max ||x||."""
    X = np.atleast_2d(np.asarray(X, dtype=float))
    d = np.linalg.norm(X[:, None, :] - X[None, :, :], axis=2)
    return float(d.max()) / 2
