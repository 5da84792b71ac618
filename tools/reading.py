"""The reading path of each notebook, measured: code against prose, glued numbers, asserted claims.

A chapter page is read as a textbook: prose, statements, proofs, a short run, its table, a figure.
This module counts, per notebook,

- **visible code lines**: non-empty lines of code cells that the web book shows (cells tagged
  ``hide-input``, ``hide-cell``, ``remove-input`` or ``remove-cell`` are folded or removed);
- **prose lines**: non-empty lines of markdown cells, without the lines that are only markup
  (a directive's fence or an option line such as ``:label:``);
- **the longest visible code cell**, in non-empty lines;
- **glued numbers**: uses of myst-nb's ``{glue:text}`` (or ``{glue}``) role in the prose;
- **asserted claims**: ``assert`` statements in code cells (each backs a sentence about a run);
- **typed numbers**: numbers typed in the prose that a run printed (see :func:`typed_numbers`).

``python3 -m tools.reading`` (or ``python3 dev.py reading``) writes the table to
``benchmarks/reading.md``; ``tests/test_reading.py`` holds every notebook to the limits below.
"""
from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = ROOT / "chapters"

#: A code cell with one of these tags is folded (a reader opens it) or removed from the web book.
FOLDED = ("hide-input", "hide-cell", "remove-input", "remove-cell")
#: No visible code cell is longer than this (non-empty lines).
MAX_CELL = 40

_MARKUP = re.compile(r"^\s*(`{3,}|:{3,}|:[a-z-]+:(\s|$))")
_GLUE = re.compile(r"\{glue(?::text|:any)?\}`")
_ASSERT = re.compile(r"^\s*assert\b", re.M)


def notebooks() -> list[Path]:
    return sorted(p for p in CHAPTERS.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)


def _lines(src: str) -> list[str]:
    return [line for line in src.splitlines() if line.strip()]


def _tags(cell: dict) -> list[str]:
    return list(cell.get("metadata", {}).get("tags", []))


def visible(cell: dict) -> bool:
    """True for a code cell that the web book shows with its source."""
    return cell["cell_type"] == "code" and not any(t in _tags(cell) for t in FOLDED)


@dataclass
class Reading:
    notebook: str
    code: int  # visible code lines
    prose: int  # prose lines
    longest: int  # the longest visible code cell
    longest_cell: int  # its index (from 0)
    folded: int  # folded or removed code cells
    glued: int  # {glue:text} uses in the prose
    asserts: int  # assert statements
    typed: list[str]  # numbers typed in the prose that also appear in an output


def measure(path: Path) -> Reading:
    cells = json.loads(Path(path).read_text())["cells"]
    code = prose = longest = longest_cell = folded = glued = asserts = 0
    for i, c in enumerate(cells):
        src = "".join(c["source"])
        if c["cell_type"] == "markdown":
            prose += sum(1 for line in _lines(src) if not _MARKUP.match(line))
            glued += len(_GLUE.findall(src))
        elif c["cell_type"] == "code":
            asserts += len(_ASSERT.findall(src))
            if visible(c):
                n = len(_lines(src))
                code += n
                if n > longest:
                    longest, longest_cell = n, i
            else:
                folded += 1
    rel = Path(path).resolve().relative_to(ROOT).as_posix()
    return Reading(rel, code, prose, longest, longest_cell, folded, glued, asserts, typed_numbers(cells))


# ------------------------------------------------------------------------------------------------
# Typed numbers.  A number in the prose that a run printed should have been glued: when the run
# changes, a typed number goes stale and nothing notices.  The scan takes the numbers of the prose
# and of the outputs as tokens ("37", "0.589", "-2", "3/8") and reports those in both, except:
#
#   1. integers below 10: step labels, dimensions and small counts, too common to tell a result;
#   2. numbers that also appear in the code: parameters the prose restates (T = 1000, beta = 0.5),
#      which the run does not produce;
#   3. references and citations: the number after Theorem, Lemma, Section, Chapter, step, ... ,
#      the numbers inside a role (`{prf:ref}`...``, `{doc}`...``, `{cite}`...``), labels and years.

_NUM = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?:/\d+)?(?![\w])")
_REF_WORDS = (
    r"Theorem|Theorems|Thm|Lemma|Lemmas|Lem|Corollary|Cor|Section|Sections|Chapter|Chapters|Definition|"
    r"Def|Example|Exercise|Remark|Algorithm|Proposition|Prop|Eq|Eqs|Equation|Figure|Fig|Table|step|steps|"
    r"Step|Steps|page|pages|p|pp|Claim|Fact|Problem|Lecture|Lectures|Part|Appendix|Assumption|item|line|"
    r"cell|cells|Cell|Cells|row|rows|Row|Rows|§"
)
_REF_WORDS = "|".join(sorted(_REF_WORDS.split("|"), key=len, reverse=True))  # longest first: Lemmas before Lemma
_REF = re.compile(rf"(?<!\w)(?:{_REF_WORDS})\.?\s*\(?\s*[\dA-Za-z]+(?:[.\-–][\dA-Za-z]+)*(?:\s*(?:,|and|to|–|-)\s*\d+(?:\.\d+)*[a-z]?(?!\w))*")
_ROLE = re.compile(r"\{[a-z:]+\}`[^`]*`")
_LABEL = re.compile(r"^\s*(:label:.*|\(.*\)=\s*)$", re.M)
_YEAR = re.compile(r"^(19|20)\d\d$")
_CODE_SPAN = re.compile(r"`[^`]*`")


