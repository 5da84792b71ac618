"""Winnow: multiplicative updates for sparse targets, and the baselines it is measured against.

* :class:`Winnow` -- Littlestone's Winnow for monotone disjunctions in the form of Blum's proof
  (Telgarsky, Lecture 10): features h_j(x) in {0, 1}, weights w_j = 1, threshold d, a promotion
  doubles the weights of the active features, an elimination sets them to 0.  The weights are
  integers, so every decision is exact.
* :class:`NormalizedWinnow` -- Winnow(eta) of Mohri et al. (Section 7.3.2, Theorem 7.12): a
  probability vector w_t, updated on y_t <w_t, x_t> <= 0 by w_{t+1,i} = w_{t,i} e^{eta y_t x_{t,i}} / Z_t.
* Baselines for disjunctions: :class:`EliminationLearner` (the candidate-set learner of Telgarsky's
  lecture, driven to d - 1 mistakes by e_1, e_2, ... labelled -1) and :class:`DisjunctionHalving`
  (Halving over all disjunctions of k of the d features: at most log2 C(d, k) <= k log2 d mistakes, but
  C(d, k) hypotheses to count every round).
* Adversaries for Winnow (a greedy white-box environment and the exact worst case) live with the other
  environments, in :mod:`olkit.adversaries` (:class:`olkit.adversaries.WinnowAdversary`,
  :func:`olkit.adversaries.winnow_worst_case`).

Labels are -1 and +1 throughout (as in Telgarsky's lecture and Mohri et al.); the disjunction
learners take instances in {0, 1}^d and reject anything else.  All of them are mistake-driven
(their state changes only on the rounds counted by ``updates``, and a round without an update is a
correct prediction), and offer ``play_stream(X, y)`` (block look-ahead, see
:func:`olkit.game.lookahead`).
"""
from __future__ import annotations

import itertools
import math

import numpy as np

from . import fp
from .game import (
    NotRealizableError,
    UpdateTrace,
    check_binary,
    check_binary_stream,
    check_choice,
    check_comparator,
    check_label_pm1,
    check_positive,
    check_stream,
    check_vector,
    PM1,
    check_count,
    check_finite_rows,
    lookahead,
    row_norm_bound,
)

__all__ = [
    "DisjunctionHalving",
    "EliminationLearner",
    "NormalizedWinnow",
    "Winnow",
    "relative_entropy",
]

#: Largest number of k-disjunctions :class:`DisjunctionHalving` enumerates.
MAX_DISJUNCTIONS = 5_000_000


class Winnow:
    """Littlestone's Winnow for monotone disjunctions, as in Blum's proof (Telgarsky, Lecture 10).

    Start with w_j = 1 for j = 1..d.  Predict +1 if sum_j w_j x_j > d, -1 if it is < d, and ``tie``
    (default +1) if it equals d.  On a mistake with y = +1 (a *promotion*) double w_j for every active
    feature x_j = 1; on a mistake with y = -1 (an *elimination*) set those w_j to 0.  The weights stay
    integers (powers of two or 0, at most 2d), so the sums and the comparison with d are exact.

    Theorem (Telgarsky; the proof is Blum's): if the labels are a disjunction of k of the features,
    Winnow makes at most 1 + 2k ceil(log2 d) mistakes.  The tie rule matters for the proof: with
    ``tie=+1`` ("predict +1 when sum_j w_j x_j >= d", Blum's rule) a promoted relevant weight is below
    d, so each relevant weight is promoted at most ceil(log2 d) times.

    ``state()`` records ``w`` (a copy), ``w_l1`` = ||w||_1, ``P`` and ``N`` (promotions and
    eliminations so far) and ``updates`` = P + N, the mistakes; ``details["sum"]`` is sum_j w_j x_j.
    """

    labels = PM1

    def __init__(self, d: int, tie: int = 1):
        self.d = check_count(d, "d")
        self.tie = int(check_choice(tie, "tie", PM1, " (the prediction when sum_j w_j x_j = d)"))
        self.threshold = self.d
        self.w = np.ones(self.d, dtype=np.int64)
        self.P = self.N = self.updates = 0
        self.t = 1
        self.details: dict = {}

    def _predict_sum(self, s):
        """The prediction for the weighted sum(s) s: +1 above d, -1 below, ``tie`` at d (arrays too)."""
        return np.where(s == self.threshold, self.tie, np.where(s > self.threshold, *reversed(PM1)))

    def predict(self, x) -> int:
        x = check_binary(x, self.d, self.t)
        s = int(self.w @ x)
        self.details = {"sum": s}
        return int(self._predict_sum(s))

    def update(self, x, y) -> None:
        x, y = check_binary(x, self.d, self.t), check_label_pm1(y, self.t)
        if self._predict_sum(int(self.w @ x)) != y:
            active = x == 1
            if y == 1:
                self.w[active] *= 2
                self.P += 1
            else:
                self.w[active] = 0
                self.N += 1
            self.updates += 1
        self.t += 1

    def state(self) -> dict:
        return {"w": self.w.copy(), "w_l1": int(self.w.sum()), "P": self.P, "N": self.N, "updates": self.updates}

    def _first_update(self, Xb: np.ndarray, yb: np.ndarray, t0: int, info=None) -> int:
        return next(iter(np.flatnonzero(self._predict_sum(Xb @ self.w) != yb)), None)  # int64 sums, exact

    def play_stream(self, X, y) -> UpdateTrace:
        """Play a 0/1 stream with block look-ahead (exact integer arithmetic); see :mod:`olkit.game`."""
        X, y = check_binary_stream(X, y, self.d)
        return lookahead(self, X, y, self._first_update)


