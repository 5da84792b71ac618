"""Chapter 5's proof checks: independent references for what the OCO learners compute, and the check
of the regret bound of online gradient descent (UML Theorem 21.15) step by step on a recorded run.

The references recompute, in plain numpy and from the data and the recorded points only, the
projections, the losses and their subgradients, and the regret of linear losses on a ball: a proof
step's two sides never come from the code path that made the learner's decision.
"""
from __future__ import annotations

import numpy as np

from .convex import Ball, Box, Simplex, _Set
from .oco import OCOTrace

__all__ = [
    "linear_regret_curve",
    "linear_regret_on_ball",
    "ogd_proof",
    "ogd_quantities",
    "plain_ball_projection",
    "plain_losses",
    "plain_projection",
    "plain_simplex_projection",
    "plain_subgradients",
    "random_points",
]


def plain_ball_projection(Z, B: float) -> np.ndarray:
    """The rows of ``Z`` projected onto the ball of radius ``B``, by the closed form z min(1, B/||z||)
    (plain numpy; the reference for step P of the OGD regret bound, UML Theorem 21.15, on a ball)."""
    Z = np.asarray(Z, dtype=float)
    n = np.linalg.norm(Z, axis=-1, keepdims=True)
    return Z * np.minimum(1.0, B / np.maximum(n, 1e-300))


def plain_simplex_projection(Z, iters: int = 200) -> np.ndarray:
    """The rows of ``Z`` projected onto the probability simplex by *bisection* for the threshold theta
    with sum_i max(z_i - theta, 0) = 1 (where :class:`Simplex` sorts, as in Duchi et al. 2008): an
    independent reference for step P on the simplex.  ``iters`` halvings of [min z - 1, max z]."""
    Z = np.atleast_2d(np.asarray(Z, dtype=float))
    lo = Z.min(axis=1) - 1.0  # sum_i max(z_i - lo, 0) >= 1
    hi = Z.max(axis=1)  # sum_i max(z_i - hi, 0) = 0
    for _ in range(iters):
        mid = (lo + hi) / 2
        big = np.maximum(Z - mid[:, None], 0).sum(axis=1) >= 1
        lo, hi = np.where(big, mid, lo), np.where(big, hi, mid)
    return np.maximum(Z - ((lo + hi) / 2)[:, None], 0)


def plain_projection(K: _Set, Z) -> np.ndarray:
    """The rows of ``Z`` projected onto ``K`` (a :class:`Ball`, :class:`Box` or :class:`Simplex`) in
    plain numpy: the ball's closed form, clipping for the box, bisection for the simplex.  Used for
    step P (w_{t+1} = Proj(z_t)) of the OGD regret bound and for the non-expansiveness lemma."""
    Z = np.atleast_2d(np.asarray(Z, dtype=float))
    if isinstance(K, Ball):
        return plain_ball_projection(Z, K.B)
    if isinstance(K, Box):
        return np.clip(Z, K.lo, K.hi)
    if isinstance(K, Simplex):
        return plain_simplex_projection(Z)
    raise ValueError(f"K must be a Ball, Box or Simplex; got {K!r}")


