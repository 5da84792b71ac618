"""Run a chapter notebook with a broken piece of olkit patched in, and report what failed.

The book's promise is that a wrong step, a wrong constant or a broken algorithm
makes the chapter fail.  ``run_broken(notebook, patch)`` executes the notebook
in a fresh kernel after a first cell that runs ``patch`` (Python code that
replaces, say, ``olkit.Halving`` by a broken variant) and returns the name of
the exception that stopped it, or ``None`` if the notebook ran through.
"""
from __future__ import annotations

import json
from pathlib import Path

import nbclient
import nbformat

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = ROOT / "chapters"


def notebooks() -> list[Path]:
    return sorted(p for p in CHAPTERS.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)


def run_broken(notebook: str | Path, patch: str, timeout: int = 300) -> tuple[str | None, str]:
    """Execute ``notebook`` with ``patch`` run first; return (exception name or None, message)."""
    path = Path(notebook)
    if not path.is_absolute():
        path = CHAPTERS / path
    nb = nbformat.read(path, as_version=4)
    nb.cells.insert(0, nbformat.v4.new_code_cell(patch))
    client = nbclient.NotebookClient(
        nb, timeout=timeout, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    )
    try:
        client.execute()
    except nbclient.exceptions.CellExecutionError as err:
        return err.ename, err.evalue
    return None, ""


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