class EliminationLearner:
    """The candidate-set learner for monotone disjunctions (Telgarsky, Lecture 10).

    Keep the set C of candidate features, initially all d.  Predict +1 iff some candidate is active
    (x_j = 1 for some j in C), i.e. predict with the disjunction of all candidates.  When y = -1,
    remove every active candidate.  If the labels are a disjunction of features of C, the relevant
    features are never removed, so a label +1 is never a mistake, and each mistake (on a -1) removes
    at least one irrelevant feature: at most d - k mistakes.  The sequence e_1, e_2, ..., e_{d-1},
    all labelled -1 with target x_d, makes it err d - 1 times.

    ``state()`` records ``C_size`` and ``updates`` (the mistakes); a mistake on a +1 (possible only on
    a sequence no disjunction of the candidates labels) counts as an update that changes nothing.
    """

    labels = PM1

    def __init__(self, d: int):
        self.d = check_count(d, "d")
        self.C = np.ones(self.d, dtype=bool)
        self.updates = 0
        self.t = 1
        self.details: dict = {}

    def _predict_active(self, active):
        """The prediction for the number(s) of active candidates: +1 if any (arrays too)."""
        return np.where(active > 0, *reversed(PM1))

    def predict(self, x) -> int:
        x = check_binary(x, self.d, self.t)
        active = int(x @ self.C)
        self.details = {"active": active}
        return int(self._predict_active(active))

    def update(self, x, y) -> None:
        x, y = check_binary(x, self.d, self.t), check_label_pm1(y, self.t)
        if self._predict_active(int(x @ self.C)) != y:
            self.C &= x == 0  # on a +1 mistake no candidate is active: nothing to remove
            self.updates += 1
        self.t += 1

    def state(self) -> dict:
        return {"C_size": int(self.C.sum()), "updates": self.updates}

    def _first_update(self, Xb: np.ndarray, yb: np.ndarray, t0: int, info=None) -> int:
        return next(iter(np.flatnonzero(self._predict_active(Xb @ self.C.astype(np.int64)) != yb)), None)

    def play_stream(self, X, y) -> UpdateTrace:
        X, y = check_binary_stream(X, y, self.d)
        return lookahead(self, X, y, self._first_update)


class DisjunctionHalving:
    """Halving (UML Section 21.1) over the class of all disjunctions of exactly k of the d features.

    |H| = C(d, k), so Halving errs at most log2 C(d, k) <= k log2 d times (Telgarsky: "we can use
    HALVING ... but we still spend O(d^k) computation").  Ties predict +1 (UML's rule).  The version
    space is kept as the array of surviving k-subsets; a round evaluates every surviving disjunction,
    ``details["work"]`` = |V_t| k feature look-ups.  ``state()`` records ``V_size``.  Raises
    :class:`olkit.NotRealizableError` when no k-disjunction is consistent with the labels.
    """

    labels = PM1

    def __init__(self, d: int, k: int):
        self.d = check_count(d, "d")
        self.k = check_count(k, "k")
        if self.k > self.d:
            raise ValueError(f"k must be at most d = {self.d}; got {k}")
        size = math.comb(self.d, self.k)
        if size > MAX_DISJUNCTIONS:
            raise ValueError(f"C(d, k) = C({self.d}, {self.k}) = {size} disjunctions exceed {MAX_DISJUNCTIONS}")
        self.terms = np.array(list(itertools.combinations(range(self.d), self.k)), dtype=np.int64).reshape(size, self.k)
        self.V = np.arange(size, dtype=np.int64)
        self.t = 1
        self.details: dict = {}

    def _values(self, x: np.ndarray) -> np.ndarray:
        """h(x) in {-1, +1} for every h in the version space."""
        return np.where(np.any(x[self.terms[self.V]], axis=-1), *reversed(PM1))

    def predict(self, x) -> int:
        x = check_binary(x, self.d, self.t)
        h = self._values(x)
        ones = int(np.count_nonzero(h == 1))
        self.details = {"ones": ones, "size": len(self.V), "work": len(self.V) * self.k}
        return PM1[ones >= len(self.V) - ones]  # a tie predicts +1

    def update(self, x, y) -> None:
        x, y = check_binary(x, self.d, self.t), check_label_pm1(y, self.t)
        keep = self.V[self._values(x) == y]
        if len(keep) == 0:
            raise NotRealizableError(f"round {self.t}: no disjunction of {self.k} features labels this sequence", self.t)
        self.V = keep
        self.t += 1

    def state(self) -> dict:
        return {"V_size": len(self.V)}

    def target_terms(self) -> np.ndarray:
        """The surviving disjunctions, one row of k feature indices each."""
        return self.terms[self.V]


