"""Lab 1: Halving on a class matrix (Section 1.2, Theorem 21.3 of Shalev-Shwartz and Ben-David 2014).

The checks of this lab's questions and the streams they play ("public" for the student's own check,
the others for grading); see :mod:`olkit.labs`.  Each check plays the student's function, runs the
proof of Theorem 1.3 (``thm-halving``) on the recorded run, and then verifies the rule of Algorithm 1.3
(``alg-halving``) that the question states, round by round, against a computation of its own: the
prediction must be the majority vote of V_t (1 on a tie) on every point, not only on x_t, and the
update must keep exactly the hypotheses of V_t that give x_t the label y_t.  A different rule whose
run still satisfies the bound is a wrong answer.
"""
from __future__ import annotations

import numpy as np

from ..classes import all_functions, thresholds
from ..finite import halving_proof
from ..game import Trace, run
from ..proof import Proof, ProofStepError, fmt
from .feedback import LabFeedback, _call, _explain, _label01, _rule

__all__ = ["halving_case", "check_halving_predict", "check_halving_update", "check_halving_run"]


def halving_case(case: str = "public") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(H, xs, ys) of a lab stream: the labels of a target in H (realizable), chosen so that Halving
    errs in round 1 (every step of the proof then has an instance).  Cases: ``public``, ``ties``
    (every function on 4 points: each new point splits the votes evenly), ``one_round`` (T = 1),
    ``thresholds`` (17 thresholds on 16 points)."""
    if case == "public":
        rng = np.random.default_rng(2026)
        H = np.unique(rng.integers(0, 2, size=(40, 12), dtype=np.uint8), axis=0)
        xs = rng.integers(0, 12, size=30)
    elif case == "ties":
        H, xs = all_functions(4), np.array([0, 1, 2, 3, 0, 2])
    elif case == "one_round":
        H = np.unique(np.random.default_rng(7).integers(0, 2, size=(8, 6), dtype=np.uint8), axis=0)
        xs = np.array([3])
    elif case == "thresholds":
        H, xs = thresholds(16), np.random.default_rng(3).permutation(16)
    else:
        raise ValueError(f"no Halving lab case {case!r}")
    H = np.ascontiguousarray(H, dtype=np.uint8)
    xs = np.asarray(xs, dtype=np.int64)
    first = _halving_predict_ref(H, np.ones(len(H), dtype=bool), xs[0])
    target = int(np.flatnonzero(H[:, xs[0]] != first)[len(H) // 7 % max(1, int((H[:, xs[0]] != first).sum()))])
    return H, xs, H[target, xs].astype(np.int64)


def _halving_predict_ref(H, alive, x) -> int:
    ones, size = int(H[alive, x].sum()), int(alive.sum())
    return 1 if 2 * ones >= size else 0


def _halving_update_ref(H, alive, x, y) -> np.ndarray:
    return alive & (H[:, x] == y)


def _alive_mask(v, size: int, name: str, t: int) -> np.ndarray:
    a = np.asarray(v) if v is not None and v is not Ellipsis else None
    if a is None or a.shape != (size,) or a.dtype != bool:
        got = "None" if a is None else f"an array of shape {a.shape} and dtype {a.dtype}"
        raise LabFeedback(f"{name} returned {got} in round {t}; it must return the new alive mask: a boolean "
                          f"array of length |H| = {size}" + (" (is the function still '...'?)" if a is None else ""))
    return a.copy()


class _FunctionHalving:
    """Halving whose prediction and update are the student's functions f(H, alive, x[, y])."""

    labels = (0, 1)

    def __init__(self, H, predict, update, names):
        self.H, self.alive, self.t = H, np.ones(len(H), dtype=bool), 1
        self._predict, self._update, self.names = predict, update, names
        self.updates: list[tuple[np.ndarray, int, int, np.ndarray]] = []  # (V_t, x_t, y_t, V_{t+1}) per round

    def predict(self, x) -> int:
        out = _call(self._predict, self.names[0], self.t, self.H.copy(), self.alive.copy(), int(x))
        return _label01(out, self.names[0], self.t)

    def update(self, x, y) -> None:
        out = _call(self._update, self.names[1], self.t, self.H.copy(), self.alive.copy(), int(x), int(y))
        new = _alive_mask(out, len(self.H), self.names[1], self.t)
        self.updates.append((self.alive.copy(), int(x), int(y), new.copy()))
        self.alive = new
        self.t += 1

    def state(self) -> dict:
        return {"V_size": int(self.alive.sum())}


