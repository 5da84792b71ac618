"""Lab 4c: Winnow(eta), the normalized exponential weights of Algorithm 4.3, checked by the proof of
Theorem 4.5 (Mohri, Rostamizadeh and Talwalkar 2012, Theorem 7.12).

Question 1 is the prediction (+1 if <w_t, x_t> > 0, else -1, a tie predicting -1), played with the
book's update; question 2 is the update (on y_t <w_t, x_t> <= 0, w_{t+1,i} = w_{t,i} e^(eta y_t x_{t,i}) / Z_t),
played with the book's prediction.  Each check records the run, runs the book's proof of Theorem 4.5
on it (:func:`olkit.winnow.normalized_winnow_proof`, with the lab's step M for the predictions: every
mistake is an update round) and then verifies the rule the question states, round by round, against an
independent reference computed from the student's own weights in force.  A score within 1e-9 ||w|| ||x||
of 0 is the book's tie (:mod:`olkit.fp`); the lab's streams have exact ties (a balanced advice vector on
uniform weights) and no near-ties, and where a score is 0 up to rounding but not exactly, either side is
accepted.
"""
from __future__ import annotations

import math

import numpy as np

from .. import fp
from ..game import UpdateTrace
from ..proof import Proof, ProofStepError, fmt
from .feedback import LabFeedback, _call, _explain, _rule

__all__ = ["winnow_eta_case", "check_winnow_eta_predict", "check_winnow_eta_update"]

_REF = "thm-normalized-winnow"
_ALG = "alg-normalized-winnow"


def winnow_eta_case(case: str = "public") -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """(X, y, v, eta): advice of N experts (rows of X), labels, a comparator v >= 0 with
    y_t <v, x_t> / ||v||_1 >= rho_inf > 0 on every round, and the step size.  Cases: ``public`` (N = 16,
    one relevant expert, eta = 1/2), ``ties`` (N = 8, balanced advice on uniform weights: exact ties),
    ``majority`` (N = 32, the majority of 3 experts, eta = 1/3), ``one_round`` (T = 1), ``large``
    (advice of size 1000, eta = 1/1000)."""
    if case == "public":
        rng = np.random.default_rng(2026)
        X = np.where(rng.random((150, 16)) < 0.5, -1.0, 1.0)
        return X, X[:, 3].astype(np.int64), np.eye(16)[3], 0.5
    if case == "ties":
        rng = np.random.default_rng(12)
        X = np.where(rng.random((80, 8)) < 0.5, -1.0, 1.0)
        X[0] = [1, -1, 1, -1, -1, 1, 1, -1]  # balanced: <w_1, x_1> = 0 exactly, a tie
        return X, X[:, 0].astype(np.int64), np.eye(8)[0], 1.0
    if case == "majority":
        rng = np.random.default_rng(13)
        X = np.where(rng.random((300, 32)) < 0.5, -1.0, 1.0)
        return X, np.where(X[:, :3].sum(axis=1) > 0, 1, -1), np.r_[np.ones(3), np.zeros(29)], 1 / 3
    if case == "one_round":
        X = np.array([[-1.0, 1.0, 1.0, -1.0]])
        return X, np.array([-1]), np.eye(4)[0], 1.0
    if case == "large":
        rng = np.random.default_rng(14)
        X = np.where(rng.random((150, 16)) < 0.5, -1000.0, 1000.0)
        return X, np.where(X[:, 5] > 0, 1, -1), np.eye(16)[5], 1e-3
    raise ValueError(f"no Winnow(eta) lab case {case!r}")


def _side(w: np.ndarray, x: np.ndarray) -> int:
    """sign(<w, x>) with the book's tie (0 when |<w, x>| <= 1e-9 ||w|| ||x||)."""
    return fp.sign(fp.dot(w, x), fp.tie_scale(w, x))


def _near_tie(w: np.ndarray, x: np.ndarray) -> bool:
    """A score that is a tie by the book's rule but not exactly 0: its sign is rounding, either side goes."""
    return _side(w, x) == 0 and fp.dot(w, x) != 0


def _predict_ref(w, x) -> int:
    return 1 if _side(w, x) > 0 else -1


