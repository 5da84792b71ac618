"""Lab 2: the Littlestone dimension by its recursion, and SOA's prediction (Sections 2.1 and 2.2).

The checks of this lab's questions and the streams they play ("public" for the student's own check,
the others for grading); see :mod:`olkit.labs`.  The feedback cites the book's numbered results:
Definition 2.2 (``ldim-def-ldim``: a single hypothesis has Ldim 0) and Lemma 2.1
(``ldim-lem-recursion``: the recursion) for question 1; Lemma 2.4 (``ldim-lem-soa``: SOA's mistake
bound, whose proof runs on the recorded run) and Algorithm 2.1 (``ldim-alg-soa``: the rule, checked
round by round against the Ldim of the definition) for question 2.
"""
from __future__ import annotations

import numpy as np

from ..classes import all_functions, thresholds
from ..game import run
from ..proof import Proof, ProofStepError, fmt
from .feedback import LabFeedback, _call, _explain, _label01, _rule

__all__ = ["ldim_case", "check_ldim", "soa_case", "check_soa_predict"]


def ldim_case(case: str = "public") -> np.ndarray:
    """A small class (rows: hypotheses).  Cases: ``public`` (a random class 12 x 6), ``thresholds``
    (8 thresholds on 7 points, Ldim 3), ``all`` (every function on 3 points, Ldim 3), ``singletons``
    (Ldim 1), ``single`` (one hypothesis, Ldim 0), ``repeated`` (a class with a repeated row)."""
    from ..classes import singletons

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


#: The numbered result each step of question 1 checks: a single hypothesis has Ldim 0 (Definition 2.2),
#: the recursion (Lemma 2.1), and the value on the whole class (Definition 2.2, by the book's recursion).
LDIM_REFS = {"base": "ldim-def-ldim", "recursion": "ldim-lem-recursion", "H": "ldim-def-ldim"}


def check_ldim(ldim, case: str = "public") -> Proof:
    """The student's ``ldim(V)`` (V: a 0/1 matrix, one row per hypothesis) on the class of ``case`` and
    on every class reached from it by restrictions V_x^r: the base case (Ldim of one hypothesis is 0),
    the recursion of UML Definition 21.5 on the student's own values (Ldim(V) = max over the points x
    that split V of 1 + min(Ldim V_x^0, Ldim V_x^1)), and the value on the whole class against the
    book's :class:`olkit.littlestone.LdimByDefinition`.  A function that passes the first two on every
    reachable class computes the true Ldim (by induction on |V|); the feedback names the smallest class
    where it does not."""
    from ..littlestone import LdimByDefinition

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
    p = Proof("Definition 2.2 and Lemma 2.1 (the Littlestone dimension and its recursion)")
    try:
        p.step("base", "ldim(V) = 0 when V holds one function", np.array(base), "==", 0,
               rounds=np.array(base_at, dtype=object))
        if got:
            p.step("recursion", "ldim(V) = max over splitting x of 1 + min(ldim V_x^0, ldim V_x^1)", np.array(got),
                   "==", np.array(best), rounds=np.array(at, dtype=object))
        p.step("H", "your ldim(H) = the book's", student(np.ones(m, dtype=bool)), "==",
               LdimByDefinition(H)(np.ones(m, dtype=bool)))
    except ProofStepError as err:
        raise _explain(err, says, ref=LDIM_REFS[err.step]) from None
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


def check_soa_predict(soa_predict, case: str = "public") -> Proof | None:
    """SOA whose prediction is the student's ``soa_predict(H, alive, x, ldim)`` (``ldim``: the book's
    Littlestone dimension of a 0/1 matrix), with the book's update, checked by the proof of Lemma 2.4
    (UML Lemma 21.7, :func:`olkit.soa.check_soa`) on the recorded run, and then by the rule of
    Algorithm 2.1 round by round: the label whose restriction has the larger Ldim (by the definition's
    recursion, :class:`olkit.littlestone.LdimByDefinition`), 1 on a tie.  Returns the proof (None if the
    run has no mistake, where steps 4 and 5 have no instance and the rule alone is checked)."""
    from ..littlestone import LdimByDefinition
    from ..soa import check_soa, soa_ldims

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
    now, l0, l1 = soa_ldims(H, xs, ys, LdimByDefinition(H))
    rule = np.where(l1 > l0, 1, np.where(l0 > l1, 0, 1))

    def parts(t: int) -> str:
        tie = ", a tie, which SOA breaks towards 1" if l0[t - 1] == l1[t - 1] else ""
        return (f"in round {t} (x = {xs[t - 1]}) the hypotheses alive that label x with 0 have Ldim {l0[t - 1]}, "
                f"those that label it 1 have Ldim {l1[t - 1]}{tie}")

    def mistake(t, e):
        if t is None:
            return ("A mistake of SOA lowers Ldim(V_t) by at least one, because SOA predicts the part of larger "
                    "Ldim: find the round where your soa_predict did not.")
        y = ys[t - 1]
        return (f"Your soa_predict returned {tr.yhat[t - 1]}: {parts(t)}, and the label was {y}, so the "
                f"mistake kept the part of Ldim {(l0, l1)[y][t - 1]} while Ldim(V_t) = {now[t - 1]}; SOA "
                f"predicts {rule[t - 1]}, and a mistake of SOA always keeps the part of smaller Ldim.")

    says = {"4": mistake, "5": mistake, "6": mistake,
            "bound": lambda t, e: ("SOA's mistakes each lower Ldim(V_t) by at least one, so there are at most "
                                   "Ldim(H) of them; yours did not always predict the part of larger Ldim.")}
    proof = None
    if tr.M:  # steps 4 and 5 are about mistakes: a run without one has no instance of them
        try:
            proof = check_soa({"the run": (tr, H)}, "the proof of Lemma 2.4 (SOA's mistake bound)")
        except ProofStepError as err:
            raise _explain(err, says, ref="ldim-lem-soa") from None
    for t in np.flatnonzero(tr.yhat != rule) + 1:
        raise _rule("soa_predict", int(t), "SOA's rule, the label whose part V_t(r) has the larger Ldim with 1 "
                    "on a tie", "ldim-alg-soa", f"{tr.yhat[t - 1]} on x = {xs[t - 1]}", str(rule[t - 1]), parts(int(t)))
    return proof
