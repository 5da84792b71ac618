"""How strong are the book's checks?  Mutation testing of olkit against the chapter notebooks.

    python3 dev.py mutants                      # default: 160 mutants over the algorithm modules
    .venv/bin/python benchmarks/mutants.py --modules finite,littlestone --sample 60 --jobs 2

1. **Coverage.**  Every notebook runs once under ``coverage`` (in its kernel); the result is the set
   of olkit lines each notebook executes (cached in ``benchmarks/mutants/coverage.json``, keyed by a
   hash of olkit's sources and the notebooks).
2. **Mutants.**  Every executed line of the chosen modules (rendering functions excluded: ``__repr__``,
   ``_repr_html_``, ...) is parsed with ``ast``; each comparison is
   flipped or shifted (``<`` to ``<=``, ``==`` to ``!=``, ...), each arithmetic operator swapped
   (``+``/``-``, ``*``/``/``, ``//``/``/``), each numeric constant changed (``c`` to ``c + 1``, ``0`` to ``1``,
   ``1`` to ``0``, floats doubled), each ``if``/``while``/conditional test negated, each ``and``/``or``
   swapped, each unary minus dropped.  A seeded sample of ``--sample`` mutants is drawn, spread over
   the modules in proportion to their candidates.
3. **Runs.**  A mutant is a copy of the olkit package with one module rewritten (``ast.unparse``); the
   notebooks that execute the mutated line run against it (``PYTHONPATH``), most specific first, until
   one stops.  Each mutant gets one verdict, the strongest seen:

   * ``check``  -- a proof check stopped the notebook (``ProofStepError``, or an ``assert`` of the notebook);
   * ``guard``  -- one of olkit's own checks raised (``ValueError``, ``NotRealizableError``, ``FloatingPointError``);
   * ``unit``   -- the notebooks ran through (with the same or changed outputs), but the module's unit
     tests (``tests/test_<module>.py``, see ``UNIT_EXTRA``) fail on the mutant (input checks, limits,
     what the book never calls);
   * ``error``  -- the notebook crashed with another exception (``TypeError``, ``IndexError``, ...), or
     with a ``ValueError`` raised inside numpy rather than by an olkit ``raise`` (mismatched shapes);
   * ``timeout`` -- the notebook ran past ``--timeout`` seconds;
   * ``output`` -- the notebook ran through, but a stored text output changed (nbval would fail);
   * ``survived`` -- the notebook ran through with every text output unchanged;
   * ``dormant`` -- as ``survived``, but the mutated expression was never evaluated: the mutated module
     calls a probe around it (:class:`_Probe`), and the probe never fired.  Line coverage counts the
     line of ``a if c else b`` as executed when only one arm ran; a mutant of the other arm cannot
     change anything the chapter does, and is not counted (default values, evaluated when the ``def``
     runs, get no probe and are always counted).

4. **Report.**  ``benchmarks/mutants.md``: the counts, the share stopped by a check, and one row per
   mutant (module, line, mutation, verdict, notebook, message).  Survivors need a human: either the
   mutant is *equivalent* (it cannot change any behaviour; listed with the reason in
   ``benchmarks/mutants_equivalent.md``) or a check is missing.

5. **Per chapter** (``--chapter 3``): the mutants are drawn from the lines that chapter's notebooks
   execute, in every module they execute (``CHAPTER_MODULES``), and run against that chapter's
   notebooks only; the report is ``benchmarks/mutants_ch3.md``.  The headline is the share of
   non-equivalent mutants of *computing* lines stopped by a proof check or a notebook assert.  A
   computing line is any line but an input check (:func:`guard_lines`: a ``raise``, an ``assert``,
   the test of an ``if`` whose body only raises, e.g. a size limit, the flag such a test reads, the
   body of an input validator such as ``int_at_least``, and the constant arguments of a call to one
   (:func:`guard_nodes`)), so the share measures what
   the book's own checks see, not olkit's guards.  ``--all-lines`` mutates the guards too.  Only code
   inside functions whose body the chapter runs is mutated (:func:`import_time_nodes`): ``import olkit``
   executes every module's top level and every ``def`` line, which are no part of what the chapter uses.

Not part of CI (it takes many minutes); run it on the modules you touched before you stop.
"""
from __future__ import annotations

import argparse
import ast
import copy
import hashlib
import json
import os
import random
import re
import shutil
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OLKIT = ROOT / "olkit"
CHAPTERS = ROOT / "chapters"
OUT = ROOT / "benchmarks" / "mutants"
REPORT = ROOT / "benchmarks" / "mutants.md"
EQUIVALENT = ROOT / "benchmarks" / "mutants_equivalent.md"

#: Modules that hold algorithms and the quantities their proofs need (figures are not checked by proofs).
DEFAULT_MODULES = ["finite", "littlestone", "soa", "ellipsoid", "ellipsoid_proof", "linear", "adversaries", "classes",
                   "cover", "game", "proof", "bounds", "fp", "work", "baselines"]
