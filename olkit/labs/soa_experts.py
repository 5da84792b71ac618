"""Lab 3d: SOA's experts and agnostic online learning (Algorithm 3.4, Lemma 3.1 and Theorem 3.10 of the book;
Shalev-Shwartz and Ben-David 2014, Section 21.2: Lemma 21.13, Theorem 21.10 and Corollary 21.14).

An expert Expert(i_1, ..., i_L) is built from the instances alone: it replays SOA on its own predictions
(SOA's label argmax_r Ldim(V_t(r)), the tie label tau on a tie), flipping SOA's label at the rounds
i_1 < ... < i_L.  Question 1 asks for one expert's predictions; question 2 for all the experts with at
most Ldim(H) flips, which Hedge (UML's Weighted-Majority, Theorem 3.5) then combines.  The checks run the
book's proofs on the student's experts (Lemma 3.1: the expert with the indices where SOA errs on h
predicts like h; Theorem 3.10: the regret against the best hypothesis), then compare them with olkit's
construction (:func:`olkit.experts.soa_expert_predictions`, :func:`olkit.experts.soa_experts`) round by round.
"""
from __future__ import annotations

import math

import numpy as np

from ..proof import Proof, ProofStepError
from .feedback import LabFeedback, _call, _explain, _rule
from .refs import cite, url

__all__ = ["soa_experts_case", "check_soa_expert", "check_soa_experts_advice"]


def soa_experts_case(case: str = "public") -> tuple[np.ndarray, np.ndarray]:
    """(H, xs): a class (rows: hypotheses, columns: points) and the instances x_1..x_T.  Cases:
    ``public`` (a random class of 12 functions on 6 points, Ldim 3, T = 7), ``singletons`` (6 singletons,
    Ldim 1, T = 8), ``thresholds`` (7 thresholds on 6 points, Ldim 2, T = 7), ``ties`` (every function on
    3 points, Ldim 3: every label splits the version space into halves of equal Ldim, T = 4), ``single``
    (one hypothesis, Ldim 0, T = 5), ``one_round`` (T = 1)."""
    from ..classes import all_functions, singletons, thresholds

    if case == "public":
        H = np.unique(np.random.default_rng(2026).integers(0, 2, size=(12, 6), dtype=np.uint8), axis=0)
        xs = np.random.default_rng(2027).integers(0, 6, size=7)
    elif case == "singletons":
        H, xs = singletons(6), np.array([2, 4, 2, 0, 5, 1, 3, 4])
    elif case == "thresholds":
        H, xs = thresholds(6), np.array([3, 1, 4, 0, 5, 2, 3])
    elif case == "ties":
        H, xs = all_functions(3), np.array([0, 1, 2, 0])
    elif case == "single":
        H, xs = np.array([[0, 1, 1, 0, 1]]), np.array([1, 0, 4, 3, 1])
    elif case == "one_round":
        H = np.unique(np.random.default_rng(7).integers(0, 2, size=(8, 5), dtype=np.uint8), axis=0)
        xs = np.array([3])
    else:
        raise ValueError(f"no SOA experts lab case {case!r}")
    return np.ascontiguousarray(H, dtype=np.uint8), np.asarray(xs, dtype=np.int64)


def _labels(v, T: int, name: str, what: str) -> np.ndarray:
    a = np.asarray(v) if v is not None and v is not Ellipsis else None
    if a is None or a.shape != (T,) or not np.isin(a, (0, 1)).all():
        got = "None" if a is None else f"an array of shape {a.shape}" if a.shape != (T,) else f"{a.tolist()}"
        raise LabFeedback(f"{name} returned {got} for {what}; it must return the T = {T} labels (0 or 1) of the "
                          "rounds 1..T" + (" (is the function still '...'?)" if a is None else ""))
    return a.astype(np.int64)


def _round_detail(H, xs, indices, tie: int, t: int, solver) -> str:
    """Algorithm 3.4's computation in round t of Expert(indices), from the reference expert's version space."""
    from ..experts import soa_expert_predictions

    before = soa_expert_predictions(H, xs[: t - 1], indices, tie, solver=solver)
    V = np.ones(len(H), dtype=bool)
    for x, y in zip(xs[: t - 1], before):
        V &= H[:, x] == y
    x = int(xs[t - 1])
    l0, l1 = solver.ldim(V & (H[:, x] == 0)), solver.ldim(V & (H[:, x] == 1))
    soa = 1 if l1 > l0 else 0 if l0 > l1 else tie
    text = (f"in round {t} (x = {x}) the version space V_t has {int(V.sum())} hypothes{'i' if V.sum() == 1 else 'e'}s, "
            f"Ldim(V_t(0)) = {l0} and Ldim(V_t(1)) = {l1}")
    text += f", a tie, which goes to tau = {tie}" if l0 == l1 else f", so SOA's label is {soa}"
    if t in set(indices):
        text += f"; round {t} is an index, so the expert flips it to {1 - soa}"
    else:
        text += f"; round {t} is not an index, so the expert predicts {soa}"
    return text


