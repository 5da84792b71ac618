"""The Ellipsoid learner for halfspaces on a grid (Shalev-Shwartz's lecture, "The Ellipsoid Learner").

Halving on the homogeneous halfspaces x -> sign(<w, x>) with w in the grid G^d,
G = {-1, -1 + 1/n, ..., 1}, makes at most d log2(2n + 1) mistakes but keeps
(2n + 1)^d hypotheses.  The Ellipsoid learner replaces the version space by an
ellipsoid that contains its consistent weights of norm at most 1 (labels depend
only on the direction of w),

    E_t = E(A_t^{1/2}, w_t) = {w : (w - w_t)^T A_t^{-1} (w - w_t) <= 1},

starting from the unit ball (w_1 = 0, A_1 = I), and predicts with the centre:
yhat_t = sign(<w_t, x_t>).  After a mistake it replaces E_t by the smallest
ellipsoid that contains the half of E_t on the side of the label (the central
cut of the ellipsoid method of Khachiyan (1979); Groetschel, Lovasz and
Schrijver (1988), Chapter 3).  Each round costs O(d^2) operations.

**Ties.**  The lecture's code predicts ``numpy.sign(<w_t, x_t>)``, which is 0 when
<w_t, x_t> = 0, and then counts the round as a mistake whatever y_t is.  A
prediction must be a label, so :class:`Ellipsoid` predicts +1 when <w_t, x_t> > 0
and -1 otherwise, and it *updates* whenever y_t <w_t, x_t> <= 0 -- on every
mistake, and also on a tie that the prediction -1 happened to get right.
Updates are exactly the lecture's mistakes; the game's mistakes (yhat != y) are
a subset of them.  The proofs of the lecture bound the number U of updates, and
M <= U.  (w_1 = 0, so round 1 is always a tie and always an update.)

On grid data <w_t, x_t> is often exactly 0 in exact arithmetic with w_t != 0 (the
centre sits on a symmetry axis of the grid), and its floating-point value is
then +-1e-17 with a sign that depends on the machine.  So a score counts as 0
when |<w_t, x_t>| <= 1e-9 ||w_t|| ||x_t|| (:func:`olkit.fp.sign`, the book's
tie tolerance): the game is then the same on every machine, and it is the game
of exact arithmetic unless a genuine score is below a billionth of its scale.

What the proofs need is recorded: ``state()`` holds w_t, A_t, log det A_t (by
``numpy.linalg.slogdet``) and the number of updates so far; ``predict`` fills
``details`` with <w_t, x_t>, whether it counted as a tie, and x_t^T A_t x_t.

The module also has the two mistake bounds (the lecture's and the corrected
one proved in the book), the volume factor of one update, an exact test of
whether a ball lies in an ellipsoid, John's weights (to check that the update is
the smallest ellipsoid around the half-ellipsoid), and realizable grid sequences.  The proofs of the
book's Section 1.4, checked on recorded runs, are :mod:`olkit.ellipsoid_proof`; the greedy grid
environments live with the other environments (:mod:`olkit.adversaries`), the 2-D drawings with the
other figures (:mod:`olkit.plots`).
"""
from __future__ import annotations

import math

import numpy as np

from . import fp
from .classes import grid_int
from .game import check_vector, int_at_least

__all__ = [
    "Ellipsoid",
    "ball_in_ellipsoid",
    "ellipsoid_bound",
    "ellipsoid_bound_lecture",
    "ellipsoid_form",
    "inner_ball",
    "john_weights",
    "max_form_on_ball",
    "realizable_grid_sequence",
    "volume_ratio",
    "volume_ratio_bound",
]


_int_at_least = int_at_least