#: Functions that only render (text and HTML tables): a proof check cannot see them, nbval's output
#: comparison and the unit tests do.  Their lines are not mutated (nor are olkit.claimtex and olkit.plots).
RENDERING = {"__repr__", "_repr_html_", "_table", "fmt", "math", "status", "draw"}
#: Modules a chapter's mutants may come from (``--chapter``): every olkit module but rendering and tooling.
CHAPTER_MODULES = ["finite", "littlestone", "soa", "ellipsoid", "ellipsoid_proof", "linear", "adversaries", "classes",
                   "cover", "game", "proof", "bounds", "fp", "baselines", "experts", "expert_game", "minimax",
                   "soa_experts", "winnow", "convex", "oco", "oco_proof", "batch", "distributions", "estimates",
                   "streams"]
#: Verdicts from strongest to weakest.
ORDER = ["check", "guard", "unit", "error", "timeout", "output", "survived", "dormant"]
#: Exceptions that olkit raises on purpose (input checks, realizability, lost definiteness): a guard stopped it.
GUARDS = {"ValueError", "NotRealizableError", "FloatingPointError"}


# ---------------------------------------------------------------------------------------------
# Notebooks
# ---------------------------------------------------------------------------------------------
def notebooks() -> list[Path]:
    return sorted(p for p in CHAPTERS.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)


def chapter_of(nb: str) -> str:
    """'chapters/ch3/3_1_....ipynb' -> '3'."""
    return Path(nb).parent.name.removeprefix("ch")


def text_outputs(nb) -> list[str]:
    """The text outputs nbval compares (streams, text/plain, text/html), cell by cell; images are skipped.

    Consecutive stream outputs are joined first, as nbval does: the kernel may chunk a stream differently."""
    out = []
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        parts, stream = [], {}
        for o in cell.get("outputs", []):
            if o.get("output_type") == "stream":
                stream[o.get("name", "stdout")] = stream.get(o.get("name", "stdout"), "") + o.get("text", "")
                continue
            parts += [f"[{k}]" + v for k, v in sorted(stream.items())]
            stream = {}
            if "data" in o:
                for key in ("text/plain", "text/html"):
                    if key in o["data"]:
                        parts.append(o["data"][key])
        parts += [f"[{k}]" + v for k, v in sorted(stream.items())]
        out.append("\n\x00".join(parts))
    return out


_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _raised_by_olkit(traceback: str) -> bool:
    """Whether a traceback ends at a ``raise`` statement of olkit: a ValueError that numpy raises inside
    olkit (a ufunc or a broadcast of mismatched shapes) is a crash, not one of olkit's guards."""
    text = _ANSI.sub("", traceback)
    frames = re.split(r"\n(?=File )", text)
    last = frames[-1] if len(frames) > 1 else ""
    if not re.match(r"File [^\s,:]*/olkit/[^\s,:]+\.py", last):
        return False
    arrow = [ln for ln in last.splitlines() if re.match(r"\s*-+> ", ln)]  # "---> 78     raise ..."
    return bool(arrow) and re.search(r"\braise\b", arrow[-1]) is not None


def execute(path: Path, pythonpath: str | None, timeout: int, pre: str | None = None, post: str | None = None):
    """Run a notebook in a fresh kernel; return (exception name or None, message, executed notebook)."""
    import nbclient
    import nbformat

    nb = nbformat.read(path, as_version=4)
    if pre:
        nb.cells.insert(0, nbformat.v4.new_code_cell(pre))
    if post:
        nb.cells.append(nbformat.v4.new_code_cell(post))
    env_backup = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = pythonpath or str(ROOT)  # this checkout's olkit, whatever the venv has installed
    try:
        client = nbclient.NotebookClient(nb, timeout=timeout, kernel_name="python3",
                                         resources={"metadata": {"path": str(path.parent)}})
        try:
            client.execute()
        except nbclient.exceptions.CellTimeoutError as err:
            return "Timeout", str(err).splitlines()[0][:200], nb
        except nbclient.exceptions.DeadKernelError as err:
            return "DeadKernel", str(err)[:200], nb
        except nbclient.exceptions.CellExecutionError as err:
            if err.ename in GUARDS and not _raised_by_olkit(str(err)):
                return "Crash:" + err.ename, (err.evalue or "")[:400], nb
            return err.ename, (err.evalue or "")[:400], nb
        return None, "", nb
    finally:
        if env_backup is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = env_backup


# ---------------------------------------------------------------------------------------------
# Coverage
# ---------------------------------------------------------------------------------------------
def source_hash(nbs: list[Path] | None = None) -> str:
    h = hashlib.sha256()
    for p in sorted(OLKIT.glob("*.py")) + (notebooks() if nbs is None else nbs):
        h.update(p.read_bytes())
    return h.hexdigest()[:16]