def _sets(H, xs, solver) -> list[tuple[tuple[int, ...], int, str]]:
    """The (indices, tie, why) a check plays: the indices where SOA errs on each labelling of xs by H (Lemma
    3.1), for both tie labels, then a few other sets (none, the first round, every round)."""
    from ..experts import soa_mistake_rounds

    T = len(xs)
    out = []
    for tie in (0, 1):
        for lab in np.unique(H[:, xs], axis=0):
            out.append((soa_mistake_rounds(H, xs, lab, tie=tie, solver=solver), tie, "lemma"))
        for extra in ((), (1,), tuple(range(1, T + 1)), tuple(range(2, T + 1, 2))):
            out.append((extra, tie, "extra"))
    return out


def check_soa_expert(soa_expert, case: str = "public") -> Proof:
    """Question 1: the student's ``soa_expert(H, xs, indices, tie)`` -> the predictions of
    Expert(i_1, ..., i_L) on xs.  Lemma 3.1 (steps 1 and 3) on the student's experts, for every labelling
    of xs by H and both tie labels; then the predictions against olkit's, round by round, on more sets."""
    from ..experts import soa_expert_predictions, soa_mistake_rounds
    from ..littlestone import LdimSolver

    H, xs = soa_experts_case(case)
    T = len(xs)
    solver = LdimSolver(H)
    D = solver.ldim()
    sets = _sets(H, xs, solver)
    got = {}
    for indices, tie, _ in sets:
        key = (tuple(indices), tie)
        if key not in got:
            out = _call(soa_expert, "soa_expert", 1, H.copy(), xs.copy(), list(indices), tie)
            got[key] = _labels(out, T, "soa_expert", f"the indices {list(indices)} and tie = {tie}")
    sizes, pred_t, h_t, where, says = [], [], [], [], {}
    for tie in (0, 1):
        for lab in np.unique(H[:, xs], axis=0):
            I = soa_mistake_rounds(H, xs, lab, tie=tie, solver=solver)
            pred = got[(tuple(I), tie)]
            sizes.append(len(I))
            bad = np.flatnonzero(pred != lab)
            t = int(bad[0]) + 1 if len(bad) else T  # the first round where the expert and h differ
            pred_t.append(int(pred[t - 1]))
            h_t.append(int(lab[t - 1]))
            label = f"round {t}, for the h with labels {lab.tolist()} and tie = {tie}"
            where.append(label)
            says[label] = (f"SOA with ties to {tie} errs on h's labels {lab.tolist()} at the rounds I(h) = {list(I)}, "
                           f"and Expert(I(h)) must predict h's labels; with these indices your soa_expert predicted "
                           f"{pred.tolist()}. By Algorithm 3.4, " + _round_detail(H, xs, I, tie, t, solver) + ".")
    p = Proof("the proof of Lemma 3.1 (every hypothesis has its expert)")
    rounds = np.array(where, dtype=object)
    try:
        p.step("1", "|I(h)| <= Ldim(H): SOA errs at most Ldim(H) times", sizes, "<=", D, kind="identity",
               why="SOA's mistake bound", rounds=rounds)
        p.step("3", "Expert(I(h)) predicts h(x_t) in every round", pred_t, "==", h_t, rounds=rounds)
    except ProofStepError as err:
        raise _explain(err, {"3": lambda t, e: says.get(str(e.round), "")}, ref="experts-lem-mimic") from None
    for indices, tie, _ in sets:
        want = soa_expert_predictions(H, xs, indices, tie, solver=solver)
        pred = got[(tuple(indices), tie)]
        bad = np.flatnonzero(pred != want)
        if len(bad):
            t = int(bad[0]) + 1
            raise _rule("soa_expert", t, f"Algorithm 3.4 for the indices {list(indices)} and tie = {tie}",
                        "experts-alg-soa-experts", f"{pred[t - 1]}", f"{want[t - 1]}",
                        _round_detail(H, xs, indices, tie, t, solver))
    return p


