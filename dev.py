#!/usr/bin/env python3
"""The book's two commands, and a few helpers for authors.  Standard library only.

    python3 dev.py book     # set up .venv, validate every notebook, build the HTML book
    python3 dev.py test     # set up .venv, build the book with warnings as errors, run every test

Authors:
    python3 dev.py setup    # only create or refresh .venv (the two commands above do it first)
    python3 dev.py chapter 3    # everything chapter 3 touches: nbval, portability, its tests, the strict build
    python3 dev.py build    # the book alone, strict (warnings are errors), as dev.py test builds it
    python3 dev.py book --record   # also append the book's time to benchmarks/book_time.md
    python3 dev.py execute chapters/ch1/1_2_consistent_halving.ipynb ...   # re-run notebooks in place
    python3 dev.py mutants [--modules finite,ellipsoid] [--sample 160]     # how strong are the checks (not CI)
    python3 dev.py othermachine   # nbval on every notebook with another CPU's numpy and BLAS code paths
    python3 dev.py lock     # re-pin requirements.lock from the current .venv
    python3 dev.py dist     # olkit's sdist and wheel in _build/dist (the release)
    python3 dev.py reading  # code against prose, glued numbers, asserts per notebook: benchmarks/reading.md

Both commands need only Python >= 3.11: they create ``.venv`` beside this file,
install the pinned ``requirements.lock`` and ``olkit`` (editable) into it, and
reinstall only when the lock file changes.

The editions and the browser checks (see README):
    python3 dev.py student  # the student edition: HTML book and notebooks without solutions
    python3 dev.py labs     # the labs (otter assign): _build/labs/NAME/{student,autograder}, NAME-autograder.zip
    python3 dev.py pdf      # one PDF of the whole book, printed by the system Chromium
    python3 dev.py slides   # a reveal.js deck per section in _build/slides (--pdf: print each to PDF)
    python3 dev.py browser  # the browser checks on _build/html: screenshots, accessibility report
    python3 dev.py site     # _build/site as published: the book, student/, downloads/ (after the above)
    python3 dev.py assets   # the npm packages of tools/package.json (MathJax, axe-core) in .cache/npm
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
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
    # uv (pinned in the lock like everything else) installs the ~130 pinned wheels in seconds, where
    # pip takes over a minute; pip does it if uv cannot be had
    pin = re.search(r"^uv==\S+$", LOCK.read_text(), flags=re.M)
    pip = [PY, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    try:
        if pin is None:
            raise subprocess.CalledProcessError(1, "uv: no pin in the lock")
        sh(*pip, pin[0])
        uv = [BIN / "uv", "pip", "install", "--quiet", "--python", PY]
        # No --compile-bytecode: compiling all of site-packages takes 27 s (44 CPU-s) before the first
        # test, for modules most of which no test imports.  The interpreters that dev.py starts write
        # the bytecode of what they import instead (env() lets them, where PYTHONDONTWRITEBYTECODE is
        # set, as on CI machines), so the tests' 80 interpreters and kernels compile numpy, scipy,
        # matplotlib and IPython once, not each (4.9 s against 2.6 s per interpreter).
        sh(*uv, "-r", LOCK)
        sh(*uv, "--no-deps", "-e", ROOT)
    except subprocess.CalledProcessError as err:
        say(f"uv failed ({err}); installing with pip")
        sh(*pip, "-r", LOCK)
        sh(*pip, "--no-deps", "-e", ROOT)
    compile_imports()
    stamp.write_text(want)


#: What the two commands import first, in two processes at once (see compile_imports): the kernels'
#: modules (tools/kernels.py's PRELOAD) with pytest and nbval, and the book's build.
WARM_IMPORTS = (
    "import importlib, pytest, nbval.plugin, xdist.plugin, hypothesis; from tools import kernels; "
    "[importlib.import_module(m) for m in kernels.PRELOAD]",
    "import jupyter_book.cli.main, sphinx.application, sphinx.builders.html, myst_nb, myst_parser.parsers.docutils_, "
    "sphinx_book_theme, pydata_sphinx_theme, sphinx_proof, sphinx_exercise, sphinxcontrib.bibtex, sphinx_design, "
    "sphinx_togglebutton, sphinx_copybutton, sphinx_comments, sphinx_external_toc, sphinx.ext.autodoc, "
    "sphinx.ext.intersphinx, pybtex.plugin, pygments.lexers.python, IPython.lib.lexers",
)


def compile_imports() -> None:
    """Write the bytecode of the modules the two commands import first, as a new venv's set-up step.

    uv installs no bytecode (compiling all of site-packages takes 27 s, 44 CPU-s, mostly for modules
    nothing imports); the interpreters that dev.py starts write the bytecode of what they import (see
    env()).  Without this step the first ``dev.py book`` after set-up pays for it (64 s against 45-48 s
    for the next runs, measured in a fresh clone); with it, set-up does, on both cores."""
    e = env()
    runs = [subprocess.Popen([str(PY), "-c", code], cwd=ROOT, env=e, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL) for code in WARM_IMPORTS]
    for run in runs:
        run.wait()  # a failed import here is no set-up error: the commands themselves say what is missing


def env() -> dict[str, str]:
    e = dict(os.environ)
    e["PATH"] = f"{BIN}{os.pathsep}{e.get('PATH', '')}"
    e["VIRTUAL_ENV"] = str(VENV)
    e.setdefault("PYTHONHASHSEED", "0")
    # One BLAS thread per process: the commands run several processes per core (nbval's workers, the
    # build, Chromium), and OpenBLAS's threads spin while they wait (measured: nbval on two workers
    # spent 8% more CPU with two threads each).  The outputs do not depend on it (the portability test).
    e.setdefault("OPENBLAS_NUM_THREADS", "1")
    e.pop("PYTHONPATH", None)
    e.pop("PYTHONDONTWRITEBYTECODE", None)  # compiled imports are kept in the venv (see setup)
    return e


def build(strict: bool, log=None) -> Path:
    """Build the HTML book into _build/html; strict = warnings are errors, broken references fail.
    ``log``: a file for Sphinx's output (default: this terminal)."""
    out = ROOT / "_build"
    if out.exists():
        shutil.rmtree(out)
    cmd = [BIN / "jupyter-book", "build", ROOT, "--path-output", ROOT, "--keep-going"]
    if strict:
        cmd += ["--warningiserror", "--nitpick"]
    sh(*cmd, env=env(), **({"stdout": log, "stderr": subprocess.STDOUT} if log else {}))
    index = out / "html" / "index.html"
    if not index.exists():
        sys.exit("the book build produced no index.html")
    slides(into=out / "html" / "slides")
    return index


