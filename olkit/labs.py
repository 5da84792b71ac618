"""Feedback for the labs (``labs/``): a function a student wrote, played and checked by the chapter's proof.

A lab question asks for the core of an algorithm as a plain function: Halving's prediction on a
version space, Hedge's distribution over the experts.  The checks here wrap that function into a
learner, play a recorded game on a fixed stream (``case``: ``"public"`` for the student's own check,
others -- ties, a single hypothesis, one round, large losses -- for grading), and run the chapter's
proof on the trace: the same steps the chapter's notebook checks.  When a step fails,
:class:`LabFeedback` says in a sentence which step, in which round, with both sides and what it means
for the student's function; otter-grader shows that sentence as the test's failure.

A lab's tests call these functions only, so the public and hidden tests differ by the stream alone.
"""
from __future__ import annotations

import math
import re
from typing import Callable

import numpy as np

from .classes import all_functions, thresholds
from .finite import halving_proof
from .game import run
from .proof import Proof, ProofStepError, fmt

__all__ = [
    "LabFeedback",
    "check_halving_predict",
    "check_halving_update",
    "check_halving_run",
    "check_hedge_distribution",
    "check_hedge_regret",
    "halving_case",
    "hedge_case",
]


class LabFeedback(AssertionError):
    """What a lab check found wrong, as a sentence for the student."""


def _round_of(err: ProofStepError) -> int | None:
    m = re.search(r"round (\d+)", str(err.round))
    return int(m[1]) if m else None


def _explain(err: ProofStepError, says: dict[str, Callable[[int | None, ProofStepError], str]]) -> LabFeedback:
    """The failed step in words: the proof, the step and its claim, the round, both sides, and what the
    lab's ``says[step]`` makes of them for the student's function."""
    t = _round_of(err)
    where = f"in round {t}" if t is not None else f"at {err.round}"
    text = (f"Step {err.step} of {err.proof} fails {where}: '{err.claim}' should hold, but the left side is "
            f"{fmt(err.lhs)} and the right side {fmt(err.rhs)}.")
    hint = says.get(err.step)
    if hint is not None:
        text += " " + hint(t, err)
    return LabFeedback(text)


def _call(fn: Callable, name: str, t: int, *args):
    """Call the student's function; an exception it raises becomes feedback naming the round."""
    if not callable(fn):
        raise LabFeedback(f"{name} is not a function (got {fn!r}): define it with def {name}(...) and run its cell")
    try:
        return fn(*args)
    except LabFeedback:
        raise
    except Exception as exc:  # the student's code failed: say where, keep the cause
        raise LabFeedback(f"{name} raised {type(exc).__name__}: {exc} (in round {t})") from exc


# --------------------------------------------------------------------------------------------
# Lab 1: Halving on a class matrix (Section 1.2, Theorem 21.3 of Shalev-Shwartz and Ben-David 2014)

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


def _label01(v, name: str, t: int) -> int:
    if isinstance(v, (bool, np.bool_)):
        return int(v)
    if isinstance(v, (int, np.integer)) and int(v) in (0, 1):
        return int(v)
    raise LabFeedback(f"{name} returned {v!r} in round {t}; it must return the label 0 or 1"
                      + (" (is the function still '...'?)" if v is None or v is Ellipsis else ""))


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

    def predict(self, x) -> int:
        out = _call(self._predict, self.names[0], self.t, self.H.copy(), self.alive.copy(), int(x))
        return _label01(out, self.names[0], self.t)

    def update(self, x, y) -> None:
        out = _call(self._update, self.names[1], self.t, self.H.copy(), self.alive.copy(), int(x), int(y))
        self.alive = _alive_mask(out, len(self.H), self.names[1], self.t)
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
        return (f"After round {t - 1} (x = {xs[t - 2]}, y = {ys[t - 2]}) your {update_name} kept {fmt(err.lhs)} "
                f"of the {before} hypotheses alive before it; {fmt(err.rhs)} of them label x = {xs[t - 2]} with "
                f"y = {ys[t - 2]}, and exactly those stay.")

    def halves(t, err):
        return ("A mistake must cut the version space at least in half: the prediction was the minority "
                "vote, or the update kept hypotheses that disagree with the label.")

    return {"0'": majority, "0": sizes, "2": halves, "3": halves}


def _halving_check(H, xs, ys, learner, predict_name, update_name) -> Proof:
    trace = run(learner, xs, ys)
    try:
        return halving_proof(trace, H, "the proof of Halving's mistake bound (Section 1.2)")
    except ProofStepError as err:
        raise _explain(err, _halving_says(H, xs, ys, predict_name, update_name)) from None


