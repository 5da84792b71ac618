"""Prediction with expert advice: Weighted Majority, its randomized version, exponential weights.

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

Learners (each records what its proof needs: cumulative losses ``L``, weights or their exponents,
the potential ``logW`` / ``Phi`` = ln sum_i w_{t,i}, the distribution ``p``):

* :class:`WeightedMajority` (Littlestone and Warmuth 1994; Mohri et al. Thm 7.3), deterministic;
  beta = 0 is the Halving of Mohri et al. (which updates on mistakes only).  It decides exactly.
* :class:`RandomizedWeightedMajority` (Mohri et al. Thm 7.4), losses in {0, 1}.
* :class:`Hedge` (the exponentially weighted average forecaster, Mohri et al. Thm 7.6; Freund and
  Schapire 1997) for a loss convex in its first argument with values in [0, 1]; with
  ``eta = uml_eta(d, T)`` it is UML's Weighted-Majority (Thm 21.11).  :func:`hedge` computes a whole
  run at once from the cumulative losses (no loop over rounds); it equals the round-by-round
  learner exactly.  :class:`AnytimeHedge`: eta_t = sqrt(8 ln N / t) (Cesa-Bianchi and Lugosi Thm 2.3).
* :class:`Doubling` wraps any learner that needs the horizon T (Mohri et al. Thm 7.7).
* :class:`FollowTheLeader` and :class:`MinimaxLearner` (the two-expert game of :class:`TwoExpertMinimax`).

Weights are kept in log space (as cumulative losses, shifted by the leader's), so nothing
underflows however long the run; the results equal those of the plain definitions.  Loss
sequences and adversaries: :class:`CoverAdversary`, :func:`two_expert_losses`,
:func:`noisy_experts`, and any loss matrix (:func:`run_experts`).  UML's SOA experts
(Section 21.2): :func:`soa_experts`, :func:`soa_expert_predictions`, :func:`soa_mistake_rounds`.
"""
from __future__ import annotations

import math
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable

import numpy as np

from . import fp
from .game import int_at_least