def slides(into: Path | None = None) -> list[Path]:
    """The lecture slides: one reveal.js deck per section into _build/slides (tools/slides.py), copied
    into the built book as ``slides/`` if ``into`` is given (the instructor page links them)."""
    t0 = time.time()
    code = ("import sys; from pathlib import Path; from tools import slides; "
            "print('\\n'.join(str(p) for p in slides.build(Path(sys.argv[1]))))")
    out = ROOT / "_build" / "slides"
    done = subprocess.run([str(PY), "-c", code, str(out)], cwd=ROOT, env=env(), capture_output=True, text=True)
    if done.returncode:
        sys.stderr.write(done.stderr[-4000:])
        raise subprocess.CalledProcessError(done.returncode, "tools.slides.build", done.stdout, done.stderr)
    decks = done.stdout.split()
    if into is not None:
        shutil.copytree(out, into, dirs_exist_ok=True)
    say(f"{len(decks)} slide decks written to {out.relative_to(ROOT)} in {time.time() - t0:.1f} s")
    return [Path(d) for d in decks]


def chapter_notebooks(chapter: str | None = None) -> list[Path]:
    """The chapters' notebooks (or chapter N's), in reading order of their paths."""
    folder = ROOT / "chapters" / (f"ch{chapter}" if chapter else "")
    return sorted(p for p in folder.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)


#: Seconds each notebook took under nbval in the last run here (the longest are handed out first).
NOTEBOOK_TIMES = ROOT / ".cache" / "notebook-times.json"
#: The same, as recorded with the book's time (dev.py book --record): the order of a fresh clone.
NOTEBOOK_TIMES_RECORDED = ROOT / "benchmarks" / "notebook_times.json"


def no_figures_ipython_dir() -> Path:
    """An IPYTHONDIR (in .cache) whose kernels draw no figure (tools/kernels.py, NO_FIGURES)."""
    from tools import kernels

    return kernels.no_figures_ipython_dir(ROOT / ".cache")


