"""The expert-advice game: its protocol, trace, losses and loss sequences.

The game (UML Section 21.2; Mohri et al. Section 7.2; Cesa-Bianchi and Lugosi 2006).  For
t = 1, ..., T: the environment may show the advice f_t in R^N of N experts; the learner plays,
either a prediction yhat_t (Weighted Majority: a label; the exponentially weighted average: the
weighted mean of the advice) or a distribution p_t over the experts (randomized algorithms); the
environment reveals the outcome y_t and the loss vector l_t in [0, 1]^N, l_{t,i} = L(f_{t,i}, y_t);
the learner pays L(yhat_t, y_t), or <p_t, l_t> when it plays a distribution (its expected loss:
the environment does not see the learner's coin).  With L_{t,i} = l_{1,i} + ... + l_{t,i}, the
regret after T rounds is

    R_T = sum_t (learner's loss in round t) - min_i L_{T,i}.

The learner is not an :mod:`olkit.game` learner (it plays a distribution and pays a real-valued
loss), so this module has its own small protocol, with the conventions of :class:`olkit.game.Trace`:
:func:`play_experts` records ``learner.state()`` before round 1 and after every update (T + 1
entries) and ``learner.details`` after every prediction (T entries) in an :class:`ExpertTrace`.
A learner has ``predict(f) -> yhat`` (``None`` if it plays a distribution only),
``distribution() -> p`` (randomized learners and the weighted average), ``update(l, loss)``
(``loss``: what it paid this round), ``state()`` and ``details``.

Loss sequences and adversaries: :class:`CoverAdversary`, :func:`two_expert_losses`,
:func:`noisy_experts`, and any loss matrix (:func:`run_experts`).  The learners are in
:mod:`olkit.experts`, the exact two-expert game in :mod:`olkit.minimax`, UML's SOA experts in
:mod:`olkit.soa_experts`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable

import numpy as np

from .game import int_at_least

__all__ = [
    "AdviceSequence",
    "CoverAdversary",
    "ExpertTrace",
    "LossSequence",
    "absolute_loss",
    "noisy_experts",
    "play_experts",
    "run_experts",
    "squared_loss",
    "two_expert_losses",
]


# ---------------------------------------------------------------------------------------------
# Input checks
# ---------------------------------------------------------------------------------------------
def _number(v, name: str) -> float:
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, np.integer, np.floating, Fraction)):
        raise ValueError(f"{name} must be a real number; got {v!r}")
    v = float(v)
    if not math.isfinite(v):
        raise ValueError(f"{name} must be finite; got {v!r}")
    return v


def _eta(eta) -> float:
    e = _number(eta, "eta")
    if e <= 0:
        raise ValueError(f"eta must be > 0; got {eta!r}")
    return e


def _beta(beta, low_open: bool) -> Fraction:
    """beta as an exact Fraction in [0, 1) (or (0, 1) if low_open); a float is taken at its exact binary value."""
    b = _number(beta, "beta")
    if not (0 < b < 1 if low_open else 0 <= b < 1):
        raise ValueError(f"beta must be in {'(0, 1)' if low_open else '[0, 1)'}; got {beta!r}")
    return Fraction(beta) if isinstance(beta, Fraction) else Fraction(b)


def _losses(v, name: str, shape_tail: tuple[int, ...] = (), binary: bool = False) -> np.ndarray:
    """v as a float array (integer arrays keep their dtype) with entries in [0, 1] (or {0, 1}).

    ``shape_tail`` fixes the trailing dimensions (the number of experts)."""
    try:
        a = np.asarray(v)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a numeric array; got {type(v).__name__}") from None
    if a.dtype == bool or not (np.issubdtype(a.dtype, np.integer) or np.issubdtype(a.dtype, np.floating)):
        raise ValueError(f"{name} must be a numeric array of losses; got dtype {a.dtype}")
    if shape_tail and a.shape[a.ndim - len(shape_tail):] != shape_tail:
        raise ValueError(f"{name} must have shape (..., {', '.join(map(str, shape_tail))}) (one entry per expert); "
                         f"got shape {a.shape}")
    if a.size:
        if np.issubdtype(a.dtype, np.floating) and np.isnan(a).any():
            raise ValueError(f"{name} must not contain NaN")
        lo, hi = a.min(), a.max()
        if lo < 0 or hi > 1:
            raise ValueError(f"{name} must lie in [0, 1]; got values from {lo} to {hi}")
        if binary and not ((a == 0) | (a == 1)).all():
            raise ValueError(f"{name} must be 0/1 losses for this learner; got other values in [0, 1]")
    return a if np.issubdtype(a.dtype, np.integer) else a.astype(float, copy=False)


def _n_experts(N) -> int:
    return int_at_least(N, "N (the number of experts)", 1)


# ---------------------------------------------------------------------------------------------
# Losses
# ---------------------------------------------------------------------------------------------
def absolute_loss(yhat, y):
    """|yhat - y|: convex in yhat, in [0, 1] for yhat, y in [0, 1] (the 0/1 loss on labels)."""
    return np.abs(np.asarray(yhat, dtype=float) - np.asarray(y, dtype=float))


def squared_loss(yhat, y):
    """(yhat - y)^2: convex in yhat, in [0, 1] for yhat, y in [0, 1]."""
    return (np.asarray(yhat, dtype=float) - np.asarray(y, dtype=float)) ** 2


# ---------------------------------------------------------------------------------------------
# The trace and the protocol
# ---------------------------------------------------------------------------------------------
@dataclass
class ExpertTrace:
    """What happened in one expert game; arrays indexed by round (entry t is round t + 1).

    ``losses`` (T, N) are the experts' losses l_{t,i}, ``loss`` (T,) the learner's; ``advice``,
    ``y`` and ``yhat`` are set when the experts gave advice.  ``state`` has T + 1 entries per key
    (before round 1 and after each round), ``details`` T.  The cumulative quantities below are
    computed from ``losses`` and ``loss``, not taken from the learner.
    """

    losses: np.ndarray | None
    loss: np.ndarray
    advice: np.ndarray | None = None
    y: np.ndarray | None = None
    yhat: np.ndarray | None = None
    state: dict[str, np.ndarray] = field(default_factory=dict)
    details: dict[str, np.ndarray] = field(default_factory=dict)

    @property
    def T(self) -> int:
        return len(self.loss)

    @property
    def N(self) -> int:
        if self.losses is None:
            return len(self.state["L_final"])
        return int(self.losses.shape[1])

    @property
    def rounds(self) -> np.ndarray:
        return np.arange(1, self.T + 1)

    @property
    def cum_loss(self) -> np.ndarray:
        """The learner's cumulative loss Lhat_t, t = 0..T (T + 1 entries, Lhat_0 = 0)."""
        return np.concatenate([[0.0], np.cumsum(self.loss)])

    @property
    def expert_cum(self) -> np.ndarray:
        """L_{t,i}, t = 0..T: each expert's cumulative loss, shape (T + 1, N)."""
        if self.losses is None:
            raise ValueError("this trace did not keep the loss matrix (record=False)")
        return np.concatenate([np.zeros((1, self.N)), np.cumsum(self.losses, axis=0, dtype=float)])

    @property
    def best(self) -> np.ndarray:
        """min_i L_{t,i}, t = 0..T: the best expert's cumulative loss in hindsight after t rounds."""
        if self.losses is None:
            return np.asarray(self.state["Lmin"], dtype=float)
        return self.expert_cum.min(axis=1)

    @property
    def regret(self) -> np.ndarray:
        """R_t = Lhat_t - min_i L_{t,i}, t = 0..T."""
        return self.cum_loss - self.best

    @property
    def R(self) -> float:
        """The regret after all T rounds."""
        return float(self.regret[-1])

    @property
    def mistake(self) -> np.ndarray:
        """1[yhat_t != y_t] for learners that predict labels."""
        if self.yhat is None or self.y is None:
            raise ValueError("mistakes need predictions and outcomes (a game with advice)")
        return self.yhat != self.y


