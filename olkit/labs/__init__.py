"""Feedback for the labs (``labs/``): a function a student wrote, played and checked by the chapter's proof.

A lab question asks for the core of an algorithm as a plain function: Halving's prediction on a
version space, Hedge's distribution over the experts.  The checks here wrap that function into a
learner, play a recorded game on a fixed stream (``case``: ``"public"`` for the student's own check,
others -- ties, a single hypothesis, one round, large losses -- for grading), and run the chapter's
proof on the trace: the same steps the chapter's notebook checks.  When a step fails,
:class:`LabFeedback` says in a sentence which step, in which round, with both sides and what it means
for the student's function; otter-grader shows that sentence as the test's failure.

A lab's tests call these functions only, so the public and hidden tests differ by the stream alone.

One module per lab (``olkit.labs.halving`` for Lab 1, ``olkit.labs.halving_checks`` for Lab 1b, ...),
with what they share in ``olkit.labs.feedback`` (the feedback), ``olkit.labs.refs`` (the book's numbered
results the feedback cites) and ``olkit.labs.proofcheck`` (grading a student's proof checks by
mutation).  Every name in a lab module's ``__all__`` is importable from here: a lab's tests call
``labs.check_...`` and ``labs.<lab>_case``.  A new lab module needs no edit of this file.
"""
from __future__ import annotations

import importlib as _importlib
import pkgutil as _pkgutil

__all__: list[str] = []
for _info in sorted(_pkgutil.iter_modules(__path__), key=lambda m: m.name):
    _module = _importlib.import_module(f"{__name__}.{_info.name}")
    for _name in getattr(_module, "__all__", ()):
        if _name in globals() and globals()[_name] is not getattr(_module, _name):
            raise ImportError(f"olkit.labs: {_name} is defined twice ({_info.name} and another lab module)")
        globals()[_name] = getattr(_module, _name)
        __all__.append(_name)
__all__ = sorted(set(__all__))