@contextlib.contextmanager
def warm_kernels(e: dict[str, str]):
    """Jupyter kernels forked from a process that has imported what they import (tools/kernels.py),
    for the pytest run inside the block: yields the environment and the pytest options that use them
    (if the server does not start, the kernels are ordinary ones)."""
    from tools import kernels

    folder = Path(tempfile.mkdtemp(prefix="olkit-kernels-"))  # a short path: a Unix socket's limit
    sock = folder / "server.sock"
    server = subprocess.Popen([str(PY), "-m", "tools.kernels", "serve", str(sock)], cwd=ROOT, env=e,
                              stdout=subprocess.DEVNULL)
    # pytest starts while the server imports: its first kernels wait for it (or, if it has ended, are
    # ordinary kernels); the server removes this file when it listens
    starting = Path(str(sock) + kernels.STARTING)
    starting.write_text(str(server.pid))
    if sock.exists():  # it was quicker than this line
        starting.unlink(missing_ok=True)
    try:
        name = kernels.kernel_spec(folder / "jupyter", PY)
        path = os.pathsep.join(p for p in (str(folder / "jupyter"), e.get("JUPYTER_PATH")) if p)
        yield dict(e, JUPYTER_PATH=path, **{kernels.SOCKET_ENV: str(sock)}), [f"--nbval-kernel-name={name}"]
    finally:
        server.terminate()
        server.wait(30)
        shutil.rmtree(folder, ignore_errors=True)


def nbval(notebooks: list[Path], workers: int, figures: bool = True) -> dict[str, float]:
    """nbval (strict) on ``notebooks``, one notebook per unit of work on ``workers`` processes, the
    longest first (as timed last time here, else the largest file first); returns the seconds each
    notebook took (the sum of its cells, from pytest's JUnit report).  ``figures=False``: the kernels
    draw no figure (:func:`no_figures_ipython_dir`); the outputs nbval compares are the same."""
    import json
    import xml.etree.ElementTree as ET

    times = NOTEBOOK_TIMES if NOTEBOOK_TIMES.exists() else NOTEBOOK_TIMES_RECORDED
    known = json.loads(times.read_text()) if times.exists() else {}
    rel = lambda p: p.relative_to(ROOT).as_posix()  # noqa: E731
    order = sorted(notebooks, key=lambda p: (-known.get(rel(p), 0.0), -p.stat().st_size))
    report = ROOT / ".cache" / "nbval-junit.xml"
    report.parent.mkdir(parents=True, exist_ok=True)
    dist = ["-n", str(workers), "--dist", "loadscope", "--no-loadscope-reorder"] if workers > 1 else []
    try:
        e = env() if figures else dict(env(), IPYTHONDIR=str(no_figures_ipython_dir()))
        with warm_kernels(e) as (e, kernel):
            sh(PY, "-m", "pytest", "--nbval", *kernel, "-q", "-p", "no:cacheprovider", *dist,
               f"--junitxml={report}", *map(rel, order), env=e)
    finally:
        seconds: dict[str, float] = {}
        if report.exists():
            for case in ET.parse(report).getroot().iter("testcase"):
                # classname "chapters.ch1.1_1_online_game.ipynb": the notebook's path with dots
                name = case.get("classname", "").removesuffix(".ipynb").replace(".", "/") + ".ipynb"
                seconds[name] = seconds.get(name, 0.0) + float(case.get("time", 0))
            NOTEBOOK_TIMES.write_text(json.dumps({**known, **seconds}, indent=1, sort_keys=True))
    return seconds


#: The book's time per commit (python3 dev.py book --record).
BOOK_TIMES = ROOT / "benchmarks" / "book_time.md"


