"""Lab 4d: the kernel Perceptron in its dual form (Section 4.2 of the book; Mohri, Rostamizadeh and
Talwalkar 2012, Section 7.3.1, after Aizerman, Braverman and Rozonoer 1964), checked by Theorem 4.1 in
the feature space.

The learner cycles over a sample x_1, ..., x_n with labels y_1, ..., y_n and keeps a count alpha_j per
point: the number of updates that point has caused.  Its hypothesis is f = sum_j alpha_j y_j K(x_j, .):
it predicts +1 if f(x) > 0, else -1 (a tie, f(x) = 0 as when alpha = 0, predicts -1), and on the point
x_i of round t it adds 1 to alpha_i if y_i f(x_i) <= 0 (Algorithm 4.1 run on the features Phi(x_i), with
step size 1).  The book's tie is |f(x)| <= 1e-9 ||f|| sqrt(K(x, x)) (as :class:`olkit.KernelPerceptron`).

Question 1 is the prediction (played with the book's update), question 2 the update (played with the
book's prediction).  Each check records the run, builds the weights w_t = sum_j alpha_j y_j Phi(x_j) in a
feature space of the sample (the explicit features of (1 + <x, z>)^2 in the plane, as the book does, or
an exact embedding of the sample's Gram matrix for the Gaussian kernel), runs the proof of Theorem 4.1
there (:func:`olkit.linear.margin_proof`, with a separator v of the sample in that space: the book's
c - ||x||^2 for the polynomial kernel, sum_j y_j Phi(x_j) for the Gaussian one), and then
verifies the rule the question states round by round against a reference computed from the Gram
matrix and the student's own counts in force.
"""
from __future__ import annotations

import math

import numpy as np

from .. import fp
from ..game import UpdateTrace
from ..linear import GaussianKernel, LinearKernel, PolynomialKernel, margin_proof
from ..proof import Proof, ProofStepError, fmt
from .feedback import LabFeedback, _call, _explain, _rule

__all__ = ["kernel_case", "check_kernel_predict", "check_kernel_update"]

_REF = "thm-perceptron-margin"
_ALG = "alg-perceptron"


def _disc_and_ring(n: int, rng) -> tuple[np.ndarray, np.ndarray]:
    """The book's sample (Section 4.2): a disc of radius 0.4 labelled +1 in a ring 0.6 <= ||x|| <= 1
    labelled -1, every point's reflection -x added with the same label."""
    P = rng.uniform(-1, 1, size=(4 * n, 2))
    rad = np.linalg.norm(P, axis=1)
    P = P[((rad < 0.4) | ((rad >= 0.6) & (rad <= 1)))][:n]
    lab = np.where(np.linalg.norm(P, axis=1) < 0.4, 1, -1)
    return np.vstack([P, -P]), np.r_[lab, lab].astype(np.int64)


def _phi2(P: np.ndarray) -> np.ndarray:
    """The features of (1 + <x, z>)^2 in the plane: (1, sqrt2 x1, sqrt2 x2, x1^2, sqrt2 x1 x2, x2^2)."""
    s = math.sqrt(2)
    return np.stack([np.ones(len(P)), s * P[:, 0], s * P[:, 1], P[:, 0] ** 2, s * P[:, 0] * P[:, 1], P[:, 1] ** 2],
                    axis=1)


def _scalar(kernel):
    """K(x, z) for two points, as the student calls it."""
    if isinstance(kernel, PolynomialKernel):
        c, p = kernel.c, kernel.degree
        return lambda x, z: float((c + np.dot(x, z)) ** p)
    if isinstance(kernel, GaussianKernel):
        s2 = 2 * kernel.sigma**2
        return lambda x, z: float(math.exp(-float(np.sum((np.asarray(x) - np.asarray(z)) ** 2)) / s2))
    return lambda x, z: float(np.dot(x, z))


def _make(case: str) -> dict:
    """The sample, the order of its points, the kernel, and a feature space with a separator v."""
    if case in ("public", "ties", "one_round"):
        if case == "public":
            X, y = _disc_and_ring(20, np.random.default_rng(2026))
            c0, order = (0.4**2 + 0.6**2) / 2, np.tile(np.arange(40), 6)
        else:  # the integer grid {-2, ..., 2}^2, +1 where ||x||^2 <= 2: the kernel's values are integers
            g = np.arange(-2, 3)
            X = np.array([(a, b) for a in g for b in g], dtype=float)
            y = np.where(np.sum(X**2, axis=1) <= 2, 1, -1).astype(np.int64)
            c0 = 3.0
            order = np.random.default_rng(15).permutation(np.tile(np.arange(25), 8))
            if case == "one_round":
                order = order[:1]
        return {"X": X, "y": y, "order": order, "kernel": PolynomialKernel(2, 1.0), "F": _phi2(X),
                "v": np.array([c0, 0, 0, -1, 0, -1])}
    if case == "gauss":
        rng = np.random.default_rng(16)
        P = rng.uniform(-1, 1, size=(200, 2))
        rad = np.linalg.norm(P, axis=1)
        X = P[(rad < 0.45) | (rad > 0.75)][:30]
        y = np.where(np.linalg.norm(X, axis=1) < 0.45, 1, -1).astype(np.int64)
        kernel = GaussianKernel(0.3)
        lam, U = np.linalg.eigh(kernel(X, X))
        F = U * np.sqrt(np.clip(lam, 0, None))  # F F^T = the Gram matrix: the points in a feature space
        # v = sum_j y_j Phi(x_j) separates this sample in the feature space (margin about 0.19, r = 1)
        return {"X": X, "y": y, "order": np.tile(np.arange(30), 6), "kernel": kernel, "F": F, "v": F.T @ y}
    if case == "linear":
        from ..streams import separable_stream

        X, y, u = separable_stream(50, 3, 0.1, np.random.default_rng(17))
        return {"X": X, "y": y.astype(np.int64), "order": np.arange(50), "kernel": LinearKernel(), "F": X, "v": u}
    raise ValueError(f"no kernel Perceptron lab case {case!r}")