def _noisy_labels(H: np.ndarray, xs: np.ndarray) -> np.ndarray:
    """The labels of the question-2 run: one hypothesis of H, a quarter of its labels flipped (seeded)."""
    rng = np.random.default_rng(len(H) * 1000 + len(xs))
    flip = rng.random(len(xs)) < 0.25
    return (H[len(H) // 3, xs].astype(np.int64) ^ flip).astype(np.int64)


def _set_rule(rule: str, got: str, want: str, why: str = "") -> LabFeedback:
    ref = "experts-alg-soa-experts"
    return LabFeedback(f"Your soa_experts_advice does not follow Algorithm 3.4's experts ({rule}; {cite(ref)}): it "
                       f"gave {got}, the rule gives {want}{'; ' + why if why else ''}. A different set of experts is a "
                       f"wrong answer even where the bound still holds. ({cite(ref)} in the book: {url(ref)})")


def check_soa_experts_advice(soa_experts_advice, case: str = "public") -> Proof:
    """Question 2: the student's ``soa_experts_advice(H, xs, tie)`` -> the T x d advice of all the experts
    with at most Ldim(H) flips.  For both tie labels: Hedge with UML's rate over the student's experts on
    noisy labels, checked by the proof of Theorem 3.10 (steps 1, 2 and 3 and the theorem's bound); then the
    number of experts and the experts themselves against olkit's construction."""
    from ..expert_game import run_experts
    from ..experts import Hedge, soa_experts, uml_eta
    from ..littlestone import LdimSolver

    H, xs = soa_experts_case(case)
    T = len(xs)
    solver = LdimSolver(H)
    D = solver.ldim()
    ys = _noisy_labels(H, xs)
    best_h = int(np.abs(H[:, xs].astype(np.int64) - ys).sum(axis=1).min())
    proof = Proof("the proof of Theorem 3.10 (agnostic online learning with SOA's experts)")
    for tie in (0, 1):
        out = _call(soa_experts_advice, "soa_experts_advice", 1, H.copy(), xs.copy(), tie)
        A = np.asarray(out) if out is not None and out is not Ellipsis else None
        if A is None or A.ndim != 2 or A.shape[0] != T or A.shape[1] < 1 or not np.isin(A, (0, 1)).all():
            got = "None" if A is None else f"an array of shape {A.shape}"
            raise LabFeedback(f"soa_experts_advice returned {got} for tie = {tie}; it must return a T x d array of "
                              f"labels 0/1 (T = {T} rounds, one column per expert)"
                              + (" (is the function still '...'?)" if A is None else ""))
        A = A.astype(np.int64)
        d = A.shape[1]
        tr = run_experts(Hedge(d, uml_eta(d, T) if d > 1 else 1.0), advice=A, y=ys)
        best_e = int(np.abs(A - ys[:, None]).sum(axis=0).min())
        R_e = float(tr.R)
        R_h = float(tr.cum_loss[-1] - best_h)
        where = np.array([f"tie = {tie}"], dtype=object)
        says = {
            "1": lambda t, e: (f"The best hypothesis errs {best_h} times on these labels; by Lemma 3.1 one of the "
                               "experts predicts like it, so the best expert errs no more. Is that expert among "
                               "yours?"),
            "3": lambda t, e: (f"Your soa_experts_advice returned d = {d} experts; with at most Ldim(H) = {D} flips "
                               f"among T = {T} rounds there are sum_(j <= {D}) C({T}, j) = "
                               f"{sum(math.comb(T, j) for j in range(D + 1))}."),
        }
        try:
            proof.step("1", "the best expert's mistakes <= the best hypothesis's", best_e, "<=", best_h, rounds=where)
            proof.step("2", "Hedge's regret against the best expert <= sqrt(2 log(d) T)", R_e, "<=",
                       math.sqrt(2 * math.log(d) * T) + 1e-9, rounds=where)
            proof.step("2'", "the regret against the best h <= sqrt(2 log(d) T)", R_h, "<=",
                       math.sqrt(2 * math.log(d) * T) + 1e-9, rounds=where)
            proof.step("3", "log d <= Ldim(H) log(e T)", math.log(d), "<=", D * math.log(math.e * T) + 1e-12,
                       rounds=where)
        except ProofStepError as err:
            raise _explain(err, says, ref="experts-thm-agnostic") from None
        want, sets = soa_experts(H, xs, tie=tie, solver=solver)
        if d != want.shape[1]:
            raise _set_rule(f"one expert per set of at most Ldim(H) = {D} indices among the T = {T} rounds, tie = "
                            f"{tie}", f"{d} experts", f"{want.shape[1]} = sum_(j <= {D}) C({T}, j)")
        theirs = {tuple(c) for c in A.T}
        for k, col in enumerate(A.T):
            if tuple(col) in {tuple(c) for c in want.T}:
                continue
            agree = [(int(np.argmax(np.append(col != w, True))), j) for j, w in enumerate(want.T)]
            t0, j = max(agree)
            raise _rule("soa_experts_advice", t0 + 1, f"Algorithm 3.4 with tie = {tie}", "experts-alg-soa-experts",
                        f"{col[t0]} in column {k}", f"{want[t0, j]}",
                        f"column {k} is none of Algorithm 3.4's experts; the closest, Expert{tuple(sets[j])}, agrees "
                        f"with it up to round {t0} and then, " + _round_detail(H, xs, sets[j], tie, t0 + 1, solver))
        if len(theirs) != d:
            raise _set_rule(f"one expert per set of indices, tie = {tie}", f"{d - len(theirs)} repeated columns",
                            f"{d} different experts", "two different index sets give experts that differ in the first "
                            "round where one flips and the other does not, so no expert is listed twice")
    return proof
