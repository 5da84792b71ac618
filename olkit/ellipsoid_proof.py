"""The proofs of the book's Section 1.4, checked on recorded runs of :class:`olkit.ellipsoid.Ellipsoid`.

:func:`ball_proof` checks the lemma "a ball that stays inside" (the book's correction of the lecture's
ball of radius 1/n^2; Shalev-Shwartz, Lecture 1, "The Ellipsoid Learner") step by step, and
:func:`theorem_proof` the mistake bound 2d(d+1) ln(2dn^2) (the volume argument: each update multiplies
the volume by at most e^(-1/(2d+2)), and the ellipsoid never loses the ball).  Both sides of every step
are recomputed from the trace (w_t, A_t, log det A_t as the learner recorded them) and from the grid,
never taken from the learner's own decisions.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from .ellipsoid import ellipsoid_bound, ellipsoid_form, inner_ball, max_form_on_ball, volume_ratio

if TYPE_CHECKING:
    from .game import Trace
    from .proof import Proof

__all__ = ["ball_proof", "theorem_proof", "update_rounds"]


def _r12(v) -> np.ndarray:
    """Round to 12 decimals: identities are compared (and their errors printed) independently of the
    last bits of the floating-point arithmetic; such steps use the tolerance 1e-9."""
    return np.round(np.asarray(v, dtype=float), 12)


def update_rounds(trace: Trace) -> np.ndarray:
    """Boolean array over the rounds of ``trace``: True where the learner updated, i.e. where its
    recorded update counter (``trace.state["updates"]``) grew."""
    return np.diff(trace.state["updates"]) > 0


def ball_proof(runs: list[tuple[str, Trace, np.ndarray, int]], title: str, ball=None) -> Proof:
    """The proof of the lemma "a ball that stays inside" (lem-ellipsoid-ball of the book's Section
    1.4; a correction of the lecture's ball of radius 1/n^2 in Shalev-Shwartz, Lecture 1, "The
    Ellipsoid Learner"), steps 1-8, on runs ``[(label, trace, w_star, n)]`` of :class:`Ellipsoid` on
    the grid G^d.

    Every side is recomputed from the recorded trace (x_t, y_t, w_t, A_t, log det A_t and the
    update counter) and from w_star, never from the learner's decision: step 5 recomputes
    y_t<w_t, x_t> from the recorded centre (a tie, |<w_t, x_t>| <= 1e-9 ||w_t|| ||x_t||, is 0),
    step 6 evaluates the recorded E_{t+1} at the pole and the equator of E_t cut by the update,
    step 7 computes the exact maximum of the form of E_t over B(c, r) (:func:`max_form_on_ball`),
    certified by its duality bound (7') and by 64 sampled points (7''); step 7h checks the solver's
    degenerate "hard case" on every E_t, a ball centred at w_t, whose maximum is r^2 / lambda_min(A_t)
    (the largest eigenvalue of A_t^{-1}, from ``numpy.linalg.eigvalsh``).  Steps 1 and 2 are facts of
    the grid (identities: they hold for every realizable grid sequence); the others are checks.
    ``ball`` replaces :func:`inner_ball` (a negative control passes the lecture's ball).
    Returns the Proof.
    """
    from .proof import Proof

    gap, sampled = [], []
    c1, c3, c4, c5, c5tol, c6p, c6e, c7, c8, r1, r3, r5, r7, r8, r4 = ([] for _ in range(15))
    hard, hard_eig = [], []
    for label, trace, ws, nn in runs:
        dd = trace.x.shape[1]
        c, r = (inner_ball if ball is None else ball)(ws, nn)
        upd = update_rounds(trace)
        c1.append(nn**2 * trace.y * (trace.x @ ws))
        c3.append(
            trace.y * (trace.x @ c) - r * np.linalg.norm(trace.x, axis=1)
        )  # min of y<w, x_t> over the ball
        r1 += [f"{label}, round {t}" for t in trace.rounds]
        c4.append(np.linalg.norm(c) + r)
        r4.append(label)
        # recomputed from the recorded centre w_t and x_t; a tie (|<w_t, x_t>|
        # <= 1e-9 ||w_t|| ||x_t||) counts as 0
        w_upd, x_upd = trace.state["w"][:-1][upd], trace.x[upd]
        c5.append(trace.y[upd] * np.einsum("ij,ij->i", w_upd, x_upd))
        c5tol.append(1e-9 * np.linalg.norm(w_upd, axis=1) * np.linalg.norm(x_upd, axis=1))
        for t in np.flatnonzero(upd):
            W, A = trace.state["w"][t], trace.state["A"][t]
            W1, A1 = trace.state["w"][t + 1], trace.state["A"][t + 1]
            x, yt = trace.x[t], trace.y[t]
            pole = W + yt * A @ x / math.sqrt(x @ A @ x)
            a, Uo = np.linalg.eigh(A)
            D = np.sqrt(a)
            e = yt * D * (Uo.T @ x)
            e /= np.linalg.norm(e)
            V = np.linalg.svd(e[None, :])[2][1:]  # orthonormal basis of the directions across e
            c6p.append(ellipsoid_form(pole, W1, A1))
            c6e.append(ellipsoid_form(W + V @ (Uo * D).T, W1, A1).max())
            r5.append(f"{label}, round {t + 1}")
        lo_up = np.array(
            [
                max_form_on_ball(c, r, trace.state["w"][t], trace.state["A"][t], True)
                for t in range(trace.T + 1)
            ]
        )
        forms = lo_up[:, 0]
        c7.append(forms)
        # the exact maximum is certified: a duality bound from above, and
        # 64 sampled points of the sphere from below
        gap.append(lo_up[:, 1] - lo_up[:, 0])
        U64 = np.random.default_rng(64 + dd).standard_normal((64, dd))
        S = c + r * U64 / np.linalg.norm(U64, axis=1, keepdims=True)
        sampled.append(
            [
                ellipsoid_form(S, trace.state["w"][t], trace.state["A"][t]).max()
                for t in range(trace.T + 1)
            ]
        )
        c8.append(trace.state["logdet"] / 2 - dd * math.log(r))
        for w_t, A_t in zip(trace.state["w"], trace.state["A"]):  # the ball B(w_t, r): the hard case
            hard.append(max_form_on_ball(w_t, r, w_t, A_t, True))
            hard_eig.append(r * r / np.linalg.eigvalsh(A_t)[0])
        r7 += [f"{label}, E_{t}" for t in range(1, trace.T + 2)]
    cat = np.concatenate
    p = Proof(title)
    p.step("1", "n^2 y_t<w*, x_t> >= 1", cat(c1), ">=", 1, rounds=np.array(r1), tol=1e-9,
           kind="identity", why="grid margins are positive multiples of 1/n^2")
    p.step(
        "2",
        "||x_t|| <= sqrt(d)",
        cat([np.linalg.norm(tr_.x, axis=1) / math.sqrt(tr_.x.shape[1]) for _, tr_, _, _ in runs]),
        "<=",
        1,
        rounds=np.array(r1),
        tol=1e-12,
        kind="identity",
        why="grid coordinates lie in [-1, 1]",
    )
    p.step(
        "3",
        "min over w in B(c, r) of y_t<w, x_t> >= 0",
        cat(c3),
        ">=",
        0,
        rounds=np.array(r1),
        tol=1e-12,
    )
    p.step("4", "||c|| + r < 1", c4, "<", 1, rounds=np.array(r4))
    p.step(
        "5",
        "y_t<w_t, x_t> <= 0 on updates (a tie counts as 0)",
        cat(c5),
        "<=",
        cat(c5tol),
        rounds=np.array(r5),
    )
    p.step(
        "6",
        "form of E_{t+1} at the pole of E_t ∩ H_t = 1",
        _r12(c6p),
        "==",
        1,
        rounds=np.array(r5),
        tol=1e-9,
    )
    p.step(
        "6",
        "form of E_{t+1} on the equator of E_t ∩ H_t = 1",
        _r12(c6e),
        "==",
        1,
        rounds=np.array(r5),
        tol=1e-9,
    )
    p.step(
        "7",
        "B(c, r) in E_t: max of the form of E_t over the ball <= 1  [exact]",
        cat(c7),
        "<=",
        1,
        rounds=np.array(r7),
    )
    p.step(
        "7'",
        "the maximum is certified: duality bound - value = 0",
        _r12(cat(gap)),
        "==",
        0,
        rounds=np.array(r7),
        tol=1e-9,
    )
    p.step(
        "7''",
        "the form at 64 sampled points of the sphere <= the maximum",
        cat(sampled),
        "<=",
        cat(c7),
        rounds=np.array(r7),
        tol=1e-12,
    )
    p.step(
        "7h",
        "max over B(w_t, r) of the form of E_t (value and bound) = r^2 / lambda_min(A_t)",
        _r12(np.ravel(hard)),
        "==",
        _r12(np.repeat(hard_eig, 2)),
        rounds=np.repeat(r7, 2),
        tol=1e-9,
    )
    p.step("8", "(1/2) log det A_t - d ln r >= 0", cat(c8), ">=", 0, rounds=np.array(r7))
    return p


def theorem_proof(runs: list[tuple[str, Trace, np.ndarray, int]], title: str, ball=None, bound=None) -> Proof:
    """The proof of the mistake bound U <= 2d(d+1) ln(2dn^2) of the Ellipsoid learner on the grid
    (thm-ellipsoid of the book's Section 1.4; the lecture's 2d(2d+2) ln n, corrected), steps 1-4,
    on runs ``[(label, trace, w_star, n)]``.

    Step 1 compares the recorded (1/2) log det A_{t+1} with U_t ln rho_d and -U_t/(2d+2), where U_t
    is read off the recorded update counter; step 2 with the floor d ln r of :func:`inner_ball`;
    step 3 compares U with :func:`ellipsoid_bound`, and step 3' checks that this bound is what steps 1
    and 2 give, (2d+2) d ln(1/r) with the radius r of :func:`inner_ball`; step 4 the game's mistakes
    with U.  ``ball`` and ``bound`` replace :func:`inner_ball` and :func:`ellipsoid_bound` (a negative
    control passes the lecture's ball and bound).
    """
    from .proof import Proof

    ball = inner_ball if ball is None else ball
    bound_of = ellipsoid_bound if bound is None else bound
    s1, s1b, s2, U, M, bound, chain, lab_t, lab = ([] for _ in range(9))
    for label, trace, ws, nn in runs:
        dd = trace.x.shape[1]
        Ut = np.cumsum(update_rounds(trace))
        half_logdet = trace.state["logdet"][1:] / 2
        s1.append(half_logdet - Ut * math.log(volume_ratio(dd)))
        s1b.append(half_logdet + Ut / (2 * dd + 2))
        s2.append(half_logdet - dd * math.log(ball(ws, nn)[1]))
        lab_t += [f"{label}, round {t}" for t in trace.rounds]
        U.append(int(Ut[-1]))
        M.append(trace.M)
        bound.append(bound_of(nn, dd))
        chain.append((2 * dd + 2) * dd * -math.log(ball(ws, nn)[1]))  # U/(2d+2) <= d ln(1/r)
        lab.append(label)
    cat = np.concatenate
    p = Proof(title)
    p.step(
        "1",
        "(1/2) log det A_{t+1} = U_t ln rho_d",
        _r12(cat(s1)),
        "==",
        0,
        rounds=np.array(lab_t),
        tol=1e-9,
    )
    p.step("1", "(1/2) log det A_{t+1} <= -U_t/(2d+2)", cat(s1b), "<=", 0, rounds=np.array(lab_t))
    p.step("2", "(1/2) log det A_{t+1} >= d ln r", cat(s2), ">=", 0, rounds=np.array(lab_t))
    p.step("3", "U <= 2d(d+1) ln(2dn^2)", U, "<=", bound, rounds=np.array(lab))
    p.step("3'", "2d(d+1) ln(2dn^2) = (2d+2) d ln(1/r)  [steps 1 and 2]", _r12(bound), "==", _r12(chain),
           rounds=np.array(lab), tol=1e-9)
    p.step("4", "M <= U", M, "<=", U, rounds=np.array(lab))
    return p
