"""Errata to the sources (_ext/errata.py): every erratum box of the chapters is an ``{erratum}`` with its
source's place, what the source says, the correction and the witness; the back-matter page lists every
box, with a link to it; a box without a place stops the build.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import built
from notebooks import ROOT, notebooks

FENCE = re.compile(r"^(?P<fence>`{3,}|:{3,})\{(?P<name>[\w-]+)\}[ \t]*(?P<arg>.*)$", re.M)
FIELDS = ("place", "says", "correction", "witness")


def boxes() -> list[dict]:
    """Every directive of the chapters' markdown: (notebook, cell, name, argument, options)."""
    out = []
    for nb in notebooks():
        for i, cell in enumerate(json.loads(nb.read_text())["cells"]):
            if cell["cell_type"] != "markdown":
                continue
            text = "".join(cell["source"])
            for m in FENCE.finditer(text):
                body = text[m.end():]
                opts = dict(re.findall(r"^:([\w-]+):[ \t]*(.*)$", body.split("\n\n", 1)[0], re.M))
                out.append({"nb": nb, "cell": i, "name": m["name"], "arg": m["arg"].strip(), "options": opts})
    return out


ERRATA = [b for b in boxes() if b["name"] == "erratum"]


def test_every_erratum_is_a_box_with_its_source_place_and_witness():
    keys = set(re.findall(r"^@\w+\{([\w-]+),", (ROOT / "references.bib").read_text(), re.M))
    assert len(ERRATA) >= 15, "the chapters' errata"
    for b in ERRATA:
        where = f"{b['nb'].name}, cell {b['cell']}"
        assert b["arg"] in keys, f"{where}: the source {b['arg']!r} is not in references.bib"
        lacking = [f for f in FIELDS if not b["options"].get(f, "").strip()]
        assert not lacking, f"{where}: the erratum has no {lacking}"
    old = [b for b in boxes() if b["name"] == "admonition" and b["arg"].lower().startswith("erratum")]
    assert old == [], f"an erratum written as a plain admonition (not on the errata page): {old[:2]}"


def test_every_source_with_an_erratum_is_named_by_its_chapter():
    for b in ERRATA:
        text = b["nb"].read_text()
        assert f"`{b['arg']}`" in text, f"{b['nb'].name}: the erratum's source is never cited in the section"


needs_build = pytest.mark.skipif(not built.available(), reason="the book is not built: python3 dev.py book")


@needs_build
def test_the_errata_page_lists_every_box_with_a_link_to_it():
    html = built.wait()
    page = (html / "errata.html").read_text()
    items = re.findall(r'<li id="list-(erratum-[\w-]+)"', page)
    assert len(items) == len(ERRATA), f"{len(items)} errata on the page, {len(ERRATA)} boxes in the chapters"
    links = re.findall(r'href="([^"#]+\.html)#(erratum-[\w-]+)"', page)
    assert sorted(i for _, i in links) == sorted(items)
    for target, anchor in links:
        text = (html / target).read_text()
        assert f'id="{anchor}"' in text, f"{target} has no box {anchor}"
    per_page = {}
    for b in ERRATA:
        per_page[b["nb"].stem] = per_page.get(b["nb"].stem, 0) + 1
    for stem, n in per_page.items():
        assert sum(1 for t, _ in links if Path(t).stem == stem) == n, stem


def _mini_book(tmp_path: Path, box: str) -> subprocess.CompletedProcess:
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "conf.py").write_text(
        f"import sys; sys.path.insert(0, {str(ROOT / '_ext')!r})\n"
        "extensions = ['myst_parser', 'errata']\nmyst_enable_extensions = ['dollarmath']\n")
    (tmp_path / "references.bib").write_text((ROOT / "references.bib").read_text())
    (tmp_path / "index.md").write_text("# A page\n\n" + box + "\n\n```{errata-list}\n```\n")
    return subprocess.run([sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html", str(tmp_path), str(tmp_path / "_out")],
                          capture_output=True, text=True)


def test_a_box_without_its_place_stops_the_build(tmp_path):
    good = ("```{erratum} uml2014\n:place: Theorem 21.11\n:says: $a < 1$\n:correction: $a \\le 1$\n"
            ":witness: $a = 1$ passes\n\nText.\n```")
    ok = _mini_book(tmp_path / "good", good)
    assert ok.returncode == 0, ok.stderr[-2000:]
    out = (tmp_path / "good" / "_out" / "index.html").read_text()
    assert "1 erratum in 1 source" in out and "Theorem 21.11" in out
    bad = _mini_book(tmp_path / "bad", good.replace(":place: Theorem 21.11\n", ""))
    assert bad.returncode != 0 and "no :place:" in bad.stderr, bad.stderr[-2000:]
    unknown = _mini_book(tmp_path / "unknown", good.replace("uml2014", "nobody2020"))
    assert unknown.returncode != 0 and "not a key of references.bib" in unknown.stderr