# ---------------------------------------------------------------------------
# The learner
# ---------------------------------------------------------------------------
class Ellipsoid:
    """The Ellipsoid learner of Shalev-Shwartz's lecture ("The Ellipsoid Learner"), labels in {-1, +1}.

    Start with w_1 = 0 and A_1 = I.  Predict +1 if <w_t, x_t> > 0, else -1.  If
    y_t <w_t, x_t> <= 0 (a mistake, or a tie), update with the lecture's formulas

        w_{t+1} = w_t + y_t / (d + 1) * A_t x_t / sqrt(x_t^T A_t x_t),
        A_{t+1} = d^2 / (d^2 - 1) * (A_t - 2 / (d + 1) * A_t x_t x_t^T A_t / (x_t^T A_t x_t)),

    otherwise keep w_{t+1} = w_t and A_{t+1} = A_t.  The factor d^2 / (d^2 - 1)
    needs d >= 2.  See the module docstring for the tie convention.
    """

    labels = (-1, 1)

    def __init__(self, d: int):
        self.d = _int_at_least(d, "d", 2, " (the update divides by d^2 - 1)")
        self.w = np.zeros(self.d)
        self.A = np.eye(self.d)
        self.t = 1  # the round about to be played
        self.updates = 0
        self.details: dict = {}

    # -- input checks ------------------------------------------------------
    def _x(self, x) -> np.ndarray:
        """x as a float vector of shape (d,), finite and non-zero; a ValueError naming the round otherwise."""
        v = check_vector(x, self.d, self.t)
        if not v.any():
            raise ValueError(f"round {self.t}: x must be non-zero (the update divides by sqrt(x^T A x)); got {v.tolist()}")
        return v

    def _y(self, y) -> int:
        if isinstance(y, (bool, np.bool_)) or not isinstance(y, (int, np.integer)) or y not in (-1, 1):
            raise ValueError(f"round {self.t}: label y = {y!r} is not in {{-1, +1}} (convert 0/1 labels with olkit.to_pm1)")
        return int(y)

    # -- the game ----------------------------------------------------------
    def sides(self, X) -> np.ndarray:
        """sign(<w_t, x>) in {-1, 0, +1} for each row x of ``X`` (0: a tie within the tolerance).

        The rule of :meth:`predict` applied to many points at once (environments use it).
        """
        X = np.asarray(X, dtype=float)
        return fp.sign(fp.matvec(X, self.w), fp.tie_scale(self.w, X))

    def predict(self, x) -> int:
        """+1 if <w_t, x> > 0 (beyond the tie tolerance), else -1; records <w_t, x>, the tie flag
        and x^T A_t x in ``details``."""
        x = self._x(x)
        wx = fp.dot(self.w, x)
        side = fp.sign(wx, fp.tie_scale(self.w, x))
        self.details = {"wx": wx, "tie": side == 0, "xAx": fp.quad(x, self.A)}
        return 1 if side > 0 else -1

    def update(self, x, y) -> None:
        """Cut with (x, y) if y <w_t, x> <= 0 (a mistake or a tie); otherwise keep the ellipsoid."""
        x, y = self._x(x), self._y(y)
        if y * fp.sign(fp.dot(self.w, x), fp.tie_scale(self.w, x)) <= 0:
            self.cut(x, y)
            self.updates += 1
        self.t += 1

    def cut(self, x: np.ndarray, y: int) -> None:
        """The lecture's update of (w, A) with the cut (x, y), applied unconditionally."""
        d = self.d
        Ax = fp.matvec(self.A, x)
        xAx = fp.dot(x, Ax)
        if not xAx > 0:
            raise FloatingPointError(f"round {self.t}: x^T A x = {xAx!r} is not positive; A lost definiteness")
        self.w = self.w + (y / (d + 1)) * Ax / math.sqrt(xAx)
        A = (d * d / (d * d - 1.0)) * (self.A - (2.0 / ((d + 1.0) * xAx)) * np.outer(Ax, Ax))
        self.A = (A + A.T) / 2  # exactly symmetric; the formula is symmetric, rounding need not be

    def state(self) -> dict:
        """w_t, A_t (copies), log det A_t and the number of updates so far."""
        sign, logdet = np.linalg.slogdet(self.A)
        return {
            "w": self.w.copy(),
            "A": self.A.copy(),
            "logdet": float(logdet) if sign > 0 else float("nan"),
            "updates": self.updates,
        }


# ---------------------------------------------------------------------------
# Bounds and the volume factor
# ---------------------------------------------------------------------------
def ellipsoid_bound_lecture(n: int, d: int) -> float:
    """2d(2d + 2) ln n: the lecture's theorem ("The Ellipsoid learner makes at most 2d(2d+2) log(n) mistakes").

    It follows from the lecture's claim that the ball of radius 1/n^2 around w*
    stays in every E_t, which needs ||x_t|| <= 1 and that ball inside the unit
    ball; neither holds on the grid G^d.  For n = 1 it is 0.
    """
    n = _int_at_least(n, "n", 1)
    d = _int_at_least(d, "d", 2)
    return 2 * d * (2 * d + 2) * math.log(n)


