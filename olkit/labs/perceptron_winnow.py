"""Lab 4: the Perceptron's and Winnow's updates (Algorithms 4.1 and 4.2, Theorems 4.1 and 4.4 of the book).

The checks of this lab's questions and the streams they play ("public" for the student's own check,
the others for grading); see :mod:`olkit.labs`.  Each check plays the student's update on a stream, runs
the book's proof on the recorded weights (:func:`olkit.linear.margin_proof`,
:func:`olkit.winnow.winnow_proof`), whose failed steps cite the theorem, and then verifies the rule the
question states round by round against an independent reference computed from the student's own weights
in force: a different rule is a wrong answer even where the bound still holds.
"""
from __future__ import annotations

import re

import numpy as np

from ..proof import Proof, ProofStepError, fmt
from .. import fp
from .feedback import LabFeedback, _call, _explain, _rule

__all__ = ["perceptron_case", "check_perceptron_update", "winnow_case", "check_winnow_update"]


def perceptron_case(case: str = "public") -> tuple[np.ndarray, np.ndarray, np.ndarray, float, float]:
    """(X, y, u, gamma, r): a stream separable by the unit vector u with margin gamma and radius r.
    Cases: ``public`` (T = 200, d = 5), ``one_dim`` (d = 1), ``one_round`` (T = 1), ``long``
    (T = 2000, d = 20, a small margin: many updates), ``ties`` (points of {-1, 0, 1}^4 labelled by the
    sign of their sum, u = (1, 1, 1, 1) / 2: exact scores, many of them 0)."""
    from ..streams import separable_stream

    if case == "ties":
        rng = np.random.default_rng(44)
        X = rng.integers(-1, 2, size=(160, 4)).astype(float)
        X = X[X.sum(axis=1) != 0][:80]
        return X, np.where(X.sum(axis=1) > 0, 1, -1).astype(np.int64), np.full(4, 0.5), 0.5, 2.0

    T, d, gamma, seed = {"public": (200, 5, 0.1, 2026), "one_dim": (30, 1, 0.2, 5), "one_round": (1, 3, 0.3, 6),
                         "long": (2000, 20, 0.05, 7)}.get(case, (0, 0, 0.0, 0))
    if T == 0:
        raise ValueError(f"no Perceptron lab case {case!r}")
    X, y, u = separable_stream(T, d, gamma, np.random.default_rng(seed))
    return X, y.astype(np.int64), u, gamma, 1.0


def _vector(v, d: int, name: str, t: int, integer: bool = False) -> np.ndarray:
    a = np.asarray(v) if v is not None and v is not Ellipsis else None
    if a is None or a.shape != (d,) or not np.issubdtype(a.dtype, np.number):
        got = "None" if a is None else f"an array of shape {a.shape}"
        raise LabFeedback(f"{name} returned {got} in round {t}; it must return the new weight vector, an array of "
                          f"length d = {d}" + (" (is the function still '...'?)" if a is None else ""))
    if integer and not np.all(a == np.round(a)):
        raise LabFeedback(f"{name} returned non-integer weights in round {t}; Winnow's weights are integers")
    return a.astype(np.int64 if integer else float)


def _play(fn, X, y, w0, name: str, integer: bool = False) -> list[np.ndarray]:
    """Play the student's update on the stream: the weights w_1, ..., w_{T+1} (w_{t+1} = fn(w_t, x_t, y_t))."""
    states = [w0.copy()]
    for t in range(1, len(y) + 1):
        w = states[-1]
        states.append(_vector(_call(fn, name, t, w.copy(), X[t - 1].copy(), int(y[t - 1])), len(w0), name, t,
                              integer))
    return states


def _updates_of(states: list[np.ndarray]) -> tuple[list[int], list[np.ndarray]]:
    """The rounds on which w changed, and w before round 1 and after each of those rounds."""
    rounds = [t for t in range(1, len(states)) if not np.array_equal(states[t], states[t - 1])]
    return rounds, [states[0]] + [states[t] for t in rounds]