def check_halving_predict(halving_predict, case: str = "public") -> Proof:
    """Halving with the student's ``halving_predict(H, alive, x)`` and the book's update, checked by
    the proof of Halving's bound (steps 0-5 of Section 1.2); returns the proof if every step holds."""
    H, xs, ys = halving_case(case)
    learner = _FunctionHalving(H, halving_predict, _halving_update_ref, ("halving_predict", "the book's update"))
    return _halving_check(H, xs, ys, learner, "halving_predict", "the book's update")


def check_halving_update(halving_update, case: str = "public") -> Proof:
    """Halving with the book's prediction and the student's ``halving_update(H, alive, x, y)``."""
    H, xs, ys = halving_case(case)
    learner = _FunctionHalving(H, _halving_predict_ref, halving_update, ("the book's prediction", "halving_update"))
    return _halving_check(H, xs, ys, learner, "the book's prediction", "halving_update")


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
    from .game import Trace

    trace = Trace(x=xs, y=ys, yhat=np.array(preds, dtype=np.int64), state={"V_size": sizes.astype(float)})
    try:
        return halving_proof(trace, H, "the proof of Halving's mistake bound (Section 1.2)")
    except ProofStepError as err:
        raise _explain(err, _halving_says(H, xs, ys, "halving_run", "halving_run")) from None


# --------------------------------------------------------------------------------------------
# Lab 3: Hedge on a loss matrix (Section 3.2; Mohri, Rostamizadeh and Talwalkar, Theorem 7.6)

def hedge_case(case: str = "public") -> tuple[np.ndarray, float]:
    """(losses, eta): a T x N loss matrix in [0, 1] and the rate.  Cases: ``public`` (T = 40, N = 5,
    the tuned rate), ``single`` (N = 1), ``one_round`` (T = 1), ``ties`` (every expert has the same
    losses), ``large`` (T = 400, eta = 8: exp(-eta L) underflows unless computed stably)."""
    if case == "public":
        losses = np.random.default_rng(2026).random((40, 5))
    elif case == "single":
        losses = np.random.default_rng(1).random((10, 1))
    elif case == "one_round":
        losses = np.random.default_rng(2).random((1, 4))
    elif case == "ties":
        losses = np.repeat(np.random.default_rng(3).random((12, 1)), 3, axis=1)
    elif case == "large":
        rng = np.random.default_rng(4)
        losses = np.clip(rng.random((400, 6)) + np.array([0.0, 0.2, 0.3, 0.4, 0.5, 0.6]), 0, 1)
        return losses, 8.0
    else:
        raise ValueError(f"no Hedge lab case {case!r}")
    T, N = losses.shape
    return losses, math.sqrt(8 * math.log(N) / T) if N > 1 else 1.0


def _cumulative(losses: np.ndarray) -> np.ndarray:
    """L_0 = 0, L_1, ..., L_T: the cumulative losses before each round and after the last."""
    return np.vstack([np.zeros((1, losses.shape[1])), np.cumsum(losses, axis=0)])


def _hedge_p(L_before: np.ndarray, eta: float) -> np.ndarray:
    """The book's distributions, one row per round: exp(-eta (L - min L)) normalized (no underflow)."""
    w = np.exp(-eta * (L_before - L_before.min(axis=1, keepdims=True)))
    return w / w.sum(axis=1, keepdims=True)


def _potential(L: np.ndarray, eta: float) -> np.ndarray:
    """Phi_t = ln sum_i exp(-eta L_{t-1,i}), in log-sum-exp form."""
    m = L.min(axis=1)
    return -eta * m + np.log(np.exp(-eta * (L - m[:, None])).sum(axis=1))


