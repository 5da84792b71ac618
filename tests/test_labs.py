"""The labs (``labs/``, ``python3 dev.py labs``): otter assign builds each; the reference solutions get
full marks through otter's autograder; typical wrong answers lose points, and their feedback names the
step of the chapter's proof that fails; the student notebooks hold no solution and no hidden test, run
top to bottom as handed out, and report failures (not tracebacks) in their check cells; the committed
student copies are those that ``dev.py labs`` makes.
"""
from __future__ import annotations

import filecmp
import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import nbformat
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from notebooks import run_broken  # noqa: E402
from tools import labs as tools_labs  # noqa: E402

otter = pytest.importorskip("otter", reason="otter-grader is not installed (python3 dev.py setup installs the lock)")
from otter.nbmeta_config import NBMetadataConfig  # noqa: E402
from otter.test_files import create_test_file  # noqa: E402

MASTERS = tools_labs.masters()
OTTER = Path(sys.executable).parent / "otter"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("labs")
    return {lab["name"]: lab for lab in tools_labs.build(out, refresh=False, run_tests=False)}


def test_there_are_labs_and_each_is_built(built):
    assert [m.stem for m in MASTERS] == sorted(built) and len(built) >= 2
    for lab in built.values():
        assert lab["student"].exists() and lab["solution"].exists() and lab["zip"].stat().st_size > 1000
        assert sorted(p.name for p in lab["tests"].glob("q*.py")), f"{lab['name']}: no public tests"


def test_the_committed_student_copies_are_current(built):
    for name, lab in built.items():
        copy = ROOT / "labs" / "student" / name
        cmp = filecmp.dircmp(lab["student"].parent, copy)
        assert not (cmp.left_only or cmp.right_only or cmp.diff_files), (
            f"labs/student/{name} differs from what python3 dev.py labs makes: run it")
        sub = filecmp.dircmp(lab["tests"], copy / "tests")
        assert not (sub.left_only or sub.right_only or sub.diff_files), f"labs/student/{name}/tests: run python3 dev.py labs"


