"""Lab 4: the Perceptron's and Winnow's updates (Sections 4.1 and 4.3).

The checks of this lab's questions and the streams they play ("public" for the student's own check,
the others for grading); see :mod:`olkit.labs`.
"""
from __future__ import annotations

import re

import numpy as np

from ..proof import Proof, ProofStepError, fmt
from .feedback import LabFeedback, _call, _explain

__all__ = ["perceptron_case", "check_perceptron_update", "winnow_case", "check_winnow_update"]


def perceptron_case(case: str = "public") -> tuple[np.ndarray, np.ndarray, np.ndarray, float, float]:
    """(X, y, u, gamma, r): a stream separable by the unit vector u with margin gamma and radius r.
    Cases: ``public`` (T = 200, d = 5), ``one_dim`` (d = 1), ``one_round`` (T = 1), ``long``
    (T = 2000, d = 20, a small margin: many updates)."""
    from ..streams import separable_stream

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


def _updates_of(fn, X, y, w0, name: str, integer: bool = False) -> tuple[list[int], list[np.ndarray]]:
    """Play the student's update on the stream: the rounds on which w changed, and w before round 1
    and after each of those rounds."""
    w, rounds, states = w0.copy(), [], [w0.copy()]
    for t in range(1, len(y) + 1):
        new = _vector(_call(fn, name, t, w.copy(), X[t - 1].copy(), int(y[t - 1])), len(w0), name, t, integer)
        if not np.array_equal(new, w):
            rounds.append(t)
            states.append(new.copy())
        w = new
    return rounds, states


def check_perceptron_update(perceptron_update, case: str = "public") -> Proof:
    """The Perceptron (eta = 1, w_1 = 0) whose step is the student's ``perceptron_update(w, x, y)``,
    checked by the proof of its margin bound (Section 4.1, steps 0-6)."""
    from ..game import UpdateTrace
    from ..linear import margin_proof

    X, y, u, gamma, r = perceptron_case(case)
    rounds, states = _updates_of(perceptron_update, X, y, np.zeros(X.shape[1]), "perceptron_update")
    R = np.array(rounds, dtype=np.int64)
    W = np.array(states)
    before = W[:-1]
    yhat = np.where(y[R - 1] * np.einsum("ij,ij->i", before, X[R - 1]) <= 0, -y[R - 1], y[R - 1])
    tr = UpdateTrace(X=X, y=y, rounds=R, yhat=yhat.astype(np.int64), state={"w": W})
    says = {
        "0": lambda t, e: (f"Round {t}: y_t <w_t, x_t> = {fmt(y[t - 1] * float(tr.state_at('w', [t])[0] @ X[t - 1]))}; "
                           "the Perceptron updates exactly when it is <= 0 (a zero score, as with w = 0, counts "
                           "as a mistake)" + (", and your function changed w" if e.lhs else ", and your function "
                                              "left w unchanged") + "."),
        "3": lambda t, e: (f"After the update of round {t} the weights should be the sum of y_s x_s over the update "
                           "rounds so far (w <- w + y x, with the label's sign); one coordinate is "
                           f"{fmt(e.lhs)} where that sum gives {fmt(e.rhs)}."),
    }
    try:
        p, _, _ = margin_proof(tr, u, 1.0, "the proof of the Perceptron's margin bound (Section 4.1)", gamma=gamma,
                               radius=r)
    except ProofStepError as err:
        raise _explain(err, says) from None
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


def check_winnow_update(winnow_update, case: str = "public") -> Proof:
    """Winnow (w_1 = 1, predict +1 iff sum_j w_j x_j >= d) whose step is the student's
    ``winnow_update(w, x, y)``, checked by Blum's proof of the bound 1 + 2k ceil(lg d) (Section 4.3)."""
    from ..game import UpdateTrace
    from ..winnow import winnow_proof

    X, y, J = winnow_case(case)
    d = X.shape[1]
    rounds, states = _updates_of(winnow_update, X, y, np.ones(d, dtype=np.int64), "winnow_update", integer=True)
    R = np.array(rounds, dtype=np.int64)
    yk = y[R - 1]
    P, N = np.r_[0, np.cumsum(yk == 1)], np.r_[0, np.cumsum(yk == -1)]
    tr = UpdateTrace(X=X, y=y, rounds=R, yhat=-yk, state={"w": np.array(states), "P": P, "N": N,
                                                          "updates": np.arange(len(R) + 1)})
    says = {
        "0": lambda t, e: ("Winnow predicts +1 when sum_j w_j x_j >= d and updates exactly on its mistakes; in round "
                           f"{t} your function " + ("changed w without a mistake." if e.lhs else
                                                    "left w unchanged after a mistake.")),
        "rule": lambda t, e: _winnow_rule_says(e, R, X, y),
    }
    try:
        return winnow_proof(tr, J, d, "Blum's proof of Winnow's bound (Section 4.3)")
    except ProofStepError as err:
        raise _explain(err, says) from None