def _votes(H, xs, ys, t: int) -> tuple[int, int]:
    """(votes for 1, |V_t|) in round t, recomputed from the stream."""
    alive = np.all(H[:, xs[: t - 1]] == ys[: t - 1][None, :], axis=1)
    return int(H[alive, xs[t - 1]].sum()), int(alive.sum())


def _halving_says(H, xs, ys, predict_name: str, update_name: str) -> dict:
    def majority(t, err):
        ones, size = _votes(H, xs, ys, t)
        tie = ", a tie, which Halving breaks towards 1" if 2 * ones == size else ""
        alive = f"the {size} hypotheses still alive vote" if size > 1 else "the one hypothesis still alive votes"
        votes = f"{alive} {ones} for 1 and {size - ones} for 0{tie}, so Halving predicts {fmt(err.rhs)}"
        if predict_name.startswith("the book"):  # the student's update kept a wrong set of the right size
            return (f"The book's prediction on the hypotheses your {update_name} kept is {fmt(err.lhs)} on "
                    f"x = {xs[t - 1]}, but {votes}: your {update_name} kept the wrong hypotheses (as many as "
                    "it should, not the same ones).")
        return f"Your {predict_name} returned {fmt(err.lhs)} on x = {xs[t - 1]}; {votes}."

    def sizes(t, err):
        if t is None or t < 2:
            return f"The version space must start as all of H (|H| = {len(H)})."
        _, before = _votes(H, xs, ys, t - 1)
        x, y = xs[t - 2], ys[t - 2]
        return (f"After round {t - 1} (x = {x}, y = {y}) your {update_name} has {fmt(err.lhs)} hypotheses in its "
                f"version space, but {fmt(err.rhs)} hypotheses of H agree with every label of rounds 1 to {t - 1}: "
                f"of the {before} hypotheses consistent before round {t - 1}, exactly those that label x = {x} "
                f"with y = {y} stay.")

    def halves(t, err):
        return ("A mistake must cut the version space at least in half: the prediction was the minority "
                "vote, or the update kept hypotheses that disagree with the label.")

    def on_round(hint):  # a run of one round: the proof names no round ("the run"), and it is round 1
        return lambda t, err: hint(1 if t is None and len(xs) == 1 and err.step != "0" else t, err)

    return {"0'": on_round(majority), "0": sizes, "2": halves, "3": halves}


#: The title of the proof the checks run (Theorem 1.3 of the book, ``thm-halving``).
PROOF_TITLE = "the proof of Theorem 1.3 (Halving's mistake bound)"
RULE_PREDICT = "Halving's prediction, the majority vote of V_t with 1 on a tie"
RULE_UPDATE = "Halving's update, V_{t+1} = the hypotheses of V_t that label x_t with y_t"


def _halving_check(H, xs, ys, learner, predict_name, update_name) -> Proof:
    trace = run(learner, xs, ys)
    try:
        return halving_proof(trace, H, PROOF_TITLE)
    except ProofStepError as err:
        raise _explain(err, _halving_says(H, xs, ys, predict_name, update_name), ref="thm-halving") from None


def _rows(mask: np.ndarray) -> str:
    rows = [f"h_{i}" for i in np.flatnonzero(mask)]
    return "{" + ", ".join(rows[:8]) + (", ..." if len(rows) > 8 else "") + "}" if rows else "no hypothesis"


def _check_predict_rule(H, xs, ys, halving_predict) -> None:
    """The rule of question 1, round by round: on V_t (rebuilt from the labels with plain numpy), the
    student's prediction at every point x of the domain is the majority vote of V_t, 1 on a tie."""
    alive = np.ones(len(H), dtype=bool)
    for t, (x_t, y_t) in enumerate(zip(xs, ys), start=1):
        ones, size = H[alive].sum(axis=0).astype(int), int(alive.sum())
        want = np.where(2 * ones >= size, 1, 0)
        for x in [int(x_t)] + [x for x in range(H.shape[1]) if x != x_t]:
            got = _label01(_call(halving_predict, "halving_predict", t, H.copy(), alive.copy(), x),
                           "halving_predict", t)
            if got != want[x]:
                tie = ", a tie" if 2 * ones[x] == size else ""
                where = "the round's point" if x == x_t else f"a point other than the round's x_t = {x_t}"
                raise _rule("halving_predict", t, RULE_PREDICT, "alg-halving", f"{got} on x = {x} ({where})",
                            str(want[x]), f"the {size} hypotheses of V_t vote {ones[x]} for 1 and {size - ones[x]} "
                            f"for 0 on x = {x}{tie}; the rule must hold on every point")
        alive = alive & (H[:, x_t] == y_t)


