"""The built book, ``_build/html``, for the tests that read it.

``python3 dev.py test`` builds the book (strict) beside the tests and names, in ``OLKIT_BOOK_BUILD``,
the file where the build writes its outcome when it ends: ``wait()`` blocks until then.  Run alone,
pytest uses the build that is there (``python3 dev.py book`` or ``test`` made it), or skips.
"""
from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HTML = ROOT / "_build" / "html"


def pending() -> bool:
    """Whether dev.py test is building the book beside this run."""
    return bool(os.environ.get("OLKIT_BOOK_BUILD"))


def available() -> bool:
    """At collection: the book is built, or it is being built and will be."""
    return pending() or (HTML / "intro.html").exists()


def wait(timeout: float = 1800.0) -> Path | None:
    """``_build/html`` once the build (if one is running) has ended; None if there is no build.  Fails
    the test if the running build failed."""
    status = os.environ.get("OLKIT_BOOK_BUILD")
    if status:
        path, t0 = Path(status), time.time()
        while not path.exists():
            if time.time() - t0 > timeout:
                pytest.fail(f"the book build did not end in {timeout:.0f} s ({path} not written)")
            time.sleep(0.5)
        state = path.read_text().strip()
        if state != "ok":
            pytest.fail(f"the book did not build: {state}")
    return HTML if (HTML / "intro.html").exists() else None