def _output_text(cell: dict) -> str:
    out = []
    for o in cell.get("outputs", []):
        if "text" in o:
            out.append("".join(o["text"]))
        for mime, v in o.get("data", {}).items():
            if mime.endswith("text/plain") or mime == "text/html":
                out.append("".join(v) if isinstance(v, list) else str(v))
    return "\n".join(out)


def _tokens(text: str) -> set[str]:
    return {m.group(0) for m in _NUM.finditer(text)}


def _significant(tok: str) -> bool:
    if "/" in tok or "." in tok:
        return True
    return abs(int(tok)) >= 10 and not _YEAR.match(tok.lstrip("-"))


def prose_numbers(src: str) -> set[str]:
    """The numbers of a markdown cell that could be a run's result (references removed)."""
    src = _ROLE.sub(" ", src)
    src = _LABEL.sub(" ", src)
    src = _REF.sub(" ", src)
    return {t for t in _tokens(src) if _significant(t)}


def typed_numbers(cells: list[dict]) -> list[str]:
    """Numbers typed in the prose that an output also shows and the code does not contain."""
    outputs, code, prose = set(), set(), set()
    for c in cells:
        src = "".join(c["source"])
        if c["cell_type"] == "code":
            outputs |= _tokens(_output_text(c))
            code |= _tokens(src)
        elif c["cell_type"] == "markdown":
            prose |= prose_numbers(src)
    return sorted(prose & outputs - code, key=lambda t: (len(t), t))


# ------------------------------------------------------------------------------------------------
# Control characters.  A TeX macro typed in a Python string without a raw prefix loses its backslash
# to an escape: "\rangle" becomes a carriage return and "angle", "\theta" a tab and "heta", "\beta" a
# backspace and "eta".  The page then shows a broken formula and MathJax reports nothing.  No markdown
# the book or its labs show may hold a control character other than the newline.

_CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]")
#: Where the markdown lives: every notebook (chapters, lab masters, the labs' student copies) and every
#: .md file of the repository, outside the build, the caches and the virtual environment.
_SKIP_DIRS = {".git", ".venv", "_build", ".cache", "node_modules", ".ipynb_checkpoints", ".pytest_cache"}


def control_characters(text: str) -> list[str]:
    """Each control character of ``text`` (other than the newline), with its line and what surrounds it."""
    out = []
    for m in _CONTROL.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        out.append(f"line {line}: {m.group()!r} in {text[max(0, m.start() - 25):m.end() + 15]!r}")
    return out


def markdown_sources(root: Path = ROOT) -> list[Path]:
    """The notebooks and .md files whose markdown the book, its labs or the repository's readers see."""
    out = []
    for p in sorted(root.rglob("*")):
        if p.suffix in (".ipynb", ".md") and not _SKIP_DIRS & set(p.relative_to(root).parts) and p.is_file():
            out.append(p)
    return out


def control_characters_in(path: Path) -> list[str]:
    """The control characters of a .md file, or of a notebook's markdown cells (cell by index)."""
    path = Path(path)
    if path.suffix == ".md":
        return control_characters(path.read_text(encoding="utf-8"))
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return [f"cell {i}, {hit}" for i, c in enumerate(cells) if c["cell_type"] == "markdown"
            for hit in control_characters("".join(c["source"]))]


# ------------------------------------------------------------------------------------------------


def table(rows: list[Reading]) -> str:
    head = (
        "| notebook | visible code lines | prose lines | longest visible cell | folded cells | "
        "glued numbers | asserts | typed numbers also printed |\n|---|---:|---:|---:|---:|---:|---:|---|\n"
    )
    body = "".join(
        f"| {r.notebook.removeprefix('chapters/')} | {r.code} | {r.prose} | {r.longest} (cell {r.longest_cell}) | "
        f"{r.folded} | {r.glued} | {r.asserts} | {', '.join(r.typed) or '-'} |\n"
        for r in rows
    )
    tot = (
        f"| **all {len(rows)}** | {sum(r.code for r in rows)} | {sum(r.prose for r in rows)} | "
        f"{max(r.longest for r in rows)} | {sum(r.folded for r in rows)} | {sum(r.glued for r in rows)} | "
        f"{sum(r.asserts for r in rows)} | {sum(len(r.typed) for r in rows)} |\n"
    )
    return head + body + tot


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else ROOT / "benchmarks" / "reading.md"
    rows = [measure(p) for p in notebooks()]
    ok = sum(r.code <= r.prose and r.longest <= MAX_CELL and not r.typed for r in rows)
    out.write_text(
        "# The reading path, per notebook\n\n"
        "Written by `python3 dev.py reading` (`tools/reading.py`); `tests/test_reading.py` holds every "
        f"notebook to the limits: visible code lines <= prose lines, no visible code cell over {MAX_CELL} "
        "non-empty lines, no number typed in the prose that an output prints (it is glued instead).\n"
        "Lines are non-empty lines; folded (`hide-input`) and removed cells do not count as visible; "
        "prose lines leave out lines that are only markup (a directive's fence or option).\n\n"
        f"Notebooks within all three limits: {ok} of {len(rows)}.\n\n" + table(rows)
    )
    print(f"wrote {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out}: {ok} of {len(rows)} notebooks within the limits")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
