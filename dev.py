#!/usr/bin/env python3
"""The book's two commands, and a few helpers for authors.  Standard library only.

    python3 dev.py book     # set up .venv, validate every notebook, build the HTML book
    python3 dev.py test     # set up .venv, build the book with warnings as errors, run every test

Authors:
    python3 dev.py execute chapters/ch1/1_2_consistent_halving.ipynb ...   # re-run notebooks in place
    python3 dev.py lock     # re-pin requirements.lock from the current .venv

Both commands need only Python >= 3.11: they create ``.venv`` beside this file,
install the pinned ``requirements.lock`` and ``olkit`` (editable) into it, and
reinstall only when the lock file changes.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = Path(os.environ.get("OLKIT_VENV", ROOT / ".venv"))
LOCK = ROOT / "requirements.lock"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / "python"


def say(msg: str) -> None:
    print(f"[dev] {msg}", flush=True)


def sh(*cmd, **kw) -> None:
    say(" ".join(str(c) for c in cmd))
    subprocess.run([str(c) for c in cmd], check=True, cwd=kw.pop("cwd", ROOT), **kw)


def setup() -> None:
    """Create .venv and install the pinned dependencies and olkit, unless already done for this lock."""
    if sys.version_info < (3, 11):
        sys.exit(f"Python >= 3.11 is needed; this is {sys.version.split()[0]}")
    stamp = VENV / ".olkit-lock-sha256"
    want = hashlib.sha256(LOCK.read_bytes() + (ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if PY.exists() and stamp.exists() and stamp.read_text() == want:
        return
    if not PY.exists():
        sh(sys.executable, "-m", "venv", VENV)
    sh(PY, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-r", LOCK)
    sh(PY, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps", "-e", ROOT)
    stamp.write_text(want)


def env() -> dict[str, str]:
    e = dict(os.environ)
    e["PATH"] = f"{BIN}{os.pathsep}{e.get('PATH', '')}"
    e["VIRTUAL_ENV"] = str(VENV)
    e.setdefault("PYTHONHASHSEED", "0")
    e.pop("PYTHONPATH", None)
    return e


def build(strict: bool) -> Path:
    """Build the HTML book into _build/html; strict = warnings are errors, broken references fail."""
    out = ROOT / "_build"
    if out.exists():
        shutil.rmtree(out)
    cmd = [BIN / "jupyter-book", "build", ROOT, "--path-output", ROOT, "--keep-going"]
    if strict:
        cmd += ["--warningiserror", "--nitpick"]
    sh(*cmd, env=env())
    index = out / "html" / "index.html"
    if not index.exists():
        sys.exit("the book build produced no index.html")
    return index


def nbval(*extra: str) -> None:
    sh(PY, "-m", "pytest", "--nbval", "-q", *extra, "chapters", env=env())


def cmd_book() -> None:
    t0 = time.time()
    setup()
    nbval()  # every stored output is reproduced by a fresh run before it is published
    index = build(strict=False)
    say(f"book built in {time.time() - t0:.0f} s: open {index}")


def cmd_test() -> None:
    t0 = time.time()
    setup()
    build(strict=True)
    # unit and property tests, the broken-variant tests, and nbval (strict) on every notebook;
    # run last so that pytest's summary is the closing line
    sh(PY, "-m", "pytest", "--nbval", "tests", "chapters", env=env())
    say(f"all tests passed in {time.time() - t0:.0f} s")


def cmd_execute(paths: list[str]) -> None:
    setup()
    for p in paths:
        nb = Path(p).resolve()
        code = (
            "import nbformat, nbclient, sys\n"
            "p = sys.argv[1]\n"
            "nb = nbformat.read(p, as_version=4)\n"
            "nbclient.NotebookClient(nb, timeout=600, kernel_name='python3',\n"
            "    resources={'metadata': {'path': sys.argv[2]}}).execute()\n"
            "nbformat.write(nb, p)\n"
        )
        t0 = time.time()
        sh(PY, "-c", code, nb, nb.parent, env=env())
        say(f"executed {nb.relative_to(ROOT)} in {time.time() - t0:.1f} s")


def cmd_lock() -> None:
    setup()
    frozen = subprocess.run([PY, "-m", "pip", "freeze", "--exclude-editable"], check=True, capture_output=True, text=True).stdout
    lines = [l for l in frozen.splitlines() if l and not l.lower().startswith("olkit") and "file://" not in l]
    LOCK.write_text(
        "# Exact versions of everything the book, the tests and Binder install (the one place pins live).\n"
        "# Regenerate with: python3 dev.py lock\n" + "\n".join(lines) + "\n"
    )
    say(f"wrote {len(lines)} pins to {LOCK.name}")


def main(argv: list[str]) -> None:
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return
    cmd, rest = argv[0], argv[1:]
    if cmd == "book":
        cmd_book()
    elif cmd == "test":
        cmd_test()
    elif cmd == "execute":
        cmd_execute(rest)
    elif cmd == "lock":
        cmd_lock()
    elif cmd == "setup":
        setup()
    else:
        sys.exit(f"unknown command {cmd!r}; see python3 dev.py --help")


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except subprocess.CalledProcessError as err:
        sys.exit(err.returncode or 1)