def cmd_book(rest: list[str]) -> None:
    """Re-run every notebook under nbval on every core and build the HTML book beside it (the build
    does not execute notebooks, it reads their stored outputs); the book is published only if every
    notebook reproduces its outputs.  Prints the time of each notebook."""
    t0 = time.time()
    setup()
    t_setup = time.time() - t0
    building = start_build(strict=False)
    try:
        # no figure drawn: the book shows the stored ones, and dev.py test draws every figure
        seconds = nbval(chapter_notebooks(), int(os.environ.get("OLKIT_TEST_WORKERS", min(os.cpu_count() or 1, 4))),
                        figures=False)
    except subprocess.CalledProcessError:
        building.join()
        shutil.rmtree(ROOT / "_build" / "html", ignore_errors=True)  # never publish outputs that do not reproduce
        raise
    t_nbval = time.time() - t0
    building.join()
    state = BUILD_STATUS.read_text() if BUILD_STATUS.exists() else "no status"
    if state != "ok":
        sys.stdout.write(BUILD_LOG.read_text()[-8000:] if BUILD_LOG.exists() else "")
        sys.exit(f"[dev] the book build failed: {state} (log: {BUILD_LOG})")
    total = time.time() - t0
    say("seconds per notebook under nbval (the sum of its cells):")
    for name, sec in sorted(seconds.items(), key=lambda kv: -kv[1]):
        print(f"    {sec:5.1f}  {name}")
    say(f"nbval {sum(seconds.values()):.0f} s over {len(seconds)} notebooks, ended at {t_nbval:.0f} s; "
        f"set-up {t_setup:.0f} s; the build beside it (log {BUILD_LOG.relative_to(ROOT)})")
    say(f"book built in {total:.0f} s: open {ROOT / '_build' / 'html' / 'index.html'}")
    if "--record" in rest:
        record_book_time(total, t_setup, t_nbval, seconds)


def record_book_time(total: float, t_setup: float, t_nbval: float, seconds: dict[str, float]) -> None:
    """Append a row to BOOK_TIMES (the table is made if missing) and write the seconds of each notebook
    to NOTEBOOK_TIMES_RECORDED (the order a fresh clone runs them in)."""
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip() or "?"
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    if not BOOK_TIMES.exists():
        BOOK_TIMES.write_text(
            "# `python3 dev.py book`: the time per commit\n\nWritten by `python3 dev.py book --record` "
            "(venv ready): the whole command, the set-up check, when nbval ended (every notebook on "
            "every core, the build beside it), nbval's seconds summed over the notebooks, and the "
            "load average when it started.\n\n| date | commit | cores | total s | set-up s | nbval ended s "
            "| nbval summed s | load |\n|---|---|---:|---:|---:|---:|---:|---:|\n")
    with BOOK_TIMES.open("a") as f:
        f.write(f"| {time.strftime('%Y-%m-%d %H:%M')} | {commit} | {os.cpu_count()} | {total:.0f} | "
                f"{t_setup:.0f} | {t_nbval:.0f} | {sum(seconds.values()):.0f} | {load:.1f} |\n")
    NOTEBOOK_TIMES_RECORDED.write_text(json.dumps({k: round(v, 1) for k, v in sorted(seconds.items())},
                                                  indent=1) + "\n")
    say(f"recorded in {BOOK_TIMES} and {NOTEBOOK_TIMES_RECORDED}")


def cmd_build() -> None:
    """The book alone, strict (warnings are errors, broken references fail), as dev.py test builds it."""
    t0 = time.time()
    setup()
    index = build(strict=True)
    say(f"book built (strict) in {time.time() - t0:.0f} s: open {index}")


def chapter_tests(chapter: str) -> list[str]:
    """The test files of ``tests/`` that run or read chapter N's notebooks (their text names one of them,
    or the chapter's folder): the broken-variant tests, and any other test of the chapter."""
    names = [nb.name for nb in chapter_notebooks(chapter)] + [f"ch{chapter}/"]
    return sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "tests").glob("test_*.py")
                  if any(n in p.read_text() for n in names) and p.name not in BOOK_WIDE_TESTS)


#: The tests that hold every notebook to the book's rules; `dev.py chapter N` runs them whole (seconds).
BOOK_WIDE_TESTS = ("test_book.py", "test_reading.py", "test_figures.py", "test_layers.py", "test_slides.py",
                   "test_numbers.py", "test_portability.py")