def _update_ref(w, x, y, eta) -> np.ndarray:
    if y * _side(w, x) > 0:
        return w.copy()
    with np.errstate(divide="ignore"):  # a weight that underflowed to 0 stays 0
        a = np.log(w) + eta * y * x
    e = np.exp(a - a.max())
    return e / e.sum()


def _label(v, t: int) -> int:
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer, float, np.floating)) or v not in (-1, 1):
        raise LabFeedback(f"winnow_eta_predict returned {v!r} in round {t}; it must return the label -1 or +1"
                          + (" (is the function still '...'?)" if v is None or v is Ellipsis else ""))
    return int(v)


def _weights(v, N: int, t: int) -> np.ndarray:
    a = np.asarray(v) if v is not None and v is not Ellipsis else None
    if a is None or a.shape != (N,) or not np.issubdtype(a.dtype, np.number):
        got = "None" if a is None else f"an array of shape {a.shape}"
        raise LabFeedback(f"winnow_eta_update returned {got} in round {t}; it must return the new weights, an array "
                          f"of length N = {N}" + (" (is the function still '...'?)" if a is None else ""))
    a = a.astype(float)
    if not np.all(np.isfinite(a)) or np.any(a < 0):
        raise LabFeedback(f"winnow_eta_update returned weights that are not finite and >= 0 in round {t} (e.g. "
                          f"{fmt(a[~(np.isfinite(a) & (a >= 0))][0])}); an exponential that overflows gives inf or nan")
    return a


def _trace(X, y, W_rounds: list[np.ndarray], yhat: np.ndarray, v) -> UpdateTrace:
    """The UpdateTrace of a round-by-round run: the rounds where w changed, the weights after them, and the
    potential Phi_t = KL(v / ||v||_1 || w_t) recorded with them (as olkit.NormalizedWinnow records it)."""
    W_all = np.array(W_rounds)
    changed = np.flatnonzero(np.any(W_all[1:] != W_all[:-1], axis=1)) + 1
    W = W_all[np.r_[0, changed]]
    p = np.asarray(v, dtype=float) / np.sum(v)
    pos = p > 0
    with np.errstate(divide="ignore"):
        phi = np.sum(p[pos] * (np.log(p[pos]) - np.log(W[:, pos])), axis=1)
    return UpdateTrace(X=X, y=y, rounds=changed.astype(np.int64), yhat=yhat[changed - 1].astype(np.int64),
                       state={"w": W, "phi": phi, "updates": np.arange(len(changed) + 1)})


def _says(name: str, X, y, W_rounds, eta) -> dict:
    def update_round(t, err):
        t = t or 1  # a step over a single round names no round
        s = y[t - 1] * float(W_rounds[t - 1] @ X[t - 1])
        return (f"Round {t}: y_t <w_t, x_t> = {fmt(s)}; Winnow(eta) updates exactly when it is <= 0 (a score of 0 "
                f"counts), and your {name} " + ("changed w." if err.lhs else "left w unchanged."))

    def rule(t, err):
        return (f"On an update round the weights become w_i e^(eta y_t x_t,i) / Z_t with eta = {fmt(eta)}: every "
                "weight multiplied by its factor, then all divided by their sum Z_t, so that they add up to 1; one "
                f"weight is {fmt(err.lhs)} where the rule gives {fmt(err.rhs)}.")

    def mistake(t, err):
        t = t or 1  # a step over a single round names no round
        w, x = W_rounds[t - 1], X[t - 1]
        return (f"Round {t}: y_t <w_t, x_t> = {fmt(y[t - 1] * float(w @ x))} > 0, so sign(<w_t, x_t>) = y_t and "
                f"Winnow(eta) predicts y_t = {y[t - 1]:+d}; your {name} predicted {-y[t - 1]:+d}.")

    def potential(t, err):
        return ("The bound needs w_t to be a probability vector (positive, adding up to 1): the potential, the "
                "relative entropy of v / ||v||_1 to w_t, is then at least 0 and at most ln N.")

    return {"0": update_round, "rule": rule, "M": mistake, "6": potential, "5": potential}