def ellipsoid_bound(n: int, d: int) -> float:
    """2d(d + 1) ln(2 d n^2): the corrected mistake bound for w* and x_t on the grid G^d.

    From the lecture's volume-reduction lemma, Vol(E_{t+1}) <= e^{-1/(2d+2)} Vol(E_t)
    on each update, and the book's corrected lower bound: the ball
    B(w*/(2 sqrt d), 1/(2 d n^2)) stays in every E_t (:func:`inner_ball`).  It
    bounds the number of updates, hence the number of mistakes.
    """
    n = _int_at_least(n, "n", 1)
    d = _int_at_least(d, "d", 2)
    return 2 * d * (d + 1) * math.log(2 * d * n * n)


def volume_ratio(d: int) -> float:
    """Vol(E_{t+1}) / Vol(E_t) on an update: (d^2/(d^2-1))^{d/2} (1 - 2/(d+1))^{1/2} (lecture, "Why volume shrinks")."""
    d = _int_at_least(d, "d", 2)
    return (d * d / (d * d - 1.0)) ** (d / 2) * (1 - 2 / (d + 1)) ** 0.5


def volume_ratio_bound(d: int) -> float:
    """e^{-1/(2d+2)}: the lecture's upper bound on :func:`volume_ratio` (from 1 + a <= e^a)."""
    d = _int_at_least(d, "d", 2)
    return math.exp(-1 / (2 * d + 2))


# ---------------------------------------------------------------------------
# Ellipsoids and balls
# ---------------------------------------------------------------------------
def _check_ellipsoid(w, A) -> tuple[np.ndarray, np.ndarray]:
    w = np.asarray(w, dtype=float)
    A = np.asarray(A, dtype=float)
    if w.ndim != 1:
        raise ValueError(f"w (the centre) must be a vector; got shape {w.shape}")
    d = w.shape[0]
    if A.shape != (d, d):
        raise ValueError(f"A must have shape ({d}, {d}) to match w; got shape {A.shape}")
    # an exactly symmetric A (the learner's, every round) passes at once; else the tolerance decides
    if not (A == A.T).all() and not np.allclose(A, A.T, rtol=1e-12, atol=1e-300):
        raise ValueError("A must be symmetric")
    return w, A


def ellipsoid_form(z, w, A) -> np.ndarray | float:
    """(z - w)^T A^{-1} (z - w): at most 1 exactly when z lies in E(A^{1/2}, w).

    ``z`` is one point (shape (d,)) or one point per row (shape (m, d)).  This
    is the lecture's exercise E(M, v) = {x : (x - v)^T M^{-2} (x - v) <= 1}
    with M = A^{1/2}.
    """
    w, A = _check_ellipsoid(w, A)
    z = np.asarray(z, dtype=float)
    if z.shape[-1] != w.shape[0] or z.ndim not in (1, 2):
        raise ValueError(f"z must have shape ({w.shape[0]},) or (m, {w.shape[0]}); got shape {z.shape}")
    D = np.atleast_2d(z) - w
    vals = np.einsum("ij,ij->i", D, np.linalg.solve(A, D.T).T)
    return float(vals[0]) if z.ndim == 1 else vals