def cmd_chapter(rest: list[str]) -> None:
    """Everything one chapter touches: its notebooks under nbval and the portability run, the tests that
    name its notebooks (its broken variants), the book-wide rules (book, reading, figures, layers, slides,
    numbers), and the strict build beside them."""
    if not rest or not re.fullmatch(r"\d+|[A-Z]", rest[0]) or not chapter_notebooks(rest[0]):
        sys.exit("usage: python3 dev.py chapter N   (N: a chapter with notebooks under chapters/chN/, or an "
                 "appendix's letter, A)")
    n = rest[0]
    t0 = time.time()
    setup()
    browser_ready()
    building = start_build(strict=True)
    nbs = [nb.relative_to(ROOT).as_posix() for nb in chapter_notebooks(n)]
    targets = [*nbs, f"tests/test_portability.py::TestPortabilityCh{n}", *chapter_tests(n),
               *(f"tests/{t}" for t in BOOK_WIDE_TESTS if t != "test_portability.py")]
    try:
        sh(PY, "-m", "pytest", *workers(), "--nbval", *targets, env=dict(env(), OLKIT_BOOK_BUILD=str(BUILD_STATUS)))
    finally:
        building.join()
    state = BUILD_STATUS.read_text() if BUILD_STATUS.exists() else "no status"
    if state != "ok":
        sys.stdout.write(BUILD_LOG.read_text()[-8000:] if BUILD_LOG.exists() else "")
        sys.exit(f"[dev] the strict build failed: {state} (log: {BUILD_LOG})")
    say(f"chapter {n}: {len(nbs)} notebooks and their tests passed, and the strict build, in {time.time() - t0:.0f} s")


def workers() -> list[str]:
    """pytest-xdist's options: one worker per core (at most 4; OLKIT_TEST_WORKERS overrides, 1 = none).
    --dist loadscope keeps each notebook's nbval cells on one worker, in order (they share a kernel), and
    each test module (or class) together, so a module's fixtures (the built book's PDF, the student
    edition) are made once; --no-loadscope-reorder hands the units out in the order tests/conftest.py
    gives them, the longest first (xdist would order them by their number of tests).  (loadgroup's xdist_group marks are not honoured with pytest 9: it reads
    a node id that xdist's group suffix does not reach.)"""
    n = int(os.environ.get("OLKIT_TEST_WORKERS", min(os.cpu_count() or 1, 4)))
    return ["-n", str(n), "--dist", "loadscope", "--no-loadscope-reorder"] if n > 1 else []


#: dev.py test builds the book beside the tests: the tests that read _build/html wait for this file
#: ("ok", or why the build failed; tests/built.py), named to them by OLKIT_BOOK_BUILD.
BUILD_STATUS = ROOT / ".cache" / "book-build.status"
BUILD_LOG = ROOT / ".cache" / "book-build.log"


def start_build(strict: bool) -> threading.Thread:
    """The book build in a thread, its output in BUILD_LOG, its outcome in BUILD_STATUS at the end."""
    BUILD_STATUS.parent.mkdir(parents=True, exist_ok=True)
    BUILD_STATUS.unlink(missing_ok=True)

    def run() -> None:
        t0 = time.time()
        try:
            with open(BUILD_LOG, "w") as log:
                build(strict, log=log)
            state = "ok"
            say(f"the book built (strict) in {time.time() - t0:.0f} s beside the tests; its log: {BUILD_LOG}")
        except (subprocess.CalledProcessError, SystemExit, OSError) as err:
            state = f"failed ({err})"
        partial = BUILD_STATUS.with_suffix(".partial")  # written whole, then renamed: never read half-written
        partial.write_text(state)
        os.replace(partial, BUILD_STATUS)

    thread = threading.Thread(target=run, name="book-build")
    thread.start()
    return thread


#: The perturbation seeds of tests/test_portability.py in CI (it alternates them over the notebooks).
PORTABILITY_SEEDS = ("1", "2")


