"""Linear learners on R^d with labels in {-1, +1}: the Perceptron, its dual and kernel forms, and the
voted and averaged Perceptrons.

A linear learner keeps a weight vector ``w`` and predicts sign(<w, x>), with
the convention that a score <w, x> <= 0 predicts -1.

**Ties.**  A score that is zero in exact arithmetic may come out as +-1e-17 in
floating point, with a sign that depends on the machine.  So the learners call
a score a tie when |<w, x>| <= 1e-9 ||w|| ||x|| (:func:`olkit.fp.sign`): a tie
predicts -1 and counts as an update condition (y <w, x> <= 0), as an exact zero
does in the sources' rule "update if y <w, x> <= 0".  The kernel Perceptron uses
the same rule in the feature space: |f(x)| <= 1e-9 ||f|| sqrt(K(x, x)).  Instances
are 1-D arrays of length ``d``; labels are -1 and +1 (use :func:`olkit.to_pm1` to
convert from {0, 1}).  Like every olkit learner, a linear learner has ``labels``,
``predict``, ``update``, ``state()`` (recorded before round 1 and after every
update) and ``details`` (filled by ``predict``); see :mod:`olkit.game`.

**Long streams.**  ``play_stream(X, y)`` (or :func:`olkit.run_stream`) plays a
whole stream with block look-ahead (:func:`olkit.game.lookahead`): the scores of
a block of upcoming rounds come from one matrix-vector product
(:func:`olkit.fp.matvec`), and the rounds that might update are decided, in
order, by the per-round rule.  A round can update only if its score is within
the tie band 1e-9 ||w|| ||x|| of a tie or below; with R = sqrt(d) max |x_ij| >= ||x||
over the block, every row whose block score exceeds 2e-9 ||w|| R is certainly
not an update (a block score and the per-round score differ by rounding, far
less than 1e-9 of the scale), and the first of the other rows that the per-round
rule updates on is the next update.  So the look-ahead run makes exactly the
updates of the round-by-round run, with the same weights, and a block costs one
matrix-vector product and two reductions.
"""
from __future__ import annotations

import math

import numpy as np

from . import fp
from .game import (
    PM1,
    UpdateTrace,
    check_count,
    check_dim,
    check_finite_rows,
    check_kernel,
    check_label_pm1,
    check_positive,
    check_stream,
    check_vector,
    lookahead,
    row_norm_bound,
)

__all__ = [
    "AveragedPerceptron",
    "GaussianKernel",
    "KernelPerceptron",
    "LinearKernel",
    "Perceptron",
    "PolynomialKernel",
    "VotedPerceptron",
]

