"""Lab 3c: the doubling trick (Theorem 3.6 of the book; Mohri, Rostamizadeh and Talwalkar 2012, Theorem 7.7).

Hedge needs the horizon T for its tuned rate.  The doubling trick plays in blocks I_m = {2^m, ..., 2^(m+1) - 1}
of length 2^m, m = 0, 1, 2, ..., restarting Hedge at the start of each block (rounds 1, 2, 4, 8, ...) with
the rate eta_m = sqrt(8 ln N / 2^m) tuned for the block's length.  Question 1 asks for the schedule (the
block of round t and its rate), question 2 for a whole run (the distribution played in every round).
Each check plays the student's function on a loss matrix, runs the proof of Theorem 3.6 on the run
(steps 1, 2 and 3, numbered as in the book, and the theorem's bound at every t), then compares the run
with the doubling trick round by round (:class:`olkit.Doubling` around :class:`olkit.Hedge`): a schedule
whose run still meets the bound is a wrong answer if it is not the book's.
"""
from __future__ import annotations

import math

import numpy as np

from ..proof import Proof, ProofStepError, fmt
from .feedback import LabFeedback, _call, _explain, _rule

__all__ = ["doubling_case", "check_doubling_block", "check_doubling_run"]

_REF = "experts-thm-doubling"


def doubling_case(case: str = "public") -> np.ndarray:
    """A T x N loss matrix in [0, 1].  Cases: ``public`` (T = 100, N = 4, uniform losses), ``coins``
    (T = 1500, N = 10 coin flips, expert 3 of mean 0.45), ``alternating`` (two experts whose lead changes
    every round, T = 64), ``one_round`` (T = 1), ``power`` (T = 32, a power of 2: the last block has one
    round), ``huge`` (the public losses; question 1 also asks for the blocks of rounds up to 2^62)."""
    if case in ("public", "huge"):
        return np.random.default_rng(2026).random((100, 4))
    if case == "coins":
        means = np.full(10, 0.5)
        means[3] = 0.45
        return (np.random.default_rng(5).random((1500, 10)) < means).astype(float)
    if case == "alternating":
        losses = np.zeros((64, 2))
        losses[0] = [0.5, 0.0]
        losses[1::2] = [0.0, 1.0]
        losses[2::2] = [1.0, 0.0]
        return losses
    if case == "one_round":
        return np.random.default_rng(2).random((1, 3))
    if case == "power":
        return (np.random.default_rng(8).random((32, 3)) < np.array([0.3, 0.5, 0.6])).astype(float)
    raise ValueError(f"no doubling lab case {case!r}")


def _block(t: int) -> int:
    return int(t).bit_length() - 1  # 2^m <= t < 2^(m+1)


def _rate(N: int, m: int) -> float:
    return math.sqrt(8 * math.log(N) / 2**m)


def _reference(losses: np.ndarray) -> np.ndarray:
    """The book's doubling trick: olkit.Doubling around olkit.Hedge tuned for each block's length."""
    from ..expert_game import run_experts
    from ..experts import Doubling, Hedge, ewa_eta

    N = losses.shape[1]
    return run_experts(Doubling(N, lambda horizon: Hedge(N, ewa_eta(N, horizon))), losses).details["p"]


def _softmax_rows(X: np.ndarray) -> np.ndarray:
    w = np.exp(-(X - X.min(axis=-1, keepdims=True)))
    return w / w.sum(axis=-1, keepdims=True)


