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


# --------------------------------------------------------------------------------------------
# Lab 4: the Perceptron's and Winnow's updates (Sections 4.1 and 4.3; Mohri, Rostamizadeh and Talwalkar,
# Theorem 7.8; Blum's proof of Winnow's bound in Telgarsky's lecture 10)

def perceptron_case(case: str = "public") -> tuple[np.ndarray, np.ndarray, np.ndarray, float, float]:
    """(X, y, u, gamma, r): a stream separable by the unit vector u with margin gamma and radius r.
    Cases: ``public`` (T = 200, d = 5), ``one_dim`` (d = 1), ``one_round`` (T = 1), ``long``
    (T = 2000, d = 20, a small margin: many updates)."""
    from .streams import separable_stream

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
    from .game import UpdateTrace
    from .linear import margin_proof

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
    from .winnow import disjunction_labels

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
    from .game import UpdateTrace
    from .winnow import winnow_proof

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


# --------------------------------------------------------------------------------------------
# Lab 5: projections and one step of online gradient descent (Section 5.1; UML Theorem 21.15)

def ogd_case(kind: str, case: str = "public"):
    """(K, G, eta): a set of olkit.oco (``ball``, ``box`` or ``simplex``), linear losses f_t(w) = <g_t, w>
    (rows of G) and a step size.  Cases: ``public`` (d = 4, T = 30), ``one_round`` (T = 1), ``big_steps``
    (eta = 5: nearly every point leaves the set), ``one_dim`` (d = 1; the simplex is then {1})."""
    from . import oco

    d, T, eta, seed = {"public": (4, 30, 0.3, 2026), "one_round": (3, 1, 0.5, 11), "big_steps": (5, 25, 5.0, 12),
                       "one_dim": (1, 12, 0.4, 13)}.get(case, (0, 0, 0.0, 0))
    if d == 0:
        raise ValueError(f"no OGD lab case {case!r}")
    K = {"ball": lambda: oco.Ball(d, 1.5), "box": lambda: oco.Box(d, -1.0, 0.5), "simplex": lambda: oco.Simplex(d)}
    if kind not in K:
        raise ValueError(f"no set {kind!r}; one of {sorted(K)}")
    G = np.random.default_rng(seed).normal(size=(T, d))
    return K[kind](), G, eta


class _StudentOGD:
    """OGD on K whose step is w_{t+1} = step(w_t, v_t, eta) (the student's) and records z_t = w_t - eta v_t."""

    def __init__(self, K, eta, step: Callable, name: str):
        self.K, self.eta, self.w, self.t, self.step, self.name = K, eta, K.start.copy(), 1, step, name
        self.record: dict = {}

    def point(self) -> np.ndarray:
        return self.w

    def update(self, v) -> None:
        out = _call(self.step, self.name, self.t, self.w.copy(), np.array(v, dtype=float), self.eta)
        new = np.asarray(out, dtype=float) if out is not None and out is not Ellipsis else None
        if new is None or new.shape != self.w.shape or not np.all(np.isfinite(new)):
            got = "None" if new is None else f"an array of shape {new.shape}" + (
                "" if new.shape != self.w.shape else " with a value that is not finite")
            raise LabFeedback(f"{self.name} returned {got} in round {self.t}; it must return a point of R^{self.K.d}"
                              + (" (is the function still '...'?)" if new is None else ""))
        self.record = {"eta": self.eta, "z": self.w - self.eta * np.asarray(v, dtype=float)}
        self.w = new
        self.t += 1


def _ogd_check(kind: str, case: str, step: Callable, name: str, what: str) -> Proof:
    from . import oco

    K, G, eta = ogd_case(kind, case)
    tr = oco.play(_StudentOGD(K, eta, step, name), [oco.Linear(g) for g in G])
    U = np.vstack([K.start, oco.random_points(K, 20, np.random.default_rng(0))])
    says = {
        "P": lambda t, e: (f"In round {t} the point z_t = w_t - eta v_t is {np.array2string(tr.record['z'][t - 1], precision=3)}; "
                           f"the next point must be its projection onto {K!r}, the point of the set closest to "
                           f"z_t, but {what} gave {np.array2string(tr.w[t], precision=3)} (distance "
                           f"{fmt(e.lhs)} from the projection)."),
    }
    try:
        p, _, _, _ = oco.ogd_proof(K, "linear", G, None, eta, tr, U, f"the proof of OGD's regret bound on a {kind} "
                                   "(Section 5.1)")
    except ProofStepError as err:
        raise _explain(err, says) from None
    return p


def check_projection(project, kind: str, case: str = "public") -> Proof:
    """OGD on the ``kind`` set whose projection is the student's: ``project(z)`` for the simplex,
    ``project(z, B)`` for the ball of radius B, ``project(z, lo, hi)`` for the box; checked by the
    proof of OGD's regret bound (step P compares each w_{t+1} with the exact projection of z_t)."""
    K, _, _ = ogd_case(kind, case)
    extra = {"ball": lambda: (K.B,), "box": lambda: (K.lo.copy(), K.hi.copy()), "simplex": lambda: ()}[kind]()
    name = f"project_{kind}"

    def step(w, v, eta):
        return _call(project, name, 0, w - eta * v, *extra)

    return _ogd_check(kind, case, step, name, f"your {name}")


def check_ogd_step(ogd_step, kind: str = "ball", case: str = "public") -> Proof:
    """OGD whose step is the student's ``ogd_step(w, v, eta, project)`` (``project``: the book's exact
    projection onto the set), checked by the proof of OGD's regret bound."""
    K, _, _ = ogd_case(kind, case)
    return _ogd_check(kind, case, lambda w, v, eta: ogd_step(w, v, eta, K.project), "ogd_step", "your ogd_step")
