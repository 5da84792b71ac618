"""What every lab check shares: the feedback a student reads, and calls of the student's function that
turn its failures into that feedback.

:class:`LabFeedback` is the exception a check raises; its message is one sentence for the student (the
failed step of the chapter's proof, the round, both sides, and what they mean for the student's
function), which otter-grader shows as the test's failure.
"""
from __future__ import annotations

import re
from typing import Callable

import numpy as np

from ..proof import ProofStepError, fmt

__all__ = ["LabFeedback"]


class LabFeedback(AssertionError):
    """What a lab check found wrong, as a sentence for the student."""


def _round_of(err: ProofStepError) -> int | None:
    m = re.search(r"round (\d+)", str(err.round))
    return int(m[1]) if m else None


def _explain(err: ProofStepError, says: dict[str, Callable[[int | None, ProofStepError], str]]) -> LabFeedback:
    """The failed step in words: the proof, the step and its claim, the round, both sides, and what the
    lab's ``says[step]`` makes of them for the student's function."""
    t = _round_of(err)
    where = f"in round {t}" if t is not None else f"at {err.round}"
    text = (f"Step {err.step} of {err.proof} fails {where}: '{err.claim}' should hold, but the left side is "
            f"{fmt(err.lhs)} and the right side {fmt(err.rhs)}.")
    hint = says.get(err.step)
    if hint is not None:
        text += " " + hint(t, err)
    return LabFeedback(text)


def _call(fn: Callable, name: str, t: int, *args):
    """Call the student's function; an exception it raises becomes feedback naming the round."""
    if not callable(fn):
        raise LabFeedback(f"{name} is not a function (got {fn!r}): define it with def {name}(...) and run its cell")
    try:
        return fn(*args)
    except LabFeedback:
        raise
    except Exception as exc:  # the student's code failed: say where, keep the cause
        raise LabFeedback(f"{name} raised {type(exc).__name__}: {exc} (in round {t})") from exc


def _label01(v, name: str, t: int) -> int:
    if isinstance(v, (bool, np.bool_)):
        return int(v)
    if isinstance(v, (int, np.integer)) and int(v) in (0, 1):
        return int(v)
    raise LabFeedback(f"{name} returned {v!r} in round {t}; it must return the label 0 or 1"
                      + (" (is the function still '...'?)" if v is None or v is Ellipsis else ""))
