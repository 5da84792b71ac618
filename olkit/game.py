"""The online game (UML Section 21.1; Shalev-Shwartz's lecture, "The Online Game").

For t = 1, 2, ..., T: the environment shows x_t, the learner predicts yhat_t,
the environment reveals y_t, the learner pays 1[yhat_t != y_t] and updates.

A learner is any object with ``predict(x) -> int`` and ``update(x, y)``.  It may
also offer

* ``labels``: its label set, ``(0, 1)`` (the realizable chapters) or ``(-1, 1)``
  (halfspaces, Perceptron); :func:`run` rejects any other label;
* ``state() -> dict``: what a proof needs about its state (version-space size,
  weights, ...); :func:`run` records it before round 1 and after every update,
  so ``trace.state[key]`` has T + 1 entries, entry t being the state *before*
  round t + 1 (the book's V_{t+1} is ``trace.state["V_size"][t]``);
* ``details``: a dict that ``predict`` fills with per-round quantities (votes);
  recorded as ``trace.details[key]`` with T entries.

Labels in {0, 1} map to {-1, +1} by y -> 2y - 1 (:func:`to_pm1`) and back by
y -> (y + 1) / 2 (:func:`to_01`).

**Long streams.**  :func:`run` pays a Python round trip and a state snapshot per
round.  Mistake-driven learners (the Perceptron and Winnow families) change
their state only on the rounds where they update, and offer
``play_stream(X, y)``: it looks ahead over a block of rounds with one
matrix-vector product, jumps to the next update, and returns an
:class:`UpdateTrace`, which records the state before the first update and after
each one (not after every round).  :func:`run_stream` calls it, or falls back to
:func:`run` for other learners.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Protocol, Sequence

import numpy as np

from . import fp

__all__ = [
    "Learner",
    "NotRealizableError",
    "Trace",
    "UpdateTrace",
    "play",
    "run",
    "run_stream",
    "to_01",
    "to_pm1",
]


class NotRealizableError(ValueError):
    """The labels seen so far are consistent with no hypothesis of the class.

    ``round`` is the (1-based) round at which the version space became empty.
    """

    def __init__(self, message: str, round: int):
        super().__init__(message)
        self.round = round


class Learner(Protocol):
    def predict(self, x: Any) -> int: ...

    def update(self, x: Any, y: int) -> None: ...


def _is_int(v) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def int_at_least(v, name: str, low: int, why: str = "") -> int:
    """v as an int >= low; a ValueError naming the argument otherwise (bool is refused)."""
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < low:
        raise ValueError(f"{name} must be an integer >= {low}{why}; got {v!r}")
    return int(v)


def check_point(x, n: int, t: int) -> int:
    """x as a point of the finite domain {0, ..., n-1}; a ValueError naming round t otherwise."""
    if not _is_int(x) or not 0 <= x < n:
        raise ValueError(f"round {t}: x = {x!r} is not a point of the domain {{0, ..., {n - 1}}}")
    return int(x)


def check_label01(y, t: int) -> int:
    """y as a label in {0, 1}; a ValueError naming round t otherwise."""
    if not _is_int(y) or y not in (0, 1):
        raise ValueError(f"round {t}: label y = {y!r} is not in {{0, 1}}")
    return int(y)


def check_vector(x, d: int, t: int) -> np.ndarray:
    """x as a finite float vector of shape (d,); a ValueError naming round t otherwise.

    The input check shared by the learners on R^d (Perceptron, Ellipsoid, Winnow).  In olkit's
    perturbation mode (:mod:`olkit.fp`) the learner gets x moved by a few ulps (:func:`olkit.fp.ulp_jitter`):
    a decision that depends on the last bits of x, or of plain numpy arithmetic on it (``w @ x`` with
    or without fused multiply-adds), then changes, and the portability test sees it.
    """
    try:
        v = np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"round {t}: x must be a numeric vector of shape ({d},); got {x!r}") from None
    if v.shape != (d,):
        raise ValueError(f"round {t}: x must have shape ({d},); got shape {v.shape}")
    if not np.isfinite(v).all():
        raise ValueError(f"round {t}: x must be finite; got {v.tolist()}")
    if fp.perturbing():
        return fp.ulp_jitter(v)
    return v


#: The labels of the linear learners and of Winnow, in the order that ``PM1[yhat > 0]`` indexes.
PM1 = (-1, 1)


def check_count(v, name: str) -> int:
    """v as an int >= 1 (a size, a number of passes); a ValueError naming the argument otherwise."""
    return int_at_least(v, name, 1)


def check_kernel(kernel):
    """``kernel`` if it is a kernel object (callable on two matrices, with ``diag``); a ValueError otherwise."""
    if not callable(kernel) or not hasattr(kernel, "diag"):
        raise ValueError("kernel must be a kernel object (LinearKernel(), PolynomialKernel(p, c), "
                         f"GaussianKernel(sigma)); got {kernel!r}")
    return kernel


def row_norm_bound(Xb: np.ndarray) -> float:
    """sqrt(d) max_ij |x_ij|, an upper bound on ||x|| for every row x of the block (inf or nan if an
    entry is not finite).  Two reductions, cheaper than the norms of all the rows."""
    return math.sqrt(Xb.shape[-1]) * max(abs(float(Xb.max())), abs(float(Xb.min())))


def check_finite_rows(values: np.ndarray, Xb: np.ndarray, t0: int) -> None:
    """Raise a ValueError naming the first round (t0 + 1 is the block's first) whose value is not finite;
    ``values`` are computed from the rows of ``Xb`` (scores: a non-finite x gives a non-finite score)."""
    if not np.isfinite(values).all():
        i = int(np.argmin(np.isfinite(values)))
        raise ValueError(f"round {t0 + i + 1}: x must be finite; "
                         f"got {Xb[i].tolist()[:8]}{' ...' if Xb.shape[1] > 8 else ''}")


def check_dim(d) -> int:
    """d as a positive int (a dimension); a ValueError naming it otherwise."""
    if isinstance(d, bool) or not isinstance(d, (int, np.integer)) or d < 1:
        raise ValueError(f"d must be a positive integer (the dimension of x); got {d!r}")
    return int(d)


def check_positive(v, name: str, zero_ok: bool = False) -> float:
    """v as a finite float > 0 (>= 0 with ``zero_ok``); a ValueError naming the argument otherwise
    (bool is refused)."""
    ok = not isinstance(v, (bool, np.bool_)) and isinstance(v, (int, float, np.integer, np.floating)) \
        and bool(np.isfinite(v)) and (v >= 0 if zero_ok else v > 0)
    if not ok:
        raise ValueError(f"{name} must be a {'non-negative' if zero_ok else 'positive'} finite number; got {v!r}")
    return float(v)


def check_choice(v, name: str, options: tuple, why: str = ""):
    """v if it is one of ``options`` (bool refused); a ValueError naming the argument otherwise."""
    if isinstance(v, (bool, np.bool_)) or v not in options:
        raise ValueError(f"{name} must be one of {options}{why}; got {v!r}")
    return v


def check_label_pm1(y, t: int) -> int:
    """y as a label in {-1, +1}; a ValueError naming round t otherwise."""
    if not _is_int(y) or y not in (-1, 1):
        raise ValueError(f"round {t}: label y = {y!r} is not in {{-1, +1}} (convert 0/1 labels with olkit.to_pm1)")
    return int(y)


def check_binary(x, d: int, t: int) -> np.ndarray:
    """x as an int64 vector of shape (d,) with entries in {0, 1} (features h_j(x)); a ValueError naming
    round t otherwise."""
    try:
        v = np.asarray(x)
    except (TypeError, ValueError):
        raise ValueError(f"round {t}: x must be a 0/1 vector of shape ({d},); got {x!r}") from None
    if v.shape != (d,):
        raise ValueError(f"round {t}: x must have shape ({d},); got shape {v.shape}")
    if v.dtype.kind not in "biuf" or not ((v == 0) | (v == 1)).all():  # isin's test, cheaper
        bad = v.ravel()[~np.isin(v, (0, 1))][:3] if v.dtype.kind in "biuf" else v.ravel()[:3]
        raise ValueError(f"round {t}: x must have features in {{0, 1}} (Winnow's h_j(x) are 0/1); got values {bad.tolist()}")
    return v.astype(np.int64)


def check_binary_stream(X, y, d: int):
    """A 0/1 stream: X as an int8 array (T, d) with entries in {0, 1}, y as int64 labels in {-1, +1}."""
    A = np.asarray(X)
    if A.ndim != 2 or A.shape[1] != d:
        raise ValueError(f"X must have shape (T, d) = (T, {d}); got shape {A.shape}")
    if A.dtype.kind not in "biuf":
        raise ValueError(f"X must be a 0/1 array; got dtype {A.dtype}")
    ok = (A == 0) | (A == 1)
    if not ok.all():
        t, j = np.argwhere(~ok)[0]
        raise ValueError(f"X: round {t + 1}, feature {j} is {A[t, j].item()!r}; the features must be in {{0, 1}}")
    _, yy = check_stream(np.zeros((A.shape[0], 0)), y, 0)
    return A.astype(np.int8, copy=False), yy


def check_comparator(v, n: int) -> np.ndarray:
    """v as a non-negative, non-zero float vector of shape (n,) (the comparator of Mohri et al. Theorem 7.12)."""
    a = np.asarray(v, dtype=float)
    if a.shape != (n,) or not np.isfinite(a).all() or (a < 0).any() or a.sum() <= 0:
        raise ValueError(f"v must be a non-negative, non-zero vector of shape ({n},) (Theorem 7.12's comparator)")
    return a


def to_pm1(y) -> np.ndarray:
    """Labels {0, 1} -> {-1, +1} (y -> 2y - 1); raises on any other label."""
    y = np.asarray(y)
    if not np.isin(y, (0, 1)).all():
        raise ValueError(f"to_pm1 expects labels in {{0, 1}}; got {np.unique(y)[:5].tolist()}")
    return 2 * y.astype(np.int64) - 1


def to_01(y) -> np.ndarray:
    """Labels {-1, +1} -> {0, 1} (y -> (y + 1) / 2); raises on any other label."""
    y = np.asarray(y)
    if not np.isin(y, (-1, 1)).all():
        raise ValueError(f"to_01 expects labels in {{-1, +1}}; got {np.unique(y)[:5].tolist()}")
    return (y.astype(np.int64) + 1) // 2


@dataclass
class Trace:
    """What happened in one game: arrays indexed by round (0-based: entry t is round t + 1)."""

    x: np.ndarray
    y: np.ndarray
    yhat: np.ndarray
    state: dict[str, np.ndarray] = field(default_factory=dict)
    details: dict[str, np.ndarray] = field(default_factory=dict)

    @property
    def T(self) -> int:
        """Number of rounds played."""
        return len(self.y)

    @property
    def mistake(self) -> np.ndarray:
        """Boolean array, 1[yhat_t != y_t]."""
        return self.yhat != self.y

    @property
    def M(self) -> int:
        """Total number of mistakes."""
        return int(self.mistake.sum())

    @property
    def cum_mistakes(self) -> np.ndarray:
        """Mistakes made in rounds 1..t, for t = 1..T."""
        return np.cumsum(self.mistake)

    @property
    def rounds(self) -> np.ndarray:
        """The 1-based round numbers 1..T."""
        return np.arange(1, self.T + 1)


def _labels_of(learner) -> tuple[int, ...]:
    return tuple(getattr(learner, "labels", (0, 1)))


def _check_label(y, labels: tuple[int, ...], t: int) -> int:
    if isinstance(y, (bool, np.bool_)) or not isinstance(y, (int, np.integer)) or int(y) not in labels:
        raise ValueError(f"round {t}: label y = {y!r} is not in the learner's label set {set(labels)}")
    return int(y)


class _Recorder:
    """Collects predictions, state snapshots and details round by round."""

    def __init__(self, learner):
        self.learner = learner
        self.xs: list = []
        self.ys: list[int] = []
        self.yhats: list[int] = []
        self.states: list[dict] = []
        self.details: list[dict] = []
        self.snapshot()

    def snapshot(self) -> None:
        if hasattr(self.learner, "state"):
            self.states.append(dict(self.learner.state()))

    def round(self, x, y_of_yhat, t: int, labels) -> None:
        yhat = self.learner.predict(x)
        if int(yhat) not in labels:
            raise ValueError(f"round {t}: the learner predicted {yhat!r}, outside its label set {set(labels)}")
        if hasattr(self.learner, "details"):
            self.details.append(dict(self.learner.details))
        y = _check_label(y_of_yhat(int(yhat)), labels, t)
        self.learner.update(x, y)
        self.xs.append(x)
        self.ys.append(y)
        self.yhats.append(int(yhat))
        self.snapshot()

    def trace(self) -> Trace:
        def stack(rows: list[dict]) -> dict[str, np.ndarray]:
            keys = rows[0].keys() if rows else []
            return {k: np.array([r[k] for r in rows]) for k in keys}

        xs = np.array(self.xs) if self.xs else np.zeros(0, dtype=np.int64)
        return Trace(
            x=xs,
            y=np.array(self.ys, dtype=np.int64),
            yhat=np.array(self.yhats, dtype=np.int64),
            state=stack(self.states),
            details=stack(self.details),
        )


def run(learner, xs: Sequence, ys: Sequence) -> Trace:
    """Play the game on the fixed sequence (x_1, y_1), ..., (x_T, y_T) and return its trace.

    Raises ``ValueError`` if ``xs`` and ``ys`` differ in length or a label is not
    in ``learner.labels``; learners raise :class:`NotRealizableError` (naming the
    round) when they require a realizable sequence and do not get one.
    """
    if len(xs) != len(ys):
        raise ValueError(f"xs and ys must have the same length; got {len(xs)} instances and {len(ys)} labels")
    labels = _labels_of(learner)
    rec = _Recorder(learner)
    for t, (x, y) in enumerate(zip(xs, ys), start=1):
        rec.round(x, lambda _yhat, y=y: y, t, labels)
    return rec.trace()


@dataclass
class UpdateTrace:
    """A run recorded per update: what a mistake-driven learner did on a stream (x_1, y_1), ..., (x_T, y_T).

    ``X`` and ``y`` are the stream (references, not copies); ``rounds`` are the
    1-based rounds on which the learner updated (increasing, U of them);
    ``yhat`` its predictions on those rounds; ``state[key]`` has U + 1 entries,
    entry k being ``learner.state()`` after k updates (entry 0: before round 1);
    ``details[key]`` has U entries, filled by ``predict`` on the update rounds.
    On every other round the learner's state did not change and its prediction
    was ``y_t`` (a round without an update is a correct prediction for these
    learners), so the trace determines the whole run: :meth:`to_trace` expands it
    into the round-by-round :class:`Trace` that :func:`run` would record.
    """

    X: np.ndarray
    y: np.ndarray
    rounds: np.ndarray
    yhat: np.ndarray
    state: dict[str, np.ndarray] = field(default_factory=dict)
    details: dict[str, np.ndarray] = field(default_factory=dict)

    @property
    def T(self) -> int:
        """Number of rounds played."""
        return len(self.y)

    @property
    def U(self) -> int:
        """Number of updates."""
        return len(self.rounds)

    @property
    def M(self) -> int:
        """Number of mistakes (all on update rounds)."""
        return int(np.sum(self.yhat != self.y[self.rounds - 1]))

    @property
    def updated(self) -> np.ndarray:
        """Boolean array over the T rounds: 1[the learner updated on round t]."""
        out = np.zeros(self.T, dtype=bool)
        out[self.rounds - 1] = True
        return out

    @property
    def mistake(self) -> np.ndarray:
        """Boolean array over the T rounds: 1[yhat_t != y_t]."""
        out = np.zeros(self.T, dtype=bool)
        out[self.rounds - 1] = self.yhat != self.y[self.rounds - 1]
        return out

    def updates_before(self, t) -> np.ndarray | int:
        """k_t, the number of updates before round t (1-based; t = T + 1 gives U): the learner plays
        round t with ``state[key][k_t]``."""
        return np.searchsorted(self.rounds, t, side="left") if np.ndim(t) else int(np.searchsorted(self.rounds, t))

    def state_at(self, key: str, rounds=None) -> np.ndarray:
        """``state[key]`` in force at each of ``rounds`` (1-based; default: rounds 1..T)."""
        t = np.arange(1, self.T + 1) if rounds is None else np.asarray(rounds)
        return self.state[key][self.updates_before(t)]

    def to_trace(self) -> Trace:
        """The round-by-round :class:`Trace` of this run (states expanded to T + 1 entries; no details).

        Meant for short runs (it stores the state of every round)."""
        yhat = self.y.astype(np.int64).copy()
        yhat[self.rounds - 1] = self.yhat
        k = np.searchsorted(self.rounds, np.arange(0, self.T + 1), side="right")  # entry t: updates in rounds 1..t
        states = {key: v[k] for key, v in self.state.items()}
        return Trace(x=self.X, y=np.asarray(self.y, dtype=np.int64), yhat=yhat, state=states)


class _UpdateRecorder:
    """Collects the update rounds, predictions, states and details of a look-ahead run."""

    def __init__(self, learner):
        self.learner = learner
        self.rounds: list[int] = []
        self.yhats: list[int] = []
        self.states: list[dict] = [dict(learner.state())] if hasattr(learner, "state") else []
        self.details: list[dict] = []

    def record(self, t: int, yhat: int) -> None:
        """Round t (1-based) was an update with prediction yhat; the learner has updated."""
        self.rounds.append(t)
        self.yhats.append(int(yhat))
        if hasattr(self.learner, "details"):
            self.details.append(dict(self.learner.details))
        if hasattr(self.learner, "state"):
            self.states.append(dict(self.learner.state()))

    def trace(self, X, y) -> UpdateTrace:
        def stack(rows: list[dict]) -> dict[str, np.ndarray]:
            keys = rows[0].keys() if rows else []
            return {k: np.array([r[k] for r in rows]) for k in keys}

        return UpdateTrace(X=X, y=y, rounds=np.array(self.rounds, dtype=np.int64),
                           yhat=np.array(self.yhats, dtype=np.int64), state=stack(self.states),
                           details=stack(self.details))


def check_stream(X, y, d: int, labels: tuple[int, ...] = (-1, 1), name_X: str = "X", name_y: str = "y"):
    """The stream as (X of shape (T, d), y of shape (T,) int64); a ValueError naming the argument otherwise.

    X must be numeric with d columns (finiteness is checked by the learners, block by block, as they
    read it); y must hold integers in ``labels`` (bool is refused).  X is converted to float64 only if
    it is not already, so a large float64 stream is not copied.
    """
    try:
        A = X if isinstance(X, np.ndarray) and X.dtype == np.float64 else np.asarray(X, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name_X} must be a numeric array of shape (T, {d}); got {type(X).__name__}") from None
    if A.ndim != 2 or A.shape[1] != d:
        raise ValueError(f"{name_X} must have shape (T, d) = (T, {d}); got shape {A.shape}")
    b = np.asarray(y)
    if b.ndim != 1 or len(b) != A.shape[0]:
        raise ValueError(f"{name_y} must have shape (T,) = ({A.shape[0]},), one label per row of {name_X}; got shape {b.shape}")
    if b.size and (b.dtype == bool or not np.issubdtype(b.dtype, np.integer)):
        raise ValueError(f"{name_y} must hold integer labels in {set(labels)}; got dtype {b.dtype}")
    bad = ~np.logical_or.reduce([b == v for v in labels])
    if bad.any():
        t = int(np.argmax(bad))
        raise ValueError(f"{name_y}: label {b[t].item()!r} at round {t + 1} is not in {{{', '.join(f'{v:+d}' if len(labels) == 2 and -1 in labels else str(v) for v in labels)}}}"
                         + (" (convert 0/1 labels with olkit.to_pm1)" if labels == (-1, 1) else ""))
    return A, b.astype(np.int64, copy=False)


#: Largest look-ahead block, in bytes of instances (the block is read twice: scores, then norms,
#: and should still be in the cache the second time).
LOOKAHEAD_BYTES = 1 << 20


def lookahead(learner, X: np.ndarray, y: np.ndarray, first_update, prepare=None, min_block: int = 64) -> UpdateTrace:
    """Play the stream with block look-ahead and return its :class:`UpdateTrace`.

    The stream is read in blocks of rows.  ``prepare(Xb, t0)``, if given, computes once per block what
    does not depend on the learner's state (e.g. a bound on the norms ||x_t||): an array with one entry
    per row, or a single value for the block.  ``first_update(Xb, yb, t0, info)`` returns the offset in
    ``(Xb, yb)`` (rows t0 + 1, ... of the stream; ``info`` the matching part of ``prepare``'s array, its
    value, or None) of the first round on
    which the learner, in its current state, might update, or None if it certainly updates on none of
    them: no row before that offset may be an update round (rows at or after it may be false alarms).
    That round is then played with the learner's own ``predict`` and ``update``, and recorded if the
    learner updated (``learner.updates`` grew); either way the scan resumes after it, in the same
    block.  So the run is the round-by-round run as long as ``first_update`` never skips an update.  Blocks grow while they hold no update (up to :data:`LOOKAHEAD_BYTES` of instances) and
    restart from twice the last gap between updates, so that a scan costs about as much as the
    rounds it covers.  ``learner.t`` advances over the rounds played without an update.
    """
    rec = _UpdateRecorder(learner)
    T = len(y)
    row_bytes = max(1, X.shape[1] * X.itemsize) if X.ndim == 2 else 8
    max_block = max(min_block, LOOKAHEAD_BYTES // row_bytes)
    t, B, last = 0, min_block, 0  # last: 0-based round after the last update
    while t < T:
        stop = min(T, t + B)
        Xb, yb = X[t:stop], y[t:stop]
        info = prepare(Xb, t) if prepare is not None else None
        a = 0  # rows of the block already played
        while a < len(yb):
            i = first_update(Xb[a:], yb[a:], t + a, info[a:] if isinstance(info, np.ndarray) else info)
            if i is None:
                break
            r = t + a + i  # 0-based round that might update
            learner.t += i
            before = learner.updates
            yhat = learner.predict(X[r])
            learner.update(X[r], int(y[r]))
            if learner.updates > before:
                rec.record(r + 1, yhat)
                last = r + 1
            a += i + 1
        learner.t += len(yb) - a
        start, t = t, stop
        B = min(max_block, 2 * B) if last <= start else max(min_block, min(max_block, 2 * (t - last + 1)))
    return rec.trace(X, y)


def run_stream(learner, X, y):
    """Play the stream (x_1, y_1), ..., (x_T, y_T) fast, recording per update: an :class:`UpdateTrace`.

    Learners that offer ``play_stream(X, y)`` (mistake-driven learners: the Perceptron and Winnow
    families) look ahead over blocks of rounds; for any other learner this is :func:`run` (a
    :class:`Trace`, recorded per round).  Either way the learner continues from its current state.
    """
    if hasattr(learner, "play_stream"):
        return learner.play_stream(X, y)
    return run(learner, X, y)


def play(learner, adversary, T: int) -> Trace:
    """Play ``T`` rounds against an adaptive ``adversary`` and return the trace.

    The adversary has ``next_x(learner) -> x`` (``None`` ends the game early) and
    ``label(x, yhat) -> y``, which it calls after seeing the learner's prediction.
    It may inspect the learner (a white-box adversary simulates a deterministic
    learner, which is what the sup over sequences in UML Def 21.1 allows).
    """
    if isinstance(T, bool) or not isinstance(T, (int, np.integer)) or T < 0:
        raise ValueError(f"T must be a non-negative integer; got {T!r}")
    labels = _labels_of(learner)
    rec = _Recorder(learner)
    for t in range(1, T + 1):
        x = adversary.next_x(learner)
        if x is None:
            break
        rec.round(x, lambda yhat, x=x: adversary.label(x, yhat), t, labels)
    return rec.trace()
