"""The student edition: the book and its notebooks with every solution removed.

A solution is written in a notebook as sphinx-exercise's gated pair

    ```{solution-start} ex-label
    :class: dropdown
    ```
    ...text, and any number of code cells...
    ```{solution-end}
    ```

The two fences may share a markdown cell with other text (the exercise before ``solution-start``,
the next exercise after ``solution-end``): that text is kept, and everything from the
``solution-start`` fence to the end of the ``solution-end`` fence is removed, cells in between
included.  A one-piece ``{solution}`` directive inside a markdown cell is removed too.

``build(out)`` writes ``out/notebooks/`` (the stripped notebooks, outputs cleared, for students to
run) and ``out/html/`` (the book built from the stripped notebooks with their outputs, with
sphinx-exercise's ``hide_solutions`` on; the instructor page is left out).  sphinx-exercise's
``hide_solutions`` alone cannot do it: it drops the gated ``solution-start`` node but leaves the
solution's text and code cells in the page (and sphinx-exercise 1.2.1 then fails on the orphaned
``solution-end`` node).

    python -m tools.student [OUT]     # default _build/student
"""
from __future__ import annotations

import ast
import copy
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
OPEN = re.compile(r"^(?P<fence>`{3,}|:{3,})\{(?P<name>solution-start|solution-end|solution)\}")
# what the student book's source tree leaves out (besides the build itself)
NOT_BOOK = {".git", ".venv", ".cache", "_build", "tests", "benchmarks", "olkit", "tools", ".github",
            "__pycache__", ".ipynb_checkpoints", ".hypothesis"}
INSTRUCTOR_PAGES = {"instructor"}


@dataclass
class Stripped:
    """A notebook without its solutions, and what was removed."""

    nb: nbformat.NotebookNode
    solutions: list[dict] = field(default_factory=list)  # {"label", "markdown": [...], "code": [...]}


def _directive_end(lines: list[str], start: int, fence: str) -> int:
    """Index of the line that closes the directive opened at ``lines[start]`` with ``fence``."""
    closing = re.compile(rf"^{re.escape(fence[0])}{{{len(fence)},}}\s*$")
    for j in range(start + 1, len(lines)):
        if closing.match(lines[j]):
            return j
    raise ValueError(f"unclosed directive: {lines[start]!r}")


def strip_solutions(nb: nbformat.NotebookNode, clear_outputs: bool = False,
                    answer_cells: bool = False) -> Stripped:
    """Remove every solution from ``nb`` (a copy is returned, ``nb`` is not changed).

    ``clear_outputs``: also clear every output (the notebooks students run);
    ``answer_cells``: put an empty code cell where each solution was, for the student's answer.
    """
    out = copy.deepcopy(nb)
    result = Stripped(out)
    current: dict | None = None  # the open gated solution, if any
    cells = []

    def flush(kept: list[str], template) -> None:
        text = "\n".join(kept).strip("\n")
        if text.strip():
            if template is not None:
                template.source = text
                cells.append(template)
            else:
                cells.append(nbformat.v4.new_markdown_cell(text))

    def answer(label: str) -> None:
        if answer_cells:
            cells.append(nbformat.v4.new_code_cell(f"# Your answer to exercise {label}"))

    for cell in out.cells:
        if cell.cell_type != "markdown":
            if current is not None:
                current["code"].append(cell.source)
                continue
            cells.append(cell)
            continue
        lines = cell.source.split("\n")
        kept: list[str] = []
        template = cell  # the first piece of a split cell keeps the cell's id and metadata
        i = 0
        while i < len(lines):
            line = lines[i]
            m = OPEN.match(line)
            if current is None:
                if m and m["name"] in ("solution-start", "solution"):
                    end = _directive_end(lines, i, m["fence"])
                    label = line[m.end():].strip()
                    flush(kept, template)
                    kept, template = [], None
                    if m["name"] == "solution":  # a one-piece solution directive
                        result.solutions.append({"label": label, "markdown": lines[i + 1:end], "code": []})
                        answer(label)
                    else:
                        current = {"label": label, "markdown": [], "code": []}
                        result.solutions.append(current)
                    i = end + 1
                    continue
                if m and m["name"] == "solution-end":
                    raise ValueError(f"solution-end without solution-start in cell {cell.get('id')}")
                kept.append(line)
            else:
                if m and m["name"] == "solution-end":
                    i = _directive_end(lines, i, m["fence"]) + 1
                    answer(current["label"])
                    current = None
                    continue
                if m:
                    raise ValueError(f"{m['name']} inside the solution {current['label']}")
                current["markdown"].append(line)
            i += 1
        flush(kept, template)
    if current is not None:
        raise ValueError(f"solution {current['label']} has no solution-end")
    out.cells = cells
    if clear_outputs:
        for cell in out.cells:
            if cell.cell_type == "code":
                cell.outputs = []
                cell.execution_count = None
                cell.metadata.pop("execution", None)
        out.metadata.pop("widgets", None)
    return result