def _coverage_of(path: str, timeout: int) -> tuple[str, dict[str, list[int]]]:
    data_file = Path(tempfile.mkdtemp()) / "lines.json"
    pre = ("import coverage as _cov_mod\n"
           f"_cov = _cov_mod.Coverage(source=[{str(OLKIT)!r}], data_file=None)\n"
           "_cov.start()\n")
    post = ("_cov.stop()\n"
            "import json as _json\n"
            "_d = _cov.get_data()\n"
            f"_json.dump({{f: sorted(_d.lines(f) or []) for f in _d.measured_files()}}, open({str(data_file)!r}, 'w'))\n")
    import nbformat

    ename, msg, executed = execute(Path(path), None, timeout, pre=pre, post=post)
    if ename:
        raise RuntimeError(f"{path} fails without mutation: {ename}: {msg}")
    stored = nbformat.read(path, as_version=4)
    fresh = nbformat.read(path, as_version=4)
    fresh.cells = [c for c in executed.cells[1:-1]]  # without the coverage cells
    if text_outputs(stored) != text_outputs(fresh):
        raise RuntimeError(f"{path}: the stored outputs differ from a fresh run without mutation; "
                           "re-execute it (python3 dev.py execute) before measuring mutants")
    raw = json.loads(data_file.read_text())
    return path, {Path(f).stem: lines for f, lines in raw.items() if Path(f).parent == OLKIT}


def coverage_map(jobs: int, timeout: int, chapter: str | None = None) -> dict[str, dict[str, list[int]]]:
    """notebook -> module -> executed lines, for every notebook or one chapter's (cached by the hash of
    olkit and those notebooks)."""
    OUT.mkdir(parents=True, exist_ok=True)
    nbs = [p for p in notebooks() if chapter is None or chapter_of(str(p)) == chapter]
    cache = OUT / (f"coverage_ch{chapter}.json" if chapter else "coverage.json")
    key = source_hash(nbs)
    if cache.exists():
        saved = json.loads(cache.read_text())
        if saved.get("key") == key:
            return saved["coverage"]
    print(f"[mutants] measuring coverage of {len(nbs)} notebooks", flush=True)
    cov: dict[str, dict[str, list[int]]] = {}
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for path, lines in pool.map(_coverage_of, [str(p) for p in nbs], [timeout] * len(nbs)):
            cov[str(Path(path).relative_to(ROOT))] = lines
    cache.write_text(json.dumps({"key": key, "coverage": cov}))
    return cov


# ---------------------------------------------------------------------------------------------
# Mutants
# ---------------------------------------------------------------------------------------------
@dataclass
class Mutant:
    module: str
    line: int
    kind: str
    description: str
    index: int  # position of the mutated node in the module's ast.walk order
    variant: int  # which of the node's mutations


FLIP = {ast.Lt: [ast.LtE, ast.Gt], ast.LtE: [ast.Lt, ast.GtE], ast.Gt: [ast.GtE, ast.Lt], ast.GtE: [ast.Gt, ast.LtE],
        ast.Eq: [ast.NotEq], ast.NotEq: [ast.Eq], ast.Is: [ast.IsNot], ast.IsNot: [ast.Is], ast.In: [ast.NotIn],
        ast.NotIn: [ast.In]}
SWAP = {ast.Add: [ast.Sub], ast.Sub: [ast.Add], ast.Mult: [ast.Div], ast.Div: [ast.Mult], ast.FloorDiv: [ast.Div],
        ast.Mod: [ast.FloorDiv], ast.Pow: [ast.Mult], ast.BitAnd: [ast.BitOr], ast.BitOr: [ast.BitAnd],
        ast.LShift: [ast.RShift], ast.RShift: [ast.LShift]}
SYMBOL = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=", ast.Is: "is",
          ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in", ast.Add: "+", ast.Sub: "-", ast.Mult: "*",
          ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%", ast.Pow: "**", ast.BitAnd: "&", ast.BitOr: "|",
          ast.LShift: "<<", ast.RShift: ">>"}


def _docstring_nodes(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                ids.add(id(first.value))
    return ids


def _const_variants(v) -> list:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return []
    if isinstance(v, int):
        return [1] if v == 0 else [0, v + 1] if v == 1 else [v + 1]
    return [1.0] if v == 0 else [v * 2]


def mutations_of(node: ast.AST) -> list[tuple[str, str]]:
    """(kind, description) of each mutation of this node, in variant order."""
    out = []
    if isinstance(node, ast.Compare):
        for k, op in enumerate(node.ops):
            for new in FLIP.get(type(op), []):
                out.append(("comparison", f"{SYMBOL[type(op)]} -> {SYMBOL[new]} (operand {k + 1})"))
    elif isinstance(node, ast.BinOp):
        for new in SWAP.get(type(node.op), []):
            out.append(("operator", f"{SYMBOL[type(node.op)]} -> {SYMBOL[new]}"))
    elif isinstance(node, ast.AugAssign):
        for new in SWAP.get(type(node.op), []):
            out.append(("operator", f"{SYMBOL[type(node.op)]}= -> {SYMBOL[new]}="))
    elif isinstance(node, ast.Constant):
        for new in _const_variants(node.value):
            out.append(("constant", f"{node.value!r} -> {new!r}"))
    elif isinstance(node, (ast.If, ast.While, ast.IfExp, ast.Assert)):
        out.append(("negation", f"negate the {type(node).__name__.lower()} test"))
    elif isinstance(node, ast.BoolOp):
        out.append(("boolean", "and -> or" if isinstance(node.op, ast.And) else "or -> and"))
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.Not)):
        out.append(("unary", "drop unary -" if isinstance(node.op, ast.USub) else "drop not"))
    return out