def _perceptron_says_0(t: int, e, X, y, played) -> str:
    return (f"Round {t}: y_t <w_t, x_t> = {fmt(y[t - 1] * float(played[t - 1] @ X[t - 1]))}; the Perceptron updates "
            "exactly when it is <= 0 (a zero score, as with w = 0, counts as a mistake), and your function "
            + ("changed w." if e.lhs else "left w unchanged."))


def check_perceptron_update(perceptron_update, case: str = "public") -> Proof:
    """The Perceptron (eta = 1, w_1 = 0) whose step is the student's ``perceptron_update(w, x, y)``:
    the proof of Theorem 4.1 on the recorded weights (steps 0-6), then the rule of Algorithm 4.1 round
    by round (w + y x when y <w, x> <= 0, a tie within 1e-9 ||w|| ||x|| counting as 0; w otherwise)."""
    from ..game import UpdateTrace
    from ..linear import margin_proof

    X, y, u, gamma, r = perceptron_case(case)
    played = _play(perceptron_update, X, y, np.zeros(X.shape[1]), "perceptron_update")
    rounds, states = _updates_of(played)
    R = np.array(rounds, dtype=np.int64)
    W = np.array(states)
    before = W[:-1]
    yhat = np.where(y[R - 1] * np.einsum("ij,ij->i", before, X[R - 1]) <= 0, -y[R - 1], y[R - 1])
    tr = UpdateTrace(X=X, y=y, rounds=R, yhat=yhat.astype(np.int64), state={"w": W})
    says = {
        "0": lambda t, e, T=len(y): _perceptron_says_0(t or T, e, X, y, played),
        "3": lambda t, e: (f"After the update of round {t} the weights should be the sum of y_s x_s over the update "
                           "rounds so far (w <- w + y x: step size 1, with the label's sign); one coordinate is "
                           f"{fmt(e.lhs)} where that sum gives {fmt(e.rhs)}."),
    }
    try:
        p, _, _ = margin_proof(tr, u, 1.0, "the proof of Theorem 4.1 (the Perceptron's margin bound)", gamma=gamma,
                               radius=r)
    except ProofStepError as err:
        raise _explain(err, says, ref="thm-perceptron-margin") from None
    for t in range(1, len(y) + 1):  # the rule, round by round, from the student's own w_t
        w, x, got = played[t - 1], X[t - 1], played[t]
        side = fp.sign(fp.dot(w, x), fp.tie_scale(w, x))
        want = w + y[t - 1] * x if y[t - 1] * side <= 0 else w
        if not np.allclose(got, want, rtol=1e-12, atol=1e-12 * (1 + np.abs(w).max())):
            why = (f"y <w, x> = {fmt(y[t - 1] * float(w @ x))}, " + ("an update round" if y[t - 1] * side <= 0
                                                                     else "not an update round"))
            j = int(np.argmax(np.abs(got - want)))
            raise _rule("perceptron_update", t, "the Perceptron's update (w + y x when y <w, x> <= 0, w otherwise)",
                        "alg-perceptron", f"w_{j + 1} = {fmt(got[j])}", fmt(want[j]), why)
    return p


