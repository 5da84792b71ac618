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
    question 1's, and the autograder's feedback names step 0' and the round."""
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
    assert "Step 0'" in text and "round 1" in text and "breaks towards 1" in text, text[:3000]


# ----------------------------------------------------------------------------------------------
# Typical wrong answers, three or more per question, graded by the lab's own test files (public and
# hidden) in this process: each loses points, and the feedback names the failing step.

WRONG = {
    ("lab1_halving", "q1"): [
        ("ties go to 0", """
def halving_predict(H, alive, x):
    ones = int(H[alive, x].sum())
    return 1 if 2 * ones > alive.sum() else 0
""", "Step 0'"),
        ("votes of all of H, not of V_t", """
def halving_predict(H, alive, x):
    return 1 if 2 * int(H[:, x].sum()) >= len(H) else 0
""", "Step 0'"),
        ("the minority vote", """
def halving_predict(H, alive, x):
    ones = int(H[alive, x].sum())
    return 0 if 2 * ones >= alive.sum() else 1
""", "Step 0'"),
        ("a float instead of a label", """
def halving_predict(H, alive, x):
    return H[alive, x].mean()
""", "must return the label 0 or 1"),
    ],
    ("lab1_halving", "q2"): [
        ("forgets the version space (keeps every hypothesis that agrees with this label)", """
def halving_update(H, alive, x, y):
    return H[:, x] == y
""", "Step 0 "),
        ("keeps the hypotheses that disagree", """
def halving_update(H, alive, x, y):
    return alive & (H[:, x] != y)
""", "Step 0"),
        ("does not update", """
def halving_update(H, alive, x, y):
    return alive
""", "Step 0 "),
        ("a list of indices instead of a mask", """
def halving_update(H, alive, x, y):
    return np.flatnonzero(alive & (H[:, x] == y))
""", "boolean array"),
    ],
    ("lab1_halving", "q3"): [
        ("sizes after the update only (off by one round)", """
def halving_run(H, xs, ys):
    alive = np.ones(len(H), dtype=bool)
    predictions, sizes = [], []
    for x, y in zip(xs, ys):
        predictions.append(1 if 2 * int(H[alive, x].sum()) >= alive.sum() else 0)
        sizes.append(int(alive.sum()))
        alive = alive & (H[:, x] == y)
    return predictions, sizes
""", "sizes"),
        ("predicts the label of the first alive hypothesis (Consistent, not Halving)", """
def halving_run(H, xs, ys):
    alive = np.ones(len(H), dtype=bool)
    predictions, sizes = [], [len(H)]
    for x, y in zip(xs, ys):
        predictions.append(int(H[np.flatnonzero(alive)[0], x]))
        alive = alive & (H[:, x] == y)
        sizes.append(int(alive.sum()))
    return predictions, sizes
""", "Step 0'"),
        ("records |V_t| before the update as |V_{t+1}|", """
def halving_run(H, xs, ys):
    alive = np.ones(len(H), dtype=bool)
    predictions, sizes = [], [len(H)]
    for x, y in zip(xs, ys):
        predictions.append(1 if 2 * int(H[alive, x].sum()) >= alive.sum() else 0)
        sizes.append(int(alive.sum()))
        alive = alive & (H[:, x] == y)
    return predictions, sizes
""", "Step 0 "),
    ],
    ("lab2_ldim_soa", "q1"): [
        ("one more than the recursion (counts levels, not edges)", """
def ldim(V):
    V = np.unique(V, axis=0)
    if len(V) == 1:
        return 1
    best = 1
    for x in range(V.shape[1]):
        V0, V1 = V[V[:, x] == 0], V[V[:, x] == 1]
        if len(V0) and len(V1):
            best = max(best, 1 + min(ldim(V0), ldim(V1)))
    return best
""", "Step base"),
        ("max instead of min of the two parts", """
def ldim(V):
    V = np.unique(V, axis=0)
    if len(V) == 1:
        return 0
    best = 0
    for x in range(V.shape[1]):
        V0, V1 = V[V[:, x] == 0], V[V[:, x] == 1]
        if len(V0) and len(V1):
            best = max(best, 1 + max(ldim(V0), ldim(V1)))
    return best
""", "Step recursion"),
        ("floor(log2 |V|), the upper bound, not the dimension", """
def ldim(V):
    return int(np.floor(np.log2(len(np.unique(V, axis=0)))))
""", "Step recursion"),
        ("the first splitting point instead of the best one", """
def ldim(V):
    V = np.unique(V, axis=0)
    if len(V) == 1:
        return 0
    for x in range(V.shape[1]):
        V0, V1 = V[V[:, x] == 0], V[V[:, x] == 1]
        if len(V0) and len(V1):
            return 1 + min(ldim(V0), ldim(V1))
""", "Step recursion"),
    ],
    ("lab2_ldim_soa", "q2"): [
        ("ties go to 0", """
def soa_predict(H, alive, x, ldim):
    V0, V1 = H[alive & (H[:, x] == 0)], H[alive & (H[:, x] == 1)]
    l0 = ldim(V0) if len(V0) else -1
    l1 = ldim(V1) if len(V1) else -1
    return 1 if l1 > l0 else 0
""", "Step rule"),
        ("the majority vote (Halving, not SOA)", """
def soa_predict(H, alive, x, ldim):
    return 1 if 2 * int(H[alive, x].sum()) >= alive.sum() else 0
""", "Step rule"),
        ("the smaller dimension", """
def soa_predict(H, alive, x, ldim):
    V0, V1 = H[alive & (H[:, x] == 0)], H[alive & (H[:, x] == 1)]
    l0 = ldim(V0) if len(V0) else -1
    l1 = ldim(V1) if len(V1) else -1
    return 1 if l1 <= l0 else 0
""", "Step rule"),
    ],
    ("lab6_online_to_batch", "q1"): [
        ("ties go to 0", """
def halving_hypothesis(H, alive):
    return (2 * H[alive].sum(axis=0) > alive.sum()).astype(int)
""", "Step h"),
        ("the vote of all of H", """
def halving_hypothesis(H, alive):
    return (2 * H.sum(axis=0) >= len(H)).astype(int)
""", "Step h"),
        ("the first alive hypothesis (Consistent)", """
def halving_hypothesis(H, alive):
    return H[np.flatnonzero(alive)[0]].astype(int)
""", "Step h"),
    ],
    ("lab6_online_to_batch", "q2"): [
        ("the probability of agreement", """
def exact_risk(h, p, target):
    return sum((p[x] for x in range(len(p)) if h[x] == target[x]), Fraction(0))
""", "Step L"),
        ("counts points, ignores p", """
def exact_risk(h, p, target):
    return Fraction(sum(int(a != b) for a, b in zip(h, target)), len(p))
""", "Step L"),
        ("a float", """
def exact_risk(h, p, target):
    return float(sum(p[x] for x in range(len(p)) if h[x] != target[x]))
""", "exact number"),
    ],
    ("lab6_online_to_batch", "q3"): [
        ("h_t after seeing x_t (off by one round)", """
def random_iterate_risk(H, xs, p, target):
    alive = np.ones(len(H), dtype=bool)
    total = Fraction(0)
    for x in xs:
        alive = alive & (H[:, x] == H[target, x])
        h = (2 * H[alive].sum(axis=0) >= alive.sum()).astype(int)
        total += sum((p[j] for j in range(len(p)) if h[j] != H[target, j]), Fraction(0))
    return total / len(xs)
""", "Step 1"),
        ("the last iterate's risk, not the average", """
def random_iterate_risk(H, xs, p, target):
    alive = np.ones(len(H), dtype=bool)
    for x in xs[:-1]:
        alive = alive & (H[:, x] == H[target, x])
    h = (2 * H[alive].sum(axis=0) >= alive.sum()).astype(int)
    return sum((p[j] for j in range(len(p)) if h[j] != H[target, j]), Fraction(0))
""", "Step 1"),
        ("divides by T + 1", """
def random_iterate_risk(H, xs, p, target):
    alive = np.ones(len(H), dtype=bool)
    total = Fraction(0)
    for x in xs:
        h = (2 * H[alive].sum(axis=0) >= alive.sum()).astype(int)
        total += sum((p[j] for j in range(len(p)) if h[j] != H[target, j]), Fraction(0))
        alive = alive & (H[:, x] == H[target, x])
    return total / (len(xs) + 1)
""", "Step 1"),
    ],
    ("lab3_hedge", "q1"): [
        ("exponentiates without subtracting the minimum (overflows on large losses)", """
def hedge_distribution(L, eta):
    w = np.exp(-eta * L)
    return w / w.sum()
""", "subtract min(L)"),
        ("the wrong sign in the exponent", """
def hedge_distribution(L, eta):
    w = np.exp(eta * (L - L.max()))
    return w / w.sum()
""", "Step 1"),
        ("not normalized", """
def hedge_distribution(L, eta):
    return np.exp(-eta * (L - L.min()))
""", "Step 1"),
        ("the rate doubled (a wrong constant)", """
def hedge_distribution(L, eta):
    w = np.exp(-2 * eta * (L - L.min()))
    return w / w.sum()
""", "Step 1"),
    ],
    ("lab3_hedge", "q2"): [
        ("p_t from the losses up to round t (off by one round)", """
def hedge_regret(losses, eta):
    L = np.zeros(losses.shape[1])
    expected = 0.0
    for loss in losses:
        L = L + loss
        w = np.exp(-eta * (L - L.min()))
        expected += (w / w.sum()) @ loss
    return expected - L.min()
""", "Step 0"),
        ("against the worst expert", """
def hedge_regret(losses, eta):
    L = np.zeros(losses.shape[1])
    expected = 0.0
    for loss in losses:
        w = np.exp(-eta * (L - L.min()))
        expected += (w / w.sum()) @ loss
        L = L + loss
    return expected - L.max()
""", "Step 0"),
        ("the uniform distribution every round", """
def hedge_regret(losses, eta):
    return float(losses.mean(axis=1).sum() - losses.sum(axis=0).min())
""", "Step 0"),
    ],
    ("lab4_perceptron_winnow", "q1"): [
        ("updates only on a strictly negative score (w = 0 never moves)", """
def perceptron_update(w, x, y):
    return w + y * x if y * (w @ x) < 0 else w
""", "Step 0"),
        ("adds x without its label", """
def perceptron_update(w, x, y):
    return w + x if y * (w @ x) <= 0 else w
""", "Step 3"),
        ("updates on every round", """
def perceptron_update(w, x, y):
    return w + y * x
""", "Step 0"),
        ("a step of 1/2 (a wrong constant)", """
def perceptron_update(w, x, y):
    return w + 0.5 * y * x if y * (w @ x) <= 0 else w
""", "Step 3"),
    ],
    ("lab4_perceptron_winnow", "q2"): [
        ("predicts +1 only above d (the wrong tie rule)", """
def winnow_update(w, x, y):
    yhat = 1 if w @ x > len(w) else -1
    if yhat == y:
        return w
    w = w.copy()
    w[x == 1] = 2 * w[x == 1] if y == 1 else 0
    return w
""", "Step 0"),
        ("promotes by adding 1", """
def winnow_update(w, x, y):
    yhat = 1 if w @ x >= len(w) else -1
    if yhat == y:
        return w
    w = w.copy()
    w[x == 1] = w[x == 1] + 1 if y == 1 else 0
    return w
""", "Step rule"),
        ("triples (a wrong constant)", """
def winnow_update(w, x, y):
    yhat = 1 if w @ x >= len(w) else -1
    if yhat == y:
        return w
    w = w.copy()
    w[x == 1] = 3 * w[x == 1] if y == 1 else 0
    return w
""", "Step rule"),
        ("never updates", """
def winnow_update(w, x, y):
    return w
""", "Step 0"),
    ],
    ("lab5_projections_ogd", "q1"): [
        ("projects onto the unit ball whatever B", """
def project_ball(z, B):
    n = np.linalg.norm(z)
    return z if n <= 1 else z / n
""", "Step P"),
        ("always rescales to the sphere", """
def project_ball(z, B):
    return z * (B / np.linalg.norm(z))
""", "Step P"),
        ("no projection", """
def project_ball(z, B):
    return z
""", "Step P"),
    ],
    ("lab5_projections_ogd", "q2"): [
        ("clips to [-1, 1] whatever the box", """
def project_box(z, lo, hi):
    return np.clip(z, -1, 1)
""", "Step P"),
        ("scales the whole point (not the closest point)", """
def project_box(z, lo, hi):
    m = np.max(np.maximum(z / hi, z / lo))
    return z if m <= 1 else z / m
""", "Step P"),
        ("clips below only", """
def project_box(z, lo, hi):
    return np.maximum(z, lo)
""", "Step P"),
    ],
    ("lab5_projections_ogd", "q3"): [
        ("clips at 0 and renormalizes", """
def project_simplex(z):
    w = np.maximum(z, 0)
    return w / w.sum() if w.sum() > 0 else np.full(len(z), 1 / len(z))
""", "Step P"),
        ("softmax", """
def project_simplex(z):
    e = np.exp(z - z.max())
    return e / e.sum()
""", "Step P"),
        ("one shift for every coordinate, then clips (theta of all coordinates)", """
def project_simplex(z):
    return np.maximum(z - (z.sum() - 1) / len(z), 0)
""", "Step P"),
    ],
    ("lab5_projections_ogd", "q4"): [
        ("steps up the gradient", """
def ogd_step(w, v, eta, project):
    return project(w + eta * v)
""", "Step P"),
        ("forgets the projection", """
def ogd_step(w, v, eta, project):
    return w - eta * v
""", "Step P"),
        ("projects before the step", """
def ogd_step(w, v, eta, project):
    return project(w) - eta * v
""", "Step P"),
    ],
}


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

    env = {"np": np, "Fraction": Fraction}
    exec(textwrap.dedent(source), env)
    graded = _grade(built, lab, question, env)
    assert graded.score < graded.possible, f"{label}: full marks for a wrong answer"
    messages = " ".join(r.message or "" for r in graded.test_case_results if not r.passed)
    assert step in messages, f"{label}: the feedback does not name {step!r}: {messages[:800]}"


@pytest.mark.parametrize("name", [m.stem for m in MASTERS])
def test_the_reference_answers_pass_every_hidden_test_in_process(built, name):
    from fractions import Fraction

    env = {"np": np, "Fraction": Fraction}
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

    env = {"np": np, "Fraction": Fraction}
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