def apply(node: ast.AST, variant: int) -> None:
    """Mutate ``node`` in place (variant as in :func:`mutations_of`)."""
    if isinstance(node, ast.Compare):
        k = 0
        for i, op in enumerate(node.ops):
            for new in FLIP.get(type(op), []):
                if k == variant:
                    node.ops[i] = new()
                    return
                k += 1
    elif isinstance(node, (ast.BinOp, ast.AugAssign)):
        node.op = SWAP[type(node.op)][variant]()
    elif isinstance(node, ast.Constant):
        node.value = _const_variants(node.value)[variant]
    elif isinstance(node, (ast.If, ast.While, ast.IfExp, ast.Assert)):
        node.test = ast.UnaryOp(op=ast.Not(), operand=node.test)
    elif isinstance(node, ast.BoolOp):
        node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()


class _DropUnary(ast.NodeTransformer):
    def __init__(self, target):
        self.target = target

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        return node.operand if node is self.target else node


def _rendering_lines(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in RENDERING:
            out.update(range(node.lineno, node.end_lineno + 1))
    return out


def _only_raises(body: list[ast.stmt]) -> bool:
    """A block that only raises (after an optional message built in a few assignments)."""
    return bool(body) and isinstance(body[-1], ast.Raise) and all(
        isinstance(b, (ast.Raise, ast.Assign, ast.AnnAssign, ast.Expr)) for b in body)


#: Input validators: functions that test an argument and raise (``int_at_least``, ``check_positive``,
#: ``check_stream``, ...).  Their tests are guards; their ``return`` (the converted value) is computing.
VALIDATOR = re.compile(r"^_?(check(_\w+)?|int_at_least|is_int|dim)$")
#: Functions named like validators that compute what the book checks (a proof table).
NOT_VALIDATORS = {"check_soa", "checks"}


def _is_validator(name: str) -> bool:
    return bool(VALIDATOR.match(name)) and name not in NOT_VALIDATORS


def guard_lines(tree: ast.AST) -> set[int]:
    """Lines of input checks: ``raise`` and ``assert`` statements; the test of an ``if`` whose body
    only raises (``if eta <= 0: raise ValueError(...)``, size limits), with the assignment of a flag
    that such an ``if`` then tests (``ok = ...; if not ok: raise``); and the body of an input
    validator (:data:`VALIDATOR`) but its ``return``.  Mutating them tests olkit's guards, which the
    unit tests cover; the book's proof checks are measured on the other lines."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Raise, ast.Assert)):
            out.update(range(node.lineno, node.end_lineno + 1))
        elif isinstance(node, ast.If) and _only_raises(node.body) and not node.orelse:
            out.update(range(node.test.lineno, node.test.end_lineno + 1))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _is_validator(node.name):
            for st in ast.walk(node):
                predicate = node.name.lstrip("_").startswith("is_")  # its return is the test
                if (isinstance(st, ast.stmt) and st is not node and not isinstance(st, (ast.If, ast.For))
                        and (predicate or not isinstance(st, ast.Return))):
                    out.update(range(st.lineno, st.end_lineno + 1))
                elif isinstance(st, ast.If):
                    out.update(range(st.test.lineno, st.test.end_lineno + 1))
        body = getattr(node, "body", None)
        if isinstance(body, list):
            for prev, st in zip(body, body[1:]):
                if (isinstance(st, ast.If) and _only_raises(st.body) and not st.orelse
                        and isinstance(prev, ast.Assign) and len(prev.targets) == 1
                        and isinstance(prev.targets[0], ast.Name)
                        and prev.targets[0].id in {n.id for n in ast.walk(st.test) if isinstance(n, ast.Name)}):
                    out.update(range(prev.lineno, prev.end_lineno + 1))
    return out


def guard_nodes(tree: ast.AST) -> set[int]:
    """ids of the constant arguments of calls to an input validator (the ``1`` of
    ``int_at_least(T, "T", 1)``): they set what the guard accepts, not what olkit computes."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
            if _is_validator(name):
                for a in (*node.args[1:], *(k.value for k in node.keywords)):
                    out.update(id(n) for n in ast.walk(a))
    return out


def import_time_nodes(tree: ast.AST, lines: set[int]) -> set[int]:
    """ids of the nodes that run when the module is imported but belong to no function the notebooks
    call: module- and class-level statements (constants, annotations) and the signatures (default
    values, annotations, decorators) of functions whose body no notebook executes.  Coverage counts
    their lines as executed by every notebook (``import olkit`` runs them), so without this filter a
    chapter's sample holds mutants of code it never uses."""
    out: set[int] = set()

    def body_runs(fn) -> bool:
        body = fn.body[1:] if (fn.body and isinstance(fn.body[0], ast.Expr)
                               and isinstance(fn.body[0].value, ast.Constant)) else fn.body
        return any(ln in lines for b in body for ln in range(b.lineno, b.end_lineno + 1))

    def mark(node) -> None:
        out.update(id(n) for n in ast.walk(node))

    def visit(stmts) -> None:
        for st in stmts:
            if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if not body_runs(st):
                    mark(st)
                else:
                    for part in (st.args, st.returns, *st.decorator_list):
                        if part is not None:
                            mark(part)
                    # defaults are used when the function runs: keep them
                    for d in (*st.args.defaults, *(d for d in st.args.kw_defaults if d is not None)):
                        out.difference_update(id(n) for n in ast.walk(d))
            elif isinstance(st, ast.ClassDef):
                for part in (*st.bases, *st.keywords, *st.decorator_list):
                    mark(part)
                visit(st.body)
            else:
                mark(st)

    visit(tree.body)
    return out


def candidates(module: str, lines: set[int], computing: bool = False) -> list[Mutant]:
    tree = ast.parse((OLKIT / f"{module}.py").read_text())
    docs = _docstring_nodes(tree)
    skip = _rendering_lines(tree) | (guard_lines(tree) if computing else set())
    # per chapter (computing): only code inside the functions the notebooks run (see import_time_nodes)
    dormant = (import_time_nodes(tree, lines) | guard_nodes(tree)) if computing else set()
    out = []
    for index, node in enumerate(ast.walk(tree)):
        line = getattr(node, "lineno", None)
        if line is None or line not in lines or line in skip or id(node) in docs or id(node) in dormant:
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            continue
        for variant, (kind, desc) in enumerate(mutations_of(node)):
            out.append(Mutant(module, line, kind, desc, index, variant))
    return out


#: The probe: a mutated module calls it where the mutation sits, so that a run can tell a mutant the
#: notebooks never evaluated (a branch of a conditional expression, the other arm of an ``if``) from one
#: they evaluated and did not notice.  It writes the file named by ``OLKIT_PROBE`` once.
PROBE = "__olkit_probe__"
_PROBE_DEF = f"""
_olkit_probe_hit = False


def {PROBE}(v=None):
    global _olkit_probe_hit
    if not _olkit_probe_hit:
        _olkit_probe_hit = True
        import os as _os
        open(_os.environ.get("OLKIT_PROBE", _os.devnull), "a").close()
    return v
"""


def _probe(node: ast.expr) -> ast.Call:
    return ast.Call(func=ast.Name(id=PROBE, ctx=ast.Load()), args=[node], keywords=[])


class _Probe(ast.NodeTransformer):
    """Wrap the mutated expression in a call of the probe (the same value), or put a call of the probe
    before the mutated statement (``+=``).  Default values are left alone: they are evaluated when the
    ``def`` runs, whether or not a call uses them."""

    def __init__(self, target):
        self.target = target
        self.defaults: set[int] = set()

    def visit_arguments(self, node):
        self.defaults.update(id(d) for d in (*node.defaults, *node.kw_defaults) if d is not None)
        return self.generic_visit(node)

    def visit(self, node):
        if node is self.target and id(node) not in self.defaults:
            if isinstance(node, ast.AugAssign):
                return [ast.Expr(_probe(ast.Constant(None))), node]
            if isinstance(node, (ast.If, ast.While, ast.IfExp, ast.Assert)):
                node.test = _probe(node.test)
                return self.generic_visit(node)
            if isinstance(node, ast.expr):
                return _probe(self.generic_visit(node))
        return super().visit(node)


def _insert_probe_def(tree: ast.Module) -> None:
    k = 0
    body = tree.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        k = 1
    while k < len(body) and isinstance(body[k], ast.ImportFrom) and body[k].module == "__future__":
        k += 1
    tree.body[k:k] = ast.parse(_PROBE_DEF).body


def mutated_source(m: Mutant, probe: bool = False) -> str:
    """The module's source with the mutant applied (and, with ``probe``, the probe around it)."""
    tree = ast.parse((OLKIT / f"{m.module}.py").read_text())
    node = list(ast.walk(tree))[m.index]
    if isinstance(node, ast.UnaryOp):
        target = node.operand
        tree = _DropUnary(node).visit(tree)
    else:
        apply(node, m.variant)
        target = node
    if probe:
        tree = _Probe(target).visit(tree)
        _insert_probe_def(tree)
    return ast.unparse(ast.fix_missing_locations(tree))


# ---------------------------------------------------------------------------------------------
# Running a mutant
# ---------------------------------------------------------------------------------------------
def run_mutant(m: Mutant, nbs: list[str], timeout: int) -> dict:
    import nbformat

    tmp = Path(tempfile.mkdtemp(prefix="olkit-mutant-"))
    try:
        pkg = tmp / "olkit"
        shutil.copytree(OLKIT, pkg, ignore=shutil.ignore_patterns("__pycache__"))
        (pkg / f"{m.module}.py").write_text(mutated_source(m, probe=True))
        hit = tmp / "probe-hit"
        os.environ["OLKIT_PROBE"] = str(hit)  # this worker's kernels inherit it
        best = {"verdict": "survived", "notebook": nbs[0] if nbs else "", "message": ""}
        t0 = time.time()
        for nb in nbs:
            path = ROOT / nb
            ename, msg, executed = execute(path, str(tmp), timeout)
            if ename in ("ProofStepError", "ProofShapeError", "AssertionError"):
                verdict = "check"
            elif ename in GUARDS:
                verdict = "guard"
            elif ename == "Timeout":
                verdict = "timeout"
            elif ename is not None:
                verdict = "error"
            else:
                stored = nbformat.read(path, as_version=4)
                verdict = "output" if text_outputs(stored) != text_outputs(executed) else "survived"
            if ORDER.index(verdict) < ORDER.index(best["verdict"]):
                best = {"verdict": verdict, "notebook": nb, "message": f"{ename}: {msg}" if ename else ""}
            if verdict == "check":
                break
        if best["verdict"] == "survived" and not hit.exists():
            # the notebooks never evaluated the mutated expression: no check could see it
            return {**asdict(m), "verdict": "dormant", "notebook": best["notebook"],
                    "message": "never evaluated by the chapter's notebooks", "seconds": round(time.time() - t0, 1)}
        if best["verdict"] in ("output", "survived"):  # the notebooks ran through: do the unit tests see it?
            tests = [t for t in (ROOT / "tests" / name for name in unit_tests(m.module)) if t.exists()]
            if tests:
                import subprocess

                env = dict(os.environ, PYTHONPATH=f"{tmp}{os.pathsep}{ROOT / 'tests'}")
                try:
                    res = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
                                          "-o", "addopts=", *map(str, tests)], cwd=tmp, env=env,
                                         capture_output=True, text=True, timeout=timeout)
                except subprocess.TimeoutExpired:
                    res = None
                    if best["verdict"] in ("output", "survived"):
                        best = {"verdict": "timeout", "notebook": best["notebook"],
                                "message": f"the unit tests {', '.join(t.name for t in tests)} ran past {timeout} s"}
                if res is not None and res.returncode != 0:
                    last = [ln for ln in res.stdout.splitlines() if ln.startswith(("FAILED", "ERROR"))]
                    best = {"verdict": "unit", "notebook": best["notebook"],
                            "message": (last[0] if last else res.stdout[-200:])[:300]}
        return {**asdict(m), **best, "seconds": round(time.time() - t0, 1)}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


