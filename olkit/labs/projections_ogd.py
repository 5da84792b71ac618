"""Lab 5: projections and one step of online gradient descent (Section 5.1; UML Theorem 21.15).

The checks of this lab's questions and the streams they play ("public" for the student's own check,
the others for grading); see :mod:`olkit.labs`.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from ..proof import Proof, ProofStepError, fmt
from .feedback import LabFeedback, _call, _explain

__all__ = ["ogd_case", "check_projection", "check_ogd_step"]


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


def _ogd_check(kind: str, case: str, step: Callable, name: str, what: str) -> Proof:
    from .. import convex, oco, oco_proof

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
