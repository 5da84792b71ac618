"""The book's own invariants: every notebook is listed, executed, seeded, and installable on Colab."""
import json
import re
from pathlib import Path

import pytest

import olkit
from notebooks import ROOT, notebooks

CONFIG = (ROOT / "_config.yml").read_text()
REPO = re.search(r"^repository:\s*\n\s+url:\s*(\S+)", CONFIG, re.M).group(1)
TOC = (ROOT / "_toc.yml").read_text()
NOTEBOOKS = notebooks()


def test_there_are_notebooks():
    assert len(NOTEBOOKS) >= 4


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_invariants(nb: Path):
    cells = json.loads(nb.read_text())["cells"]
    stem = nb.relative_to(ROOT).with_suffix("").as_posix()
    assert f"file: {stem}" in TOC, f"{stem} is not in _toc.yml"
    assert cells[0]["cell_type"] == "markdown" and "".join(cells[0]["source"]).startswith("# "), "first cell: title"
    assert "{cite}" in "".join(cells[0]["source"]), "the first cell names its sources"
    code = [c for c in cells if c["cell_type"] == "code"]
    install, setup = "".join(code[0]["source"]), "".join(code[1]["source"])
    # the Colab install cell comes first, removed from the HTML; the imports stay visible
    assert '"google.colab" in sys.modules' in install
    v = olkit.__version__
    wheel = f"olkit @ {REPO}/releases/download/v{v}/olkit-{v}-py3-none-any.whl"
    assert wheel in install, "Colab installs the release of olkit's version: the wheel that dev.py dist builds"
    assert code[0]["metadata"].get("tags") == ["remove-cell"], "the Colab install cell is tagged remove-cell"
    assert "google.colab" not in setup and "import olkit" in setup
    assert not code[1]["metadata"].get("tags"), "the imports cell is shown"
    assert re.search(r"rng = np\.random\.default_rng\(\d+\)", setup), "one seeded generator in the setup cell"
    for c in code[1:]:
        assert "google.colab" not in "".join(c["source"]), "only the first cell installs olkit"
    counts = [c["execution_count"] for c in code]
    assert None not in counts, "every code cell has a stored output"
    assert counts == list(range(1, len(code) + 1)), "executed top to bottom in a fresh kernel"
    for c in code:
        assert all(o.get("output_type") != "error" for o in c["outputs"])
        src = "".join(c["source"])
        assert "np.random.seed" not in src and "np.random.rand(" not in src, "randomness only from a seeded Generator"
    for c in code:  # code fits the page: no horizontal scrolling at the book's width (the install cell is hidden)
        if "remove-cell" in c["metadata"].get("tags", []):
            continue
        long = [line for line in "".join(c["source"]).splitlines() if len(line) > 100]
        assert not long, f"code lines longer than 100 characters (black -l 100 --skip-magic-trailing-comma): {long[:3]}"
    text = "".join("".join(c["source"]) for c in cells)
    assert "{exercise}" in text or nb.name.startswith("0"), "sections end with exercises"


def math_lines_read_as_list_items(markdown: str) -> list[str]:
    """Lines that continue an inline formula ($...$ broken over lines) but begin like a list item
    ("+ x", "- y", "2. z"): markdown starts a list there, the formula loses its closing $ and the page
    shows raw TeX (MathJax reports no error, so the browser test cannot see it)."""
    bad, dollars = [], 0
    for line in markdown.split("\n"):
        if not line.strip():
            dollars = 0
            continue
        if re.match(r"\s*([+*-]|\d+[.)])\s", line) and dollars % 2:
            bad.append(line.strip())
        dollars += len(re.findall(r"(?<!\\)\$", line.replace("$$", "")))
    return bad


def test_math_lines_read_as_list_items_are_found():
    assert math_lines_read_as_list_items("1. Step: $a\n   + b$ holds.\n2. Next $c$.") == ["+ b$ holds."]
    assert math_lines_read_as_list_items("$a$ and\n- an item\n$$x\n+ y$$") == []


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_no_formula_breaks_into_a_list(nb: Path):
    cells = json.loads(nb.read_text())["cells"]
    bad = [line for c in cells if c["cell_type"] == "markdown" for line in math_lines_read_as_list_items("".join(c["source"]))]
    assert not bad, f"an inline formula continues on a line that markdown reads as a list item: {bad[:3]}"


def test_environment_uses_the_single_lock():
    env = (ROOT / "environment.yml").read_text()
    assert "python=3.11" in env and "-r requirements.lock" in env
    lock = (ROOT / "requirements.lock").read_text()
    assert re.search(r"^jupyter-book==1\.", lock, re.M)


def test_ci_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    assert "python3 dev.py test" in readme and "python3 dev.py test" in ci
    assert "python3 dev.py book" in readme


def test_the_api_reference_lists_every_public_name_with_a_docstring():
    """Every name of ``olkit.__all__`` (the names the chapters use) has a docstring and an entry in the
    API reference: its defining module is on one of the pages api/*.md and lists it in ``__all__``."""
    import importlib
    import inspect

    import olkit

    pages = "".join(p.read_text() for p in (ROOT / "api").glob("*.md"))
    documented = set(re.findall(r"automodule:: (\S+)", pages))
    for name in olkit.__all__:
        obj = getattr(olkit, name)
        if inspect.ismodule(obj):
            assert obj.__name__ in documented, f"olkit.{name}: module without an API page"
            continue
        assert (obj.__doc__ or "").strip(), f"olkit.{name} has no docstring"
        mod = obj.__module__
        assert mod in documented, f"olkit.{name}: its module {mod} is on no API page"
        assert name in importlib.import_module(mod).__all__, f"olkit.{name}: not in {mod}.__all__"
    toc = (ROOT / "_toc.yml").read_text()
    for page in (ROOT / "api").glob("*.md"):
        assert f"api/{page.stem}" in toc, f"{page.name} is not in the table of contents"