#: Unit-test files beyond ``tests/test_<module>.py`` that exercise a module (modules without their own file).
UNIT_EXTRA = {
    "adversaries": ["test_ellipsoid.py", "test_winnow.py", "test_littlestone.py", "test_finite.py"],
    "baselines": ["test_game.py"],
    "expert_game": ["test_experts.py"],
    "minimax": ["test_experts.py"],
    "soa_experts": ["test_experts.py"],
    "soa": ["test_littlestone.py"],
    "ellipsoid_proof": ["test_ellipsoid.py", "test_broken_finite.py"],
    "distributions": ["test_batch.py"],
    "estimates": ["test_batch.py"],
    "convex": ["test_oco.py"],
    "oco_proof": ["test_oco.py"],
}


def unit_tests(module: str) -> list[str]:
    """The unit-test files run on a mutant of ``module`` that no notebook check stopped."""
    return [f"test_{module}.py", *UNIT_EXTRA.get(module, [])]


# ---------------------------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--modules", default=",".join(DEFAULT_MODULES), help="comma-separated olkit modules")
    ap.add_argument("--sample", type=int, default=160, help="number of mutants to run")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=240, help="seconds per notebook cell")
    ap.add_argument("--out", default=None, help="report (default: benchmarks/mutants.md, or mutants_chN.md)")
    ap.add_argument("--chapter", help="only this chapter's notebooks and the lines they execute, in every "
                                      "module (CHAPTER_MODULES) unless --modules is given; computing lines only")
    ap.add_argument("--all-lines", action="store_true", help="with --chapter: mutate input checks too")
    ap.add_argument("--rerun", help="results.json of an earlier run: run its mutants again that no check stopped")
    ap.add_argument("--only", help="with --rerun: only the mutants on these module:line places (comma-separated), "
                                   "e.g. after adding the test that targets them; the other results are kept")
    modules_given = any(a == "--modules" or a.startswith("--modules=") for a in (argv or sys.argv[1:]))
    args = ap.parse_args(argv)
    if args.chapter and not modules_given:
        args.modules = ",".join(CHAPTER_MODULES)
    modules = [m.strip() for m in args.modules.split(",") if m.strip()]
    computing = bool(args.chapter) and not args.all_lines
    args.computing = computing
    if args.out is None:
        args.out = str(REPORT.with_name(f"mutants_ch{args.chapter}.md") if args.chapter else REPORT)
    results_file = OUT / (f"results_ch{args.chapter}.json" if args.chapter else "results.json")
    t0 = time.time()
    cov = coverage_map(args.jobs, args.timeout, args.chapter)
    if args.chapter:
        if not cov:
            sys.exit(f"no notebooks in chapter {args.chapter}")
    by_module: dict[str, set[int]] = {}
    for nb, mods in cov.items():
        for mod, lines in mods.items():
            by_module.setdefault(mod, set()).update(lines)
    pool = [c for mod in modules for c in candidates(mod, by_module.get(mod, set()), computing)]
    rng = random.Random(args.seed)
    sample = sorted(rng.sample(pool, min(args.sample, len(pool))), key=lambda m: (m.module, m.line, m.index, m.variant))
    kept: list[dict] = []
    if args.rerun:
        earlier = json.loads(Path(args.rerun).read_text())
        keys = {"module", "line", "kind", "description", "index", "variant"}
        places = {p.strip() for p in (args.only or "").split(",") if p.strip()}
        redo = (lambda r: f"{r['module']}:{r['line']}" in places) if places else \
            (lambda r: r["verdict"] not in ("check", "guard"))
        again = [r for r in earlier if redo(r)]
        kept = [r for r in earlier if not redo(r)]
        sample = [Mutant(**{k: r[k] for k in keys}) for r in again]
    print(f"[mutants] {len(pool)} candidate mutants on executed lines of {', '.join(modules)}; running {len(sample)}",
          flush=True)

    def notebooks_for(m: Mutant) -> list[str]:
        nbs = [nb for nb, mods in cov.items() if m.line in mods.get(m.module, [])]
        return sorted(nbs, key=lambda nb: sum(len(v) for v in cov[nb].values()))  # the smallest first

    results = list(kept)
    with ProcessPoolExecutor(max_workers=args.jobs) as ex:
        futures = {ex.submit(run_mutant, m, notebooks_for(m), args.timeout): m for m in sample}
        for k, fut in enumerate(as_completed(futures), start=1):
            r = fut.result()
            results.append(r)
            OUT.mkdir(parents=True, exist_ok=True)
            (OUT / "partial.json").write_text(json.dumps(results, indent=1))  # survives a crash
            print(f"[mutants] {k}/{len(sample)} {r['module']}:{r['line']} {r['description']}: {r['verdict']}", flush=True)
    results.sort(key=lambda r: (r["module"], r["line"], r["index"], r["variant"]))
    OUT.mkdir(parents=True, exist_ok=True)
    results_file.write_text(json.dumps(results, indent=1))
    write_report(results, len(pool), modules, args, time.time() - t0, len(sample) + len(kept), len(sample))