def max_form_on_ball(c, r: float, w, A, return_bounds: bool = False):
    """max over z in the ball B(c, r) of (z - w)^T A^{-1} (z - w), computed exactly.

    The ball lies in the ellipsoid E(A^{1/2}, w) iff the value is <= 1.  Writing
    z = c + r u with ||u|| <= 1, the form is a convex quadratic in u, so its
    maximum is on the sphere ||u|| = 1: the trust-region subproblem

        max_{||u|| = 1}  u^T P u + 2 q^T u,   P = r^2 A^{-1},  q = r A^{-1} (c - w).

    With P = V diag(lam) V^T and qt = V^T q, a maximizer solves (mu I - P) u = q
    with mu >= max(lam); mu is the root of the secular equation
    sum_i qt_i^2 / (mu - lam_i)^2 = 1 on (max lam, max lam + ||q||], found by
    bisection to machine precision.  In the *hard case* (q has no component on
    the top eigenvectors and the secular sum at mu = max lam is <= 1), mu = max lam
    and the top-eigenvector part of u fills its norm up to 1.

    The value returned is that of a feasible point (a lower bound on the max);
    weak duality gives the upper bound mu + sum_i qt_i^2 / (mu - lam_i) for every
    mu > max lam.  With ``return_bounds=True`` the function returns both
    ``(lower, upper)``; they agree to rounding error.
    """
    w, A = _check_ellipsoid(w, A)
    c = np.asarray(c, dtype=float)
    if c.shape != w.shape:
        raise ValueError(f"c (the ball's centre) must have shape {w.shape}; got shape {c.shape}")
    r = float(r)
    if not r >= 0:
        raise ValueError(f"r (the ball's radius) must be >= 0; got {r!r}")
    a, V = np.linalg.eigh(A)
    if not a[0] > 0:
        raise ValueError(f"A must be positive definite; its smallest eigenvalue is {a[0]!r}")
    g = V.T @ (c - w)  # the centre offset in the eigenbasis
    const = float(np.sum(g * g / a))  # (c - w)^T A^{-1} (c - w)
    if r == 0:
        return (const, const) if return_bounds else const
    lam = r * r / a  # eigenvalues of P
    qt = r * g / a  # V^T q
    lmax = float(lam.max())
    top = lam >= lmax * (1 - 1e-12)
    qnorm = float(np.linalg.norm(qt))
    scale = max(qnorm, lmax)

    def value(u: np.ndarray) -> float:
        return const + float(np.sum(lam * u * u) + 2 * np.sum(qt * u))

    hard = bool(np.all(np.abs(qt[top]) <= 1e-14 * scale))
    if hard:
        rest = ~top
        u = np.zeros_like(qt)
        u[rest] = qt[rest] / (lmax - lam[rest])
        s = float(np.sum(u * u))
        if s <= 1:
            u[np.argmax(top)] = math.sqrt(1 - s)
            upper = const + lmax + float(np.sum(qt[rest] ** 2 / (lmax - lam[rest])))
            lower = value(u)
            return (lower, max(upper, lower)) if return_bounds else lower
    # easy case: bisection on mu in (lmax, lmax + ||q||]
    lo, hi = lmax, lmax + qnorm
    if len(qt) < 8:
        # the same floats on Python numbers, without numpy's cost per call on d entries: numpy sums
        # fewer than 8 float64s from 0 in order (its pairwise sum starts at 8 terms), as here
        pairs = list(zip(qt.tolist(), lam.tolist()))
        for _ in range(200):
            mid = (lo + hi) / 2
            if mid <= lo or mid >= hi:
                break
            s = 0.0
            for q_i, lam_i in pairs:
                v = q_i / (mid - lam_i)
                s += v * v
            if s > 1:
                lo = mid
            else:
                hi = mid
    else:
        for _ in range(200):
            mid = (lo + hi) / 2
            if mid <= lo or mid >= hi:
                break
            if np.sum((qt / (mid - lam)) ** 2) > 1:
                lo = mid
            else:
                hi = mid
    u = qt / (hi - lam)
    u = u / np.linalg.norm(u)
    lower = value(u)
    upper = const + hi + float(np.sum(qt * qt / (hi - lam)))
    return (lower, max(upper, lower)) if return_bounds else lower


def john_weights(U) -> tuple[np.ndarray, float]:
    """Weights lam for John's condition on the unit vectors U (one per row): sum lam_i u_i u_i^T = I, sum lam_i u_i = 0.

    By John's theorem (John 1948), an ellipsoid E containing a convex body K is the minimum-volume
    ellipsoid containing K iff, in the affine frame where E is the unit ball, some points u_i of K on
    the unit sphere carry weights lam_i > 0 with these two sums.  Solved by least squares; returns
    ``(lam, residual)``, the residual being the largest entry of the two sums' errors.  The book
    checks lam > 0 and residual 0 (to rounding) for the Ellipsoid learner's update.
    """
    U = np.asarray(U, dtype=float)
    if U.ndim != 2 or U.shape[0] == 0:
        raise ValueError(f"U must be a non-empty 2-D array of unit vectors, one per row; got shape {U.shape}")
    m, d = U.shape
    iu = np.triu_indices(d)
    outer = np.einsum("mi,mj->mij", U, U)[:, iu[0], iu[1]]  # (m, d(d+1)/2)
    lhs = np.hstack([outer, U]).T  # equations: the upper triangle of sum lam u u^T, then sum lam u
    rhs = np.concatenate([np.eye(d)[iu], np.zeros(d)])
    lam = np.linalg.lstsq(lhs, rhs, rcond=None)[0]
    residual = float(np.abs(lhs @ lam - rhs).max())
    return lam, residual