def _hedge_proof(losses: np.ndarray, eta: float, P: np.ndarray, title: str) -> Proof:
    """Mohri et al. Theorem 7.6 on a run whose distributions are P (T x N): the steps of Section 3.2."""
    T, N = losses.shape
    L = _cumulative(losses)
    Phi = _potential(L, eta)
    mix = (P * losses).sum(axis=1)  # <p_t, l_t>
    regret = mix.sum() - L[-1].min()
    rounds = np.array([f"round {t}, expert {i}" for t in range(1, T + 1) for i in range(1, N + 1)], dtype=object)
    p = Proof(title)
    p.step("1", "p_{t,i} = exp(-eta L_{t-1,i}) / W_t", P, "==", _hedge_p(L[:-1], eta), tol=1e-9, rounds=rounds)
    p.step("2", "Phi_{t+1} - Phi_t <= -eta <p_t, l_t> + eta^2/8 (Hoeffding's lemma)", Phi[1:] - Phi[:-1], "<=",
           -eta * mix + eta**2 / 8 + 1e-12)
    p.step("3", "Phi_{T+1} - Phi_1 >= -eta min_i L_{T,i} - ln N", Phi[-1] - Phi[0], ">=",
           -eta * L[-1].min() - math.log(N) - 1e-12, kind="identity", why="one expert's weight is part of W")
    p.step("4", "Regret_T <= ln N / eta + eta T / 8", regret, "<=", math.log(N) / eta + eta * T / 8 + 1e-12)
    return p


def _hedge_says(losses: np.ndarray, eta: float, name: str) -> dict:
    def dist(t, err):
        L = _cumulative(losses)[t - 1]
        return (f"In round {t} (cumulative losses L = {np.array2string(L, precision=3)}, eta = {fmt(eta)}) the "
                f"weight of each expert is exp(-eta L_i) and {name} must return the weights divided by their "
                f"sum; one of its probabilities is {fmt(err.lhs)}, where the book computes {fmt(err.rhs)}."
                + (" Large eta L underflows: subtract min(L) before exponentiating." if not np.isfinite(err.lhs)
                   else ""))

    def hoeffding(t, err):
        return (f"The learner's expected loss in round {t} is too large for the potential's drop: are the "
                "probabilities those of the experts with the smallest losses?")

    return {"1": dist, "2": hoeffding, "4": lambda t, err: "The regret exceeds the theorem's bound."}


def check_hedge_distribution(hedge_distribution, case: str = "public") -> Proof:
    """Hedge whose distribution is the student's ``hedge_distribution(L, eta)`` (L: the cumulative
    losses of the rounds before), played on a lab loss matrix and checked by the proof of Theorem 7.6."""
    losses, eta = hedge_case(case)
    T, N = losses.shape
    L = _cumulative(losses)
    P = np.empty_like(losses)
    for t in range(1, T + 1):
        out = _call(hedge_distribution, "hedge_distribution", t, L[t - 1].copy(), eta)
        p = np.asarray(out, dtype=float) if out is not None and out is not Ellipsis else None
        if p is None or p.shape != (N,):
            got = "None" if p is None else f"shape {p.shape}"
            raise LabFeedback(f"hedge_distribution returned {got} in round {t}; it must return the N = {N} "
                              "probabilities of the experts" + (" (is the function still '...'?)" if p is None else ""))
        P[t - 1] = p
    try:
        return _hedge_proof(losses, eta, P, "the proof of Hedge's regret bound (Section 3.2)")
    except ProofStepError as err:
        raise _explain(err, _hedge_says(losses, eta, "hedge_distribution")) from None


def check_hedge_regret(hedge_regret, case: str = "public") -> Proof:
    """The student's ``hedge_regret(losses, eta)``: Hedge's regret sum_t <p_t, l_t> - min_i L_{T,i} on
    the whole loss matrix, against the book's, then the theorem's bound."""
    losses, eta = hedge_case(case)
    out = _call(hedge_regret, "hedge_regret", 1, losses.copy(), eta)
    if out is None or out is Ellipsis or np.ndim(out) != 0:
        raise LabFeedback(f"hedge_regret returned {out!r}; it must return one number, the regret"
                          + (" (is the function still '...'?)" if out is None or out is Ellipsis else ""))
    L = _cumulative(losses)
    P = _hedge_p(L[:-1], eta)
    book = float((P * losses).sum() - L[-1].min())
    p = Proof("the proof of Hedge's regret bound (Section 3.2)")
    try:
        p.step("0", "your regret = sum_t <p_t, l_t> - min_i L_{T,i}", float(out), "==", book, tol=1e-9)
        p.step("4", "Regret_T <= ln N / eta + eta T / 8", float(out), "<=",
               math.log(losses.shape[1]) / eta + eta * losses.shape[0] / 8 + 1e-12)
    except ProofStepError as err:
        says = {"0": lambda t, e: ("The regret is the learner's total expected loss, sum over rounds of "
                                   "<p_t, l_t> with p_t computed from the losses before round t only, minus "
                                   "the best expert's total loss.")}
        raise _explain(err, says) from None
    return p