def relative_entropy(p, q) -> float:
    """sum_i p_i ln(p_i / q_i) over the i with p_i > 0 (0 ln 0 = 0): the relative entropy of the
    distribution p to the distribution q, the potential of Mohri et al.'s proof of Theorem 7.12."""
    p, q = np.asarray(p, dtype=float), np.asarray(q, dtype=float)
    if p.shape != q.shape:
        raise ValueError(f"p and q must have the same shape; got {p.shape} and {q.shape}")
    pos = p > 0
    return float(np.sum(p[pos] * (np.log(p[pos]) - np.log(q[pos]))))


class NormalizedWinnow:
    """Winnow(eta) of Mohri et al. (Section 7.3.2; Lu's lecture): a probability vector of weights.

    w_1 = (1/N, ..., 1/N); predict +1 if <w_t, x_t> > 0, else -1; if y_t <w_t, x_t> <= 0 (a tie,
    |<w, x>| <= 1e-9 ||w|| ||x||, counting as 0, as for the Perceptron), set
    w_{t+1,i} = w_{t,i} exp(eta y_t x_{t,i}) / Z_t with Z_t = sum_i w_{t,i} exp(eta y_t x_{t,i}).
    The weights are kept as logarithms (normalized by a log-sum-exp), so that none underflows;
    ``w`` = exp(log w).

    Theorem 7.12: if ||x_t||_inf <= r_inf and some v >= 0, v != 0, has
    y_t <v, x_t> / ||v||_1 >= rho_inf for all t, the number of updates is at most
    ln N / (eta rho_inf - eta^2 r_inf^2 / 2), which is 2 (r_inf / rho_inf)^2 ln N at
    eta = rho_inf / r_inf^2.  With ``v`` given, ``state()`` also records ``phi``, the potential
    Phi_t = sum_i p_i ln(p_i / w_{t,i}) of the proof, p = v / ||v||_1.

    ``state()`` records ``w`` (a copy) and ``updates``; ``details`` has ``score``.
    """

    labels = PM1

    def __init__(self, N: int, eta: float, v=None):
        self.N = check_count(N, "N")
        self.eta = check_positive(eta, "eta")
        self.p = None
        if v is not None:
            v = check_comparator(v, self.N)
            self.p = v / v.sum()
        self.log_w = np.full(self.N, -math.log(self.N))
        self.w = np.exp(self.log_w)
        self.updates = 0
        self.t = 1
        self.details: dict = {}

    def _x(self, x) -> np.ndarray:
        return check_vector(x, self.N, self.t)

    def _violated(self, x: np.ndarray, y: int) -> bool:
        return fp.sign(fp.dot(self.w, x), fp.tie_scale(self.w, x)) != y

    def predict(self, x) -> int:
        x = self._x(x)
        s = fp.dot(self.w, x)
        side = fp.sign(s, fp.tie_scale(self.w, x))
        self.details = {"score": s}
        return PM1[side > 0]

    def update(self, x, y) -> None:
        x, y = self._x(x), check_label_pm1(y, self.t)
        if self._violated(x, y):
            a = self.log_w + (self.eta * y) * x
            m = float(a.max())
            self.log_w = a - (m + math.log(float(np.sum(np.exp(a - m)))))
            self.w = np.exp(self.log_w)
            self.updates += 1
        self.t += 1

    def state(self) -> dict:
        out = {"w": self.w.copy(), "updates": self.updates}
        if self.p is not None:
            pos = self.p > 0
            out["phi"] = float(np.sum(self.p[pos] * (np.log(self.p[pos]) - self.log_w[pos])))
        return out

    def _first_update(self, Xb: np.ndarray, yb: np.ndarray, t0: int, info=None) -> int | None:
        """As :meth:`olkit.Perceptron._first_update`: the first row that might update."""
        from .linear import _candidates

        s = fp.matvec(Xb, self.w)
        check_finite_rows(s, Xb, t0)
        return _candidates(yb * s, 2 * fp.TIE_RTOL * np.sqrt(self.w @ self.w) * row_norm_bound(Xb))

    def play_stream(self, X, y) -> UpdateTrace:
        """Play the stream with block look-ahead (as :meth:`olkit.Perceptron.play_stream`); exact."""
        X, y = check_stream(X, y, self.N)
        return lookahead(self, X, y, self._first_update)
