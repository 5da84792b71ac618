"""UML's experts built from SOA (Section 21.2, Lemma 21.13): for a class of finite Littlestone
dimension, one expert per set of at most Ldim rounds on which SOA's prediction is flipped; the
expert that flips exactly where SOA errs on the target's labels makes no mistake, so Weighted
Majority over these experts learns the class in the agnostic setting (UML Theorem 21.15)."""
from __future__ import annotations

import math

import numpy as np

from .game import int_at_least

__all__ = [
    "soa_expert_count",
    "soa_expert_count_bound",
    "soa_expert_predictions",
    "soa_experts",
    "soa_mistake_rounds",
]


def _solver(H, solver):
    from .littlestone import LdimSolver

    if solver is None:
        return LdimSolver(H)
    if not isinstance(solver, LdimSolver):
        raise ValueError(f"solver must be an LdimSolver; got {type(solver).__name__}")
    return solver


def _points(xs, n: int) -> list[int]:
    out = []
    for t, x in enumerate(xs, start=1):
        if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, np.integer)) or not 0 <= x < n:
            raise ValueError(f"round {t}: x = {x!r} is not a point of the domain {{0, ..., {n - 1}}}")
        out.append(int(x))
    return out


def _tie(tie) -> int:
    if isinstance(tie, (bool, np.bool_)) or not isinstance(tie, (int, np.integer)) or tie not in (0, 1):
        raise ValueError(f"tie must be 0 or 1; got {tie!r}")
    return int(tie)


def _soa_label(S, V: int, x: int, tie: int) -> tuple[int, int]:
    """SOA's label for x from the version space V (a bitset), and the part V_t(label)."""
    c = S.columns[x]
    V1 = V & c
    V0 = V & ~c
    l0, l1 = S._ldim(V0), S._ldim(V1)
    y = 1 if l1 > l0 else 0 if l0 > l1 else tie
    return y, (V1 if y == 1 else V0)


def soa_expert_predictions(H, xs, indices, tie: int = 1, solver=None) -> np.ndarray:
    """UML's Expert(i_1, ..., i_L) on the instances ``xs``: replay SOA (ties to ``tie``) on its own
    predictions, flipping SOA's label at the rounds ``indices`` (1-based):
    ytilde_t = argmax_r Ldim(V_t(r)), yhat_t = 1 - ytilde_t if t in indices else ytilde_t,
    V_{t+1} = V_t(yhat_t).  UML breaks the tie towards 0; ``tie`` makes it explicit.  An empty
    version space has Ldim -1, so the expert is defined on every sequence."""
    S = _solver(H, solver)
    xs = _points(xs, S.n)
    tie = _tie(tie)
    I = {int(i) for i in indices}
    V = (1 << S.m) - 1
    out = np.empty(len(xs), dtype=np.int64)
    for t, x in enumerate(xs, start=1):
        y, _ = _soa_label(S, V, x, tie)
        y = 1 - y if t in I else y
        c = S.columns[x]
        V = V & c if y == 1 else V & ~c
        out[t - 1] = y
    return out


def soa_mistake_rounds(H, xs, labels, tie: int = 1, solver=None) -> tuple[int, ...]:
    """The rounds (1-based) where SOA (ties to ``tie``) errs on (x_t, labels_t): the indices of
    Lemma 21.13 for the hypothesis that gives ``labels``."""
    S = _solver(H, solver)
    xs = _points(xs, S.n)
    tie = _tie(tie)
    ys = np.asarray(labels)
    if ys.shape != (len(xs),) or not np.isin(ys, (0, 1)).all():
        raise ValueError(f"labels must be {len(xs)} labels in {{0, 1}}; got {labels!r}")
    V = (1 << S.m) - 1
    rounds = []
    for t, (x, y) in enumerate(zip(xs, ys.tolist()), start=1):
        yhat, _ = _soa_label(S, V, x, tie)
        if yhat != y:
            rounds.append(t)
        c = S.columns[x]
        V = V & c if y == 1 else V & ~c
    return tuple(rounds)


def soa_experts(H, xs, max_flips: int | None = None, tie: int = 1, solver=None):
    """All of UML's experts Expert(i_1, ..., i_L), L <= ``max_flips`` (default Ldim(H)), on ``xs``.

    Returns (advice, index_sets): advice (T, d) holds the 0/1 predictions of the d experts, in the
    order of ``index_sets`` (by L, then lexicographically); d = sum_{L <= max_flips} C(T, L).
    The experts share their prefixes: a depth-first walk over the rounds branches on "flip here or
    not", so each (round, version space, flips so far) is computed once.
    """
    S = _solver(H, solver)
    xs = _points(xs, S.n)
    tie = _tie(tie)
    T = len(xs)
    Lmax = S.ldim() if max_flips is None else int_at_least(max_flips, "max_flips", 0)
    found: dict[tuple[int, ...], list[int]] = {}

    def walk(t: int, V: int, I: tuple[int, ...], preds: list[int]) -> None:
        if t > T:
            found[I] = list(preds)
            return
        x = xs[t - 1]
        y, _ = _soa_label(S, V, x, tie)
        c = S.columns[x]
        for flip in ((0, 1) if len(I) < Lmax else (0,)):
            yhat = 1 - y if flip else y
            preds.append(yhat)
            walk(t + 1, V & c if yhat == 1 else V & ~c, I + (t,) if flip else I, preds)
            preds.pop()

    walk(1, (1 << S.m) - 1, (), [])
    index_sets = sorted(found, key=lambda I: (len(I), I))
    advice = np.array([found[I] for I in index_sets], dtype=np.int64).T
    return advice, index_sets


def soa_expert_count(T: int, ldim: int) -> int:
    """sum_{L=0}^{Ldim} C(T, L), the number of experts of UML Section 21.2 (equation 21.4)."""
    T, ldim = int_at_least(T, "T", 0), int_at_least(ldim, "ldim", 0)
    return sum(math.comb(T, L) for L in range(ldim + 1))


def soa_expert_count_bound(T: int, ldim: int) -> float:
    """(e T / Ldim)^Ldim, UML's bound on the number of experts (its Lemma A.5, stated for T >= Ldim + 2)."""
    T, ldim = int_at_least(T, "T", 1), int_at_least(ldim, "ldim", 1)
    return (math.e * T / ldim) ** ldim