def load_equivalent(chapter: str | None = None) -> dict[str, str]:
    """module:line:description -> reason, from benchmarks/mutants_equivalent.md and, for a chapter's run,
    mutants_equivalent_chN.md (tables; a chapter's judgements hold for its own notebooks only)."""
    eq = {}
    paths = [EQUIVALENT] + ([EQUIVALENT.with_name(f"mutants_equivalent_ch{chapter}.md")] if chapter else [])
    for path in (p for p in paths if p.exists()):
        for row in path.read_text().splitlines():
            # cells are split on unescaped pipes; "\\|" is a pipe inside a cell (the mutation "| -> &")
            cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", row.strip().strip("|"))]
            if len(cells) >= 4 and cells[0] not in ("module", "---") and not set(cells[0]) <= {"-"}:
                eq[f"{cells[0]}:{cells[1]}:{cells[2]}"] = cells[3]
    return eq


def write_report(results: list[dict], n_pool: int, modules: list[str], args, seconds: float, n: int = 0,
                 n_rerun: int = 0) -> None:
    eq = load_equivalent(getattr(args, "chapter", None))
    eqfile = f"_ch{args.chapter}" if getattr(args, "chapter", None) else ""
    for r in results:
        r["equivalent"] = eq.get(f"{r['module']}:{r['line']}:{r['description']}", "")
    counts = {v: sum(r["verdict"] == v for r in results) for v in ORDER}
    n_eq = sum(bool(r["equivalent"]) and r["verdict"] in ("survived", "output") for r in results)
    non_eq = len(results) - n_eq - counts["dormant"]
    n_stopped = sum(r["verdict"] not in ("survived", "dormant") and not (r["equivalent"] and r["verdict"] == "output")
                    for r in results)
    share = counts["check"] / non_eq if non_eq else float("nan")
    # the criterion agreed for the book (issue 28): stopped by the book itself (a proof check, a notebook
    # assert, an olkit guard or a crash in a notebook), and, of the mutants the notebooks ran with to the
    # end or to a check (not stopped by a guard, a crash or a timeout), the share a proof check stops
    book = counts["check"] + counts["guard"] + counts["error"]
    through = non_eq - counts["guard"] - counts["error"] - counts["timeout"]
    book_share = book / non_eq if non_eq else float("nan")
    through_share = counts["check"] / through if through else float("nan")
    lines = [
        "# Mutation testing: how often a proof check stops a broken olkit",
        "",
        f"Written by `python3 dev.py mutants` (benchmarks/mutants.py) on {time.strftime('%Y-%m-%d')}: "
        f"{len(results)} mutants sampled (seed {args.seed}) from {n_pool} candidates on the lines of "
        + (f"{', '.join(sorted({r['module'] for r in results}))} that Chapter {args.chapter}'s notebooks execute "
           f"(computing lines only: input checks, i.e. raise and assert statements and the tests of if blocks "
           f"that only raise, are not mutated), run against that chapter's notebooks"
           if getattr(args, "chapter", None) and getattr(args, "computing", False) else
           f"{', '.join(modules)} that the notebooks execute")
        + f"; {seconds / 60:.1f} minutes with {args.jobs} jobs"
        + (f" (a `--rerun` of {n_rerun} of them{' at ' + args.only if args.only else ''}; the other verdicts are "
           f"those of the run it reruns)." if args.rerun else "."),
        "",
        "| verdict | mutants | meaning |",
        "|---|---|---|",
        f"| check | {counts['check']} | a proof check (ProofStepError) or a notebook assert stopped it |",
        f"| guard | {counts['guard']} | one of olkit's own checks raised (ValueError, NotRealizableError, FloatingPointError) |",
        f"| unit | {counts['unit']} | no notebook check stopped it, but the module's unit tests fail |",
        f"| error | {counts['error']} | the notebook crashed: another exception, or a ValueError that numpy raised inside olkit (mismatched shapes) |",
        f"| timeout | {counts['timeout']} | a cell ran past {args.timeout} s |",
        f"| output | {counts['output']} | ran through; a stored text output changed (nbval fails) |",
        f"| survived | {counts['survived']} | ran through with identical text outputs, the mutated code evaluated |",
        f"| dormant | {counts['dormant']} | ran through, the mutated expression never evaluated (a probe around it never fired): no check can see it; not counted |",
        "",
        f"Judged equivalent (cannot change behaviour; reasons in `benchmarks/mutants_equivalent{eqfile}.md`): {n_eq}; "
        f"dormant: {counts['dormant']}.",
        "",
        f"**The agreed criterion: stopped by the book itself (a proof check, a notebook assert, an olkit guard or "
        f"a crash in a notebook): {book} of {non_eq} = {100 * book_share:.1f}%** (target 85%); "
        f"**of the {through} mutants the notebooks ran with (not stopped by a guard, a crash or a timeout), "
        f"stopped by a proof check or a notebook assert: {counts['check']} = {100 * through_share:.1f}%** "
        f"(target 80%).",
        "",
        f"**Stopped by a proof check or a notebook assert: {counts['check']} of {non_eq} non-equivalent "
        f"{'computing-line ' if getattr(args, 'computing', False) else ''}mutants = {100 * share:.1f}%**; "
        f"by a proof check or one of olkit's explicit checks (guards): {counts['check'] + counts['guard']} = "
        f"{100 * (counts['check'] + counts['guard']) / max(non_eq, 1):.1f}%; by any check of the test suite "
        f"(proof checks, guards, unit tests): {counts['check'] + counts['guard'] + counts['unit']} = "
        f"{100 * (counts['check'] + counts['guard'] + counts['unit']) / max(non_eq, 1):.1f}%; "
        f"stopped at all (a check, a crash, a timeout or a changed output: CI fails): "
        f"{n_stopped} = {100 * n_stopped / max(non_eq, 1):.1f}%.",
        "",
        "| module | line | mutation | verdict | notebook | equivalent? | message |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in results:
        msg = r["message"].replace("|", "\\|").replace("\n", " ")[:160]
        desc, eq = r["description"].replace("|", "\\|"), r["equivalent"][:80].replace("|", "\\|")
        lines.append(f"| {r['module']} | {r['line']} | {desc} | {r['verdict']} | "
                     f"{Path(r['notebook']).name} | {eq} | {msg} |")
    Path(args.out).write_text("\n".join(lines) + "\n")
    print("\n".join(lines[:20]))
    print(f"[mutants] wrote {args.out}")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