__all__ = [
    "AdviceSequence",
    "AnytimeHedge",
    "CoverAdversary",
    "Doubling",
    "ExpertTrace",
    "FollowTheLeader",
    "Hedge",
    "LossSequence",
    "MinimaxLearner",
    "RandomizedWeightedMajority",
    "TwoExpertMinimax",
    "WeightedMajority",
    "absolute_loss",
    "anytime_bound",
    "doubling_bound",
    "ewa_bound",
    "ewa_eta",
    "hedge",
    "noisy_experts",
    "play_experts",
    "run_experts",
    "rwm_beta0",
    "rwm_bound",
    "soa_expert_count",
    "soa_expert_count_bound",
    "soa_expert_predictions",
    "soa_experts",
    "soa_mistake_rounds",
    "squared_loss",
    "two_expert_expected_regret",
    "two_expert_losses",
    "uml_bound",
    "uml_eta",
    "wm_bound",
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
# Weighted Majority (deterministic)
# ---------------------------------------------------------------------------------------------
class WeightedMajority:
    """Weighted Majority (Littlestone and Warmuth 1994; Mohri et al. Theorem 7.3), deterministic.

    Every expert starts with weight 1; the prediction is 1 when the experts advising 1 carry at
    least half of the weight W_t = sum_i w_{t,i} (a tie predicts 1, as in Mohri et al.), else 0;
    *after a mistake*, and only then, the weight of every expert that erred is multiplied by
    ``beta`` in [0, 1).  So w_{t,i} = beta^{k_{t,i}}, where k_{t,i} counts the mistakes of expert
    i on the rounds where the learner erred; ``state()`` records ``k``, the cumulative losses
    ``L`` and ``logW`` = ln W_t, and ``details`` the weighted votes ``vote1``, ``vote0`` and
    ``tie`` (the votes are equal, in exact arithmetic).

    The vote is decided exactly: beta is taken as the exact rational value of the number given
    (a float is a dyadic rational), the floating-point vote decides when it is clear (its error is
    below N * 2^-52 of W_t, far under ``olkit.fp.TIE_RTOL``), and a vote within that tolerance of
    a tie is recomputed in Fractions.  beta = 0 is Halving in the version of Mohri et al., which
    removes the erring experts after a mistake only.  Advice must be 0/1 and the outcome a label.
    """

    def __init__(self, N: int, beta):
        self.N = _n_experts(N)
        self.beta = _beta(beta, low_open=False)
        self._b = float(self.beta)
        self.k = np.zeros(self.N, dtype=np.int64)
        self.L = np.zeros(self.N)
        self.t = 1
        self.details: dict = {}

    def _scaled(self) -> tuple[np.ndarray, int]:
        """Weights divided by beta^{k_min} (beta > 0; the largest is 1) and k_min; beta = 0: the weights."""
        if self._b == 0:
            return (self.k == 0).astype(float), 0
        kmin = int(self.k.min())
        return np.power(self._b, (self.k - kmin).astype(float)), kmin

    def _exact_sign(self, f: np.ndarray) -> int:
        """The sign of sum_i (2 f_i - 1) beta^{k_i}, in exact arithmetic."""
        ks, inv = np.unique(self.k, return_inverse=True)
        c = np.bincount(inv, weights=2 * f - 1, minlength=len(ks))
        s = sum((int(ci) * self.beta ** int(k) for ci, k in zip(c, ks) if ci), Fraction(0))
        return (s > 0) - (s < 0)

    def predict(self, f) -> int:
        if f is None:
            raise ValueError(f"round {self.t}: Weighted Majority needs the experts' advice")
        f = _losses(f, "advice", (self.N,), binary=True).astype(float)
        w, kmin = self._scaled()
        s = fp.dot(w, 2 * f - 1)
        sgn = fp.sign(s, w.sum())
        if sgn == 0:
            sgn = self._exact_sign(f)
        scale = self._b ** kmin
        self.details = {"vote1": float(w @ f) * scale, "vote0": float(w @ (1 - f)) * scale, "tie": sgn == 0}
        return 1 if sgn >= 0 else 0

    def update(self, ell, loss) -> None:
        ell = _losses(ell, "losses", (self.N,), binary=True)
        if loss:
            self.k += ell.astype(np.int64)
        self.L = self.L + ell
        self.t += 1

    def logW(self) -> float:
        w, kmin = self._scaled()
        total = float(w.sum())
        if total == 0:
            return -math.inf
        return (kmin * math.log(self._b) if kmin else 0.0) + math.log(total)

    def state(self) -> dict:
        return {"k": self.k.copy(), "L": self.L.copy(), "logW": self.logW()}


# ---------------------------------------------------------------------------------------------
# Exponential weights: Hedge / EWA, RWM, anytime, and the vectorized run
# ---------------------------------------------------------------------------------------------
def _weights(Lrows: np.ndarray, eta, table: np.ndarray | None = None, work: dict | None = None):
    """For each row of cumulative losses (rows x N): the shifted weights E = exp(-eta (L - min L)),
    their sum Z, Phi = ln sum_i exp(-eta L_i) = -eta min L + ln Z, and min L; then p = E / Z.

    The shift by the leader's loss keeps the largest weight at exactly 1, so nothing under- or
    overflows.  ``eta`` is a number or one rate per row.  ``table[k] = exp(-eta k)`` replaces the
    exponential for integer losses (the same numbers: exp of the same arguments).  One code path for
    the round-by-round learner (one row) and the vectorized run (many rows), so the two agree exactly.
    ``work`` holds preallocated arrays ("D", "E") for the vectorized run: reusing them avoids the
    page faults of allocating megabytes per block (the results are the same).
    """
    m = Lrows.min(axis=1)
    B = len(Lrows)
    D = Lrows - m[:, None] if work is None else np.subtract(Lrows, m[:, None], out=work["D"][:B])
    e = np.asarray(eta, dtype=float).reshape(-1, 1)
    if table is not None:
        E = np.take(table, D.astype(np.intp, copy=False), mode="clip", out=None if work is None else work["E"][:B])
    else:
        E = np.exp(-e * D)
    Z = E.sum(axis=1)
    return E, Z, -e[:, 0] * m + np.log(Z), m


def _mixture(E: np.ndarray, Z: np.ndarray, ell: np.ndarray, work: dict | None = None) -> np.ndarray:
    """<p_t, l_t> = sum_i E_{t,i} l_{t,i} / Z_t for each row (the same operations for one row or many)."""
    prod = E * ell if work is None else np.multiply(E, ell, out=work["M"][:len(E)])
    return prod.sum(axis=1) / Z


class Hedge:
    """The exponentially weighted average forecaster (Mohri et al. Theorem 7.6), a.k.a. Hedge
    (Freund and Schapire 1997); with ``eta = uml_eta(d, T)`` it is UML's Weighted-Majority (Thm 21.11).

    w_{t,i} = exp(-eta L_{t-1,i}) for the cumulative losses L_{t-1,i} of the rounds before t, and
    p_t = w_t / W_t.  With advice f_t in [0, 1]^N, :meth:`predict` returns the weighted average
    yhat_t = <p_t, f_t> (the learner then pays L(yhat_t, y_t) <= <p_t, l_t> for a convex loss);
    without advice it returns ``None`` and the learner pays <p_t, l_t>.  ``state()`` records the
    cumulative losses ``L`` and the potential ``Phi`` = ln W_t (Mohri's Phi_t; UML's log Z_t), in
    log space; ``details`` the distribution ``p`` and the rate ``eta``.  No decision is taken on
    a float.
    """

    def __init__(self, N: int, eta):
        self.N = _n_experts(N)
        self.eta = _eta(eta)
        self.L = np.zeros(self.N)
        self.t = 1
        self.details: dict = {}
        self._p: np.ndarray | None = None

    def _rate(self, t: int) -> float:
        return self.eta

    def distribution(self) -> np.ndarray:
        if self._p is None:
            self._E, self._Z, _, _ = _weights(self.L[None, :], self._rate(self.t))
            self._p = (self._E / self._Z[:, None])[0]
        return self._p

    def mixture_loss(self, ell) -> float:
        """The learner's expected loss <p_t, l_t> this round (computed as :func:`hedge` does)."""
        self.distribution()
        ell = _losses(ell, "losses", (self.N,))
        return float(_mixture(self._E, self._Z, ell[None, :])[0])

    def predict(self, f=None):
        p = self.distribution()
        self.details = {"p": p, "eta": self._rate(self.t)}
        if f is None:
            return None
        f = _losses(f, "advice", (self.N,))
        return float((p * f).sum())

    def update(self, ell, loss=None) -> None:
        ell = _losses(ell, "losses", (self.N,))
        self.L = self.L + ell
        self.t += 1
        self._p = None

    def state(self) -> dict:
        _, _, Phi, _ = _weights(self.L[None, :], self._rate(self.t))
        return {"L": self.L.copy(), "Phi": float(Phi[0])}


class AnytimeHedge(Hedge):
    """Hedge with the time-varying rate eta_t = sqrt(8 ln N / t), which needs no horizon
    (Cesa-Bianchi and Lugosi 2006, Theorem 2.3: R_T <= 2 sqrt((T/2) ln N) + sqrt(ln N / 8)).

    Round t uses w_{t,i} = exp(-eta_t L_{t-1,i}); the ``Phi`` recorded before round t uses eta_t.
    """

    def __init__(self, N: int):
        N = _n_experts(N)
        if N < 2:
            raise ValueError(f"N must be >= 2 for eta_t = sqrt(8 ln N / t) > 0; got {N}")
        super().__init__(N, math.sqrt(8 * math.log(N)))

    def _rate(self, t: int) -> float:
        return math.sqrt(8 * math.log(self.N) / t)


class RandomizedWeightedMajority(Hedge):
    """Randomized Weighted Majority (Mohri et al. Theorem 7.4), for losses in {0, 1}.

    w_{t,i} = beta^{L_{t-1,i}}: every expert that loses is multiplied by ``beta`` in (0, 1) on every
    round; the learner draws an expert from p_t = w_t / W_t and pays <p_t, l_t> in expectation.
    It is Hedge with eta = ln(1/beta); ``Phi`` is ln W_t.  It plays a distribution only
    (:meth:`predict` returns ``None``).
    """

    def __init__(self, N: int, beta):
        b = _beta(beta, low_open=True)
        super().__init__(N, -math.log(float(b)))
        self.beta = float(b)

    def predict(self, f=None):
        super().predict(None)
        return None

    def update(self, ell, loss=None) -> None:
        super().update(_losses(ell, "losses", (self.N,), binary=True), loss)


def hedge(losses, eta, *, record: bool = True, threads: int = 1, block: int = 16) -> ExpertTrace:
    """A whole run of :class:`Hedge` (fixed ``eta``) or of a rate schedule (``eta``: one rate per
    round, e.g. the anytime rates) on the loss matrix ``losses`` (T, N), computed without a
    Python loop over the experts or the weights.

    With a fixed rate the weights depend only on the cumulative losses, w_{t,i} = exp(-eta L_{t-1,i}),
    so a block of rounds is one cumulative sum and one shifted log-sum-exp.  The result equals the
    round-by-round learner exactly (same cumulative sums, added in the same order, and the same
    row operations); ``tests/test_experts.py`` checks it.  For integer losses the exponentials come
    from a table of exp(-eta k), k = 0..T (the same numbers).

    A schedule gives the rate of each round (``T`` rates; a (T + 1)-th is the rate of the last
    recorded potential, ``Phi_{T+1}``, which otherwise uses the T-th).  ``record=False`` keeps only per-round scalars (``loss``, ``Phi``, ``Lmin`` and the final
    cumulative losses ``state["L_final"]``), for runs whose (T, N) matrices would not fit in memory.
    ``threads`` > 1 splits the rounds into blocks computed in parallel; it needs integer losses
    (their cumulative sums are exact in any order, so the result is the same).
    """
    ell = _losses(losses, "losses")
    if ell.ndim != 2:
        raise ValueError(f"losses must be a (T, N) matrix; got shape {ell.shape}")
    T, N = ell.shape
    if np.ndim(eta) == 0:
        rate = _eta(eta)
        rates = None
    else:
        rates = np.asarray(eta, dtype=float)
        if rates.shape not in ((T,), (T + 1,)) or not np.isfinite(rates).all() or (rates <= 0).any():
            raise ValueError(f"eta must be a positive number, or T = {T} (or T + 1) positive finite rates; "
                             f"got shape {rates.shape}")
        rate = None
    threads = int_at_least(threads, "threads", 1)
    block = int_at_least(block, "block", 1)
    integer = np.issubdtype(ell.dtype, np.integer)
    if threads > 1 and not integer:
        raise ValueError("threads > 1 needs integer losses (exact cumulative sums in any order)")
    table = np.exp(-rate * np.arange(T + 1, dtype=float)) if (integer and rates is None) else None
    dtype = np.int64 if integer else float
    starts = list(range(0, T, block))
    # cumulative losses before each block: sequential (the order of the round-by-round learner)
    if threads > 1:
        sums = [ell[s:s + block].sum(axis=0, dtype=np.int64) for s in starts]
        carries = [np.zeros(N, dtype=np.int64)]
        for s in sums[:-1]:
            carries.append(carries[-1] + s)
    else:
        carries = None

    workspaces = threading.local()

    def run_block(k: int, carry: np.ndarray):
        # one workspace per thread, reused for every block (allocating megabytes per block costs page faults)
        if not hasattr(workspaces, "w"):
            workspaces.w = {"rows": np.empty((block + 1, N), dtype=dtype), "D": np.empty((block, N), dtype=dtype),
                            "E": np.empty((block, N)), "M": np.empty((block, N))}
        w = workspaces.w
        s = starts[k]
        lb = ell[s:s + block]
        B = len(lb)
        rows = w["rows"][:B + 1]
        rows[0] = carry
        for r in range(B):
            np.add(rows[r], lb[r], out=rows[r + 1])
        r_eta = rate if rates is None else rates[s:s + B]
        E, Z, Phi, m = _weights(rows[:-1], r_eta, table, w if table is not None else None)
        loss = _mixture(E, Z, lb, w)
        last = rows[-1].copy()
        if record:
            return rows[:-1].copy(), E / Z[:, None], Phi, loss, last
        return m, None, Phi, loss, last  # keep O(B) numbers per block, not O(B N)

    out = [None] * len(starts)
    if carries is None:
        carry = np.zeros(N, dtype=dtype)
        for k in range(len(starts)):
            out[k] = run_block(k, carry)
            carry = out[k][4]
    else:
        with ThreadPoolExecutor(threads) as ex:
            out = list(ex.map(run_block, range(len(starts)), carries))
    L_last = out[-1][4] if out else np.zeros(N, dtype=dtype)
    last_eta = rate if rates is None else rates[-1] if len(rates) else 1.0
    _, _, Phi_last, _ = _weights(np.asarray(L_last, dtype=float)[None, :], last_eta,
                           table if rates is None else None)
    loss = np.concatenate([o[3] for o in out]) if out else np.zeros(0)
    Phi = np.concatenate([o[2] for o in out] + [Phi_last])
    eta_rounds = np.full(T, rate) if rates is None else rates[:T]
    if record:
        Lall = np.concatenate([o[0] for o in out] + [np.asarray(L_last)[None, :]]).astype(float)
        P = np.concatenate([o[1] for o in out]) if out else np.zeros((0, N))
        state = {"L": Lall, "Phi": Phi}
        return ExpertTrace(losses=ell.astype(float, copy=False), loss=loss, state=state,
                           details={"p": P, "eta": eta_rounds})
    Lmin = np.concatenate([o[0] for o in out] + [[np.min(L_last)]]).astype(float)
    state = {"Phi": Phi, "Lmin": Lmin, "L_final": np.asarray(L_last, dtype=float)}
    return ExpertTrace(losses=None, loss=loss, state=state, details={"eta": eta_rounds})


class FollowTheLeader:
    """Follow the leader: predict the advice of the expert with the smallest cumulative loss so far
    (the first one on a tie, by ``olkit.fp.first_min``).  Deterministic, so Cover's adversary
    forces R_T >= T/2 on it."""

    def __init__(self, N: int):
        self.N = _n_experts(N)
        self.L = np.zeros(self.N)
        self.details: dict = {}

    def predict(self, f):
        if f is None:
            raise ValueError("follow the leader needs the experts' advice")
        f = _losses(f, "advice", (self.N,))
        i = fp.first_min(self.L)
        self.details = {"leader": i}
        return int(f[i]) if float(f[i]).is_integer() else float(f[i])

    def update(self, ell, loss=None) -> None:
        self.L = self.L + _losses(ell, "losses", (self.N,))

    def state(self) -> dict:
        return {"L": self.L.copy()}


class Doubling:
    """The doubling trick (Mohri et al. Theorem 7.7; the notes' geometric sum) around any learner
    that needs the horizon: period k = 0, 1, 2, ... covers the rounds 2^k, ..., 2^{k+1} - 1 and is
    played by a fresh ``make(2^k)`` (weights reset), as if the game had 2^k rounds.

    ``details`` adds the ``period`` k and its ``horizon`` 2^k to the inner learner's details;
    ``state()`` records the experts' cumulative losses ``L`` over the whole game.
    """

    def __init__(self, N: int, make: Callable[[int], object]):
        self.N = _n_experts(N)
        if not callable(make):
            raise ValueError("make must be a callable horizon -> learner")
        self.make = make
        self.t = 1
        self.k = 0
        self.inner = make(1)  # period 0: round 1
        self.L = np.zeros(self.N)
        self.details: dict = {}

    def _enter(self) -> None:
        k = self.t.bit_length() - 1  # the period of round t: 2^k <= t < 2^{k+1}
        if k != self.k:
            self.k, self.inner = k, self.make(2**k)

    def distribution(self):
        self._enter()
        return self.inner.distribution() if hasattr(self.inner, "distribution") else None

    def predict(self, f=None):
        self._enter()
        yhat = self.inner.predict(f)
        self.details = dict(getattr(self.inner, "details", {}))
        self.details.update(period=self.k, horizon=2**self.k)
        return yhat

    def update(self, ell, loss=None) -> None:
        self._enter()
        ell = _losses(ell, "losses", (self.N,))
        self.inner.update(ell, loss)
        self.L = self.L + ell
        self.t += 1

    def state(self) -> dict:
        return {"L": self.L.copy()}


# ---------------------------------------------------------------------------------------------
# Bounds and tuned parameters (one function per theorem)
# ---------------------------------------------------------------------------------------------
def wm_bound(N: int, m_star, beta) -> float:
    """(ln N + m* ln(1/beta)) / ln(2/(1+beta)): Mohri et al. Theorem 7.3 (beta in (0, 1));
    for beta = 0 (Halving, m* = 0) it is log2 N."""
    N = _n_experts(N)
    b = float(_beta(beta, low_open=False))
    m = _number(m_star, "m_star")
    if b == 0:
        if m != 0:
            return math.inf
        return math.log(N) / math.log(2)
    return (math.log(N) - m * math.log(b)) / math.log(2 / (1 + b))


def rwm_bound(N: int, L_min, beta) -> float:
    """ln N / (1 - beta) + (2 - beta) L_min: Mohri et al. Theorem 7.4 (beta in [1/2, 1))."""
    N = _n_experts(N)
    b = float(_beta(beta, low_open=True))
    return math.log(N) / (1 - b) + (2 - b) * _number(L_min, "L_min")


def rwm_beta0(N: int, T: int) -> float:
    """beta_0 = max(1/2, 1 - sqrt(ln N / T)), the choice of Mohri et al. Theorem 7.4."""
    N, T = _n_experts(N), int_at_least(T, "T", 1)
    if N < 2:
        raise ValueError(f"N must be >= 2 for beta_0 < 1; got {N}")
    return max(0.5, 1 - math.sqrt(math.log(N) / T))


def ewa_eta(N: int, T: int) -> float:
    """sqrt(8 ln N / T), the rate that minimizes ln N / eta + eta T / 8 (Mohri et al. Theorem 7.6)."""
    N, T = _n_experts(N), int_at_least(T, "T", 1)
    if N < 2:
        raise ValueError(f"N must be >= 2 for a positive rate; got {N}")
    return math.sqrt(8 * math.log(N) / T)


def ewa_bound(N: int, T: int, eta=None) -> float:
    """ln N / eta + eta T / 8 (Mohri et al. Theorem 7.6); with ``eta=None`` the tuned value sqrt((T/2) ln N)."""
    N, T = _n_experts(N), int_at_least(T, "T", 0)
    if eta is None:
        return math.sqrt(T / 2 * math.log(N))
    e = _eta(eta)
    return math.log(N) / e + e * T / 8


def uml_eta(d: int, T: int) -> float:
    """sqrt(2 log(d) / T), the rate of UML's Weighted-Majority (Theorem 21.11)."""
    d, T = _n_experts(d), int_at_least(T, "T", 1)
    if d < 2:
        raise ValueError(f"d must be >= 2 for a positive rate; got {d}")
    return math.sqrt(2 * math.log(d) / T)


def uml_bound(d: int, T: int) -> float:
    """sqrt(2 log(d) T): the regret bound of UML Theorem 21.11 (and Corollary 21.12 with d = |H|)."""
    d, T = _n_experts(d), int_at_least(T, "T", 0)
    return math.sqrt(2 * math.log(d) * T)


def doubling_bound(N: int, T: int) -> float:
    """sqrt(2)/(sqrt(2) - 1) sqrt((T/2) ln N) - 1/(sqrt(2) - 1) sqrt((ln N)/2): Mohri et al. Theorem 7.7."""
    N, T = _n_experts(N), int_at_least(T, "T", 1)
    r2 = math.sqrt(2)
    return r2 / (r2 - 1) * math.sqrt(T / 2 * math.log(N)) - 1 / (r2 - 1) * math.sqrt(math.log(N) / 2)


def anytime_bound(N: int, T: int) -> float:
    """2 sqrt((T/2) ln N) + sqrt((ln N)/8): Cesa-Bianchi and Lugosi (2006) Theorem 2.3, for eta_t = sqrt(8 ln N / t)."""
    N, T = _n_experts(N), int_at_least(T, "T", 0)
    return 2 * math.sqrt(T / 2 * math.log(N)) + math.sqrt(math.log(N) / 8)


def two_expert_expected_regret(T: int) -> Fraction:
    """E|S_T| / 2 for a simple random walk S_T, exactly: the expected regret of *every* learner against
    the random losses of Mohri et al. Theorem 7.5, and (Cover 1965) the minimax regret of the game."""
    T = int_at_least(T, "T", 0)
    total = sum(abs(2 * k - T) * math.comb(T, k) for k in range(T + 1))
    return Fraction(total) / 2 ** (T + 1)


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


# ---------------------------------------------------------------------------------------------
# The exact minimax regret of the two-expert game
# ---------------------------------------------------------------------------------------------
class TwoExpertMinimax:
    """The minimax regret of the game with two experts and losses in {0, 1}^2, by backward induction
    in exact arithmetic (Fractions).

    The learner plays p (its weight on expert 1), the adversary then a loss vector in
    {(0,0), (1,1), (1,0), (0,1)} (it sees p, not the coin), and the regret is
    sum_t <p_t, l_t> - min(L_{T,1}, L_{T,2}).  Writing min(a, b) = (a + b)/2 - |a - b|/2, the regret is
    sum_t (p_t - 1/2) s_t + |d_T| / 2 with s_t = l_{t,1} - l_{t,2} and d_T = L_{T,1} - L_{T,2}, so
    the value with r rounds to go depends on the lead d only:

        V_0(d) = |d| / 2,   V_r(d) = min_{p in [0,1]} max_{l} [(p - 1/2) s(l) + V_{r-1}(d + s(l))].

    The max over l is the larger of a flat line (s = 0: V_{r-1}(d)) and two lines of slope +1 and
    -1 in p; the min over p of the two sloped lines is where they cross (clipped to [0, 1]).
    All numbers are dyadic rationals, kept exactly as integers over 2^(T_max + 1); the
    results are returned as Fractions.
    ``value(T)`` is V_T(0); ``p(r, d)`` the minimax weight on expert 1 with r rounds to go and lead
    d, the crossing point (so the strategy equalizes the two informative loss vectors).
    """

    def __init__(self, T_max: int):
        self.T_max = n = int_at_least(T_max, "T_max", 0)
        # every value and weight is a dyadic rational with denominator dividing 2^(T_max + 1): work with
        # integer numerators over D = 2^(T_max + 1), which is exact and much faster than Fractions
        D = self.D = 1 << (n + 1)
        half = D >> 1
        V = [[abs(d) * half for d in range(-n, n + 1)]]  # V[r][d + n]; V_0(d) = |d| / 2
        P: list[list[int]] = [[]]
        for r in range(1, n + 1):
            prev, v, p = V[-1], [0] * (2 * n + 1), [0] * (2 * n + 1)
            for d in range(-(n - r), n - r + 1):
                up, down, flat = prev[d + 1 + n], prev[d - 1 + n], prev[d + n]  # l = (1,0): s = +1; (0,1): s = -1
                twice = D + down - up  # 2 x D, where x - 1/2 + up = 1/2 - x + down
                if twice % 2:
                    raise AssertionError("internal error: the crossing point is not a multiple of 2^-(T_max+1)")
                x = min(max(twice // 2, 0), D)
                best = max(x - half + up, half - x + down)
                v[d + n], p[d + n] = max(best, flat), x
            V.append(v)
            P.append(p)
        self._V, self._P = V, P

    def value(self, T: int) -> Fraction:
        T = int_at_least(T, "T", 0)
        if T > self.T_max:
            raise ValueError(f"T must be <= T_max = {self.T_max}; got {T}")
        return Fraction(self._V[T][self.T_max], self.D)

    def V(self, r: int, d: int) -> Fraction:
        """V_r(d): the minimax regret still to come with r rounds to go and lead d = L_1 - L_2 (|d| <= T_max - r),
        counting |d_T| / 2 at the end."""
        r = int_at_least(r, "r", 0)
        if r > self.T_max or abs(d) > self.T_max - r:
            raise ValueError(f"(r, d) = ({r}, {d}) is outside the computed game (T_max = {self.T_max})")
        return Fraction(self._V[r][int(d) + self.T_max], self.D)

    def values(self) -> list[Fraction]:
        """V_T(0) for T = 0, ..., T_max."""
        return [Fraction(v[self.T_max], self.D) for v in self._V]

    def p(self, r: int, d: int) -> Fraction:
        """The minimax weight on expert 1 with r >= 1 rounds to go and lead d = L_1 - L_2."""
        r = int_at_least(r, "r", 1)
        if r > self.T_max or abs(d) > self.T_max - r:
            raise ValueError(f"(r, d) = ({r}, {d}) is outside the computed game (T_max = {self.T_max})")
        return Fraction(self._P[r][int(d) + self.T_max], self.D)


class MinimaxLearner:
    """The minimax strategy of :class:`TwoExpertMinimax` for a game of ``T`` rounds, as a learner
    (plays the distribution (p, 1 - p); losses must be in {0, 1})."""

    def __init__(self, game: TwoExpertMinimax, T: int):
        if not isinstance(game, TwoExpertMinimax):
            raise ValueError("game must be a TwoExpertMinimax")
        self.game, self.T = game, int_at_least(T, "T", 1)
        if self.T > game.T_max:
            raise ValueError(f"T must be <= the game's T_max = {game.T_max}; got {T}")
        self.N = 2
        self.t, self.d = 1, 0
        self.L = np.zeros(2)
        self.details: dict = {}

    def distribution(self) -> np.ndarray:
        q = self.game.p(self.T - self.t + 1, self.d)
        return np.array([float(q), float(1 - q)])

    def predict(self, f=None):
        self.details = {"p1": self.game.p(self.T - self.t + 1, self.d)}
        return None

    def update(self, ell, loss=None) -> None:
        ell = _losses(ell, "losses", (2,), binary=True)
        if self.t > self.T:
            raise ValueError(f"the game has T = {self.T} rounds")
        self.d += int(ell[0]) - int(ell[1])
        self.L = self.L + ell
        self.t += 1

    def state(self) -> dict:
        return {"L": self.L.copy(), "d": self.d}


# ---------------------------------------------------------------------------------------------
# UML's experts built from SOA (Section 21.2, Lemma 21.13)
# ---------------------------------------------------------------------------------------------
def _solver(H, solver):
    from .littlestone import LdimSolver

    if solver is None:
        return LdimSolver(H)
    if not isinstance(solver, LdimSolver):
        raise ValueError(f"solver must be an LdimSolver; got {type(solver).__name__}")
    return solver


def _points(xs, n: int) -> list[int]:
    out = []
    for t, x in enumerate(xs, start=1):
        if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, np.integer)) or not 0 <= x < n:
            raise ValueError(f"round {t}: x = {x!r} is not a point of the domain {{0, ..., {n - 1}}}")
        out.append(int(x))
    return out


def _tie(tie) -> int:
    if isinstance(tie, (bool, np.bool_)) or not isinstance(tie, (int, np.integer)) or tie not in (0, 1):
        raise ValueError(f"tie must be 0 or 1; got {tie!r}")
    return int(tie)


def _soa_label(S, V: int, x: int, tie: int) -> tuple[int, int]:
    """SOA's label for x from the version space V (a bitset), and the part V_t(label)."""
    c = S.columns[x]
    V1 = V & c
    V0 = V & ~c
    l0, l1 = S._ldim(V0), S._ldim(V1)
    y = 1 if l1 > l0 else 0 if l0 > l1 else tie
    return y, (V1 if y == 1 else V0)


def soa_expert_predictions(H, xs, indices, tie: int = 1, solver=None) -> np.ndarray:
    """UML's Expert(i_1, ..., i_L) on the instances ``xs``: replay SOA (ties to ``tie``) on its own
    predictions, flipping SOA's label at the rounds ``indices`` (1-based):
    ytilde_t = argmax_r Ldim(V_t(r)), yhat_t = 1 - ytilde_t if t in indices else ytilde_t,
    V_{t+1} = V_t(yhat_t).  UML breaks the tie towards 0; ``tie`` makes it explicit.  An empty
    version space has Ldim -1, so the expert is defined on every sequence."""
    S = _solver(H, solver)
    xs = _points(xs, S.n)
    tie = _tie(tie)
    I = {int(i) for i in indices}
    V = (1 << S.m) - 1
    out = np.empty(len(xs), dtype=np.int64)
    for t, x in enumerate(xs, start=1):
        y, _ = _soa_label(S, V, x, tie)
        y = 1 - y if t in I else y
        c = S.columns[x]
        V = V & c if y == 1 else V & ~c
        out[t - 1] = y
    return out


def soa_mistake_rounds(H, xs, labels, tie: int = 1, solver=None) -> tuple[int, ...]:
    """The rounds (1-based) where SOA (ties to ``tie``) errs on (x_t, labels_t): the indices of
    Lemma 21.13 for the hypothesis that gives ``labels``."""
    S = _solver(H, solver)
    xs = _points(xs, S.n)
    tie = _tie(tie)
    ys = np.asarray(labels)
    if ys.shape != (len(xs),) or not np.isin(ys, (0, 1)).all():
        raise ValueError(f"labels must be {len(xs)} labels in {{0, 1}}; got {labels!r}")
    V = (1 << S.m) - 1
    rounds = []
    for t, (x, y) in enumerate(zip(xs, ys.tolist()), start=1):
        yhat, _ = _soa_label(S, V, x, tie)
        if yhat != y:
            rounds.append(t)
        c = S.columns[x]
        V = V & c if y == 1 else V & ~c
    return tuple(rounds)


def soa_experts(H, xs, max_flips: int | None = None, tie: int = 1, solver=None):
    """All of UML's experts Expert(i_1, ..., i_L), L <= ``max_flips`` (default Ldim(H)), on ``xs``.

    Returns (advice, index_sets): advice (T, d) holds the 0/1 predictions of the d experts, in the
    order of ``index_sets`` (by L, then lexicographically); d = sum_{L <= max_flips} C(T, L).
    The experts share their prefixes: a depth-first walk over the rounds branches on "flip here or
    not", so each (round, version space, flips so far) is computed once.
    """
    S = _solver(H, solver)
    xs = _points(xs, S.n)
    tie = _tie(tie)
    T = len(xs)
    Lmax = S.ldim() if max_flips is None else int_at_least(max_flips, "max_flips", 0)
    found: dict[tuple[int, ...], list[int]] = {}

    def walk(t: int, V: int, I: tuple[int, ...], preds: list[int]) -> None:
        if t > T:
            found[I] = list(preds)
            return
        x = xs[t - 1]
        y, _ = _soa_label(S, V, x, tie)
        c = S.columns[x]
        for flip in ((0, 1) if len(I) < Lmax else (0,)):
            yhat = 1 - y if flip else y
            preds.append(yhat)
            walk(t + 1, V & c if yhat == 1 else V & ~c, I + (t,) if flip else I, preds)
            preds.pop()

    walk(1, (1 << S.m) - 1, (), [])
    index_sets = sorted(found, key=lambda I: (len(I), I))
    advice = np.array([found[I] for I in index_sets], dtype=np.int64).T
    return advice, index_sets


def soa_expert_count(T: int, ldim: int) -> int:
    """sum_{L=0}^{Ldim} C(T, L), the number of experts of UML Section 21.2 (equation 21.4)."""
    T, ldim = int_at_least(T, "T", 0), int_at_least(ldim, "ldim", 0)
    return sum(math.comb(T, L) for L in range(ldim + 1))


def soa_expert_count_bound(T: int, ldim: int) -> float:
    """(e T / Ldim)^Ldim, UML's bound on the number of experts (its Lemma A.5, stated for T >= Ldim + 2)."""
    T, ldim = int_at_least(T, "T", 1), int_at_least(ldim, "ldim", 1)
    return (math.e * T / ldim) ** ldim