def cmd_test() -> None:
    t0 = time.time()
    setup()
    browser_ready()  # the browser test (tests/test_browser.py) runs if Chromium is here; else says why not
    # olkit's and the tests' compiled modules, once, for the test processes (see setup)
    sh(PY, "-m", "compileall", "-q", ROOT / "olkit", ROOT / "tests", ROOT / "tools")
    # The strict book build runs beside the tests (it keeps one core busy for about 40 s, while most
    # tests do not need it); the tests that read _build/html wait for it.  Then unit and property
    # tests, the broken-variant tests, nbval (strict) on every notebook, the browser and PDF tests.
    building = start_build(strict=True)
    try:
        with contextlib.ExitStack() as servers:
            # nbval's kernels forked from warm processes (tools/kernels.py): one server for the chapters'
            # nbval (every figure drawn), one per perturbation seed for tests/test_portability.py (no
            # figure drawn: the outputs it compares are text)
            e, kernel = servers.enter_context(warm_kernels(dict(env(), OLKIT_BOOK_BUILD=str(BUILD_STATUS))))
            for seed in PORTABILITY_SEEDS:
                seeded, _ = servers.enter_context(warm_kernels(dict(
                    env(), PYTHONHASHSEED="0", OLKIT_FP_PERTURB=seed, IPYTHONDIR=str(no_figures_ipython_dir()))))
                e[f"OLKIT_KERNEL_SERVER_PERTURB{seed}"] = seeded["OLKIT_KERNEL_SERVER"]
            sh(PY, "-m", "pytest", *workers(), "--durations=15", "--nbval", *kernel, "tests", "chapters", env=e)
    finally:
        building.join()
        state = BUILD_STATUS.read_text() if BUILD_STATUS.exists() else "no status"
        if state != "ok":
            sys.stdout.write(BUILD_LOG.read_text()[-8000:] if BUILD_LOG.exists() else "")
            sys.exit(f"[dev] the book build with warnings as errors failed: {state} (log: {BUILD_LOG})")
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
            "for c in nb.cells:\n"
            "    c.metadata.pop('execution', None)  # timestamps: noise in every diff\n"
            "nbformat.write(nb, p)\n"
        )
        t0 = time.time()
        sh(PY, "-c", code, nb, nb.parent, env=env())
        say(f"executed {nb.relative_to(ROOT)} in {time.time() - t0:.1f} s")


def cmd_mutants(rest: list[str]) -> None:
    """Mutation testing of olkit against the notebooks; writes benchmarks/mutants.md (see benchmarks/mutants.py)."""
    setup()
    sh(PY, ROOT / "benchmarks" / "mutants.py", *rest, env=env())


#: Code paths of an older x86-64 CPU, selectable on this one: numpy without its AVX2/FMA (x86-64-v3) and
#: AVX-512 dispatch, OpenBLAS with its Prescott (SSE3, no FMA) kernels.  Matrix products then round
#: differently from the machine that stored the outputs (see CONTRIBUTING.md, "Same outputs").
OTHER_MACHINE = {"NPY_DISABLE_CPU_FEATURES": "X86_V3 X86_V4 AVX512_ICL AVX512_SPR", "OPENBLAS_CORETYPE": "Prescott"}


def cmd_othermachine(rest: list[str]) -> None:
    """nbval (strict) on every notebook, or on the given ones, with another machine's code paths."""
    setup()
    e = dict(env(), **OTHER_MACHINE)
    say("; ".join(f"{k}={v}" for k, v in OTHER_MACHINE.items()))
    sh(PY, "-m", "pytest", "--nbval", "-q", "-p", "no:cacheprovider", *(rest or ["chapters"]), env=e)


DIST = ROOT / "_build" / "dist"


def dist(out: Path = DIST) -> list[Path]:
    """olkit's sdist and wheel (version: olkit.__version__, the book's) into ``out``, built by uv from the
    pinned set-up, offline."""
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    sh(BIN / "uv", "build", "--offline", "--quiet", "--out-dir", out, ROOT, env=env())
    made = sorted(p for p in out.iterdir() if p.suffix in (".whl", ".gz"))
    if len(made) != 2:
        sys.exit(f"uv build made {[p.name for p in made]}, expected one sdist and one wheel")
    return made


def cmd_dist() -> None:
    """_build/dist: olkit's sdist and wheel, the release that the Colab cells and the labs install."""
    t0 = time.time()
    setup()
    for path in dist():
        say(f"{path.relative_to(ROOT)} ({path.stat().st_size // 1024} KB)")
    say(f"built in {time.time() - t0:.0f} s")


def cmd_lock() -> None:
    setup()
    frozen = subprocess.run([PY, "-m", "pip", "freeze", "--exclude-editable"], check=True, capture_output=True, text=True).stdout
    lines = [l for l in frozen.splitlines()
             if l and not l.startswith("#") and not l.lower().startswith("olkit") and "file://" not in l]
    LOCK.write_text(
        "# Exact versions of everything the book, the tests and Binder install (the one place pins live).\n"
        "# Regenerate with: python3 dev.py lock\n" + "\n".join(lines) + "\n"
    )
    say(f"wrote {len(lines)} pins to {LOCK.name}")


