"""Run a chapter notebook with a broken piece of olkit patched in, and report what failed.

The book's promise is that a wrong step, a wrong constant or a broken algorithm
makes the chapter fail.  ``run_broken(notebook, patch)`` executes the notebook
in a fresh interpreter after a first cell that runs ``patch`` (Python code that
replaces, say, ``olkit.Halving`` by a broken variant) and returns the name of
the exception that stopped it, or ``None`` if the notebook ran through.

The fresh interpreter is a child forked from a server process that has already
imported numpy, matplotlib, IPython and olkit (multiprocessing's forkserver): it
starts in milliseconds where a Jupyter kernel takes two seconds, and nothing of
one run (the patch included) reaches the next.  The cells run in an IPython
shell (magics, ``display``), with matplotlib's Agg backend and the figures closed
after each cell, as the inline backend does.  nbval runs the unpatched notebooks
in real kernels; this is only the broken-variant tests' runner.
"""
from __future__ import annotations

import json
import multiprocessing
import os
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = ROOT / "chapters"
PRELOAD = ["numpy", "scipy", "matplotlib", "matplotlib.pyplot", "IPython", "ipywidgets", "olkit", "olkit.plots"]


def notebooks() -> list[Path]:
    return sorted(p for p in CHAPTERS.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)


_CONTEXT = None


def _context():
    global _CONTEXT
    if _CONTEXT is None:
        _CONTEXT = multiprocessing.get_context("forkserver")
        _CONTEXT.set_forkserver_preload(PRELOAD)
    return _CONTEXT


def _run_cells(cells: list[str], cwd: str, conn) -> None:
    """In the child: run the cells in an IPython shell; send (exception name, message) or (None, "")."""
    import contextlib
    import io

    import matplotlib
    import matplotlib.pyplot as plt
    from IPython.core.interactiveshell import InteractiveShell

    matplotlib.use("Agg")  # here only: os.environ is shared with the kernels the other tests start
    os.chdir(cwd)
    shell = InteractiveShell.instance()
    result = (None, "")
    sink = io.StringIO()
    for source in cells:
        with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
            res = shell.run_cell(source, store_history=False)
        plt.close("all")
        sink.seek(0)
        sink.truncate()
        err = res.error_before_exec or res.error_in_exec
        if err is not None:
            first = source.strip().splitlines()[0] if source.strip() else ""
            result = (type(err).__name__, f"{err} [in the cell that begins {first!r}]")
            break
    conn.send(result)
    conn.close()


#: A cell that renders an animation (``olkit.plots.animate``): it draws a recorded trace frame by frame
#: (1.5 to 4.5 s) and checks the picture, not a proof step; no later cell uses what it makes.
ANIMATION_CALL = "olkit.plots.animate("


def run_broken(notebook: str | Path, patch: str, timeout: int = 300, skip_animations: bool = True
               ) -> tuple[str | None, str]:
    """Execute ``notebook`` with ``patch`` run first; return (exception name or None, message).

    The cells that render an animation are left out unless ``skip_animations`` is False: a broken
    variant must be stopped by a proof check, which those cells do not hold (the tests that run a
    notebook top to bottom, the student and lab editions, keep them)."""
    path = Path(notebook)
    if not path.is_absolute():
        path = CHAPTERS / path
    nb = nbformat.read(path, as_version=4)
    cells = [patch] + [c.source for c in nb.cells if c.cell_type == "code"
                       and not (skip_animations and ANIMATION_CALL in c.source)]
    ctx = _context()
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_run_cells, args=(cells, str(path.parent), child), daemon=True)
    proc.start()
    child.close()
    try:
        if not parent.poll(timeout):
            raise TimeoutError(f"{path.name} with the patch did not finish in {timeout} s")
        return parent.recv()
    except EOFError:
        proc.join(5)
        raise RuntimeError(f"{path.name}: the child running it died (exit code {proc.exitcode})") from None
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join()


def stopped_by_recomputation(ename: str, evalue: str, cell: str) -> bool:
    """True if an ``assert`` of the check cell that begins with ``cell`` stopped the run: a cell that
    recomputes what olkit computes (a learner, a stream, a distribution) by its definition, without
    olkit, and so stops a broken variant before the proof's own step does (``run_broken`` names the
    cell that raised)."""
    return ename == "AssertionError" and f"[in the cell that begins {cell!r}" in evalue


def patch_code(module: str, name: str, replacement_source: str, replacement_name: str) -> str:
    """Source of a first cell that defines ``replacement_name`` and installs it as
    ``olkit.<name>`` and ``olkit.<module>.<name>``."""
    return (
        "import olkit, importlib\n"
        f"{replacement_source}\n"
        f"_m = importlib.import_module('olkit.{module}')\n"
        f"setattr(_m, {json.dumps(name)}, {replacement_name})\n"
        f"if hasattr(olkit, {json.dumps(name)}): setattr(olkit, {json.dumps(name)}, {replacement_name})\n"
    )
