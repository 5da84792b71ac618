"""Numbers from a run, inserted into the book's prose.

A sentence of the book that states a number a run produced does not type it: the notebook records
it with :func:`glue` and the prose inserts it with myst-nb's role, ``{glue:text}`name```.  When the
run changes, the sentence changes with it, and nbval compares the recorded text like any output.

:func:`glue` writes the same output as ``myst_nb.glue(name, value, display=False)`` (an output
whose MIME type is ``application/papermill.record/text/plain``, with ``scrapbook`` metadata), so
the book's build reads it, but it needs neither myst-nb nor scrapbook: a notebook that runs on
Colab with olkit alone runs the same cells.

The recorded text is what the prose shows, so it is fixed in the notebook, not at build time:
integers, Fractions and strings are recorded as they are, and a float must come with a format
(``glue("ratio", r, ".2f")``) so that the stored output is the same on every machine.

A sentence that bounds a number ("at least 0.79", "below 2.5%") needs the number rounded in the
direction of the bound, or the rounding can make it false (0.7885 printed as 0.79 after "at least").
``rounding="down"`` (for "at least", "above") and ``rounding="up"`` (for "at most", "below") round a
fixed-point (``".3f"``) or percentage (``".1%"``) format towards minus or plus infinity.
"""
from __future__ import annotations

import numbers
import re
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal
from fractions import Fraction

__all__ = ["glue", "glue_text", "GLUE_PREFIX"]

#: The MIME prefix of a glued value that is not displayed (myst-nb's ``GLUE_PREFIX``).
GLUE_PREFIX = "application/papermill.record/"


_DIRECTED = re.compile(r"^(?P<lead>[^.]*)\.(?P<digits>\d+)(?P<type>[f%])$")
ROUNDINGS = ("nearest", "down", "up")


def glue_text(value: object, fmt: str | None = None, rounding: str = "nearest") -> str:
    """The text that :func:`glue` records for ``value``: ``format(value, fmt)`` when a format is given;
    else an integer, Fraction or string as it prints.  A float without a format is refused (its last
    digits may differ between machines).  ``rounding`` ("nearest", "down" or "up") is the direction in
    which a fixed-point or percentage format rounds: "down" for a number the sentence says is *at least*
    what it shows, "up" for *at most*; the value itself is read exactly (a float's binary value)."""
    if rounding not in ROUNDINGS:
        raise ValueError(f"rounding: expected one of {ROUNDINGS}, got {rounding!r}")
    if rounding != "nearest" and fmt is None:
        raise ValueError(f"rounding={rounding!r} needs a fixed-point or percentage format such as '.3f'")
    if fmt is not None:
        if not isinstance(fmt, str):
            raise ValueError(f"fmt: expected a format specification such as '.3f', got {fmt!r}")
        if rounding == "nearest":
            return format(value, fmt)
        m = _DIRECTED.match(fmt)
        if m is None or isinstance(value, (str, bool)) or not isinstance(value, numbers.Real):
            raise ValueError(f"rounding={rounding!r} needs a real value and a fixed-point or percentage format "
                             f"such as '.3f' or '.1%'; got {value!r} with {fmt!r}")
        exact = Decimal(Fraction(value).numerator) / Decimal(Fraction(value).denominator) if isinstance(
            value, Fraction) else Decimal(float(value))
        scale = 100 if m["type"] == "%" else 1
        step = Decimal(1).scaleb(-int(m["digits"]))
        directed = (exact * scale).quantize(step, rounding=ROUND_FLOOR if rounding == "down" else ROUND_CEILING)
        return format(directed / scale if scale != 1 else directed, fmt)
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, (numbers.Integral, Fraction, str)):
        return str(int(value)) if isinstance(value, numbers.Integral) else str(value)
    raise ValueError(
        f"value: a {type(value).__name__} needs a format (glue(name, value, '.3f')), so that the "
        f"recorded text is the same on every machine; got {value!r} without one"
    )


def glue(name: str, value: object, fmt: str | None = None, rounding: str = "nearest") -> None:
    """Record ``value`` under ``name`` for ``{glue:text}`name``` in the notebook's prose.

    Nothing is displayed in the notebook.  ``name`` may contain letters, digits, ``_``, ``-`` and
    ``.`` (a ``:`` would be read as the start of a format).  See :func:`glue_text` for what is
    recorded and for ``rounding`` (the direction of a bound: "down" for "at least").  It returns nothing, so that a cell ending with it shows nothing.
    """
    if not isinstance(name, str) or not name or not all(c.isalnum() or c in "_-." for c in name):
        raise ValueError(f"name: expected letters, digits, '_', '-' or '.', got {name!r}")
    text = glue_text(value, fmt, rounding)
    try:
        from IPython import get_ipython
        from IPython.display import display
    except ImportError:  # no IPython: nothing to record into
        return
    if get_ipython() is None:  # a script, not a notebook: nothing to record into
        return
    display(
        {GLUE_PREFIX + "text/plain": repr(text)},
        raw=True,
        metadata={"scrapbook": {"name": name, "mime_prefix": GLUE_PREFIX}},
    )