# ---------------------------------------------------------------------------------------------
# The browser test's assets, the student edition, the PDF.  Chromium is Debian's (apt-get install
# chromium); MathJax and axe-core are npm packages pinned in tools/package.json and its lock file.

NPM_SPEC = ROOT / "tools" / "package.json"
NPM_LOCK = ROOT / "tools" / "package-lock.json"
NPM_DIR = ROOT / ".cache" / "npm"
CHROMIUM = Path(os.environ.get("OLKIT_CHROMIUM", "/usr/bin/chromium"))
BROWSER_HINT = "apt-get install chromium npm, then python3 dev.py test (it installs the npm packages)"


def assets() -> bool:
    """Install the npm packages of tools/package.json into .cache/npm (npm ci, exact versions from the
    lock file) unless already done for this lock; False if npm is missing."""
    stamp = NPM_DIR / ".olkit-lock-sha256"
    want = hashlib.sha256(NPM_SPEC.read_bytes() + NPM_LOCK.read_bytes()).hexdigest()
    if stamp.exists() and stamp.read_text() == want and (NPM_DIR / "node_modules").is_dir():
        return True
    npm = shutil.which("npm")
    if npm is None:
        say("npm not found: cannot install MathJax and axe-core for the browser test (apt-get install npm)")
        return False
    NPM_DIR.mkdir(parents=True, exist_ok=True)
    for f in (NPM_SPEC, NPM_LOCK):
        shutil.copyfile(f, NPM_DIR / f.name)
    sh(npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error", cwd=NPM_DIR)
    stamp.write_text(want)
    return True


def browser_ready() -> bool:
    """True if the browser test and the PDF can run (installing the npm assets if needed); else say why."""
    missing = []
    if not CHROMIUM.exists():
        missing.append(f"no Chromium at {CHROMIUM}")
    if not assets():
        missing.append("no npm for MathJax and axe-core")
    if missing:
        say("browser test SKIPPED (" + "; ".join(missing) + "). To run it: " + BROWSER_HINT)
        return False
    return True


def cmd_student() -> None:
    """The student edition: _build/student/html and _build/student/notebooks, without solutions."""
    t0 = time.time()
    setup()
    sh(PY, "-m", "tools.student", ROOT / "_build" / "student", env=env())
    say(f"student edition built in {time.time() - t0:.0f} s")


def cmd_labs() -> None:
    """The labs: otter assign on every labs/*.ipynb into _build/labs (student notebooks and public tests,
    solution notebooks, one autograder zip per lab); refreshes the committed copies in labs/student/."""
    t0 = time.time()
    setup()
    sh(PY, "-m", "tools.labs", ROOT / "_build" / "labs", env=env())
    say(f"labs built in {time.time() - t0:.0f} s")


def cmd_pdf() -> None:
    """_build/pdf/book.pdf: the book built to HTML (in _build/pdf/html), printed page by page by the
    system Chromium with MathJax served locally, merged with one bookmark per page."""
    t0 = time.time()
    setup()
    if not browser_ready():
        sys.exit("the PDF is printed by Chromium: " + BROWSER_HINT)
    src = ROOT / "_build" / "pdf"
    if src.exists():
        shutil.rmtree(src)
    sh(BIN / "jupyter-book", "build", ROOT, "--path-output", src, "--keep-going", env=env())
    html = src / "html"
    shutil.move(src / "_build" / "html", html)
    shutil.rmtree(src / "_build")
    sh(PY, "-m", "tools.pdf", html, src / "book.pdf", env=env())
    say(f"PDF written in {time.time() - t0:.0f} s: {src / 'book.pdf'}")


def cmd_site() -> None:
    """_build/site, as published on GitHub Pages: the HTML book, student/ (the student edition) and
    downloads/ (the PDF and the student notebooks as a zip, listed on downloads/index.html)."""
    html, pdf, student = ROOT / "_build" / "html", ROOT / "_build" / "pdf" / "book.pdf", ROOT / "_build" / "student"
    needed = {html / "intro.html": "book or test", pdf: "pdf", student / "html" / "intro.html": "student",
              student / "notebooks": "student"}
    missing = [f"{path.relative_to(ROOT)} (python3 dev.py {cmd})" for path, cmd in needed.items() if not path.exists()]
    if missing:
        sys.exit("the site needs: " + ", ".join(missing))
    site = ROOT / "_build" / "site"
    if site.exists():
        shutil.rmtree(site)
    shutil.copytree(html, site)
    shutil.copytree(student / "html", site / "student")
    downloads = site / "downloads"
    downloads.mkdir()
    shutil.copyfile(pdf, downloads / "online-learning-numerically.pdf")
    shutil.make_archive(str(downloads / "student-notebooks"), "zip", student / "notebooks")
    # the labs' student folders (notebook and public tests), never the autograder zips: those hold the
    # hidden tests and the solutions, and instructors make them with python3 dev.py labs
    labs = sorted(p for p in (ROOT / "labs" / "student").iterdir() if p.is_dir())
    (downloads / "labs").mkdir()
    for lab in labs:
        shutil.make_archive(str(downloads / "labs" / lab.name), "zip", lab.parent, lab.name)
    lab_items = "".join(f'<li><a href="labs/{lab.name}.zip">{lab.name}</a>: the student notebook and its public '
                        "tests</li>\n" for lab in labs)
    (downloads / "index.html").write_text(
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        "<title>Downloads: Online Learning, Numerically</title></head>\n"
        '<body style="font-family: sans-serif; max-width: 40em; margin: 2em auto; line-height: 1.5">\n'
        "<main><h1>Online Learning, Numerically: downloads</h1><ul>\n"
        '<li><a href="online-learning-numerically.pdf">The whole book as one PDF</a> (with solutions)</li>\n'
        '<li><a href="student-notebooks.zip">The student notebooks</a>: every chapter notebook without its '
        "solutions, an empty cell after each exercise</li>\n"
        '<li><a href="../student/intro.html">The student edition</a> of the book (no solutions)</li>\n'
        + lab_items +
        '<li><a href="../intro.html">Back to the book</a></li>\n'
        "</ul></main></body></html>\n"
    )
    say(f"site assembled in {site}")


def cmd_slides(rest: list[str]) -> None:
    """_build/slides: a reveal.js deck per section (and index.html); --pdf also prints each deck to
    _build/slides/pdf/NAME.pdf through Chromium in reveal.js's print mode."""
    setup()
    decks = slides()
    if "--pdf" in rest:
        if not browser_ready():
            sys.exit("the decks are printed by Chromium: " + BROWSER_HINT)
        t0 = time.time()
        code = ("import sys; from pathlib import Path; from tools import slides; "
                "slides.print_pdf([Path(p) for p in sys.argv[2:]], Path(sys.argv[1]))")
        sh(PY, "-c", code, ROOT / "_build" / "slides" / "pdf", *decks, env=env(), cwd=ROOT)
        say(f"{len(decks)} decks printed to _build/slides/pdf in {time.time() - t0:.0f} s")


def cmd_browser() -> None:
    """The browser checks on _build/html (built if missing): screenshots, accessibility report."""
    setup()
    if not (ROOT / "_build" / "html" / "intro.html").exists():
        build(strict=False)
    if not browser_ready():
        sys.exit(1)
    sh(PY, "-m", "tools.browser", ROOT / "_build" / "html", env=env())


def main(argv: list[str]) -> None:
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return
    cmd, rest = argv[0], argv[1:]
    if cmd == "book":
        cmd_book(rest)
    elif cmd == "build":
        cmd_build()
    elif cmd == "chapter":
        cmd_chapter(rest)
    elif cmd == "test":
        cmd_test()
    elif cmd == "execute":
        cmd_execute(rest)
    elif cmd == "lock":
        cmd_lock()
    elif cmd == "dist":
        cmd_dist()
    elif cmd == "mutants":
        cmd_mutants(rest)
    elif cmd == "othermachine":
        cmd_othermachine(rest)
    elif cmd == "setup":
        setup()
    elif cmd == "student":
        cmd_student()
    elif cmd == "labs":
        cmd_labs()
    elif cmd == "pdf":
        cmd_pdf()
    elif cmd == "browser":
        cmd_browser()
    elif cmd == "slides":
        cmd_slides(rest)
    elif cmd == "site":
        cmd_site()
    elif cmd == "reading":
        setup()
        sh(PY, "-m", "tools.reading", env=env())
    elif cmd == "assets":
        setup()
        if not assets():
            sys.exit(1)
    else:
        sys.exit(f"unknown command {cmd!r}; see python3 dev.py --help")


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except subprocess.CalledProcessError as err:
        sys.exit(err.returncode or 1)
