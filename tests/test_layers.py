"""The import layers of olkit and of tools: the contracts in pyproject.toml hold, and a back-import
breaks each.

``lint-imports`` (import-linter) reads ``[tool.importlinter]`` in pyproject.toml. In olkit, from the
figures at the top to the floating-point rules at the bottom, a module imports only the layers below
its own. In tools, the browser checks sit on the PDF, the slides, the student edition and the other
tools, which sit on ``tools.web`` (the browser's plumbing); no circle (browser and slides imported each
other before).
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
    assert "2 kept, 0 broken" in res.stdout


def _copy(tmp_path: Path) -> None:
    for package in ("olkit", "tools"):
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")


def test_a_back_import_breaks_the_contract(tmp_path):
    """A core module that imports the figures (the kind of import that tied five modules in a circle)
    fails the check, and the message names both modules."""
    _copy(tmp_path)
    fp = tmp_path / "olkit" / "fp.py"
    fp.write_text(fp.read_text() + "\nfrom . import plots  # noqa: E402  a back-import\n")
    res = lint(tmp_path)
    assert res.returncode != 0
    assert "olkit.fp is not allowed to import olkit.plots" in res.stdout, res.stdout


def test_a_back_import_in_tools_breaks_its_contract(tmp_path):
    """The plumbing that imports the checks (a circle through tools.web) fails, naming both modules."""
    _copy(tmp_path)
    web = tmp_path / "tools" / "web.py"
    web.write_text(web.read_text() + "\nfrom tools import browser  # noqa: E402  a back-import\n")
    res = lint(tmp_path)
    assert res.returncode != 0
    assert "tools.web is not allowed to import tools.browser" in res.stdout, res.stdout
    assert "olkit's layers only point down KEPT" in res.stdout


#: A module of olkit is one idea, readable in one sitting (CONTRIBUTING.md, "olkit's layers").
MAX_MODULE_LINES = 600


def test_no_module_of_olkit_is_longer_than_one_sitting():
    sizes = {p.relative_to(ROOT).as_posix(): len(p.read_text().splitlines()) for p in (ROOT / "olkit").rglob("*.py")}
    assert len(sizes) >= 30
    long = {name: n for name, n in sizes.items() if n > MAX_MODULE_LINES}
    assert long == {}, f"split these modules along their ideas (at most {MAX_MODULE_LINES} lines): {long}"