def _check_update_rule(H, updates) -> None:
    """The rule of question 2, round by round: the student's V_{t+1} is exactly the set of hypotheses of
    the V_t it was given that label x_t with y_t (not merely a set of the right size)."""
    for t, (before, x, y, after) in enumerate(updates, start=1):
        want = before & (H[:, x] == y)
        if np.array_equal(after, want):
            continue
        why = []
        if (after & before & ~want).any():
            why.append(f"it kept {_rows(after & before & ~want)}, which label x = {x} with {1 - y}")
        if (after & ~before).any():
            why.append(f"it brought back {_rows(after & ~before)}, which were no longer in V_t")
        if (want & ~after).any():
            why.append(f"it dropped {_rows(want & ~after)}, which are in V_t and label x = {x} with y = {y}")
        raise _rule("halving_update", t, RULE_UPDATE, "alg-halving", f"a version space of {int(after.sum())} "
                    f"hypotheses", f"the {int(want.sum())} hypotheses of V_t with h({x}) = {y}", "; ".join(why))


def check_halving_predict(halving_predict, case: str = "public") -> Proof:
    """Halving with the student's ``halving_predict(H, alive, x)`` and the book's update, checked by
    the proof of Theorem 1.3 (steps 0-5) and then by the rule round by round (the majority vote of V_t,
    1 on a tie, at every point of the domain); returns the proof if both hold."""
    H, xs, ys = halving_case(case)
    learner = _FunctionHalving(H, halving_predict, _halving_update_ref, ("halving_predict", "the book's update"))
    proof = _halving_check(H, xs, ys, learner, "halving_predict", "the book's update")
    _check_predict_rule(H, xs, ys, halving_predict)
    return proof


def check_halving_update(halving_update, case: str = "public") -> Proof:
    """Halving with the book's prediction and the student's ``halving_update(H, alive, x, y)``, checked
    by the proof of Theorem 1.3 and then by the rule round by round: the new version space is exactly
    the hypotheses of the old one that give x_t the label y_t."""
    H, xs, ys = halving_case(case)
    learner = _FunctionHalving(H, _halving_predict_ref, halving_update, ("the book's prediction", "halving_update"))
    proof = _halving_check(H, xs, ys, learner, "the book's prediction", "halving_update")
    _check_update_rule(H, learner.updates)
    return proof


def check_halving_run(halving_run, case: str = "public") -> Proof:
    """The student's whole game, ``halving_run(H, xs, ys) -> (predictions, sizes)``: the predictions
    yhat_1..yhat_T and the sizes |V_1|..|V_{T+1}|, checked step by step by the same proof."""
    H, xs, ys = halving_case(case)
    out = _call(halving_run, "halving_run", 1, H.copy(), xs.copy(), ys.copy())
    if not isinstance(out, tuple) or len(out) != 2:
        raise LabFeedback(f"halving_run returned {type(out).__name__}; it must return two lists: the predictions "
                          "yhat_1..yhat_T and the sizes |V_1|..|V_{T+1}|"
                          + (" (is the function still '...'?)" if out is None or out is Ellipsis else ""))
    yhat, sizes = (np.asarray(v) for v in out)
    T = len(xs)
    if yhat.shape != (T,) or sizes.shape != (T + 1,):
        raise LabFeedback(f"halving_run returned {yhat.size} predictions and {sizes.size} sizes; on this stream "
                          f"of T = {T} rounds there are {T} predictions and {T + 1} sizes (|V_1| = |H| first)")
    preds = [_label01(v.item(), "halving_run", t) for t, v in enumerate(yhat, start=1)]
    trace = Trace(x=xs, y=ys, yhat=np.array(preds, dtype=np.int64), state={"V_size": sizes.astype(float)})
    try:  # steps 0 and 0' are the rule of the question: |V_t| and the majority vote, recomputed
        return halving_proof(trace, H, PROOF_TITLE)
    except ProofStepError as err:
        raise _explain(err, _halving_says(H, xs, ys, "halving_run", "halving_run"), ref="thm-halving") from None