class LossSequence:
    """An oblivious environment: the full loss matrix l (T, N) is fixed in advance; no advice."""

    def __init__(self, losses):
        self.losses = _losses(losses, "losses")
        if self.losses.ndim != 2:
            raise ValueError(f"losses must be a (T, N) matrix; got shape {self.losses.shape}")

    def advice(self, t: int):
        return None

    def outcome(self, t: int, yhat, p):
        return None, self.losses[t - 1]


class AdviceSequence:
    """An oblivious environment with advice: f (T, N) and outcomes y (T,) fixed in advance;
    l_{t,i} = loss(f_{t,i}, y_t)."""

    def __init__(self, advice, y, loss: Callable = absolute_loss):
        F = _losses(advice, "advice")
        Y = _losses(y, "y")
        if F.ndim != 2 or Y.shape != (F.shape[0],):
            raise ValueError(f"advice must be (T, N) and y (T,); got shapes {np.shape(advice)} and {np.shape(y)}")
        self.F, self.Y, self.loss = F, Y, loss

    def advice(self, t: int):
        return self.F[t - 1]

    def outcome(self, t: int, yhat, p):
        y = self.Y[t - 1]
        return y, self.loss(self.F[t - 1], y)


class CoverAdversary:
    """Cover's impossibility (UML Section 21.2; Mohri et al., "Drawback of deterministic algorithms").

    Two constant experts advise 0 and 1 every round, and the outcome is the opposite of the
    learner's prediction, y_t = 1 - yhat_t: a deterministic learner errs on every round while the
    better constant expert errs on at most T/2 of them, so R_T >= T/2.  The learner must predict
    a label in {0, 1}.
    """

    loss = staticmethod(absolute_loss)

    def advice(self, t: int):
        return np.array([0.0, 1.0])

    def outcome(self, t: int, yhat, p):
        if yhat is None or yhat not in (0, 1):
            raise ValueError(f"round {t}: Cover's adversary needs a deterministic prediction in {{0, 1}}; got {yhat!r}")
        y = 1 - int(yhat)
        return y, np.array([float(y != 0), float(y != 1)])


