"""Machine-independent measures of the work an algorithm does.

Timings depend on the machine and on what else it is doing; the number of Python bytecode
instructions a pure-Python routine executes does not (for a given Python version).  The book
uses it to check claims such as "a round costs O(1) operations": a learner whose round executes
the same number of instructions for every size n of the class does constant work per round (its
integers have O(log n) bits, and each arithmetic instruction on them counts as one).  Work done
inside compiled code (a numpy call) counts as the one instruction that calls it, so for
vectorized learners the book counts the entries they touch instead (e.g. Halving's |V_t| votes).
"""
from __future__ import annotations

import gc
import sys
from typing import Any, Callable

import numpy as np

__all__ = ["opcodes", "opcodes_per_round"]


def opcodes(f: Callable, *args, **kwargs) -> tuple[Any, int]:
    """Call ``f(*args, **kwargs)``; return its result and the number of bytecode instructions executed
    in Python frames during the call (nested Python calls included, compiled code excluded).

    The garbage collector is paused during the call, so that no finalizer's instructions are counted.
    """
    count = 0

    def tracer(frame, event, arg):
        nonlocal count
        frame.f_trace_opcodes = True
        if event == "opcode":
            count += 1
        return tracer

    old = sys.gettrace()
    gc_was_enabled = gc.isenabled()
    gc.disable()  # a collection would run finalizers inside the call and count their instructions
    sys.settrace(tracer)
    try:
        result = f(*args, **kwargs)
    finally:
        sys.settrace(old)
        if gc_was_enabled:
            gc.enable()
    return result, count


def opcodes_per_round(learner, xs, ys) -> np.ndarray:
    """Bytecode instructions executed by ``learner.predict(x_t)`` plus ``learner.update(x_t, y_t)``, per round."""
    if len(xs) != len(ys):
        raise ValueError(f"xs and ys must have the same length; got {len(xs)} and {len(ys)}")
    counts = []
    for x, y in zip(xs, ys):
        _, a = opcodes(learner.predict, x)
        _, b = opcodes(learner.update, x, y)
        counts.append(a + b)
    return np.array(counts, dtype=np.int64)
