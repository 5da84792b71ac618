"""_ext/build_speed.py makes the book's build faster and must leave its HTML byte for byte the same.

A small Sphinx project (three levels of pages, each with sections) is built twice in fresh processes,
with and without the extension; every HTML file must be the same.  Its sidebar is a titles-only
toctree, as sphinx-book-theme's is (the case the extension makes once per entry), and beside it every
page shows the full toctree (the case it leaves alone); the test checks that both are on the pages,
so that the comparison covers them.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from notebooks import ROOT

sys.path.insert(0, str(ROOT / "_ext"))
from build_speed import GC_THRESHOLD  # noqa: E402

PAGES = {
    "index": "Home\n====\n\nIntro.\n\n.. toctree::\n   :maxdepth: 3\n\n   part\n   Other, by its own name <other>\n   https://example.org/\n",
    "part": "Part one\n========\n\nText.\n\nSection A\n---------\n\nA.\n\nSub A.1\n~~~~~~~\n\nA.1.\n\n"
            ".. toctree::\n\n   part/leaf\n   part/leaf2\n   /other\n\nSection B\n---------\n\nB.\n",
    "part/leaf": "Leaf\n====\n\nSection L\n---------\n\nL.\n\nSection M\n---------\n\nM.\n",
    "part/leaf2": "Second leaf\n===========\n\nSection N\n---------\n\nN.\n",
    "other": "Other\n=====\n\nSection O\n---------\n\nO.\n\n.. toctree::\n   :hidden:\n\n   hidden\n",
    "hidden": "Hidden\n======\n\nSection H\n---------\n\nH.\n",
}
# the sidebar as sphinx-book-theme asks for it (titles only), and the full table of contents
SIDEBAR = ('<nav id="titles">{{ toctree(titles_only=True, maxdepth=2, collapse=False, includehidden=True) }}'
           '</nav>\n<nav id="full">{{ toctree(titles_only=False, maxdepth=3, collapse=False) }}</nav>\n')
CONF = """
import gc, os, sys
sys.path.insert(0, {ext!r})
extensions = ['build_speed'] if os.environ.get('WITH_BUILD_SPEED') else []
html_theme = 'basic'
templates_path = ['_templates']
html_sidebars = {{'**': ['nav.html']}}
project = 'speed'


def setup(app):
    app.connect('build-finished', lambda app, exc: open(os.path.join(app.outdir, 'gc.txt'), 'w').write(
        repr(gc.get_threshold())))
"""


def _build(tmp: Path, name: str, with_speed: bool) -> Path:
    src = tmp / name
    for page, text in PAGES.items():
        (src / page).parent.mkdir(parents=True, exist_ok=True)
        (src / f"{page}.rst").write_text(text)
    (src / "_templates").mkdir()
    (src / "_templates" / "nav.html").write_text(SIDEBAR)
    (src / "conf.py").write_text(CONF.format(ext=str(ROOT / "_ext")))
    out = tmp / f"{name}-html"
    env = {"PATH": "/usr/bin:/bin", "WITH_BUILD_SPEED": "1" if with_speed else ""}
    subprocess.run([sys.executable, "-m", "sphinx", "-q", "-W", "-b", "html", str(src), str(out)], check=True,
                   env=env)
    return out


def test_build_speed_leaves_the_html_byte_for_byte_the_same(tmp_path):
    plain = _build(tmp_path, "plain", with_speed=False)
    fast = _build(tmp_path, "fast", with_speed=True)
    assert (fast / "gc.txt").read_text() == repr(GC_THRESHOLD)  # the extension is loaded
    assert (plain / "gc.txt").read_text() != repr(GC_THRESHOLD)
    pages = sorted(p.relative_to(plain) for p in plain.rglob("*.html"))
    assert pages == sorted(p.relative_to(fast) for p in fast.rglob("*.html"))
    assert len(pages) >= len(PAGES)
    for page in pages:
        assert (fast / page).read_bytes() == (plain / page).read_bytes(), page
    # both tables of contents are on the pages: the titles-only one lists the pages and no section,
    # the full one lists the sections too
    leaf = (fast / "part" / "leaf.html").read_text()
    titles, full = leaf.split('<nav id="titles">')[1].split("</nav>")[0], leaf.split('<nav id="full">')[1]
    for title in ("Part one", "Leaf", "Second leaf", "Other, by its own name", "Hidden"):
        assert title in titles, title
    assert "Section A" not in titles and "Section A" in full
    assert 'class="current' in titles  # the page being written is marked, page by page