def winnow_case(case: str = "public") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(X, y, J): a 0/1 stream labelled by the monotone disjunction of the features J (+1 if one of
    them is on).  Cases: ``public`` (d = 32, k = 3), ``one_feature`` (d = 16, k = 1), ``one_round``,
    ``wide`` (d = 200, k = 4, sparse points)."""
    from ..winnow import disjunction_labels

    d, k, T, p_on, seed = {"public": (32, 3, 150, 0.08, 2026), "one_feature": (16, 1, 60, 0.15, 8),
                           "one_round": (8, 2, 1, 0.5, 9), "wide": (200, 4, 400, 0.02, 10)}.get(case, (0,) * 5)
    if d == 0:
        raise ValueError(f"no Winnow lab case {case!r}")
    rng = np.random.default_rng(seed)
    J = np.sort(rng.choice(d, size=k, replace=False))
    X = (rng.random((T, d)) < p_on).astype(np.int64)
    if case == "one_round":
        X[0] = 0
        X[0, J[0]] = 1  # a positive example the all-ones start gets wrong (sum 1 < d)
    return X, disjunction_labels(X, J).astype(np.int64), J


def _winnow_rule_says(err: ProofStepError, R: np.ndarray, X: np.ndarray, y: np.ndarray) -> str:
    m = re.search(r"row (\d+), column (\d+)", str(err.round))  # the k-th update, feature j
    where = ""
    if m:
        t, j = int(R[int(m[1]) - 1]), int(m[2]) - 1
        kind = "a promotion (y = +1)" if y[t - 1] == 1 else "an elimination (y = -1)"
        where = f"Round {t} was {kind}, and feature {j} had x_j = {X[t - 1, j]}. "
    return (where + "On a mistake with y = +1 the active weights (x_j = 1) double; with y = -1 they become 0; the "
            f"others stay. That weight became {fmt(err.lhs)} where the rule gives {fmt(err.rhs)}.")


def _winnow_ref(w: np.ndarray, x: np.ndarray, y: int) -> tuple[int, np.ndarray]:
    """Winnow's prediction (+1 iff sum_j w_j x_j >= d) and the weights after the round."""
    yhat = 1 if int(w @ x) >= len(w) else -1
    if yhat == y:
        return yhat, w
    return yhat, np.where(x == 1, 2 * w if y == 1 else 0, w)


def check_winnow_update(winnow_update, case: str = "public") -> Proof:
    """Winnow (w_1 = 1, predict +1 iff sum_j w_j x_j >= d) whose step is the student's
    ``winnow_update(w, x, y)``: Blum's proof of the bound 1 + 2k ceil(lg d) (Theorem 4.4) on the recorded
    weights, then the rule of Algorithm 4.2 round by round (promotion and elimination on a mistake)."""
    from ..game import UpdateTrace
    from ..winnow import winnow_proof

    X, y, J = winnow_case(case)
    d = X.shape[1]
    played = _play(winnow_update, X, y, np.ones(d, dtype=np.int64), "winnow_update", integer=True)
    rounds, states = _updates_of(played)
    R = np.array(rounds, dtype=np.int64)
    yk = y[R - 1]
    P, N = np.r_[0, np.cumsum(yk == 1)], np.r_[0, np.cumsum(yk == -1)]
    tr = UpdateTrace(X=X, y=y, rounds=R, yhat=-yk, state={"w": np.array(states), "P": P, "N": N,
                                                          "updates": np.arange(len(R) + 1)})
    says = {
        "0": lambda t, e: ("Winnow predicts +1 when sum_j w_j x_j >= d and updates exactly on its mistakes; in round "
                           f"{t or len(y)} your function " + ("changed w without a mistake." if e.lhs else
                                                    "left w unchanged after a mistake.")),
        "rule": lambda t, e: _winnow_rule_says(e, R, X, y),
    }
    try:
        p = winnow_proof(tr, J, d, "Blum's proof of Theorem 4.4 (Winnow's bound)")
    except ProofStepError as err:
        raise _explain(err, says, ref="thm-winnow") from None
    for t in range(1, len(y) + 1):  # the rule, round by round, from the student's own w_t
        w, x, got = played[t - 1], X[t - 1], played[t]
        yhat, want = _winnow_ref(w, x, int(y[t - 1]))
        if not np.array_equal(got, want):
            j, s = int(np.flatnonzero(got != want)[0]), int(w @ x)
            what = ("a correct prediction: w stays" if yhat == y[t - 1] else
                    "a mistake with y = +1: the active weights double" if y[t - 1] == 1 else
                    "a mistake with y = -1: the active weights become 0")
            raise _rule("winnow_update", t, "Winnow's rule (predict +1 iff sum_j w_j x_j >= d; on a mistake double or "
                        "zero the active weights)", "alg-winnow", f"w_{j + 1} = {got[j]}", str(want[j]),
                        f"sum_j w_j x_j = {s} {'>=' if s >= d else '<'} d = {d}, y = {y[t - 1]:+d}: {what}")
    return p