class _Recorder:
    def __init__(self, learner):
        self.learner = learner
        self.states: list[dict] = []
        self.details: list[dict] = []
        self.cols: dict[str, list] = {"losses": [], "loss": [], "advice": [], "y": [], "yhat": []}
        self.snapshot()

    def snapshot(self) -> None:
        if hasattr(self.learner, "state"):
            self.states.append(dict(self.learner.state()))

    def round(self, adversary, t: int, N: int | None) -> int:
        f = adversary.advice(t)
        if f is not None:
            f = _losses(f, f"round {t}: advice", (N,) if N else ())
        yhat = self.learner.predict(f)
        p = self.learner.distribution() if hasattr(self.learner, "distribution") else None
        if hasattr(self.learner, "details"):
            self.details.append(dict(self.learner.details))
        y, ell = adversary.outcome(t, yhat, p)
        ell = _losses(ell, f"round {t}: losses", (len(f),) if f is not None else ((N,) if N else ()))
        if yhat is not None:
            own = float(adversary.loss(yhat, y))
        elif hasattr(self.learner, "mixture_loss"):
            own = self.learner.mixture_loss(ell)
        elif p is not None:
            own = float((p * ell).sum())
        else:
            raise ValueError(f"round {t}: the learner neither predicted nor played a distribution")
        self.learner.update(ell, own)
        for key, val in (("losses", ell), ("loss", own), ("advice", f), ("y", y), ("yhat", yhat)):
            self.cols[key].append(val)
        self.snapshot()
        return len(ell)

    def trace(self) -> ExpertTrace:
        def stack(rows: list[dict]) -> dict[str, np.ndarray]:
            keys = rows[0].keys() if rows else []
            return {k: np.array([r[k] for r in rows]) for k in keys}

        c = self.cols
        opt = lambda key: None if not c[key] or c[key][0] is None else np.array(c[key])  # noqa: E731
        losses = np.array(c["losses"], dtype=float) if c["losses"] else None
        return ExpertTrace(losses=losses, loss=np.array(c["loss"], dtype=float), advice=opt("advice"), y=opt("y"),
                           yhat=opt("yhat"), state=stack(self.states), details=stack(self.details))


