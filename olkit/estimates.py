"""Estimates over independent runs: means and frequencies with confidence intervals, and a count test
for rare events (Chapter 6's checks of statements that hold in expectation or with high probability).

:func:`monte_carlo` repeats a whole experiment over independent seeds; :func:`mean_ci` gives a mean with
a normal confidence interval, :func:`frequency_ci` a failure frequency with a Wilson interval, and
:func:`count_test` compares 0/1 outcomes with their expected count by a Chernoff bound, valid for rare
events (where a normal interval would reject a single late mistake).
"""
from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from .game import int_at_least

__all__ = ["CountTest", "Estimate", "count_test", "frequency_ci", "mean_ci", "monte_carlo"]


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