def _otter_run(lab: dict, notebook: Path, out: Path) -> dict:
    out.mkdir(parents=True, exist_ok=True)
    run = subprocess.run([str(OTTER), "run", "-a", str(lab["zip"]), "-o", str(out), str(notebook)],
                         cwd=out, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    return json.loads((out / "results.json").read_text())


def _scores(results: dict) -> dict[str, tuple[float, float]]:
    return {t["name"]: (t["score"], t["max_score"]) for t in results["tests"] if "max_score" in t}


@pytest.mark.filterwarnings("ignore:The inplace keyword in DataFrame.drop")  # inside otter 7.0.0, on pandas 3
@pytest.mark.parametrize("name", [m.stem for m in MASTERS])
def test_the_reference_solution_gets_full_marks_from_the_autograder(built, name):
    """otter run's grading (otter.api.grade_submission: the autograder zip, no Docker), in this process."""
    from otter.api import grade_submission

    results = grade_submission(str(built[name]["solution"]), str(built[name]["zip"]), quiet=True)
    scores = {q: (r.score, r.possible) for q, r in results.results.items()}
    assert len(scores) >= 2 and all(score == full > 0 for score, full in scores.values()), scores
    assert results.total == results.possible > 0


def _fill(student: Path, answers: dict[str, str], dest: Path) -> Path:
    """The student notebook with the '...' body of each named function replaced by an answer."""
    nb = nbformat.read(student, as_version=4)
    for cell in nb.cells:
        m = re.match(r"def (\w+)\(", cell.source)
        if cell.cell_type == "code" and m and m[1] in answers:
            cell.source = answers[m[1]]
    nbformat.write(nb, dest)
    return dest


def test_a_wrong_answer_loses_its_points_through_the_autograder(built, tmp_path):
    """End to end: a Halving that breaks ties towards 0 keeps the other questions' points and loses
    question 1's, and the autograder's feedback names Theorem 1.3's step 0' and the round."""
    lab = built["lab1_halving"]
    ref = nbformat.read(lab["solution"], as_version=4)
    sources = {re.match(r"def (\w+)\(", c.source)[1]: c.source for c in ref.cells
               if c.cell_type == "code" and re.match(r"def (\w+)\(", c.source)}
    sources["halving_predict"] = sources["halving_predict"].replace("2 * ones >= size", "2 * ones > size")
    sub = _fill(lab["student"], sources, tmp_path / "lab1_halving.ipynb")
    results = _otter_run(lab, sub, tmp_path / "out")
    scores = _scores(results)
    assert scores["q1"][0] < scores["q1"][1] and scores["q2"][0] == scores["q2"][1], scores
    text = json.dumps(results)
    assert "Theorem 1.3, step 0'" in text and "round 1" in text and "breaks towards 1" in text, text[:3000]


# ----------------------------------------------------------------------------------------------
# Typical wrong answers, three or more per question, and right answers written another way, one or more
# per question, graded by the lab's own test files (public and hidden) in this process: each wrong one
# loses points and its feedback names the failing step; each right one gets full marks. The cases of a
# lab are in tests/lab_cases/<lab>.py (WRONG, RIGHT).

def _cases(kind: str) -> dict[tuple[str, str], list[tuple]]:
    import importlib

    out = {}
    for master in MASTERS:
        module = importlib.import_module(f"lab_cases.{master.stem}")
        for question, answers in getattr(module, kind, {}).items():
            out[(master.stem, question)] = answers
    return out


WRONG = _cases("WRONG")
RIGHT = _cases("RIGHT")


def _questions(built_or_none=None) -> list[tuple[str, str]]:
    """Every (lab, question) of the masters, read from their '# BEGIN QUESTION' cells."""
    out = []
    for master in MASTERS:
        for cell in nbformat.read(master, as_version=4).cells:
            m = re.match(r"# BEGIN QUESTION\nname: (\w+)", cell.source) if cell.cell_type == "raw" else None
            if m:
                out.append((master.stem, m[1]))
    return out


def test_every_question_has_three_wrong_answers_and_a_right_one_written_another_way():
    for key in _questions():
        assert len(WRONG.get(key, [])) >= 3, f"{key}: fewer than three typical wrong answers in tests/lab_cases"
        assert len(RIGHT.get(key, [])) >= 1, f"{key}: no right answer written another way in tests/lab_cases"


def _grade(built: dict, lab: str, question: str, env: dict):
    """The question's test file from the autograder (public and hidden tests), run on ``env``."""
    path = built[lab]["solution"].parent / "tests" / f"{question}.py"
    test_file = create_test_file(str(path), NBMetadataConfig())
    test_file.run(env)
    return test_file


@pytest.mark.parametrize("lab, question, label, source, step",
                         [(lab, q, label, src, step) for (lab, q), answers in WRONG.items()
                          for label, src, step in answers],
                         ids=[f"{lab}-{q}-{label.split(' (')[0]}" for (lab, q), answers in WRONG.items()
                              for label, _, _ in answers])
def test_a_typical_wrong_answer_loses_points_and_its_feedback_names_the_step(built, lab, question, label, source, step):
    from fractions import Fraction

    env = {"np": np, "Fraction": Fraction, "olkit": __import__("olkit")}
    exec(textwrap.dedent(source), env)
    graded = _grade(built, lab, question, env)
    assert graded.score < graded.possible, f"{label}: full marks for a wrong answer"
    messages = " ".join(r.message or "" for r in graded.test_case_results if not r.passed)
    assert step in messages, f"{label}: the feedback does not name {step!r}: {messages[:800]}"


@pytest.mark.parametrize("lab, question, label, source",
                         [(lab, q, label, src) for (lab, q), answers in RIGHT.items() for label, src in answers],
                         ids=[f"{lab}-{q}-{label.split(' (')[0]}" for (lab, q), answers in RIGHT.items()
                              for label, _ in answers])
def test_a_right_answer_written_another_way_gets_full_marks(built, lab, question, label, source):
    from fractions import Fraction

    env = {"np": np, "Fraction": Fraction, "olkit": __import__("olkit")}
    nb = nbformat.read(built[lab]["solution"], as_version=4)
    for cell in nb.cells:  # the reference answers of the other questions (a question may call them)
        if cell.cell_type == "code" and cell.source.startswith("def "):
            exec(cell.source, env)
    exec(textwrap.dedent(source), env)
    graded = _grade(built, lab, question, env)
    assert graded.score == graded.possible > 0, [r.message for r in graded.test_case_results if not r.passed]


# ----------------------------------------------------------------------------------------------
# Proof-check labs (the student writes the checks; olkit.labs.proofcheck grades them by mutation): a
# set of checks that cannot fail gets no points, and a set with one step left out loses exactly the
# tests of the variants that only that step stops.

VACUOUS = _cases("VACUOUS")
MISSING = _cases("MISSING")


def _env(built: dict, lab: str, source: str) -> dict:
    from fractions import Fraction

    import olkit

    env = {"np": np, "Fraction": Fraction, "olkit": olkit}
    exec(textwrap.dedent(source), env)
    return env


@pytest.mark.parametrize("lab, question", sorted(VACUOUS), ids=[f"{lab}-{q}" for lab, q in sorted(VACUOUS)])
def test_checks_that_cannot_fail_get_no_points(built, lab, question):
    graded = _grade(built, lab, question, _env(built, lab, VACUOUS[(lab, question)]))
    assert graded.score == 0 < graded.possible, [(r.test_case.name, r.passed) for r in graded.test_case_results]
    messages = " ".join(r.message or "" for r in graded.test_case_results)
    assert "slipped through your checks" in messages and "def " not in messages, messages[:600]


@pytest.mark.parametrize("lab, question, k", [(lab, q, k) for (lab, q), cases in sorted(MISSING.items())
                                              for k in range(len(cases))],
                         ids=[f"{lab}-{q}-{k}" for (lab, q), cases in sorted(MISSING.items()) for k in range(len(cases))])
def test_one_step_missing_loses_exactly_the_variants_only_that_step_stops(built, lab, question, k):
    source, lost = MISSING[(lab, question)][k]
    graded = _grade(built, lab, question, _env(built, lab, source))
    names = _test_names(ROOT / "labs" / f"{lab}.ipynb", question)  # otter names them "q1 - 1", "q1 - 2", ...
    failed = {names[int(r.test_case.name.rsplit(" - ", 1)[1]) - 1] for r in graded.test_case_results if not r.passed}
    assert failed == lost, f"failed {sorted(failed)}, expected {sorted(lost)}"
    assert 0 < graded.score < graded.possible


def test_every_proof_check_question_has_its_vacuous_and_missing_cases():
    proof_check = [(m.stem, q) for m in MASTERS for q in _questions_of(m) if _is_proof_check(m, q)]
    assert len({lab for lab, _ in proof_check}) >= 1
    for key in proof_check:
        assert key in VACUOUS and key in MISSING, f"{key}: no VACUOUS or MISSING case in tests/lab_cases"


def _test_names(master: Path, question: str) -> list[str]:
    """The names of a question's test functions in the master, in order (public first)."""
    names = []
    for cell in nbformat.read(master, as_version=4).cells:
        if cell.cell_type == "code":
            names += re.findall(rf"^def (test_{question}_\w+)\(", cell.source, re.M)
    return names


def _questions_of(master) -> list[str]:
    return [q for lab, q in _questions() if lab == master.stem]


def _is_proof_check(master, question: str) -> bool:
    """A question whose tests grade checks by mutation (their calls name a broken variant)."""
    text = master.read_text()
    return bool(re.search(rf"def test_{question}_\w+\((\w+_checks)\)", text))


@pytest.mark.parametrize("name", [m.stem for m in MASTERS])
def test_the_reference_answers_pass_every_hidden_test_in_process(built, name):
    from fractions import Fraction

    env = {"np": np, "Fraction": Fraction, "olkit": __import__("olkit")}
    nb = nbformat.read(built[name]["solution"], as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code" and cell.source.startswith("def "):
            exec(cell.source, env)
    for test in sorted((built[name]["solution"].parent / "tests").glob("q*.py")):
        graded = _grade(built, name, test.stem, env)
        assert graded.score == graded.possible > 0, [r.message for r in graded.test_case_results]


def test_student_notebooks_hold_no_solution_and_no_hidden_test(built):
    for name, lab in built.items():
        master = nbformat.read(ROOT / "labs" / f"{name}.ipynb", as_version=4)
        solution_lines = {ln.strip() for c in master.cells if c.cell_type == "code"
                          for block in re.findall(r"# BEGIN SOLUTION\n(.*?)# END SOLUTION", c.source, re.S)
                          for ln in block.splitlines() if len(ln.strip()) >= 12}
        hidden_calls = {m for c in master.cells if c.cell_type == "code" and c.source.startswith("# HIDDEN")
                        for m in re.findall(r"labs\.check_\w+\(\w+(?:, \"\w+\")*, \"(\w+)\"\)", c.source)}
        assert solution_lines and hidden_calls, f"{name}: the check cannot see what it looks for"
        full = nbformat.read(lab["solution"], as_version=4)
        full_text = "\n".join(c.source for c in full.cells)
        assert all(ln in full_text for ln in solution_lines), "the solution notebook shows the check can see them"
        student_text = lab["student"].read_text() + "".join(p.read_text() for p in lab["tests"].glob("*.py"))
        leaked = [ln for ln in solution_lines if ln in student_text]
        assert leaked == [], f"{name}: solution lines in the student notebook: {leaked[:3]}"
        assert "hidden=True" not in student_text and "# HIDDEN" not in student_text
        assert not any(f"'{case}'" in student_text or f'"{case}"' in student_text
                       for case in hidden_calls - {"public"}), f"{name}: a hidden stream is named in the student files"


@pytest.mark.parametrize("name", [m.stem for m in MASTERS])
def test_the_untouched_student_notebook_runs_and_its_checks_report_failures(built, name):
    """Handed out as it is (every answer '...'), the notebook runs top to bottom; each check cell
    returns otter's result, a failure that says the function is still '...', and raises nothing."""
    ename, evalue = run_broken(built[name]["student"], "", skip_animations=False)
    assert ename is None, f"{name}: the student notebook stops with {ename}: {evalue}"
    from fractions import Fraction

    env = {"np": np, "Fraction": Fraction, "olkit": __import__("olkit")}
    nb = nbformat.read(built[name]["student"], as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code" and cell.source.startswith("def "):
            exec(cell.source, env)
    for test in sorted(built[name]["tests"].glob("q*.py")):
        graded = create_test_file(str(test), NBMetadataConfig())
        graded.run(env)
        messages = " ".join(r.message or "" for r in graded.test_case_results)
        assert graded.score == 0 and "still '...'" in messages, messages[:500]


def test_the_feedback_quoted_on_the_labs_page_is_what_the_check_says():
    """labs.md quotes the feedback a tie-to-0 Halving gets: it must be the check's own words."""
    from olkit import labs

    def halving_predict(H, alive, x):
        ones = int(H[alive, x].sum())
        return 1 if 2 * ones > alive.sum() else 0

    with pytest.raises(labs.LabFeedback) as err:
        labs.check_halving_predict(halving_predict)
    page = (ROOT / "labs.md").read_text()
    quote = " ".join(ln.lstrip("> ").strip() for ln in page.splitlines() if ln.startswith(">"))
    assert quote == " ".join(str(err.value).split())


def test_the_labs_page_opens_every_lab_on_colab_and_binder_and_each_fetches_its_own_tests():
    import yaml

    page = (ROOT / "labs.md").read_text()
    repo = yaml.safe_load((ROOT / "_config.yml").read_text())["repository"]["url"].removeprefix("https://github.com/")
    for master in MASTERS:
        name = master.stem
        nb = f"labs/student/{name}/{name}.ipynb"
        assert f"https://colab.research.google.com/github/{repo}/blob/main/{nb}" in page, name
        assert f"https://mybinder.org/v2/gh/{repo}/main?urlpath=tree/{nb}" in page, name
        assert (ROOT / nb).exists()
        setup = nbformat.read(master, as_version=4).cells[2].source
        assert f"raw.githubusercontent.com/{repo}/main/labs/student/{name}/tests/" in setup, name
        assert "otter-grader==7.0.0" in setup and f'grader = otter.Notebook("{name}.ipynb")' in setup
        lock = (ROOT / "requirements.lock").read_text()
        assert "otter-grader==7.0.0" in lock.splitlines(), "the Colab pin is the lock's"
        questions = sorted(p.stem for p in (ROOT / "labs" / "student" / name / "tests").glob("q*.py"))
        assert f"for q in ({', '.join(repr(q).replace(chr(39), chr(34)) for q in questions)},)" in setup, name
