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


# -- proof checks of Chapter 4 ---------------------------------------------------------------------
def disjunction_labels(X, J) -> np.ndarray:
    """The labels of the monotone disjunction of the features ``J``: +1 where some feature of J is
    active in the row of ``X`` (a 0/1 matrix), else -1."""
    return np.where(np.asarray(X)[:, list(np.atleast_1d(J))].any(axis=1), 1, -1)


def elimination_proof(tr, J, d: int, title: str):
    """Check the mistake bound d - k of :class:`EliminationLearner` on a round-by-round trace.

    Telgarsky's lecture 10 (the elimination learner for k-disjunctions); the steps are those of the
    book's proof of Theorem thm-disjunction-baselines (b), Section 4.3: labels of the target (0), no
    mistake on +1 (2), each mistake removes a candidate (3), at least k candidates remain (1), M <= d - k
    (4).  The sizes of C come from the recorded state, the labels from the stream and ``J``.
    Returns the :class:`olkit.Proof`; a failing step raises :class:`olkit.ProofStepError`.
    """
    from .proof import Proof

    X = np.array(tr.x)
    C = tr.state["C_size"]
    p = Proof(title)
    p.step("0", "labels are those of the target disjunction", tr.y, "==", disjunction_labels(X, J),
           kind="identity", why="the stream is generated by the target")
    p.step("2", "no mistake on a label +1", tr.mistake[tr.y == 1].sum(), "==", 0)
    p.step(
        "3",
        "each mistake removes a candidate: |C_{t+1}| < |C_t|",
        C[1:],
        "<",
        C[:-1],
        where=tr.mistake,
        allow_empty=True,
    )
    p.step(
        "3'",
        "recorded updates = mistakes so far (every round)",
        tr.state["updates"],
        "==",
        np.r_[0, np.cumsum(tr.mistake)],
    )
    p.step("1", "at least k candidates remain", C, ">=", len(np.atleast_1d(J)))
    p.step("4", "M <= d - k", tr.M, "<=", d - len(np.atleast_1d(J)))
    return p


def winnow_proof(tr, J, d: int, title: str):
    """Check Blum's proof of Winnow's bound 1 + 2k ceil(lg d) on a run, after every mistake.

    Telgarsky's lecture 10 (Winnow for monotone k-disjunctions, proof by Blum), with the tie rule of
    :class:`Winnow` (a sum equal to d predicts +1); the steps are those of the book's proof of
    Theorem thm-winnow, Section 4.3.  ``tr`` is a trace of :class:`Winnow` (an :class:`olkit.Trace`,
    round by round, or an :class:`olkit.UpdateTrace`).  Step 0 recomputes Winnow's prediction on
    every round from the recorded weights in force and the stream; the other steps use the recorded
    weights before and after each mistake, the stream and the target ``J``, never the learner's own
    decision.  Returns the :class:`olkit.Proof`; a failing step raises :class:`olkit.ProofStepError`.
    """
    from .bounds import winnow_disjunction_bound
    from .game import UpdateTrace
    from .proof import Proof

    if isinstance(tr, UpdateTrace):
        X, y, rounds = np.asarray(tr.X, dtype=np.int64), tr.y, tr.rounds
        W, P, N = tr.state["w"], tr.state["P"], tr.state["N"]
        W_round = tr.state_at("w")
        keep_all = np.r_[0, rounds]  # the states recorded: before round 1 and after each update
    else:  # a round-by-round trace: keep the states around the mistakes
        X, y = np.array(tr.x, dtype=np.int64), tr.y
        rounds = np.flatnonzero(np.diff(tr.state["updates"])) + 1
        keep = np.r_[0, rounds]
        W, P, N = (tr.state[key][keep] for key in ("w", "P", "N"))
        W_round = tr.state["w"][:-1]
        keep_all = np.arange(len(y) + 1)  # a state after every round
    J = np.atleast_1d(J)
    k, lg = len(J), (d - 1).bit_length()
    x = X[rounds - 1]
    yk = y[rounds - 1]
    before, after = W[:-1], W[1:]
    s = np.sum(before * x, axis=1)  # sum of the active weights
    pro, eli = yk == 1, yk == -1
    rel = np.zeros(d, bool)
    rel[J] = True
    small_rel = np.where(x[:, rel] == 1, before[:, rel], np.inf).min(axis=1)
    charged = (x[:, rel] == 1) & (before[:, rel] < d) & pro[:, None]
    yhat = np.where(np.sum(W_round * X, axis=1) >= d, 1, -1)
    p = Proof(title)
    p.step(
        "0",
        "mistake iff sum_j w_j x_j >= d disagrees with y_t (every round)",
        np.isin(np.arange(1, len(y) + 1), rounds),
        "==",
        yhat != y,
    )
    p.step("0'", "labels are the target's", y, "==", disjunction_labels(X, J),
           kind="identity", why="the stream is generated by the target")
    p.step(
        "rule",
        "promotion doubles, elimination zeroes the active weights",
        after,
        "==",
        np.where(x == 1, np.where(pro[:, None], 2 * before, 0), before),
    )
    p.step("1", "relevant weights stay positive", W[:, rel], ">", 0)
    p.step(
        "2", "on a promotion some active relevant w_j < d", small_rel, "<", d, where=pro, allow_empty=True
    )
    p.step("lg", "ceil(lg d) is the least L with d <= 2^L: d <= 2^L", d, "<=", 2**lg)
    p.step("lg'", "... and 2^(L-1) < d", 2.0 ** (lg - 1), "<", d)
    p.step("3", "per relevant j: promotions with w_j < d <= ceil(lg d)", charged.sum(axis=0), "<=", lg)
    p.step("3'", "P <= k ceil(lg d)", P[-1], "<=", k * lg)
    p.step(
        "4a",
        "a promotion adds sum of active w_i < d to ||w||_1",
        after.sum(axis=1) - before.sum(axis=1),
        "<",
        d,
        where=pro,
        allow_empty=True,
    )
    p.step(
        "4b",
        "an elimination removes sum of active w_i >= d",
        before.sum(axis=1) - after.sum(axis=1),
        ">=",
        d,
        where=eli,
        allow_empty=True,
    )
    p.step("4c", "... which is the active mass", np.abs(after.sum(axis=1) - before.sum(axis=1)), "==", s)
    p.step(
        "M",
        "P + N = mistakes so far, after every mistake",
        P[1:] + N[1:],
        "==",
        np.arange(1, len(rounds) + 1),
    )
    p.step(
        "M'",
        "recorded updates = mistakes so far (every round)",
        tr.state["updates"],
        "==",
        np.r_[0, np.cumsum(yhat != y)][keep_all],
    )
    p.step("5", "N <= 1 + P after every mistake", N[1:], "<=", 1 + P[1:])
    p.step("6'", "olkit's bound = 1 + 2k ceil(lg d)", winnow_disjunction_bound(d, k), "==", 1 + 2 * k * lg)
    p.step("6", "M <= 1 + 2k ceil(lg d)", len(rounds), "<=", winnow_disjunction_bound(d, k))
    return p


