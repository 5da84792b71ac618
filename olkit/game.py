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
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, Sequence

import numpy as np

__all__ = [
    "Learner",
    "NotRealizableError",
    "Trace",
    "play",
    "run",
    "to_01",
    "to_pm1",
    "worst_case_mistakes",
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

    The input check shared by the learners on R^d (Perceptron, Ellipsoid).
    """
    try:
        v = np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"round {t}: x must be a numeric vector of shape ({d},); got {x!r}") from None
    if v.shape != (d,):
        raise ValueError(f"round {t}: x must have shape ({d},); got shape {v.shape}")
    if not np.isfinite(v).all():
        raise ValueError(f"round {t}: x must be finite; got {v.tolist()}")
    return v


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


def worst_case_mistakes(H, make_learner, max_size: int = 24) -> int | float:
    """M_A(H) of UML Definition 21.1, computed exactly for a small dense class.

    The sup over target h in H and over sequences (chosen adaptively, which is
    the same thing for a deterministic learner) is a game-tree search: from a
    version space V, the environment picks x and a label y that keeps V_y =
    {h in V : h(x) = y} non-empty, and collects 1[A(x) != y] + M(V_y).

    ``make_learner(H)`` builds a fresh deterministic learner.  The search
    memoizes on V, which is exact for learners whose prediction depends on the
    version space only (Consistent with update="version_space", Halving, SOA);
    the learner is replayed along a shortest history to each V.  If the learner
    errs on a point that all of V labels alike, the environment can repeat that
    point forever, and the result is ``inf``.  Classes with more than
    ``max_size`` hypotheses are refused (the search is exponential).
    """
    from .classes import check_class

    A = check_class(H)
    if A.shape[0] > max_size:
        raise ValueError(f"worst_case_mistakes: |H| = {A.shape[0]} exceeds max_size = {max_size} (exponential search)")
    memo: dict[bytes, float] = {}

    def learner_after(history):
        learner = make_learner(A)
        for x, y in history:
            learner.predict(x)
            learner.update(x, y)
        return learner

    def value(V: np.ndarray, history: tuple) -> float:
        key = V.tobytes()
        if key in memo:
            return memo[key]
        best = 0.0
        learner = learner_after(history)
        for x in range(A.shape[1]):
            col = A[V, x]
            yhat = learner.predict(x)
            if col.min() == col.max():  # V agrees on x: the label is forced
                if yhat != col[0]:
                    memo[key] = float("inf")
                    return float("inf")
                continue
            for y in (0, 1):
                best = max(best, float(yhat != y) + value(V[col == y], history + ((x, y),)))
        memo[key] = best
        return best

    v = value(np.arange(A.shape[0]), ())
    return v if v == float("inf") else int(v)