def _doubling_proof(losses: np.ndarray, P: np.ndarray, title: str) -> Proof:
    """Theorem 3.6 on a run whose distributions are P: on the book's blocks I_m, the regret of each full
    block (step 1) and of the last one (step 2); the regret is at most their sum (step 3, an identity);
    and the theorem's bound at every t (the conclusion of step 5)."""
    T, N = losses.shape
    with np.errstate(invalid="ignore", over="ignore"):
        mix = (P * losses).sum(axis=1)
    n = _block(T)
    regrets, labels = [], []
    for m in range(n + 1):
        s, e = 2**m, min(2 ** (m + 1) - 1, T)
        regrets.append(mix[s - 1:e].sum() - losses[s - 1:e].sum(axis=0).min())
        labels.append(f"the block of rounds {s}-{e}" if e > s else f"the block of round {s}")
    regrets = np.array(regrets)
    cum = np.cumsum(losses, axis=0)
    t = np.arange(1, T + 1)
    R_t = np.cumsum(mix) - cum.min(axis=1)
    r2 = math.sqrt(2)
    bound = r2 / (r2 - 1) * np.sqrt(t / 2 * math.log(N)) - math.sqrt(math.log(N) / 2) / (r2 - 1)
    eta_n = _rate(N, n)
    p = Proof(title)
    if n > 0:
        p.step("1", "a full block I_m: its regret <= sqrt((2^m / 2) ln N)", regrets[:-1], "<=",
               np.sqrt(2.0 ** np.arange(n) / 2 * math.log(N)) + 1e-9, rounds=np.array(labels[:-1], dtype=object))
    p.step("2", "the last block I_n: its regret <= ln N / eta_n + eta_n T' / 8", regrets[-1], "<=",
           (math.log(N) / eta_n + eta_n * (T + 1 - 2**n) / 8) + 1e-9, rounds=np.array(labels[-1:], dtype=object))
    p.step("3", "R_T <= the sum of the blocks' regrets", R_t[-1], "<=", regrets.sum() + 1e-9, kind="identity",
           why="the minimum of a sum >= the sum of the minima")
    p.step("5", "R_t <= sqrt(2)/(sqrt(2) - 1) sqrt((t/2) ln N) - sqrt((ln N)/2)/(sqrt(2) - 1), every t", R_t,
           "<=", bound + 1e-9)
    return p


def _says(losses: np.ndarray, P: np.ndarray, name: str) -> dict:
    def diff() -> str:
        want = _reference(losses)
        bad = np.flatnonzero(~np.all(np.isclose(P, want, rtol=1e-7, atol=1e-9), axis=1))
        if not len(bad):
            return ""
        t = int(bad[0]) + 1
        return (f" Your {name} first differs from the doubling trick in round {t}: it plays "
                f"{np.array2string(P[t - 1], precision=4)}, the doubling trick "
                f"{np.array2string(want[t - 1], precision=4)}.")

    def block(t, err):
        return ("The learner's loss on this block is too large for Hedge tuned for the block's length, "
                "restarted at its first round." + diff())

    def theorem(t, err):
        return "The regret exceeds the doubling trick's bound." + diff()

    return {"1": block, "2": block, "5": theorem}


def _why_block(t: int, m) -> str:
    k = _block(t)
    if m == k + 1 and t + 1 == 2 ** (k + 1):
        return (f"blocks start at rounds 1, 2, 4, 8, ...: round {t} = 2^{k + 1} - 1 is the last round of block {k}"
                + (" (a floating-point log2 rounds up just below a large power of 2: compute m with integers)"
                   if t > 2**40 else ""))
    return f"blocks start at rounds 1, 2, 4, 8, ...: 2^{k} <= {t} < 2^{k + 1}"


def _schedule(doubling_block, t: int, N: int) -> tuple[int, float]:
    out = _call(doubling_block, "doubling_block", t, t, N)
    if not isinstance(out, tuple) or len(out) != 2:
        raise LabFeedback(f"doubling_block returned {out!r} in round {t}; it must return a pair (m, eta): the block "
                          "of round t and the rate of that block"
                          + (" (is the function still '...'?)" if out is None or out is Ellipsis else ""))
    m, eta = out
    if isinstance(m, (bool, np.bool_)) or not isinstance(m, (int, np.integer)):
        raise LabFeedback(f"doubling_block returned the block {m!r} in round {t}; the block m must be an int")
    try:
        eta = float(eta)
    except (TypeError, ValueError):
        raise LabFeedback(f"doubling_block returned the rate {eta!r} in round {t}; it must be a number") from None
    return int(m), eta


def _check_schedule_rule(t: int, N: int, m: int, eta: float) -> None:
    k = _block(t)
    if m != k:
        raise _rule("doubling_block", t, "the doubling trick's blocks I_m = {2^m, ..., 2^(m+1) - 1}", _REF,
                    f"block {m}", f"block {k}", _why_block(t, m))
    want = _rate(N, k)
    if not math.isclose(eta, want, rel_tol=1e-9, abs_tol=1e-12):
        why = f"with N = {N}, block {k} is 2^{k} = {2**k} round{'s' if k else ''} long"
        if math.isclose(eta, math.sqrt(8 * math.log(N) / t), rel_tol=1e-9):
            why += "; your rate sqrt(8 ln N / t) is the anytime rate, not the block's"
        raise _rule("doubling_block", t, "the rate of block m, eta_m = sqrt(8 ln N / 2^m)", _REF, f"eta = {fmt(eta)}",
                    f"eta = {fmt(want)}", why)