def kernel_case(case: str = "public") -> tuple[np.ndarray, np.ndarray, np.ndarray, object]:
    """(X, y, order, K): the sample (rows of X), its labels, the points of rounds 1, ..., T (indices into
    the sample: several passes over it) and the kernel as a function K(x, z) of two points.  Cases:
    ``public`` (the book's disc and ring, 40 points, K = (1 + <x, z>)^2, 6 passes), ``ties`` (the integer
    grid {-2, ..., 2}^2, same kernel: integer scores, many exactly 0), ``gauss`` (30 points, the Gaussian
    kernel with sigma = 0.3), ``linear`` (the linear kernel on a separable stream: the primal Perceptron),
    ``one_round`` (T = 1)."""
    c = _make(case)
    return c["X"].copy(), c["y"].copy(), c["order"].copy(), _scalar(c["kernel"])


def _side(G: np.ndarray, y: np.ndarray, alpha: np.ndarray, i: int) -> tuple[int, float]:
    """sign(f(x_i)) with the book's tie, and f(x_i), for f = sum_j alpha_j y_j K(x_j, .)."""
    b = alpha * y
    s = float(b @ G[:, i])
    scale = math.sqrt(max(float(b @ G @ b), 0.0)) * math.sqrt(max(G[i, i], 0.0))
    return fp.sign(s, scale), s


def _counts(v, n: int, t: int) -> np.ndarray:
    a = np.asarray(v) if v is not None and v is not Ellipsis else None
    if a is None or a.shape != (n,) or not np.issubdtype(a.dtype, np.number):
        got = "None" if a is None else f"an array of shape {a.shape}"
        raise LabFeedback(f"kernel_update returned {got} in round {t}; it must return the new counts alpha, an array "
                          f"of length n = {n}" + (" (is the function still '...'?)" if a is None else ""))
    if not np.all(np.isfinite(a)) or not np.all(a == np.round(a)) or np.any(a < 0):
        raise LabFeedback(f"kernel_update returned counts that are not whole numbers >= 0 in round {t}; alpha_j "
                          "counts the updates point j caused")
    return a.astype(np.int64)


def _label(v, t: int) -> int:
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer, float, np.floating)) or v not in (-1, 1):
        raise LabFeedback(f"kernel_predict returned {v!r} in round {t}; it must return the label -1 or +1"
                          + (" (is the function still '...'?)" if v is None or v is Ellipsis else ""))
    return int(v)


def _proof(c: dict, A: list[np.ndarray], yhat: np.ndarray, name: str, G: np.ndarray) -> Proof:
    """Theorem 4.1 in the feature space on the run whose counts before round t are A[t - 1]."""
    X, y, order, F = c["X"], c["y"], c["order"], c["F"]
    A = np.array(A)
    changed = np.flatnonzero(np.any(A[1:] != A[:-1], axis=1)) + 1
    W = (A[np.r_[0, changed]] * y[None, :]) @ F  # w after k updates: sum_j alpha_j y_j Phi(x_j)
    ys = y[order]
    tr = UpdateTrace(X=F[order], y=ys, rounds=changed.astype(np.int64), yhat=yhat[changed - 1].astype(np.int64),
                     state={"w": W})

    def update_round(t, err):
        t = t or 1  # a step over a single round names no round
        side, s = _side(G, y, A[t - 1], int(order[t - 1]))
        did = "changed alpha" if err.lhs else "left alpha unchanged"
        return (f"Round {t} plays point {order[t - 1]} (y = {ys[t - 1]:+d}): y f(x) = {fmt(ys[t - 1] * s)}; the kernel "
                f"Perceptron updates exactly when it is <= 0 (f = 0, as with alpha = 0, counts), and your {name} {did}.")

    def weights(t, err):
        return ("After an update the hypothesis must be f + y_i K(x_i, .): the count alpha_i of the round's point i "
                f"goes up by exactly 1 and no other count changes; in the feature space a coordinate of w is "
                f"{fmt(err.lhs)} where the sum of y_i Phi(x_i) over the update rounds gives {fmt(err.rhs)}.")

    def mistake(t, err):
        t = t or 1  # a step over a single round names no round
        side, s = _side(G, y, A[t - 1], int(order[t - 1]))
        return (f"Round {t}: f(x) = {fmt(s)} and y = {ys[t - 1]:+d}, so y f(x) > 0: sign(f(x)) is the label, and "
                f"your {name} predicted {yhat[t - 1]:+d}.")

    says = {"0": update_round, "3": weights, "M": mistake}
    try:
        p, _, _ = margin_proof(tr, c["v"], 1.0, "the proof of Theorem 4.1 in the feature space")
        B = A[:-1] * y[None, :]  # alpha_j y_j in force on each round
        score = ys * np.einsum("tj,jt->t", B, G[:, order])
        band = fp.TIE_RTOL * np.sqrt(np.clip(np.einsum("tj,jk,tk->t", B, G, B), 0, None) * G[order, order])
        p.step("M", "a mistake is an update round: yhat_t != y_t only if y_t f_t(x_t) <= 0", score, "<=", band,
               where=yhat != ys, allow_empty=True)
    except ProofStepError as err:
        raise _explain(err, says, ref=_REF) from None
    return p


