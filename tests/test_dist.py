"""olkit as a release: ``python3 dev.py dist`` builds an sdist and a wheel of the book's version, and the
wheel, installed into a fresh virtual environment (not the editable checkout), runs a chapter notebook
to its stored outputs; one version number is stated everywhere (olkit, the citation file, the change log,
the Colab cells).
"""
from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import olkit

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
spec = importlib.util.spec_from_file_location("dev", ROOT / "dev.py")
dev = importlib.util.module_from_spec(spec)
spec.loader.exec_module(dev)

#: The notebook that the installed wheel runs (a short one: the whole chapter is nbval's job).
NOTEBOOK = ROOT / "chapters" / "ch1" / "1_1_online_game.ipynb"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return dev.dist(tmp_path_factory.mktemp("dist"))


def test_dist_builds_an_sdist_and_a_wheel_of_the_books_version(built):
    names = sorted(p.name for p in built)
    v = olkit.__version__
    assert names == [f"olkit-{v}-py3-none-any.whl", f"olkit-{v}.tar.gz"]
    wheel = zipfile.ZipFile(next(p for p in built if p.suffix == ".whl"))
    files = set(wheel.namelist())
    for sub in ("plots", "broken", "labs"):
        assert f"olkit/{sub}/__init__.py" in files, f"the wheel lacks olkit.{sub}"
    assert not any(f.startswith(("tests/", "tools/", "chapters/")) for f in files), "only the package"
    meta = wheel.read(f"olkit-{v}.dist-info/METADATA").decode()
    assert f"Version: {v}" in meta and "Requires-Dist: numpy" in meta


def test_the_wheel_runs_a_chapter_notebook_in_a_fresh_environment(built, tmp_path):
    wheel = next(p for p in built if p.suffix == ".whl")
    venv = tmp_path / "venv"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    subprocess.run([str(BIN / "uv"), "venv", "--quiet", "--python", sys.executable, str(venv)], check=True, env=env)
    py = venv / "bin" / "python"
    # from the pinned versions, offline (uv's cache holds what set-up installed)
    subprocess.run([str(BIN / "uv"), "pip", "install", "--quiet", "--offline", "--python", str(py), str(wheel),
                    "nbval", "ipykernel", "pytest", "-c", str(ROOT / "requirements.lock")], check=True, env=env)
    work = tmp_path / "work"
    work.mkdir()
    nb = work / NOTEBOOK.name
    nb.write_bytes(NOTEBOOK.read_bytes())
    where = subprocess.run([str(py), "-c", "import olkit; print(olkit.__file__, olkit.__version__)"],
                           cwd=work, env=env, capture_output=True, text=True, check=True).stdout.split()
    assert Path(where[0]).is_relative_to(venv) and where[1] == olkit.__version__, where
    run = subprocess.run([str(py), "-m", "pytest", "--nbval", "-q", "-p", "no:cacheprovider", nb.name],
                         cwd=work, env=dict(env, PATH=f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"),
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert re.search(r"\d+ passed", run.stdout)


def test_colab_cells_and_labs_install_the_wheel_of_this_release(built):
    """The chapters' Colab cells and the labs' set-up cells install the wheel that ``dev.py dist`` builds,
    as the release of this version carries it (the same file the fresh-venv test above installs)."""
    import yaml

    v = olkit.__version__
    repo = yaml.safe_load((ROOT / "_config.yml").read_text())["repository"]["url"]
    wheel = next(p for p in built if p.suffix == ".whl")
    url = f"{repo}/releases/download/v{v}/{wheel.name}"
    notebooks = sorted((ROOT / "chapters").rglob("*.ipynb")) + sorted((ROOT / "labs").glob("*.ipynb"))
    assert len(notebooks) >= 20
    for nb in notebooks:
        cells = [c for c in json.loads(nb.read_text())["cells"] if c["cell_type"] == "code"]
        first = "".join(cells[0]["source"])
        assert f'"olkit @ {url}"' in first and "git+" not in first, f"{nb.name} does not install {url}"


def test_one_version_everywhere():
    v = olkit.__version__
    cff = (ROOT / "CITATION.cff").read_text()
    assert re.search(rf'^version: "{re.escape(v)}"$', cff, re.M), "CITATION.cff's version"
    assert re.search(rf'^  edition: "{re.escape(v)}"$', cff, re.M), "CITATION.cff's book edition"
    log = (ROOT / "CHANGELOG.md").read_text()
    assert re.search(rf"^## {re.escape(v)} ", log, re.M), "CHANGELOG.md has no entry for this version"
    first = re.search(r"^## (\S+) ", log, re.M)[1]
    assert first == v, f"the newest entry of CHANGELOG.md is {first}, olkit is {v}"
    readme = (ROOT / "README.md").read_text()
    assert "CITATION.cff" in readme and "How to cite" in readme and f"version {v}," in readme
