"""Lab 5: projections and one step of online gradient descent (Section 5.1: Algorithm 5.1 and Theorem 5.1
of the book; Shalev-Shwartz and Ben-David 2014, Theorem 21.15).

The checks of this lab's questions and the streams they play ("public" for the student's own check,
the others for grading); see :mod:`olkit.labs`.  Each check plays OGD with the student's function on
linear losses and then

1. runs the proof of Theorem 5.1 (``olkit.oco_proof.ogd_proof``) on the recorded run: a step of the
   bound's chain (1 to 6) that fails is explained with its number and round;
2. checks the rule of Algorithm 5.1 round by round: w_{t+1} = Proj(w_t - eta v_t), the point of the set
   closest to z_t = w_t - eta v_t, against an independent projection (the ball's closed form, clipping,
   a bisection for the simplex) within 1e-9 per coordinate, so that a bisection or a sort gives the
   same point.  A different rule is a wrong answer even where the bound still holds (a step that
   forgets the projection keeps OGD's bound, for instance).
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from ..proof import _CONTROL, Proof, fmt
from .feedback import LabFeedback, _call, _explain, _rule

__all__ = ["ogd_case", "check_projection", "check_ogd_step"]

#: The rule's tolerance: the largest coordinate error of w_{t+1} against the projection of z_t
#: (step P of the chapter's table uses the same).
TOL = 1e-9


def ogd_case(kind: str, case: str = "public"):
    """(K, G, eta): a set of olkit.oco (``ball``, ``box`` or ``simplex``), linear losses f_t(w) = <g_t, w>
    (rows of G) and a step size.  Cases: ``public`` (d = 4, T = 30), ``one_round`` (T = 1), ``big_steps``
    (eta = 5: nearly every point leaves the set), ``one_dim`` (d = 1; the simplex is then {1})."""
    from .. import convex

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


class _Failures:
    """Collects the steps of a proof that fail (olkit.proof's negative-control hook), so that the check
    can tell a broken bound (steps 1-6) from a broken rule (step P) on the same run."""

    def __init__(self):
        self.errors: list = []

    def _record(self, proof, err, kind: str) -> None:
        if kind == "check":
            self.errors.append(err)


def _collect(make: Callable):
    """``make()`` with every failing check recorded instead of raised: (its result, the failures)."""
    failures = _Failures()
    token = _CONTROL.set(failures)
    try:
        out = make()
    finally:
        _CONTROL.reset(token)
    return out, failures.errors


def _vec(a) -> str:
    return np.array2string(np.asarray(a, dtype=float), precision=3, suppress_small=True)


def _ogd_check(kind: str, case: str, step: Callable, name: str, rule: str) -> Proof:
    from .. import convex, oco, oco_proof

    K, G, eta = ogd_case(kind, case)
    tr = oco.play(_StudentOGD(K, eta, step, name), [convex.Linear(g) for g in G])
    Z = tr.w[:-1] - eta * G  # z_t = w_t - eta v_t, recomputed from the points and the losses
    proj = oco_proof.plain_projection(K, Z)  # the independent projection (a bisection on the simplex)
    err_t = np.abs(tr.w[1:] - proj).max(axis=1)

    def departs(t: int) -> str:
        return (f"In round {t} z_t = w_t - eta v_t is {_vec(Z[t - 1])}; its projection onto {K!r} is "
                f"{_vec(proj[t - 1])}, but your {name} gave w_{{t+1}} = {_vec(tr.w[t])}")

    def first_departure() -> int | None:
        bad = np.flatnonzero(err_t > TOL)
        return int(bad[0]) + 1 if bad.size else None

    def hint(why: str):
        def say(t, e):
            s = first_departure()
            return (f"{why} {departs(s)}, the first round where w_{{t+1}} is not the closest point of the set "
                    "to z_t." if s is not None else why)
        return say

    says = {
        "1": hint("Step 1 is the convexity of the losses at w_t."),
        "2": hint("Step 2 holds because w_{t+1} is the projection of z_t (Lemma 5.1: a projection moves no "
                  "point of the set farther away)."),
        "4": hint("Step 4 combines steps 2 and 3, so it holds when w_{t+1} is the projection of z_t."),
        "5": hint("The regret exceeds the telescoped bound."),
        "6": hint("The regret exceeds the theorem's bound."),
    }
    U = np.vstack([K.start, oco_proof.random_points(K, 20, np.random.default_rng(0))])
    title = f"Theorem 5.1 (OGD's regret bound) on a {kind}"
    (p, _, _, _), failed = _collect(lambda: oco_proof.ogd_proof(K, "linear", G, None, eta, tr, U, title))
    bound = [e for e in failed if e.step not in ("0", "P")]
    if bound:  # the chain of the proof breaks on this run
        raise _explain(bound[0], says, ref="thm-ogd")
    t = first_departure()
    if t is not None:  # the bound held, but the run is not OGD's: a different rule
        dist = float(np.linalg.norm(tr.w[t] - proj[t - 1]))
        raise _rule(name, t, rule, "alg-ogd", f"w_{{t+1}} = {_vec(tr.w[t])}", _vec(proj[t - 1]),
                    f"z_t = w_t - eta v_t = {_vec(Z[t - 1])}, and the projection is the point of {K!r} closest "
                    f"to z_t (your point is {fmt(dist)} away from it)")
    if failed:  # cannot happen: step P is the rule above, step 0 the recorded z_t the check computes
        raise _explain(failed[0], says, ref="thm-ogd")
    return p


def check_projection(project, kind: str, case: str = "public") -> Proof:
    """OGD on the ``kind`` set whose projection is the student's: ``project(z)`` for the simplex,
    ``project(z, B)`` for the ball of radius B, ``project(z, lo, hi)`` for the box; checked by the
    proof of Theorem 5.1 and, round by round, by the rule: w_{t+1} is the point of the set closest to
    z_t (within 1e-9 per coordinate)."""
    K, _, _ = ogd_case(kind, case)
    extra = {"ball": lambda: (K.B,), "box": lambda: (K.lo.copy(), K.hi.copy()), "simplex": lambda: ()}[kind]()
    name = f"project_{kind}"

    def step(w, v, eta):
        return project(w - eta * v, *extra)

    rule = {"ball": "the projection onto the ball, z min(1, B/||z||)",
            "box": "the projection onto the box, each coordinate clipped to [lo_i, hi_i]",
            "simplex": "the projection onto the simplex, max(z_i - theta, 0) with the coordinates summing to 1"}[kind]
    return _ogd_check(kind, case, step, name, rule)


def check_ogd_step(ogd_step, kind: str = "ball", case: str = "public") -> Proof:
    """OGD whose step is the student's ``ogd_step(w, v, eta, project)`` (``project``: the book's exact
    projection onto the set), checked by the proof of Theorem 5.1 and by the rule of Algorithm 5.1,
    w_{t+1} = Proj(w_t - eta v_t), round by round."""
    K, _, _ = ogd_case(kind, case)
    return _ogd_check(kind, case, lambda w, v, eta: ogd_step(w, v, eta, K.project), "ogd_step",
                      "OGD's step w_{t+1} = Proj(w_t - eta v_t)")