def check_doubling_block(doubling_block, case: str = "public") -> Proof:
    """Question 1: the doubling trick whose blocks and rates are the student's ``doubling_block(t, N)`` ->
    (m, eta), played on a loss matrix: Hedge restarts whenever the student's block changes and plays the
    rate the student gives.  The proof of Theorem 3.6 is run on the run, then the schedule is compared
    with the book's round by round (and, for ``huge``, at rounds up to 2^62)."""
    losses = doubling_case(case)
    T, N = losses.shape
    sched = [_schedule(doubling_block, t, N) for t in range(1, T + 1)]
    P = np.empty_like(losses)
    L = np.zeros(N)
    for t, (m, eta) in enumerate(sched, start=1):
        if t > 1 and m != sched[t - 2][0]:
            L = np.zeros(N)  # a new block: Hedge restarts from uniform weights
        P[t - 1] = _softmax_rows(eta * L[None, :])[0]
        L = L + losses[t - 1]
    try:
        proof = _doubling_proof(losses, P, "the proof of the doubling trick's bound (Theorem 3.6)")
    except ProofStepError as err:
        raise _explain(err, _says(losses, P, "doubling_block"), ref=_REF) from None
    for t, (m, eta) in enumerate(sched, start=1):
        _check_schedule_rule(t, N, m, eta)
    if case == "huge":
        for k in range(1, 63):
            for t in (2**k - 1, 2**k):
                _check_schedule_rule(t, N, *_schedule(doubling_block, t, N))
    return proof


def _typical(losses: np.ndarray) -> dict[str, np.ndarray]:
    """Whole runs of typical wrong doubling tricks: what each does wrong -> its T x N distributions."""
    T, N = losses.shape
    t = np.arange(1, T + 1)
    m = np.array([_block(s) for s in t])
    eta = np.sqrt(8 * math.log(N) / 2.0**m)[:, None]
    cum = np.vstack([np.zeros(N), np.cumsum(losses, axis=0)])
    start = cum[2**m - 1]  # the cumulative losses before each round's block
    return {
        "Hedge's with the block's rate on the losses of all the rounds before t: it does not restart at the "
        "block's first round": _softmax_rows(eta * cum[:-1]),
        "Hedge's with weights that use round t's own losses (they must use rounds 2^m..t-1 only)":
            _softmax_rows(eta * (cum[1:] - start)),
    }


def _why_run(losses: np.ndarray, P: np.ndarray, t: int) -> str:
    for what, Q in _typical(losses).items():
        if np.allclose(P, Q, rtol=1e-7, atol=1e-9):
            return f"your distribution is {what}"
    N, m = losses.shape[1], _block(t)
    return (f"round {t} is in block {m} (rounds {2**m}-{2 ** (m + 1) - 1}), played by Hedge restarted at round "
            f"{2**m} with eta_{m} = sqrt(8 ln N / 2^{m}) = {fmt(_rate(N, m))}")


def check_doubling_run(doubling_run, case: str = "public") -> Proof:
    """Question 2: the student's ``doubling_run(losses)`` -> the T x N distributions the doubling trick
    plays; the proof of Theorem 3.6 on the run, then the run against the book's, round by round."""
    losses = doubling_case(case)
    T, N = losses.shape
    out = _call(doubling_run, "doubling_run", 1, losses.copy())
    P = np.asarray(out, dtype=float) if out is not None and out is not Ellipsis else None
    if P is None or P.shape != (T, N):
        got = "None" if P is None else f"an array of shape {P.shape}"
        raise LabFeedback(f"doubling_run returned {got}; it must return the T x N = {T} x {N} array of the "
                          "distributions p_1, ..., p_T" + (" (is the function still '...'?)" if P is None else ""))
    try:
        proof = _doubling_proof(losses, P, "the proof of the doubling trick's bound (Theorem 3.6)")
    except ProofStepError as err:
        raise _explain(err, _says(losses, P, "doubling_run"), ref=_REF) from None
    want = _reference(losses)
    for t in range(1, T + 1):
        if not (np.isfinite(P[t - 1]).all() and np.allclose(P[t - 1], want[t - 1], rtol=1e-7, atol=1e-9)):
            raise _rule("doubling_run", t, "the doubling trick (Hedge restarted at rounds 1, 2, 4, 8, ... with "
                        "eta_m = sqrt(8 ln N / 2^m))", _REF, np.array2string(P[t - 1], precision=4),
                        np.array2string(want[t - 1], precision=4), _why_run(losses, P, t))
    return proof
