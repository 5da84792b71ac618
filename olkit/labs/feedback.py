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
from .refs import RESULTS, cite, url

__all__ = ["LabFeedback"]


class LabFeedback(AssertionError):
    """What a lab check found wrong, as a sentence for the student."""


def _round_of(err: ProofStepError) -> int | None:
    m = re.search(r"round (\d+)", str(err.round))
    return int(m[1]) if m else None


def _explain(err: ProofStepError, says: dict[str, Callable[[int | None, ProofStepError], str]],
             ref: str | None = None) -> LabFeedback:
    """The failed step in words: the book's numbered result (``ref``, a label of :mod:`olkit.labs.refs`:
    "Theorem 1.3, step 0'"), the step's claim, the round, both sides, what the lab's ``says[step]``
    makes of them for the student's function, and where the result is in the book."""
    t = _round_of(err)
    where = f"in round {t}" if t is not None else f"at {err.round}"
    if ref is not None:
        head = f"{cite(ref, err.step)} ({RESULTS[ref][2]}) fails {where}"
    else:
        head = f"Step {err.step} of {err.proof} fails {where}"
    text = (f"{head}: '{err.claim}' should hold, but the left side is {fmt(err.lhs)} and the right side "
            f"{fmt(err.rhs)}.")
    hint = says.get(err.step)
    if hint is not None:
        text += " " + hint(t, err)
    if ref is not None:
        text += f" ({cite(ref)} in the book: {url(ref)})"
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


def _rule(name: str, t: int, rule: str, ref: str, got: str, want: str, why: str = "") -> LabFeedback:
    """Feedback for a round where the student's function does not follow the rule the question states
    (the update, the prediction, the tie rule), even if the proof's conclusion may still hold."""
    return LabFeedback(f"In round {t} your {name} does not follow {rule} ({cite(ref)}): it gave {got}, the rule "
                       f"gives {want}{'; ' + why if why else ''}. A different rule is a wrong answer even where "
                       f"the bound still holds. ({cite(ref)} in the book: {url(ref)})")
