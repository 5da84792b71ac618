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
"""
from __future__ import annotations

import numbers
from fractions import Fraction

__all__ = ["glue", "glue_text", "GLUE_PREFIX"]

#: The MIME prefix of a glued value that is not displayed (myst-nb's ``GLUE_PREFIX``).
GLUE_PREFIX = "application/papermill.record/"


def glue_text(value: object, fmt: str | None = None) -> str:
    """The text that :func:`glue` records for ``value``: ``format(value, fmt)`` when a format is given;
    else an integer, Fraction or string as it prints.  A float without a format is refused (its last
    digits may differ between machines)."""
    if fmt is not None:
        if not isinstance(fmt, str):
            raise ValueError(f"fmt: expected a format specification such as '.3f', got {fmt!r}")
        return format(value, fmt)
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, (numbers.Integral, Fraction, str)):
        return str(int(value)) if isinstance(value, numbers.Integral) else str(value)
    raise ValueError(
        f"value: a {type(value).__name__} needs a format (glue(name, value, '.3f')), so that the "
        f"recorded text is the same on every machine; got {value!r} without one"
    )


def glue(name: str, value: object, fmt: str | None = None) -> None:
    """Record ``value`` under ``name`` for ``{glue:text}`name``` in the notebook's prose.

    Nothing is displayed in the notebook.  ``name`` may contain letters, digits, ``_``, ``-`` and
    ``.`` (a ``:`` would be read as the start of a format).  See :func:`glue_text` for what is
    recorded.  It returns nothing, so that a cell ending with it shows nothing.
    """
    if not isinstance(name, str) or not name or not all(c.isalnum() or c in "_-." for c in name):
        raise ValueError(f"name: expected letters, digits, '_', '-' or '.', got {name!r}")
    text = glue_text(value, fmt)
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