def random_points(K: _Set, n: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` random points of ``K`` (rows): uniform in a :class:`Ball` or a :class:`Box`, Dirichlet(1)
    on a :class:`Simplex`.  The comparators w* of the chapter's regret checks."""
    if isinstance(K, Ball):
        G = rng.standard_normal((n, K.d))
        r = K.B * rng.uniform(0, 1, (n, 1)) ** (1 / K.d)
        return r * G / np.linalg.norm(G, axis=1, keepdims=True)
    if isinstance(K, Box):
        return rng.uniform(K.lo, K.hi, (n, K.d))
    if isinstance(K, Simplex):
        return rng.dirichlet(np.ones(K.d), n)
    raise ValueError(f"K must be a Ball, Box or Simplex; got {K!r}")


def linear_regret_curve(G, W, B: float) -> np.ndarray:
    """Regret_t(K) for t = 1..T of the points ``W`` (rows w_t) on the linear losses ``G`` (rows g_t),
    K the ball of radius ``B``: the closed form sum_{s<=t} <g_s, w_s> + B ||g_1 + ... + g_t||, since
    min_{||u|| <= B} <G, u> = -B ||G||.  From the data, not from the learner."""
    G, W = np.asarray(G, dtype=float), np.asarray(W, dtype=float)
    paid = np.cumsum((G * W).sum(axis=1))
    return paid + B * np.linalg.norm(np.cumsum(G, axis=0), axis=1)


def linear_regret_on_ball(G, W, B: float) -> float:
    """Regret_T(K) against the ball of radius ``B``: the last entry of :func:`linear_regret_curve`,
    sum_t <g_t, w_t> + B ||sum_t g_t||."""
    G, W = np.asarray(G, dtype=float), np.asarray(W, dtype=float)
    return float((G * W).sum() + B * np.linalg.norm(G.sum(axis=0)))


def plain_losses(kind: str, X, Y, W, paired: bool = False) -> np.ndarray:
    """The losses f_t from their formulas, in plain numpy (never through the loss objects):
    ``kind`` is "linear" (<x_t, w>, X holds the g_t), "logistic" (ln(1 + e^{-y_t <w, x_t>})) or
    "absolute" (|<w, x_t> - y_t|).  ``paired``: f_t(w_t) for the rows w_t of W (shape (T,)); else
    f_t(w) for every row w of W and every t (shape (T, n))."""
    X, W = np.asarray(X, dtype=float), np.asarray(W, dtype=float)
    M = (X * W).sum(axis=1) if paired else X @ W.T
    if kind == "linear":
        return M
    Yb = np.asarray(Y, dtype=float) if paired else np.asarray(Y, dtype=float)[:, None]
    if kind == "logistic":
        return np.logaddexp(0.0, -Yb * M)
    if kind == "absolute":
        return np.abs(M - Yb)
    raise ValueError(f"kind must be 'linear', 'logistic' or 'absolute'; got {kind!r}")


def plain_subgradients(kind: str, X, Y, W) -> np.ndarray:
    """The subgradient of f_t at w_t (row t of ``W``) by its formula, with the least-norm element at a
    kink of the absolute loss (|<w, x> - y| <= 1e-9 (||w|| ||x|| + 1), the book's tie rule): step 0
    of the OGD regret bound checks the learner's recorded v_t against it."""
    X, W = np.asarray(X, dtype=float), np.asarray(W, dtype=float)
    m = (X * W).sum(axis=1)
    if kind == "linear":
        return X.copy()
    Y = np.asarray(Y, dtype=float)
    if kind == "logistic":
        return (-Y / (1 + np.exp(Y * m)))[:, None] * X
    if kind == "absolute":
        tol = 1e-9 * (np.linalg.norm(W, axis=1) * np.linalg.norm(X, axis=1) + 1)
        s = np.where(m - Y > tol, 1.0, np.where(m - Y < -tol, -1.0, 0.0))
        return s[:, None] * X
    raise ValueError(f"kind must be 'linear', 'logistic' or 'absolute'; got {kind!r}")


def ogd_quantities(K: _Set, kind: str, X, Y, eta: float, trace: OCOTrace, U) -> dict:
    """Every side of the steps of the OGD regret bound (UML Theorem 21.15; Section 5.1's proof,
    steps 0-6) on one run with a fixed ``eta``, recomputed from the recorded points ``trace.w``, the
    recorded subgradients and the data (``X``, ``Y``, loss ``kind`` as in :func:`plain_losses`), for
    the comparators ``U`` (rows).  Keys: ``v_err`` (|v_t - formula|), ``at_kink`` (absolute losses: the
    rounds at the kink, from the data: x_t != 0 and |<w_t, x_t> - y_t| <= 1e-9 (||w_t|| ||x_t|| + 1), the
    tie rule of :func:`plain_subgradients`),
    ``kink`` (their number), ``v_zero`` (absolute losses: the rounds with x_t != 0 whose recorded v_t
    is 0), ``rec_err`` (recorded z_t against w_t - eta v_t), ``eta_rec``, ``loss_rec``,
    ``vsq_rec``, ``P_err`` (w_{t+1} against the plain projection of z_t), ``f_w`` (f_t(w_t)),
    ``f_u`` (f_t(u), (T, n)), ``inner`` (<w_t - u, v_t>), ``D2`` (||w_t - u||^2, t = 1..T+1),
    ``Z2`` (||z_t - u||^2) and ``v2`` (||v_t||^2)."""
    W, V, U = trace.w, trace.v, np.atleast_2d(np.asarray(U, dtype=float))
    q: dict = {"kink": 0}
    formula = plain_subgradients(kind, X, Y, W[:-1])
    q["v_err"] = np.abs(V - formula).max(axis=1)
    if kind == "absolute":  # a round with x_t = 0 has v_t = 0 too, but f_t is constant there: no kink
        nonzero = np.abs(np.asarray(X, dtype=float)).sum(axis=1) > 0
        q["at_kink"] = nonzero & (np.abs(formula).sum(axis=1) == 0)  # the formula's sign is 0: the kink
        q["kink"] = int(q["at_kink"].sum())
        q["v_zero"] = nonzero & (np.abs(V).sum(axis=1) == 0)
    Zt = W[:-1] - eta * V  # the projected points, recomputed
    q["rec_err"] = np.abs(trace.record["z"] - Zt).max(axis=1)
    q["eta_rec"] = trace.record["eta"]
    q["loss_rec"], q["vsq_rec"] = trace.loss, trace.v_sq
    q["P_err"] = np.abs(W[1:] - plain_projection(K, Zt)).max(axis=1)
    q["f_w"] = plain_losses(kind, X, Y, W[:-1], paired=True)
    q["f_u"] = plain_losses(kind, X, Y, U)
    diff = W[:-1, None, :] - U[None]  # w_t - u, shape (T, n, d)
    q["inner"] = np.einsum("tnd,td->tn", diff, V)
    q["D2"] = ((W[:, None, :] - U[None]) ** 2).sum(axis=2)
    q["Z2"] = ((Zt[:, None, :] - U[None]) ** 2).sum(axis=2)
    q["v2"] = (V**2).sum(axis=1)
    return q


def ogd_proof(K: _Set, kind: str, X, Y, eta: float, trace: OCOTrace, U, title: str):
    """The steps of the OGD regret bound (UML Theorem 21.15, the proof of Section 5.1) checked on one
    run for the comparators ``U`` (rows), every side from :func:`ogd_quantities`: step 0 (v_t, f_t(w_t),
    ||v_t||^2, eta_t and z_t as recorded = their formulas; for absolute losses also v_t = 0 exactly at the
    kinks), P (w_{t+1} = the plain projection of z_t),
    1 (convexity), 2 (non-expansiveness), 3 (expansion, an identity), 4 (one step), 5 (telescoping) and
    6 (the bound).  Returns ``(proof, quantities, R, bound)`` with R the regret against each row of U
    and bound the right-hand side of step 6 for it."""
    from .proof import Proof

    q = ogd_quantities(K, kind, X, Y, eta, trace, U)
    n = q["f_u"].shape[1]
    lab = [f"round {t}, comparator {j + 1}" for t in range(1, trace.T + 1) for j in range(n)]
    comp = [f"comparator {j + 1}" for j in range(n)]
    R = q["f_w"].sum() - q["f_u"].sum(axis=0)
    p = Proof(title)
    p.step("0", "v_t = the subgradient formula at w_t (least norm at a kink)", q["v_err"], "==", 0, tol=1e-12)
    if kind == "absolute":
        p.step(
            "0",
            "v_t = 0 (x_t != 0) exactly at the kinks: |<w_t, x_t> - y_t| <= 1e-9 (||w_t|| ||x_t|| + 1)",
            q["v_zero"],
            "==",
            q["at_kink"],
        )
    p.step(
        "0",
        "recorded f_t(w_t) and ||v_t||^2 = the formulas at w_t",
        np.r_[q["loss_rec"] - q["f_w"], q["vsq_rec"] - q["v2"]],
        "==",
        0,
        tol=1e-9,
    )
    p.step(
        "0",
        "recorded eta_t = eta and z_t = w_t - eta v_t  [largest error]",
        np.r_[q["eta_rec"] - eta, q["rec_err"]],
        "==",
        0,
        tol=1e-12,
    )
    p.step("P", "w_{t+1} = Proj(w_t - eta v_t)  [plain numpy; largest error]", q["P_err"], "==", 0, tol=1e-9)
    p.step(
        "1",
        "f_t(w_t) - f_t(w*) <= <w_t - w*, v_t>",
        (q["f_w"][:, None] - q["f_u"]).ravel(),
        "<=",
        q["inner"].ravel(),
        rounds=lab,
        tol=1e-9,
    )
    p.step(
        "2",
        "D_{t+1} <= ||z_t - w*||",
        np.sqrt(q["D2"][1:]).ravel(),
        "<=",
        np.sqrt(q["Z2"]).ravel(),
        rounds=lab,
        tol=1e-9,
    )
    p.step(
        "3",
        "||z_t - w*||^2 = D_t^2 - 2 eta <w_t - w*, v_t> + eta^2 ||v_t||^2",
        q["Z2"].ravel(),
        "==",
        (q["D2"][:-1] - 2 * eta * q["inner"] + eta**2 * q["v2"][:, None]).ravel(),
        rounds=lab,
        tol=1e-9,
        kind="identity",
    )
    one_step = (q["D2"][:-1] - q["D2"][1:]) / (2 * eta) + eta / 2 * q["v2"][:, None]
    p.step(
        "4",
        "<w_t - w*, v_t> <= (D_t^2 - D_{t+1}^2)/(2 eta) + (eta/2) ||v_t||^2",
        q["inner"].ravel(),
        "<=",
        one_step.ravel(),
        rounds=lab,
        tol=1e-9,
    )
    telescoped = (q["D2"][0] - q["D2"][-1]) / (2 * eta) + eta / 2 * q["v2"].sum()
    p.step(
        "5",
        "Regret(w*) <= (D_1^2 - D_{T+1}^2)/(2 eta) + (eta/2) sum_t ||v_t||^2",
        R,
        "<=",
        telescoped,
        rounds=comp,
        tol=1e-9,
    )
    bound = q["D2"][0] / (2 * eta) + eta / 2 * q["v2"].sum()
    p.step("6", "Regret(w*) <= ||w* - w_1||^2/(2 eta) + (eta/2) sum_t ||v_t||^2", R, "<=", bound, rounds=comp)
    return p, q, R, bound
