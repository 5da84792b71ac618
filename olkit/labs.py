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
from .game import Trace, run
from .proof import Proof, ProofStepError, fmt

__all__ = [
    "LabFeedback",
    "batch_case",
    "check_exact_risk",
    "check_halving_hypothesis",
    "check_halving_predict",
    "check_halving_run",
    "check_halving_update",
    "check_hedge_distribution",
    "check_hedge_regret",
    "check_ldim",
    "check_ogd_step",
    "check_perceptron_update",
    "check_projection",
    "check_random_iterate_risk",
    "check_soa_predict",
    "check_winnow_update",
    "halving_case",
    "hedge_case",
    "ldim_case",
    "ogd_case",
    "perceptron_case",
    "soa_case",
    "winnow_case",
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
    from . import convex

    d, T, eta, seed = {"public": (4, 30, 0.3, 2026), "one_round": (3, 1, 0.5, 11), "big_steps": (5, 25, 5.0, 12),
                       "one_dim": (1, 12, 0.4, 13)}.get(case, (0, 0, 0.0, 0))
    if d == 0:
        raise ValueError(f"no OGD lab case {case!r}")
    K = {"ball": lambda: convex.Ball(d, 1.5), "box": lambda: convex.Box(d, -1.0, 0.5), "simplex": lambda: convex.Simplex(d)}
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
    from . import convex, oco, oco_proof

    K, G, eta = ogd_case(kind, case)
    tr = oco.play(_StudentOGD(K, eta, step, name), [convex.Linear(g) for g in G])
    U = np.vstack([K.start, oco_proof.random_points(K, 20, np.random.default_rng(0))])
    says = {
        "P": lambda t, e: (f"In round {t} the point z_t = w_t - eta v_t is {np.array2string(tr.record['z'][t - 1], precision=3)}; "
                           f"the next point must be its projection onto {K!r}, the point of the set closest to "
                           f"z_t, but {what} gave {np.array2string(tr.w[t], precision=3)} (distance "
                           f"{fmt(e.lhs)} from the projection)."),
    }
    try:
        p, _, _, _ = oco_proof.ogd_proof(K, "linear", G, None, eta, tr, U, f"the proof of OGD's regret bound on a {kind} "
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


# --------------------------------------------------------------------------------------------
# Lab 2: the Littlestone dimension by its recursion, and SOA's prediction (Sections 2.1 and 2.2;
# UML Definition 21.5 and Lemma 21.7)

def ldim_case(case: str = "public") -> np.ndarray:
    """A small class (rows: hypotheses).  Cases: ``public`` (a random class 12 x 6), ``thresholds``
    (8 thresholds on 7 points, Ldim 3), ``all`` (every function on 3 points, Ldim 3), ``singletons``
    (Ldim 1), ``single`` (one hypothesis, Ldim 0), ``repeated`` (a class with a repeated row)."""
    from .classes import singletons

    if case == "public":
        return np.unique(np.random.default_rng(2026).integers(0, 2, size=(12, 6), dtype=np.uint8), axis=0)
    if case == "thresholds":
        return np.ascontiguousarray(thresholds(7), dtype=np.uint8)
    if case == "all":
        return np.ascontiguousarray(all_functions(3), dtype=np.uint8)
    if case == "singletons":
        return np.ascontiguousarray(singletons(5), dtype=np.uint8)
    if case == "single":
        return np.array([[0, 1, 1, 0]], dtype=np.uint8)
    if case == "repeated":
        H = np.random.default_rng(14).integers(0, 2, size=(6, 5), dtype=np.uint8)
        return np.vstack([H, H[2:3]])
    raise ValueError(f"no Ldim lab case {case!r}")


def _rows_text(H: np.ndarray, mask: np.ndarray) -> str:
    rows = ["".join(map(str, r)) for r in H[mask]]
    return "{" + ", ".join(rows[:8]) + (", ..." if len(rows) > 8 else "") + "}"


def check_ldim(ldim, case: str = "public") -> Proof:
    """The student's ``ldim(V)`` (V: a 0/1 matrix, one row per hypothesis) on the class of ``case`` and
    on every class reached from it by restrictions V_x^r: the base case (Ldim of one hypothesis is 0),
    the recursion of UML Definition 21.5 on the student's own values (Ldim(V) = max over the points x
    that split V of 1 + min(Ldim V_x^0, Ldim V_x^1)), and the value on the whole class against the
    book's :class:`olkit.littlestone.LdimByDefinition`.  A function that passes the first two on every
    reachable class computes the true Ldim (by induction on |V|); the feedback names the smallest class
    where it does not."""
    from .littlestone import LdimByDefinition

    H = ldim_case(case)
    m = len(H)
    values: dict[bytes, int] = {}

    def student(mask: np.ndarray) -> int:
        key = np.packbits(mask).tobytes()
        if key not in values:
            out = _call(ldim, "ldim", 0, H[mask].copy())
            if isinstance(out, (bool, np.bool_)) or not isinstance(out, (int, np.integer)):
                raise LabFeedback(f"ldim returned {out!r} for the class {_rows_text(H, mask)}; it must return an int"
                                  + (" (is the function still '...'?)" if out is None or out is Ellipsis else ""))
            values[key] = int(out)
        return values[key]

    # every class reachable by restrictions, smallest first (rows of H as a boolean mask)
    seen, frontier, reach = set(), [np.ones(m, dtype=bool)], []
    while frontier:
        V = frontier.pop()
        key = np.packbits(V).tobytes()
        if key in seen:
            continue
        seen.add(key)
        reach.append(V)
        for x in range(H.shape[1]):
            for r in (0, 1):
                W = V & (H[:, x] == r)
                if W.any() and not np.array_equal(W, V):
                    frontier.append(W)
    reach.sort(key=lambda V: int(V.sum()))
    base, base_at, got, best, at, why = [], [], [], [], [], {}
    for V in reach:
        label = f"the class {_rows_text(H, V)}"
        if np.all(H[V] == H[V][0]):  # one function (possibly repeated rows): no point splits V
            base.append(student(V))
            base_at.append(label)
            continue
        top, arg = -1, None
        for x in range(H.shape[1]):
            V0, V1 = V & (H[:, x] == 0), V & (H[:, x] == 1)
            if V0.any() and V1.any() and 1 + min(student(V0), student(V1)) > top:
                top, arg = 1 + min(student(V0), student(V1)), (x, V0, V1)
        got.append(student(V))
        best.append(top)
        at.append(label)
        x, V0, V1 = arg
        n0, n1 = int(V0.sum()), int(V1.sum())
        why[label] = (f"That class has {int(V.sum())} hypotheses; the best split is at x = {x}, into {n0} "
                      f"hypothes{'i' if n0 == 1 else 'e'}s of ldim {student(V0)} (label 0) and {n1} of ldim "
                      f"{student(V1)} (label 1), by your own function.")
    says = {
        "base": lambda t, e: "A class of one function (no point splits it) has Littlestone dimension 0.",
        "recursion": lambda t, e: why.get(str(e.round), ""),
    }
    p = Proof("the definition of the Littlestone dimension (Section 2.1)")
    try:
        p.step("base", "ldim(V) = 0 when V holds one function", np.array(base), "==", 0,
               rounds=np.array(base_at, dtype=object))
        if got:
            p.step("recursion", "ldim(V) = max over splitting x of 1 + min(ldim V_x^0, ldim V_x^1)", np.array(got),
                   "==", np.array(best), rounds=np.array(at, dtype=object))
        p.step("H", "your ldim(H) = the book's", student(np.ones(m, dtype=bool)), "==",
               LdimByDefinition(H)(np.ones(m, dtype=bool)))
    except ProofStepError as err:
        raise _explain(err, says) from None
    return p


def soa_case(case: str = "public") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(H, xs, ys) for SOA: a realizable stream.  Cases: ``public``, ``thresholds``, ``ties`` (every
    function on 3 points: restrictions of equal Ldim), ``one_round``, ``larger_is_simpler`` (in round 1
    the part with more hypotheses has the smaller Ldim, so SOA and the majority vote disagree)."""
    if case == "public":
        rng = np.random.default_rng(2026)
        H = np.unique(rng.integers(0, 2, size=(24, 8), dtype=np.uint8), axis=0)
        xs, target = rng.integers(0, 8, size=20), 5
    elif case == "thresholds":
        H, xs, target = thresholds(15), np.random.default_rng(15).permutation(15), 11
    elif case == "ties":
        H, xs, target = all_functions(3), np.array([0, 1, 2, 0]), 2
    elif case == "one_round":
        H, xs, target = all_functions(3), np.array([1]), 0
    elif case == "larger_is_simpler":  # the larger part has the smaller Ldim: SOA and the majority vote differ
        A = np.hstack([np.zeros((5, 3), dtype=np.uint8), np.eye(5, dtype=np.uint8)])  # x0 = 0, singletons: Ldim 1
        B = np.hstack([np.ones((4, 1), dtype=np.uint8), all_functions(2), np.zeros((4, 5), dtype=np.uint8)])  # Ldim 2
        H, xs, target = np.vstack([A, B]), np.array([0, 1, 2, 3]), 7
    else:
        raise ValueError(f"no SOA lab case {case!r}")
    H = np.ascontiguousarray(H, dtype=np.uint8)
    xs = np.asarray(xs, dtype=np.int64)
    return H, xs, H[target, xs].astype(np.int64)


def check_soa_predict(soa_predict, case: str = "public") -> Proof:
    """SOA whose prediction is the student's ``soa_predict(H, alive, x, ldim)`` (``ldim``: the book's
    Littlestone dimension of a 0/1 matrix), with the book's update: the rule (the label whose
    restriction has the larger Ldim, 1 on a tie) and UML Lemma 21.7's proof
    (:func:`olkit.soa.check_soa`)."""
    from .littlestone import LdimByDefinition
    from .soa import check_soa, soa_ldims

    H, xs, ys = soa_case(case)
    book = LdimByDefinition(H)

    def ldim_of(M) -> int:
        M = np.asarray(M)
        mask = np.array([any(np.array_equal(h, r) for r in M) for h in H]) if len(M) else np.zeros(len(H), bool)
        return book(mask)

    class _Learner:
        labels = (0, 1)

        def __init__(self):
            self.alive, self.t, self.details = np.ones(len(H), dtype=bool), 1, {}

        def predict(self, x):
            V0, V1 = self.alive & (H[:, x] == 0), self.alive & (H[:, x] == 1)
            self.details = {"ldim0": book(V0), "ldim1": book(V1)}
            out = _call(soa_predict, "soa_predict", self.t, H.copy(), self.alive.copy(), int(x), ldim_of)
            return _label01(out, "soa_predict", self.t)

        def update(self, x, y):
            self.alive = self.alive & (H[:, x] == y)
            self.t += 1

        def state(self):
            return {"ldim": book(self.alive), "V_size": int(self.alive.sum())}

    tr = run(_Learner(), xs, ys)
    _, l0, l1 = soa_ldims(H, xs, ys, LdimByDefinition(H))
    rule = np.where(l1 > l0, 1, np.where(l0 > l1, 0, 1))
    says = {"rule": lambda t, e: (f"In round {t} (x = {xs[t - 1]}) the hypotheses alive that label x with 0 have Ldim "
                                  f"{l0[t - 1]}, those that label it 1 have Ldim {l1[t - 1]}; SOA predicts the label "
                                  "with the larger Ldim (1 on a tie), here " + f"{rule[t - 1]}, and your soa_predict "
                                  f"returned {fmt(e.lhs)}.")}
    try:
        p = Proof("the proof of SOA's mistake bound (Section 2.2)")
        p.step("rule", "yhat_t = the label r with the larger Ldim(V_t(r)), 1 on a tie", tr.yhat, "==", rule)
        return check_soa({case: (tr, H)}, "the proof of SOA's mistake bound (Section 2.2)")
    except ProofStepError as err:
        raise _explain(err, says) from None


# --------------------------------------------------------------------------------------------
# Lab 6: the online-to-batch hypothesis and its exact risk (Section 6.1; UML Section 21.4's
# conversion, Cesa-Bianchi, Conconi and Gentile 2004)

def batch_case(case: str = "public"):
    """(H, p, target, T): a class of thresholds, a distribution p over the points (Fractions), the
    target's row and the sample size.  Cases: ``public`` (thresholds on 4 points, T = 3), ``uniform``
    (p uniform), ``one_round`` (T = 1), ``point_mass`` (all mass on one point)."""
    from fractions import Fraction as F

    H = np.ascontiguousarray(thresholds(4), dtype=np.uint8)
    p, target, T = {"public": ((F(1, 8), F(3, 8), F(1, 4), F(1, 4)), 2, 3),
                    "uniform": ((F(1, 4),) * 4, 3, 3),
                    "one_round": ((F(1, 8), F(3, 8), F(1, 4), F(1, 4)), 1, 1),
                    "point_mass": ((F(0), F(1), F(0), F(0)), 2, 2)}.get(case, (None, None, None))
    if p is None:
        raise ValueError(f"no online-to-batch lab case {case!r}")
    return H, p, target, T


def _majority_all(H, alive) -> np.ndarray:
    ones = H[alive].sum(axis=0, dtype=np.int64)
    return (2 * ones >= int(alive.sum())).astype(np.int64)


def _exact(v, name: str, what: str):
    from fractions import Fraction

    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer, Fraction)):
        raise LabFeedback(f"{name} returned {v!r} for {what}; it must return an exact number, a Fraction (or an int)"
                          + (" (is the function still '...'?)" if v is None or v is Ellipsis else
                             ": add the Fractions of p, not floats" if isinstance(v, float) else ""))
    return Fraction(v)


def check_halving_hypothesis(halving_hypothesis, case: str = "public") -> Proof:
    """The student's ``halving_hypothesis(H, alive)``: the labels h_t(x) of Halving's hypothesis on every
    point (the majority vote of the alive rows, 1 on a tie), on every version space of every sample."""
    import itertools

    H, p, target, T = batch_case(case)
    n = H.shape[1]
    got, want, at = [], [], []
    for S in itertools.product(range(n), repeat=T):
        alive = np.ones(len(H), dtype=bool)
        for t, x in enumerate(S, start=1):
            out = _call(halving_hypothesis, "halving_hypothesis", t, H.copy(), alive.copy())
            h = np.asarray(out) if out is not None and out is not Ellipsis else None
            if h is None or h.shape != (n,):
                raise LabFeedback(f"halving_hypothesis returned {'None' if h is None else 'shape ' + str(h.shape)}; it "
                                  f"must return the n = {n} labels h(0), ..., h({n - 1})"
                                  + (" (is the function still '...'?)" if h is None else ""))
            got.append(h.astype(np.int64))
            want.append(_majority_all(H, alive))
            at.extend(f"round {t} of the sample {S}, point {j}" for j in range(n))
            alive = alive & (H[:, x] == H[target, x])
    p_ = Proof("the online-to-batch hypothesis of Halving (Section 6.1)")
    says = {"h": lambda t, e: ("h_t(x) is the majority vote at x of the hypotheses alive before round t (1 on a tie); "
                               f"yours gave {fmt(e.lhs)}, the vote gives {fmt(e.rhs)}.")}
    try:
        p_.step("h", "h_t(x) = the majority vote of V_t at x, 1 on a tie", np.concatenate(got), "==",
                np.concatenate(want), rounds=np.array(at, dtype=object))
    except ProofStepError as err:
        raise _explain(err, says) from None
    return p_


def check_exact_risk(exact_risk, case: str = "public") -> Proof:
    """The student's ``exact_risk(h, p, target)`` = sum_x p(x) 1[h(x) != target(x)], exactly, for every
    hypothesis h on the points (all 2^n of them)."""
    import itertools
    from fractions import Fraction

    H, p, target, _ = batch_case(case)
    n = H.shape[1]
    tgt = H[target].astype(np.int64)
    got, want, at = [], [], []
    for h in itertools.product((0, 1), repeat=n):
        h = np.array(h, dtype=np.int64)
        got.append(_exact(_call(exact_risk, "exact_risk", 0, h.copy(), tuple(p), tgt.copy()), "exact_risk",
                          f"h = {h.tolist()}"))
        want.append(sum((pi for pi, a, b in zip(p, h, tgt) if a != b), Fraction(0)))
        at.append(f"h = {h.tolist()}")
    pr = Proof("the exact risk (Section 6.1)")
    says = {"L": lambda t, e: (f"The risk of h is the probability, under p = {[str(v) for v in p]}, of the points where h "
                               f"and the target {tgt.tolist()} disagree; yours gave {fmt(e.lhs)}, that sum is "
                               f"{fmt(e.rhs)}.")}
    try:
        pr.step("L", "L_D(h) = sum_x p(x) 1[h(x) != target(x)] (exactly)", np.array(got, dtype=object) == np.array(want, dtype=object),
                "==", True, rounds=np.array(at, dtype=object))
    except ProofStepError as err:
        i = [k for k, (a, b) in enumerate(zip(got, want)) if a != b][0]
        err.lhs, err.rhs = float(got[i]), float(want[i])
        raise _explain(err, says) from None
    return pr


def check_random_iterate_risk(random_iterate_risk, case: str = "public") -> Proof:
    """The student's ``random_iterate_risk(H, xs, p, target)``: the exact risk of the online-to-batch
    hypothesis h_r (r uniform in 1..T) after Halving on the sample ``xs`` (labelled by the target),
    E_r L_D(h_r) = (1/T) sum_t L_D(h_t), on every sample of size T; then the theorem, exactly: its
    average over the samples is at most Halving's expected mistakes / T <= log2 |H| / T."""
    import itertools
    import math as _m
    from fractions import Fraction

    H, p, target, T = batch_case(case)
    n = H.shape[1]
    tgt = H[target].astype(np.int64)
    got, want, at, weights, mistakes = [], [], [], [], []
    for S in itertools.product(range(n), repeat=T):
        alive, risks, M = np.ones(len(H), dtype=bool), [], 0
        for x in S:
            h = _majority_all(H, alive)
            risks.append(sum((pi for pi, a, b in zip(p, h, tgt) if a != b), Fraction(0)))
            M += int(h[x] != tgt[x])
            alive = alive & (H[:, x] == tgt[x])
        want.append(sum(risks, Fraction(0)) / T)
        got.append(_exact(_call(random_iterate_risk, "random_iterate_risk", 0, H.copy(), np.array(S), tuple(p), target),
                          "random_iterate_risk", f"the sample {S}"))
        weights.append(_m.prod(p[x] for x in S))
        mistakes.append(M)
        at.append(f"the sample {S}")
    expected = sum((w * g for w, g in zip(weights, got)), Fraction(0))
    expected_M = sum((w * M for w, M in zip(weights, mistakes)), Fraction(0))
    pr = Proof("the online-to-batch theorem (Section 6.1)")
    says = {"1": lambda t, e: ("E_r L_D(h_r) averages the exact risks of the hypotheses h_1, ..., h_T that Halving "
                               "holds before each round (h_t before seeing x_t), with weight 1/T each.")}
    try:
        ok = np.array([g == w for g, w in zip(got, want)])
        pr.step("1", "E_r L_D(h_r) = (1/T) sum_t L_D(h_t) on the sample", ok, "==", True, rounds=np.array(at, dtype=object))
        # given step 1, steps 2 and 3 are the section's theorem on the student's numbers: shown, not counted
        pr.step("2", "E_S E_r L_D(h_r) = E_S M_T / T (exactly, over all samples)", float(expected), "==",
                float(expected_M / T), tol=0.0, kind="identity",
                why="E_S L_D(h_t) = P(h_t(x_t) != y_t): h_t does not depend on x_t")
        pr.step("3", "E_S E_r L_D(h_r) <= log2 |H| / T", float(expected), "<=", _m.log2(len(H)) / T,
                kind="identity", why="Halving's bound M_T <= log2 |H| on every sample")
    except ProofStepError as err:
        if err.step == "1":
            i = int(np.flatnonzero(~ok)[0])
            err.lhs, err.rhs = float(got[i]), float(want[i])
        raise _explain(err, says) from None
    return pr
