"""The labs: otter-grader's ``otter assign`` on each master notebook of ``labs/``.

A master notebook (``labs/labN_*.ipynb``, otter-assign format) holds the questions, the reference
solutions and the tests; every test calls a check of :mod:`olkit.labs`, which plays the student's
function and runs the chapter's proof on the run.  ``build(out)`` writes, for each lab,

    out/NAME/student/NAME.ipynb, out/NAME/student/tests/   the student notebook and its public tests
    out/NAME/autograder/NAME.ipynb                         the solution notebook, every test
    out/NAME/NAME-autograder.zip                           what ``otter run`` / ``otter grade`` grade with

and, with ``refresh=True``, copies each ``student/`` folder to ``labs/student/NAME/`` (committed: the
Labs page's Colab and Binder buttons open it from the repository).  Cell ids that otter makes up are
replaced by ones derived from the notebook and the cell's place, so two builds are byte for byte equal.

    python -m tools.labs [OUT]     # default _build/labs; refreshes labs/student/
"""
from __future__ import annotations

import contextlib
import hashlib
import io
import shutil
import sys
import tempfile
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
LABS = ROOT / "labs"
STUDENT_COPIES = LABS / "student"


def masters(root: Path = ROOT) -> list[Path]:
    """The master notebooks, in order."""
    return sorted((root / "labs").glob("lab*.ipynb"))


def _stable_ids(path: Path) -> None:
    """Give every cell an id made from the notebook's name and the cell's index (otter draws new ones)."""
    nb = nbformat.read(path, as_version=4)
    for i, cell in enumerate(nb.cells):
        cell.id = hashlib.sha256(f"{path.stem}:{i}".encode()).hexdigest()[:8]
    nbformat.write(nb, path)


def assign(master: Path, out: Path, run_tests: bool = True) -> dict:
    """``otter assign`` one master notebook into ``out/NAME``; return the paths of what it made.  With
    ``run_tests`` otter also runs every test on the solutions and fails if one does not pass (the
    tests of tests/test_labs.py grade the solutions with the autograder instead)."""
    name = master.stem
    dest = out / name
    if dest.exists():
        shutil.rmtree(dest)
    from otter.assign import main as otter_assign  # otter-grader, pinned in requirements.lock

    log = io.StringIO()
    with tempfile.TemporaryDirectory() as tmp, contextlib.chdir(tmp), contextlib.redirect_stdout(log), \
            contextlib.redirect_stderr(log):  # otter writes logs into its working directory
        try:
            otter_assign(str(master), str(dest), no_run_tests=not run_tests)
        except Exception as err:
            sys.stderr.write(log.getvalue()[-4000:])
            raise RuntimeError(f"otter assign failed on {master.name}: {err}") from err
    zips = sorted((dest / "autograder").glob(f"{name}-autograder_*.zip"))
    if len(zips) != 1:
        raise RuntimeError(f"otter assign made {len(zips)} autograder zips for {master.name}")
    zip_path = dest / f"{name}-autograder.zip"
    zips[0].rename(zip_path)
    for nb in (dest / "student" / f"{name}.ipynb", dest / "autograder" / f"{name}.ipynb"):
        _stable_ids(nb)
    return {"name": name, "student": dest / "student" / f"{name}.ipynb", "tests": dest / "student" / "tests",
            "solution": dest / "autograder" / f"{name}.ipynb", "zip": zip_path}


def build(out: Path = ROOT / "_build" / "labs", refresh: bool = True, root: Path = ROOT,
          run_tests: bool = True) -> list[dict]:
    """Every lab; with ``refresh``, the committed student copies are replaced by the new ones."""
    out.mkdir(parents=True, exist_ok=True)
    made = [assign(m, out, run_tests) for m in masters(root)]
    if refresh:
        for lab in made:
            copy = root / "labs" / "student" / lab["name"]
            if copy.exists():
                shutil.rmtree(copy)
            shutil.copytree(lab["student"].parent, copy)
    return made


def main(argv: list[str]) -> int:
    out = Path(argv[0]).resolve() if argv else ROOT / "_build" / "labs"
    made = build(out)
    for lab in made:
        print(f"{lab['name']}: student notebook {lab['student'].relative_to(out)}, autograder {lab['zip'].relative_to(out)}")
    print(f"{len(made)} labs in {out}; student copies refreshed in {STUDENT_COPIES.relative_to(ROOT)}/")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