def names_from_solutions(nb: nbformat.NotebookNode) -> list[tuple[str, str]]:
    """(name, solution label) for each name that a solution's code defines and a later cell outside
    every solution reads without having defined it first: what a student notebook would miss."""
    stripped = strip_solutions(nb)
    solution_sources = {src: s["label"] for s in stripped.solutions for src in s["code"]}
    defined_by: dict[str, str] = {}  # name -> label of the solution that last defined it
    defined_here: set[str] = set()
    missing = []
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        try:
            tree = ast.parse(_python_only(cell.source))
        except SyntaxError:
            continue
        stores = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        stores |= {n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
        stores |= {(a.asname or a.name).split(".")[0] for n in ast.walk(tree)
                   if isinstance(n, (ast.Import, ast.ImportFrom)) for a in n.names}
        if cell.source in solution_sources:
            for name in stores - defined_here:
                defined_by[name] = solution_sources[cell.source]
            continue
        loads = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        loads -= stores  # (approximately: a name the cell sets itself)
        for name in sorted(loads & set(defined_by)):
            missing.append((name, defined_by.pop(name)))
        defined_here |= stores
        for name in stores:
            defined_by.pop(name, None)
    return missing


def _python_only(source: str) -> str:
    return "\n".join("" if l.lstrip().startswith(("%", "!")) else l for l in source.split("\n"))


def notebooks(root: Path = ROOT) -> list[Path]:
    return sorted(p for p in (root / "chapters").rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)


def write_student_notebooks(out: Path, root: Path = ROOT) -> list[Path]:
    """Stripped copies of every notebook (outputs cleared) under ``out``, same relative paths."""
    written = []
    for path in notebooks(root):
        nb = nbformat.read(path, as_version=4)
        dest = out / path.relative_to(root / "chapters")
        dest.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(strip_solutions(nb, clear_outputs=True, answer_cells=True).nb, dest)
        written.append(dest)
    return written


def _student_toc(toc: dict) -> dict:
    """The table of contents without the instructor pages."""
    def keep(entries):
        out = []
        for entry in entries or []:
            if entry.get("file") in INSTRUCTOR_PAGES:
                continue
            entry = dict(entry)
            for key in ("sections", "chapters"):
                if key in entry:
                    entry[key] = keep(entry[key])
            out.append(entry)
        return out

    toc = dict(toc)
    if "parts" in toc:
        toc["parts"] = [dict(p, chapters=keep(p.get("chapters"))) for p in toc["parts"]]
        toc["parts"] = [p for p in toc["parts"] if p["chapters"]]
    for key in ("chapters", "sections"):
        if key in toc:
            toc[key] = keep(toc[key])
    return toc


def write_student_source(src: Path, root: Path = ROOT) -> None:
    """A copy of the book's sources with the notebooks stripped (outputs kept for the HTML)."""
    import yaml

    if src.exists():
        shutil.rmtree(src)

    def ignore(folder, names):
        if Path(folder).resolve() == root.resolve():
            return [n for n in names if n in NOT_BOOK or n.endswith(".egg-info")]
        if Path(folder).resolve() == (root / "labs").resolve():  # the labs' pages: student copies only,
            return [n for n in names if n != "student"]          # never a master (solutions, hidden tests)
        return [n for n in names if n in {"__pycache__", ".ipynb_checkpoints"}]

    shutil.copytree(root, src, ignore=ignore)
    for path in notebooks(root):
        nb = nbformat.read(path, as_version=4)
        nbformat.write(strip_solutions(nb).nb, src / path.relative_to(root))
    config = yaml.safe_load((root / "_config.yml").read_text())
    config["title"] = f"{config['title']} (student edition)"
    config.setdefault("sphinx", {}).setdefault("config", {})["hide_solutions"] = True
    (src / "_config.yml").write_text(yaml.safe_dump(config, sort_keys=False, allow_unicode=True))
    toc = yaml.safe_load((root / "_toc.yml").read_text())
    (src / "_toc.yml").write_text(yaml.safe_dump(_student_toc(toc), sort_keys=False))
    for page in INSTRUCTOR_PAGES:
        for suffix in (".md", ".ipynb"):
            (src / f"{page}{suffix}").unlink(missing_ok=True)


def build_html(out: Path, root: Path = ROOT, strict: bool = True) -> Path:
    """Build the student book into ``out/html``; return its index.html."""
    src = out / "source"
    write_student_source(src, root)
    jb = Path(sys.executable).parent / "jupyter-book"
    cmd = [str(jb), "build", str(src), "--path-output", str(src), "--keep-going"]
    if strict:
        cmd += ["--warningiserror", "--nitpick"]
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode != 0:
        sys.stderr.write(run.stdout[-6000:] + run.stderr[-3000:])
        raise RuntimeError(f"the student book did not build (exit {run.returncode})")
    html = out / "html"
    if html.exists():
        shutil.rmtree(html)
    shutil.move(str(src / "_build" / "html"), html)
    shutil.rmtree(src)
    return html / "index.html"


def build(out: Path = ROOT / "_build" / "student", root: Path = ROOT) -> dict:
    """The whole student edition: ``out/html`` and ``out/notebooks``."""
    t0 = time.time()
    nb_dir = out / "notebooks"
    if nb_dir.exists():
        shutil.rmtree(nb_dir)
    written = write_student_notebooks(nb_dir, root)
    index = build_html(out, root)
    return {"html": index, "notebooks": written, "seconds": time.time() - t0}


def main(argv: list[str]) -> int:
    out = Path(argv[0]).resolve() if argv else ROOT / "_build" / "student"
    result = build(out)
    for path in notebooks():
        for name, label in names_from_solutions(nbformat.read(path, as_version=4)):
            print(f"warning: {path.relative_to(ROOT)} reads {name!r} after the solution {label} defined it")
    print(f"student edition in {result['seconds']:.0f} s: {result['html']} and "
          f"{len(result['notebooks'])} notebooks in {out / 'notebooks'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