def _proof(X, y, v, eta, W_rounds, yhat, name: str) -> Proof:
    from ..winnow import normalized_winnow_proof

    tr = _trace(X, y, W_rounds, yhat, v)
    says = _says(name, X, y, W_rounds, eta)
    try:
        p, _, _ = normalized_winnow_proof(tr, v, eta, "the proof of Theorem 4.5 (the bound of Winnow(eta))")
        W_in_force = np.array(W_rounds[:-1])
        score = y * np.einsum("ij,ij->i", W_in_force, X)
        band = fp.TIE_RTOL * np.linalg.norm(W_in_force, axis=1) * np.linalg.norm(X, axis=1)
        p.step("M", "a mistake is an update round: yhat_t != y_t only if y_t <w_t, x_t> <= 0", score, "<=", band,
               where=yhat != y, allow_empty=True)
    except ProofStepError as err:
        raise _explain(err, says, ref=_REF) from None
    return p


def check_winnow_eta_predict(winnow_eta_predict, case: str = "public") -> Proof:
    """Winnow(eta) with the student's ``winnow_eta_predict(w, x)`` and the book's update: the proof of
    Theorem 4.5 on the run (with step M: every mistake is an update round), then the prediction rule of
    Algorithm 4.3 round by round."""
    X, y, v, eta = winnow_eta_case(case)
    N = X.shape[1]
    w = np.full(N, 1.0 / N)
    W_rounds, yhat = [w], []
    for t in range(1, len(y) + 1):
        yhat.append(_label(_call(winnow_eta_predict, "winnow_eta_predict", t, w.copy(), X[t - 1].copy()), t))
        w = _update_ref(w, X[t - 1], int(y[t - 1]), eta)
        W_rounds.append(w)
    yhat = np.array(yhat)
    p = _proof(X, y, v, eta, W_rounds, yhat, "winnow_eta_predict")
    for t in range(1, len(y) + 1):
        w, x = W_rounds[t - 1], X[t - 1]
        want = _predict_ref(w, x)
        if yhat[t - 1] != want and not _near_tie(w, x):
            s = float(w @ x)
            why = (f"<w_t, x_t> = {fmt(s)}" + (", a tie, which predicts -1" if _side(w, x) == 0 else
                                               f", so the prediction is {want:+d}"))
            raise _rule("winnow_eta_predict", t, "the prediction of Winnow(eta): +1 if <w_t, x_t> > 0, else -1",
                        _ALG, f"{yhat[t - 1]:+d}", f"{want:+d}", why)
    return p


def check_winnow_eta_update(winnow_eta_update, case: str = "public") -> Proof:
    """Winnow(eta) whose update is the student's ``winnow_eta_update(w, x, y, eta)`` (w_1 uniform): the proof
    of Theorem 4.5 on the recorded weights, then the update rule of Algorithm 4.3 round by round."""
    X, y, v, eta = winnow_eta_case(case)
    N = X.shape[1]
    w = np.full(N, 1.0 / N)
    W_rounds, yhat = [w], []
    for t in range(1, len(y) + 1):
        yhat.append(_predict_ref(w, X[t - 1]))
        out = _call(winnow_eta_update, "winnow_eta_update", t, w.copy(), X[t - 1].copy(), int(y[t - 1]), eta)
        w = _weights(out, N, t)
        W_rounds.append(w)
    p = _proof(X, y, v, eta, W_rounds, np.array(yhat), "winnow_eta_update")
    for t in range(1, len(y) + 1):
        w, x, got = W_rounds[t - 1], X[t - 1], W_rounds[t]
        want = _update_ref(w, x, int(y[t - 1]), eta)
        if np.allclose(got, want, rtol=1e-9, atol=1e-12):
            continue
        if _near_tie(w, x) and np.array_equal(got, w):  # a tie up to rounding, not updated: either goes
            continue
        s = y[t - 1] * float(w @ x)
        why = (f"y_t <w_t, x_t> = {fmt(s)}, " + ("so this is an update round" if y[t - 1] * _side(w, x) <= 0
                                                 else "so w stays"))
        i = int(np.argmax(np.abs(got - want)))
        raise _rule("winnow_eta_update", t, "the update of Winnow(eta): w_i e^(eta y x_i) / Z on y <w, x> <= 0, "
                    "w otherwise", _ALG, f"w_{i + 1} = {fmt(got[i])}", f"{fmt(want[i])}", why)
    return p