def _candidates(m: np.ndarray, threshold) -> int | None:
    """The first row whose y <w, x> (``m``) is at most ``threshold``: the first that might update."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return next(iter(np.flatnonzero(m <= threshold)), None)


class _Linear:
    """Shared bookkeeping of linear learners: the dimension, the weights, input checks."""

    labels = PM1

    def __init__(self, d: int):
        self.d = check_dim(d)
        self.w = np.zeros(self.d)
        self.t = 1  # the round about to be played
        self.details: dict = {}

    def _x(self, x) -> np.ndarray:
        """x as a float vector of shape (d,); raise a ValueError naming the round otherwise."""
        return check_vector(x, self.d, self.t)

    def _y(self, y) -> int:
        return check_label_pm1(y, self.t)

    def score(self, x) -> float:
        """The score <w, x> on which the prediction is based."""
        return fp.dot(self.w, self._x(x))

    def side(self, x) -> int:
        """sign(<w, x>) in {-1, 0, +1}, 0 being a tie (|<w, x>| <= 1e-9 ||w|| ||x||)."""
        x = self._x(x)
        return fp.sign(fp.dot(self.w, x), fp.tie_scale(self.w, x))

    def predict(self, x) -> int:
        x = self._x(x)
        s = fp.dot(self.w, x)
        side = fp.sign(s, fp.tie_scale(self.w, x))
        self.details = {"score": s, "tie": side == 0}
        return PM1[side > 0]


class Perceptron(_Linear):
    """The Perceptron (Rosenblatt 1958): w_1 = 0; predict 1 if <w_t, x_t> > 0, else -1;
    if y_t <w_t, x_t> <= 0, update w_{t+1} = w_t + eta y_t x_t, else w_{t+1} = w_t.

    This is the algorithm of Mohri et al. (Section 7.3.1, with the learning rate
    eta > 0, default 1), of UML Section 21.4 (eta = 1) and of Telgarsky's lecture.
    The update condition counts a score of 0 (a tie, within 1e-9 ||w|| ||x||; see
    the module docstring) as an error even when the prediction -1 happens to be
    right, so the number of updates is at least the number of mistakes.  Since
    w_t is eta times the run with eta = 1, the updates and predictions do not
    depend on eta (up to rounding at a tie threshold).  Mistake bound (Mohri et
    al. Theorem 7.8; Novikoff 1962; UML Theorem 21.16): if ||x_t|| <= r and some
    v has y_t <v, x_t> / ||v|| >= rho > 0 for all t, there are at most r^2 / rho^2
    updates.

    ``state()`` records ``w`` (a copy), ``w_sq`` = ||w||^2 and ``updates``, the
    number of updates so far; ``details["score"]`` is <w_t, x_t> and
    ``details["tie"]`` whether it counted as 0.  A round costs O(d);
    :meth:`play_stream` plays a stream with block look-ahead (module docstring).
    """

    def __init__(self, d: int, eta: float = 1.0):
        super().__init__(d)
        self.eta = check_positive(eta, "eta")
        self.updates = 0

    def _violated(self, x: np.ndarray, y: int) -> bool:
        """The update condition y_t <w_t, x_t> <= 0, a tie counting as 0 (the per-round decision): for
        y in {-1, +1}, y sign(<w, x>) <= 0 means sign(<w, x>) != y."""
        return fp.sign(fp.dot(self.w, x), fp.tie_scale(self.w, x)) != y

    def update(self, x, y) -> None:
        x, y = self._x(x), self._y(y)
        if self._violated(x, y):
            self.w = self.w + (self.eta * y) * x
            self.updates += 1
        self.t += 1

    def state(self) -> dict:
        return {"w": self.w.copy(), "w_sq": float(self.w @ self.w), "updates": self.updates}

    # -- look-ahead --------------------------------------------------------------------------
    def _first_update(self, Xb: np.ndarray, yb: np.ndarray, t0: int, info=None) -> int | None:
        """The first row of the block that might update (None: none can).

        A round updates iff y <w, x> <= 1e-9 ||w|| ||x||, and ||x|| <= R, so a row with
        y <w, x> > 2e-9 ||w|| R cannot update, whatever the rounding of its block score (far below
        1e-9 of the scale); :func:`olkit.game.lookahead` plays the first other row by the per-round rule.
        R is ``info``, the block's Frobenius norm (:meth:`_block_norm`, one dot product per block, so
        that rescans after an update pay no extra pass), or sqrt(d) max |x_ij| without it.  A larger R
        only adds false alarms, which the per-round rule then plays: the run is the same."""
        s = fp.matvec(Xb, self.w)
        check_finite_rows(s, Xb, t0)
        R = row_norm_bound(Xb) if info is None else info
        return _candidates(yb * s, 2 * fp.TIE_RTOL * np.sqrt(self.w @ self.w) * R)

    @staticmethod
    def _block_norm(Xb: np.ndarray, t0: int) -> float:
        """||X_b||_F, the Frobenius norm of the block: at least ||x|| for every row x of it (and of every
        part of it), computed once per block with one dot product (inf or nan if an entry is not finite;
        the scores' check names the round)."""
        v = Xb.reshape(-1)
        return math.sqrt(float(v @ v))

    def play_stream(self, X, y) -> UpdateTrace:
        """Play the stream (rows of ``X``, labels ``y`` in {-1, +1}) from the current state, looking ahead
        over blocks of rounds; returns the :class:`olkit.game.UpdateTrace` (state recorded per update).

        The updates, weights and predictions are exactly those of :func:`olkit.run` on the same stream.
        """
        X, y = check_stream(X, y, self.d)
        return lookahead(self, X, y, self._first_update, prepare=self._block_norm)


# ---------------------------------------------------------------------------------------------
# Kernels and the dual (kernel) Perceptron
# ---------------------------------------------------------------------------------------------
class LinearKernel:
    """K(x, z) = <x, z>: the dual Perceptron with it is the primal Perceptron (Mohri et al. Section 7.3.1)."""

    name = "linear"

    def __call__(self, X: np.ndarray, S: np.ndarray) -> np.ndarray:
        """The matrix K(X_i, S_j), one row per row of X."""
        return fp.matmat(X, S.T)

    def diag(self, X: np.ndarray) -> np.ndarray:
        """K(x, x) for every row x of X."""
        return np.einsum("ij,ij->i", X, X)

    def __repr__(self) -> str:
        return "LinearKernel()"


class PolynomialKernel:
    """K(x, z) = (c + <x, z>)^p, a PDS kernel for an integer degree p >= 1 and c >= 0 (Mohri et al. Section 5.2)."""

    name = "polynomial"

    def __init__(self, degree: int = 2, c: float = 1.0):
        self.degree = check_count(degree, "degree")
        self.c = check_positive(c, "c", zero_ok=True)

    def __call__(self, X: np.ndarray, S: np.ndarray) -> np.ndarray:
        return (self.c + fp.matmat(X, S.T)) ** self.degree

    def diag(self, X: np.ndarray) -> np.ndarray:
        return (self.c + np.einsum("ij,ij->i", X, X)) ** self.degree

    def __repr__(self) -> str:
        return f"PolynomialKernel(degree={self.degree}, c={self.c:g})"


class GaussianKernel:
    """K(x, z) = exp(-||x - z||^2 / (2 sigma^2)), a PDS kernel for sigma > 0 (Mohri et al. Section 5.2)."""

    name = "gaussian"

    def __init__(self, sigma: float = 1.0):
        self.sigma = check_positive(sigma, "sigma")

    def __call__(self, X: np.ndarray, S: np.ndarray) -> np.ndarray:
        D = np.einsum("ijk,ijk->ij", X[:, None, :] - S[None, :, :], X[:, None, :] - S[None, :, :])
        return np.exp(-D / (2 * self.sigma**2))

    def diag(self, X: np.ndarray) -> np.ndarray:
        return np.ones(X.shape[0])

    def __repr__(self) -> str:
        return f"GaussianKernel(sigma={self.sigma:g})"


class KernelPerceptron:
    """The dual Perceptron with a PDS kernel K (Mohri et al. Section 7.3.1, "DualPerceptron" and
    "KernelPerceptron"; Aizerman, Braverman and Rozonoer 1964).

    The hypothesis is f = sum_s alpha_s y_s K(x_s, .), with alpha_s = eta for every
    round s on which the algorithm updated (Mohri et al.'s alpha_s, incremented by
    eta on an update; a round is played once, so alpha_s is 0 or eta).  Predict 1
    if f(x_t) > 0, else -1; update (add x_t with coefficient eta y_t) if
    y_t f(x_t) <= 0.  Ties, in the feature space: |f(x)| <= 1e-9 ||f|| sqrt(K(x, x)),
    with ||f||^2 = sum_{s, s'} alpha_s alpha_s' y_s y_s' K(x_s, x_s') kept up to date on
    every update.  With :class:`LinearKernel` the algorithm is the primal
    :class:`Perceptron` (w = sum_s alpha_s y_s x_s) and makes the same predictions
    and updates (the two scores agree up to rounding, and a rounding difference
    matters only within rounding of the tie threshold).

    ``state()`` records ``updates`` and ``f_sq`` = ||f||^2; the support vectors
    are ``support`` (rows x_s), ``coef`` (alpha_s y_s) and ``support_rounds``
    (1-based rounds).  A round costs O(U d) for U support vectors.  The look-ahead
    (:meth:`play_stream`) decides every row whose block score lies within
    2e-9 (||f|| + sum_s |alpha_s| sqrt(K(x_s, x_s))) sqrt(K(x, x)) of a tie, or below, by the
    per-round rule; every term |alpha_s K(x_s, x)| is at most that sum's terms times
    sqrt(K(x, x)) (Cauchy-Schwarz in the feature space), so rounding cannot hide an update.
    """

    labels = PM1

    def __init__(self, d: int, kernel=None, eta: float = 1.0):
        self.d = check_dim(d)
        self.kernel = LinearKernel() if kernel is None else check_kernel(kernel)
        self.eta = check_positive(eta, "eta")
        self.support = np.zeros((0, self.d))
        self.coef = np.zeros(0)
        self._root_kss = np.zeros(0)  # sqrt(K(x_s, x_s)) of the support vectors
        self._rounds: list[int] = []
        self.updates = 0
        self.f_sq = 0.0
        self.t = 1
        self.details: dict = {}

    @property
    def support_rounds(self) -> np.ndarray:
        return np.array(self._rounds, dtype=np.int64)

    def _x(self, x) -> np.ndarray:
        return check_vector(x, self.d, self.t)

    def decision(self, X) -> np.ndarray:
        """f(x) for every row of X (shape (m, d))."""
        X = np.atleast_2d(np.asarray(X, dtype=float))
        return fp.matvec(self.kernel(X, self.support), self.coef)

    def _score(self, x: np.ndarray) -> tuple[float, float]:
        """f(x) and the tie scale ||f|| sqrt(K(x, x)) (the per-round computation)."""
        X = x[None, :]
        scale = math.sqrt(max(self.f_sq, 0.0)) * math.sqrt(max(float(self.kernel.diag(X)[0]), 0.0))
        return fp.dot(self.kernel(X, self.support)[0], self.coef), scale

    def _violated(self, x: np.ndarray, y: int) -> bool:
        s, scale = self._score(x)
        return fp.sign(s, scale) != y

    def predict(self, x) -> int:
        x = self._x(x)
        s, scale = self._score(x)
        side = fp.sign(s, scale)
        self.details = {"score": s, "tie": side == 0}
        return PM1[side > 0]

    def update(self, x, y) -> None:
        x, y = self._x(x), check_label_pm1(y, self.t)
        s, scale = self._score(x)
        if fp.sign(s, scale) != y:
            c = self.eta * y
            k_xx = float(self.kernel.diag(x[None, :])[0])
            self.support = np.vstack([self.support, x])
            self.coef = np.append(self.coef, c)
            self._root_kss = np.append(self._root_kss, math.sqrt(max(k_xx, 0.0)))
            self.f_sq = max(self.f_sq + 2 * c * s + c * c * k_xx, 0.0)  # ||f + c K(x, .)||^2
            self._rounds.append(self.t)
            self.updates += 1
        self.t += 1

    def state(self) -> dict:
        return {"updates": self.updates, "f_sq": self.f_sq}

    def _first_update(self, Xb: np.ndarray, yb: np.ndarray, t0: int, info=None) -> int | None:
        s = self.decision(Xb)
        check_finite_rows(s + Xb @ np.ones(self.d), Xb, t0)  # (f = 0 before the first update)
        size = np.sqrt(self.f_sq) + np.abs(self.coef) @ self._root_kss
        return _candidates(yb * s, 2 * fp.TIE_RTOL * size * np.sqrt(self.kernel.diag(Xb)))

    def play_stream(self, X, y) -> UpdateTrace:
        """Play the stream with block look-ahead (as :meth:`Perceptron.play_stream`); exact."""
        X, y = check_stream(X, y, self.d)
        return lookahead(self, X, y, self._first_update)


# ---------------------------------------------------------------------------------------------
# Voted and averaged Perceptron
# ---------------------------------------------------------------------------------------------
class _PerceptronEnsemble:
    """Runs the Perceptron for ``epochs`` passes and keeps every weight vector with its survival count."""

    def __init__(self, d: int, eta: float = 1.0, epochs: int = 1):
        self.d = check_dim(d)
        self.eta = check_positive(eta, "eta")
        self.epochs = check_count(epochs, "epochs")

    def fit(self, X, y):
        """Run the Perceptron on ``epochs`` passes over (X, y).

        Sets ``W`` (the distinct weight vectors w^(0) = 0, w^(1), ..., one per update, shape
        (U + 1, d)), ``counts`` (c_k: the number of rounds t = 1..T with w_{t+1} = w^(k), T = epochs
        times the length of the sample), ``T`` and ``traces`` (one UpdateTrace per epoch)."""
        X, y = check_stream(X, y, self.d)
        p = Perceptron(self.d, self.eta)
        self.traces = [p.play_stream(X, y) for _ in range(self.epochs)]
        n = len(y)
        W = [self.traces[0].state["w"][:1]]
        starts = [0]  # global 0-based round at which each w^(k) becomes w_{t+1}
        for e, tr in enumerate(self.traces):
            W.append(tr.state["w"][1:])
            starts.extend((e * n + tr.rounds - 1).tolist())
        self.W = np.concatenate(W)
        self.T = self.epochs * n
        self.counts = np.diff(np.array(starts + [self.T], dtype=np.int64))
        return self


class VotedPerceptron(_PerceptronEnsemble):
    """The voted Perceptron (Freund and Schapire 1999): after ``epochs`` passes of the Perceptron, predict
    sign(sum_k c_k sign(<w^(k), x>)), every weight vector voting with the number of rounds it survived.

    sign(<w^(k), x>) is 0 on a tie (1e-9 ||w|| ||x||, as in the Perceptron); the vote is an integer, and a
    vote of 0 predicts -1.  (Mohri et al. and Lu's lecture call "voted" the hypothesis of
    :class:`AveragedPerceptron`, the sign of the averaged weights; Freund and Schapire call that one the
    "average" Perceptron.)
    """

    def votes(self, X) -> np.ndarray:
        """sum_k c_k sign(<w^(k), x>) for every row x of X (integers)."""
        X = np.atleast_2d(np.asarray(X, dtype=float))
        S = fp.matmat(X, self.W.T)  # (m, K)
        scale = np.sqrt(np.einsum("ij,ij->i", X, X))[:, None] * np.sqrt(np.einsum("ij,ij->i", self.W, self.W))[None, :]
        return fp.sign(S, scale) @ self.counts

    def predict(self, X) -> np.ndarray:
        return np.where(self.votes(X) > 0, *reversed(PM1))


class AveragedPerceptron(_PerceptronEnsemble):
    """The averaged Perceptron: predict sign(<w_avg, x>) with w_avg = (1/T) sum_{t=1}^T w_{t+1}
    = sum_k (c_k / T) w^(k), the hypothesis that Mohri et al. (Section 7.3.1) and Lu's lecture call the
    voted Perceptron.  A tie (1e-9 ||w_avg|| ||x||) predicts -1.  ``w`` is w_avg after :meth:`fit`."""

    def fit(self, X, y):
        super().fit(X, y)
        self.w = (self.counts / self.T) @ self.W
        return self

    def predict(self, X) -> np.ndarray:
        X = np.atleast_2d(np.asarray(X, dtype=float))
        return np.where(fp.sign(fp.matvec(X, self.w), fp.tie_scale(self.w, X)) > 0, *reversed(PM1))


# -- proof checks of Chapter 4 ---------------------------------------------------------------------
def update_condition(tr: UpdateTrace) -> np.ndarray:
    """y_t <w_t, x_t> <= 0 on every round of ``tr``, a tie (|<w_t, x_t>| <= 1e-9 ||w_t|| ||x_t||)
    counting as 0: the Perceptron's update condition, recomputed from the recorded weights w_t and the
    stream, independently of the learner's own decision (boolean array of length T)."""
    W = tr.state_at("w")  # w_t, the weights in force on round t
    X = np.asarray(tr.X, dtype=float)
    score = np.einsum("ij,ij->i", W, X)
    scale = np.linalg.norm(W, axis=1) * np.linalg.norm(X, axis=1)
    return tr.y * score <= fp.TIE_RTOL * scale


def margin_proof(tr: UpdateTrace, v, eta: float, title: str, gamma: float | None = None,
                 radius: float | None = None):
    """Check the proof of the Perceptron's margin bound on a run, after every update k.

    Mohri et al. Theorem 7.8 (Novikoff 1962), as presented in Lu's lecture 6; the steps are those
    of the book's proof in Section 4.1: step 0 recomputes the update condition on every round from the
    recorded weights (:func:`update_condition`); steps 1-6 follow the proof with S_k, the sum of
    y_t x_t over the first k update rounds, computed from the stream by a cumulative sum (not by the
    learner); step 3 compares the recorded weights with eta S_k (so it needs w_1 = 0). ``tr`` is an
    :class:`olkit.UpdateTrace` of :class:`Perceptron` with step size ``eta``; ``v`` is a separating
    direction.  r and rho are the realized radius max_t ||x_t|| and margin
    min_t y_t <v, x_t> / ||v||.  Steps 1a, 1, 2 and 5b hold on every run (the definitions of rho and r,
    Cauchy-Schwarz) and are labelled identities; the checks are 0, 3, 4, 5a, 6 and M, which read the
    learner's recorded weights and counts.  With ``gamma`` and ``radius``, the promise of the stream
    (:func:`olkit.separable_stream`) is shown first as identities H and H': every margin
    y_t <v, x_t> / ||v|| is at least gamma and every ||x_t|| at most radius, recomputed from the stream.
    Returns ``(proof, r, rho)``; a failing step raises
    :class:`olkit.ProofStepError`.
    """
    from .bounds import perceptron_bound
    from .proof import Proof

    X, y = np.asarray(tr.X, dtype=float), tr.y
    v = np.asarray(v, dtype=float)
    r = float(np.linalg.norm(X, axis=1).max())
    rho = float((y * (X @ v)).min() / np.linalg.norm(v))
    I = tr.rounds - 1
    k = np.arange(1, tr.U + 1)
    S = np.cumsum(y[I, None] * X[I], axis=0)  # S_k, without the learner
    W, W_prev = tr.state["w"][1:], tr.state["w"][:-1]
    x_sq = np.sum(X[I] ** 2, axis=1)
    w_sq = np.sum(W**2, axis=1)
    gap = 1e-9 * (1 + np.abs(S).max(initial=0.0))
    nv = np.linalg.norm(v)
    at = tr.rounds  # the instances of the steps below are the update rounds
    p = Proof(title)
    if gamma is not None:
        # up to rounding: the generator's orthogonalization leaves about 1e-16 r, a few-ulp perturbation
        # of every operation (the portability test) a few 1e-12 r
        p.step("H", "the stream's promise: y_t <v, x_t> / ||v|| >= gamma (every round)", y * (X @ v) / nv, ">=",
               gamma, tol=1e-9 * r, kind="identity", why="the generator's margin")
    if radius is not None:
        p.step("H'", "... and ||x_t|| <= r_0 (every round)", np.linalg.norm(X, axis=1), "<=", radius,
               tol=1e-9 * radius, kind="identity", why="the generator's radius")
    p.step("0", "update iff y_t <w_t, x_t> <= 0 (every round)", tr.updated, "==", update_condition(tr))
    p.step("1a", "rho <= y_t <v, x_t> / ||v|| on each update", y[I] * (X[I] @ v) / nv, ">=", rho, rounds=at,
           kind="identity", why="rho is defined as this minimum")
    p.step("1", "k rho <= <v, S_k> / ||v||", k * rho, "<=", S @ v / nv, tol=gap, rounds=at,
           kind="identity", why="step 1a summed over the first k updates")
    p.step("2", "<v, S_k> / ||v|| <= ||S_k||", S @ v / nv, "<=", np.linalg.norm(S, axis=1), tol=gap, rounds=at,
           kind="identity", why="Cauchy-Schwarz")
    p.step("3", "w after k updates = eta S_k (every coordinate)", W, "==", eta * S, tol=eta * gap,
           rounds=np.repeat(at, X.shape[1]))
    tie_room = 2 * eta * fp.TIE_RTOL * np.linalg.norm(W_prev, axis=1) * np.sqrt(x_sq)
    p.step(
        "4",
        "||w_{t+1}||^2 - ||w_t||^2 <= eta^2 ||x_t||^2 on an update",
        w_sq - np.sum(W_prev**2, axis=1),
        "<=",
        eta**2 * x_sq + tie_room,
        tol=eta**2 * gap,
        rounds=at,
    )
    p.step(
        "5a",
        "||w_{k+1}||^2 <= eta^2 sum of ||x_t||^2 over the k updates",
        w_sq,
        "<=",
        eta**2 * np.cumsum(x_sq) + np.cumsum(tie_room),
        tol=eta**2 * gap,
        rounds=at,
    )
    p.step("5b", "eta^2 sum of ||x_t||^2 <= eta^2 k r^2", np.cumsum(x_sq), "<=", k * r**2, tol=gap, rounds=at,
           kind="identity", why="r is defined as this maximum")
    p.step("6", "k <= r^2 / rho^2", k, "<=", perceptron_bound(r, rho), rounds=at)
    p.step("M", "mistakes <= updates", tr.M, "<=", tr.U)
    return p, r, rho
