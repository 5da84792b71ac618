"""Prediction with expert advice: Weighted Majority, its randomized version, exponential weights.

The game, its trace and the loss sequences are in :mod:`olkit.expert_game` (their names are
importable from here too); the learners here each record what their proof needs: cumulative losses
``L``, weights or their exponents, the potential ``logW`` / ``Phi`` = ln sum_i w_{t,i}, the
distribution ``p``.

* :class:`WeightedMajority` (Littlestone and Warmuth 1994; Mohri et al. Thm 7.3), deterministic;
  beta = 0 is the Halving of Mohri et al. (which updates on mistakes only).  It decides exactly.
* :class:`RandomizedWeightedMajority` (Mohri et al. Thm 7.4), losses in {0, 1}.
* :class:`Hedge` (the exponentially weighted average forecaster, Mohri et al. Thm 7.6; Freund and
  Schapire 1997) for a loss convex in its first argument with values in [0, 1]; with
  ``eta = uml_eta(d, T)`` it is UML's Weighted-Majority (Thm 21.11).  :func:`hedge` computes a whole
  run at once from the cumulative losses (no loop over rounds); it equals the round-by-round
  learner exactly.  :class:`AnytimeHedge`: eta_t = sqrt(8 ln N / t) (Cesa-Bianchi and Lugosi Thm 2.3).
* :class:`Doubling` wraps any learner that needs the horizon T (Mohri et al. Thm 7.7).
* :class:`FollowTheLeader`; the minimax learner of the two-expert game is in :mod:`olkit.minimax`.
* The bounds and tuned parameters, one function per theorem.

Weights are kept in log space (as cumulative losses, shifted by the leader's), so nothing
underflows however long the run; the results equal those of the plain definitions.  UML's SOA
experts (Section 21.2) are in :mod:`olkit.soa_experts`.
"""
from __future__ import annotations

import math
import threading
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction
from typing import Callable

import numpy as np

from . import fp
from .game import int_at_least
from .expert_game import (  # noqa: F401  (the game's names stay importable from here)
    AdviceSequence,
    CoverAdversary,
    ExpertTrace,
    LossSequence,
    _beta,
    _eta,
    _losses,
    _n_experts,
    _number,
    absolute_loss,
    noisy_experts,
    play_experts,
    run_experts,
    squared_loss,
    two_expert_losses,
)
from .minimax import MinimaxLearner, TwoExpertMinimax  # noqa: F401  (importable from here too)
from .soa_experts import (  # noqa: F401  (importable from here too)
    soa_expert_count,
    soa_expert_count_bound,
    soa_expert_predictions,
    soa_experts,
    soa_mistake_rounds,
)

__all__ = [
    "AnytimeHedge",
    "Doubling",
    "FollowTheLeader",
    "Hedge",
    "RandomizedWeightedMajority",
    "WeightedMajority",
    "anytime_bound",
    "doubling_bound",
    "ewa_bound",
    "ewa_eta",
    "hedge",
    "rwm_beta0",
    "rwm_bound",
    "two_expert_expected_regret",
    "uml_bound",
    "uml_eta",
    "wm_bound",
]


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
    total, c = 0, 1  # c = comb(T, k), from the one before it (exact integers, as math.comb gives)
    for k in range(T + 1):
        total += abs(2 * k - T) * c
        c = c * (T - k) // (k + 1)
    return Fraction(total) / 2 ** (T + 1)