def _gram(c: dict) -> np.ndarray:
    return c["kernel"](c["X"], c["X"])


def check_kernel_predict(kernel_predict, case: str = "public") -> Proof:
    """The kernel Perceptron with the student's ``kernel_predict(alpha, X, y, K, x)`` and the book's
    update: Theorem 4.1 in the feature space (with step M: every mistake is an update round), then the
    prediction rule round by round."""
    c = _make(case)
    X, y, order = c["X"], c["y"], c["order"]
    G, K = _gram(c), _scalar(c["kernel"])
    alpha = np.zeros(len(y), dtype=np.int64)
    A, yhat = [alpha], []
    for t, i in enumerate(order, start=1):
        yhat.append(_label(_call(kernel_predict, "kernel_predict", t, alpha.copy(), X.copy(), y.copy(), K,
                                 X[i].copy()), t))
        if y[i] * _side(G, y, alpha, int(i))[0] <= 0:
            alpha = alpha.copy()
            alpha[i] += 1
        A.append(alpha)
    yhat = np.array(yhat)
    p = _proof(c, A, yhat, "kernel_predict", G)
    for t, i in enumerate(order, start=1):
        side, s = _side(G, y, A[t - 1], int(i))
        want = 1 if side > 0 else -1
        if yhat[t - 1] != want and not (side == 0 and s != 0):  # a tie up to rounding: either side goes
            why = f"f(x) = {fmt(s)}" + (", a tie, which predicts -1" if side == 0 else
                                        f", so the prediction is {want:+d}")
            raise _rule("kernel_predict", t, "the kernel Perceptron's prediction: +1 if f(x) > 0, else -1", _ALG,
                        f"{yhat[t - 1]:+d}", f"{want:+d}", why)
    return p


def check_kernel_update(kernel_update, case: str = "public") -> Proof:
    """The kernel Perceptron whose update is the student's ``kernel_update(alpha, X, y, K, i)`` (alpha = 0 at
    the start): Theorem 4.1 on the weights sum_j alpha_j y_j Phi(x_j) in the feature space, then the update
    rule (alpha_i + 1 on y_i f(x_i) <= 0, alpha otherwise) round by round."""
    c = _make(case)
    X, y, order = c["X"], c["y"], c["order"]
    G, K = _gram(c), _scalar(c["kernel"])
    alpha = np.zeros(len(y), dtype=np.int64)
    A, yhat = [alpha], []
    for t, i in enumerate(order, start=1):
        yhat.append(1 if _side(G, y, alpha, int(i))[0] > 0 else -1)
        out = _call(kernel_update, "kernel_update", t, alpha.copy(), X.copy(), y.copy(), K, int(i))
        alpha = _counts(out, len(y), t)
        A.append(alpha)
    p = _proof(c, A, np.array(yhat), "kernel_update", G)
    for t, i in enumerate(order, start=1):
        before, got = A[t - 1], A[t]
        side, s = _side(G, y, before, int(i))
        want = before.copy()
        if y[i] * side <= 0:
            want[i] += 1
        if np.array_equal(got, want) or (side == 0 and s != 0 and np.array_equal(got, before)):
            continue
        j = int(np.flatnonzero(got != want)[0])
        why = (f"it plays point {i}, y f(x) = {fmt(y[i] * s)}, "
               + ("an update round: alpha_i goes up by 1" if y[i] * side <= 0 else "so alpha stays"))
        raise _rule("kernel_update", t, "the kernel Perceptron's update: alpha_i + 1 on y_i f(x_i) <= 0, alpha "
                    "otherwise", _ALG, f"alpha[{j}] = {got[j]}", f"{want[j]}", why)
    return p