def play_experts(learner, adversary, T: int) -> ExpertTrace:
    """Play ``T`` rounds of the expert game against ``adversary`` and return the trace.

    The adversary has ``advice(t)`` (the experts' advice f_t, or ``None``), ``outcome(t, yhat, p)``
    returning (y_t, l_t) after it has seen the learner's prediction and distribution (not its coin),
    and ``loss`` (the learner's loss L(yhat_t, y_t) when it predicts).
    """
    T = int_at_least(T, "T", 0)
    rec = _Recorder(learner)
    N = getattr(learner, "N", None)
    for t in range(1, T + 1):
        rec.round(adversary, t, N)
    tr = rec.trace()
    if tr.losses is None:
        tr.losses = np.zeros((0, N or 0))
    return tr


def run_experts(learner, losses=None, *, advice=None, y=None, loss: Callable = absolute_loss) -> ExpertTrace:
    """Play an oblivious sequence: the loss matrix ``losses`` (T, N), or the ``advice`` (T, N)
    with outcomes ``y`` (T,) and a ``loss`` convex in its first argument, with values in [0, 1]."""
    if (losses is None) == (advice is None):
        raise ValueError("give either losses (T, N) or advice (T, N) with y (T,)")
    if losses is not None:
        env = LossSequence(losses)
        return play_experts(learner, env, env.losses.shape[0])
    if y is None:
        raise ValueError("advice needs the outcomes y (T,)")
    env = AdviceSequence(advice, y, loss)
    return play_experts(learner, env, env.F.shape[0])


# ---------------------------------------------------------------------------------------------
# Loss sequences
# ---------------------------------------------------------------------------------------------
def two_expert_losses(T: int, rng: np.random.Generator) -> np.ndarray:
    """The random losses of Mohri et al. Theorem 7.5: each round l_t = (1, 0) or (0, 1) with probability 1/2."""
    T = int_at_least(T, "T", 0)
    if not isinstance(rng, np.random.Generator):
        raise ValueError("rng must be a seeded np.random.default_rng(seed)")
    s = rng.integers(0, 2, size=T)
    return np.stack([s, 1 - s], axis=1).astype(float)


def noisy_experts(T: int, N: int, rng: np.random.Generator, *, error: float, noise: float):
    """Binary advice around a good expert: labels y_t uniform in {0, 1}; expert 0 errs independently
    with probability ``error``; every other expert copies expert 0's advice and flips it independently
    with probability ``noise``.  Returns (advice (T, N) ints, y (T,) ints)."""
    T, N = int_at_least(T, "T", 0), _n_experts(N)
    if not isinstance(rng, np.random.Generator):
        raise ValueError("rng must be a seeded np.random.default_rng(seed)")
    for name, v in (("error", error), ("noise", noise)):
        if not 0 <= _number(v, name) <= 1:
            raise ValueError(f"{name} must be a probability in [0, 1]; got {v!r}")
    y = rng.integers(0, 2, size=T)
    good = y ^ (rng.random(T) < error)
    flips = rng.random((T, N)) < noise
    flips[:, 0] = False
    return (good[:, None] ^ flips).astype(np.int64), y.astype(np.int64)