def ball_in_ellipsoid(c, r: float, w, A, tol: float = 1e-12) -> bool:
    """True iff the ball B(c, r) lies in E(A^{1/2}, w) (up to ``tol``), by :func:`max_form_on_ball`."""
    return max_form_on_ball(c, r, w, A) <= 1 + tol


def inner_ball(w_star, n: int) -> tuple[np.ndarray, float]:
    """The ball (c, r) = (w* / (2 sqrt d), 1 / (2 d n^2)) that stays in every E_t (the book's corrected lemma).

    For w* and x on the grid G^d: y <w*, x> >= 1/n^2 and ||x|| <= sqrt d, so every
    w in the ball has y <w, x> >= 1/(2 sqrt(d) n^2) - r sqrt(d) = 0; and
    ||c|| + r <= 1/2 + 1/(2 d n^2) < 1, so the ball lies in E_1, the unit ball.
    (The lecture's ball B(w*, 1/n^2), "Why volume can't be too small", needs
    ||x_t|| <= 1 and ||w*|| <= 1 - 1/n^2 instead.)
    """
    w_star = np.asarray(w_star, dtype=float)
    n = _int_at_least(n, "n", 1)
    if w_star.ndim != 1 or w_star.shape[0] < 2:
        raise ValueError(f"w_star must be a vector of length d >= 2; got shape {w_star.shape}")
    if np.abs(w_star).max() > 1 + 1e-12:
        raise ValueError(f"w_star must lie in the grid G^d, inside [-1, 1]^d; got {w_star.tolist()}")
    d = w_star.shape[0]
    return w_star / (2 * math.sqrt(d)), 1 / (2 * d * n * n)


# ---------------------------------------------------------------------------
# Instances
# ---------------------------------------------------------------------------
_grid_int = grid_int


def realizable_grid_sequence(n: int, d: int, T: int, rng: np.random.Generator, w_star=None):
    """A realizable sequence for halfspaces on the grid: ``(X, y, w_star)``.

    w* is ``w_star`` (a non-zero point of G^d) or a uniform draw from G^d minus 0;
    x_1, ..., x_T are uniform draws from G^d, redrawn when <w*, x> = 0, so that
    y_t = sign(<w*, x_t>) is a label and every margin y_t <w*, x_t> is a positive
    multiple of 1/n^2 (the labels are computed in integers, exactly).
    Shalev-Shwartz's lecture, "Using Halving to learn halfspaces on a grid".
    """
    n = _int_at_least(n, "n", 1)
    d = _int_at_least(d, "d", 2)
    T = _int_at_least(T, "T", 0)
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy Generator (np.random.default_rng(seed)); got {type(rng).__name__}")
    if w_star is None:
        kw = np.zeros(d, dtype=np.int64)
        while not kw.any():
            kw = rng.integers(-n, n + 1, size=d)
    else:
        kw = _grid_int(w_star, n, "w_star")
        if kw.shape != (d,) or not kw.any():
            raise ValueError(f"w_star must be a non-zero point of G^{d}; got {np.asarray(w_star).tolist()}")
    rows: list[np.ndarray] = []
    have = empty = 0
    while have < T:
        K = rng.integers(-n, n + 1, size=(2 * (T - have) + 4, d))
        K = K[K @ kw != 0]
        rows.append(K)
        have += len(K)
        # at most a third of G^d lies on the hyperplane <kw, x> = 0, so a batch of 2m + 4 >= 6
        # candidates is empty with probability <= 3^-6; 50 empty batches in a row cannot happen
        empty = 0 if len(K) else empty + 1
        if empty >= 50:
            raise RuntimeError("realizable_grid_sequence: 50 empty batches in a row (a bug, not bad luck)")
    K = np.concatenate(rows)[:T] if rows else np.zeros((0, d), dtype=np.int64)
    return K / n, np.sign(K @ kw).astype(np.int64), kw / n