def normalized_winnow_proof(tr, v, eta: float, title: str):
    """Check the proof of Theorem 7.12 (Mohri et al.; Lu's lecture 6) on a run of Winnow(eta).

    The steps are those of the book's proof of Theorem thm-normalized-winnow, Section 4.3: the
    potential Phi_t = KL(v / ||v||_1 || w_t) and ln Z_t are recomputed from the recorded weights and
    the stream (not taken from the learner); step 0 recomputes the update condition on every round.
    ``tr`` is an :class:`olkit.UpdateTrace` of :class:`NormalizedWinnow` run with the comparator ``v``
    (so that it records Phi_t).  Returns ``(proof, r_inf, rho_inf)``; a failing step raises
    :class:`olkit.ProofStepError`.
    """
    from .bounds import normalized_winnow_bound
    from .proof import Proof

    X, y = np.asarray(tr.X, dtype=float), tr.y
    I = tr.rounds - 1
    pv = np.asarray(v, dtype=float) / np.sum(v)
    r_inf = float(np.abs(X).max())
    rho_inf = float((y * (X @ pv)).min())
    W = tr.state["w"]
    pos = pv > 0
    phi = np.sum(pv[pos] * (np.log(pv[pos]) - np.log(W[:, pos])), axis=1)
    dphi = np.diff(phi)
    margin_w = y[I] * np.einsum("ij,ij->i", W[:-1], X[I])
    logZ = np.log(np.sum(W[:-1] * np.exp(eta * y[I, None] * X[I]), axis=1))
    N = X.shape[1]
    W_round = tr.state_at("w")
    score = np.einsum("ij,ij->i", W_round, X)
    scale = np.linalg.norm(W_round, axis=1) * np.linalg.norm(X, axis=1)
    p = Proof(title)
    p.step("0", "update iff y_t <w_t, x_t> <= 0 (every round)", tr.updated, "==", y * score <= fp.TIE_RTOL * scale)
    p.step(
        "rule",
        "w_{t+1} = w_t e^(eta y_t x_t) / Z_t on each update",
        W[1:],
        "==",
        W[:-1] * np.exp(eta * y[I, None] * X[I] - logZ[:, None]),
        tol=1e-12,
    )
    p.step("phi0", "the run records Phi_t", int("phi" in tr.state), "==", 1)
    p.step("phi", "recorded potential = Phi_t recomputed", tr.state["phi"], "==", phi, tol=1e-9)
    p.step(
        "1",
        "Phi_{t+1} - Phi_t = ln Z_t - eta y_t <v, x_t> / ||v||_1",
        dphi,
        "==",
        logZ - eta * y[I] * (X[I] @ pv),
        tol=1e-9,
    )
    p.step("2", "... <= ln Z_t - eta rho_inf", dphi, "<=", logZ - eta * rho_inf, tol=1e-9)
    p.step(
        "3",
        "ln Z_t <= eta y_t <w_t, x_t> + eta^2 r_inf^2 / 2",
        logZ,
        "<=",
        eta * margin_w + eta**2 * r_inf**2 / 2,
        tol=1e-12,
    )
    p.step(
        "4",
        "Phi_{t+1} - Phi_t <= eta^2 r_inf^2 / 2 - eta rho_inf",
        dphi,
        "<=",
        eta**2 * r_inf**2 / 2 - eta * rho_inf,
        tol=1e-9,
    )
    p.step("5", "Phi_1 <= ln N", phi[0], "<=", math.log(N), tol=1e-12)
    p.step("6", "Phi_t >= 0", phi, ">=", 0, tol=1e-12)
    p.step("7'", "olkit's bound = ln N / (eta rho_inf - eta^2 r_inf^2 / 2)",
           normalized_winnow_bound(N, r_inf, rho_inf, eta), "==",
           math.log(N) / (eta * rho_inf - eta**2 * r_inf**2 / 2), tol=1e-9)
    p.step("7''", "... = 2 (r_inf / rho_inf)^2 ln N at eta = rho_inf / r_inf^2 (olkit's default)",
           normalized_winnow_bound(N, r_inf, rho_inf), "==", 2 * (r_inf / rho_inf) ** 2 * math.log(N), tol=1e-9)
    p.step(
        "7",
        "M <= ln N / (eta rho_inf - eta^2 r_inf^2 / 2)",
        tr.U,
        "<=",
        normalized_winnow_bound(N, r_inf, rho_inf, eta),
    )
    return p, r_inf, rho_inf
