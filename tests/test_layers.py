"""olkit's import layers (issue 17): the contract in pyproject.toml holds, and a back-import breaks it.

``lint-imports`` (import-linter) reads ``[tool.importlinter]`` in pyproject.toml: from the figures at
the top to the floating-point rules at the bottom, a module imports only the layers below its own.
"""
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINT = Path(sys.executable).with_name("lint-imports")


def lint(root: Path) -> subprocess.CompletedProcess:
    env = {"PYTHONPATH": str(root), "PATH": str(LINT.parent), "HOME": str(root), "LANG": "C.UTF-8"}
    return subprocess.run([str(LINT), "--no-cache"], cwd=root, env=env, capture_output=True, text=True)


def test_the_layers_only_point_down():
    res = lint(ROOT)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "1 kept, 0 broken" in res.stdout


def test_a_back_import_breaks_the_contract(tmp_path):
    """A core module that imports the figures (the kind of import that tied five modules in a circle)
    fails the check, and the message names both modules."""
    shutil.copytree(ROOT / "olkit", tmp_path / "olkit", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    fp = tmp_path / "olkit" / "fp.py"
    fp.write_text(fp.read_text() + "\nfrom . import plots  # noqa: E402  a back-import\n")
    res = lint(tmp_path)
    assert res.returncode != 0
    assert "olkit.fp is not allowed to import olkit.plots" in res.stdout, res.stdout
