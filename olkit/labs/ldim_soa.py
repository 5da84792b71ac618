"""Lab 2: the Littlestone dimension by its recursion, and SOA's prediction (Sections 2.1 and 2.2).

The checks of this lab's questions and the streams they play ("public" for the student's own check,
the others for grading); see :mod:`olkit.labs`.
"""
from __future__ import annotations

import numpy as np

from ..classes import all_functions, thresholds
from ..game import run
from ..proof import Proof, ProofStepError, fmt
from .feedback import LabFeedback, _call, _explain, _label01

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
