"""Lecture slides: one reveal.js deck per section, generated from the section's notebook.

``python3 dev.py slides`` writes ``_build/slides/<section>.html`` for each of the book's section
notebooks (and an ``index.html``), with reveal.js (pinned in ``tools/package.json``, installed into
``.cache/npm``) copied beside them; ``python3 dev.py book`` copies the folder into the built book as
``slides/``, so the published site carries the decks and the instructor page links them.  MathJax comes
from the same CDN as the book's pages (the browser test answers it from ``.cache/npm``).

A deck is written from the notebook, never by hand:

- a title slide (the section's title and its summary paragraph);
- a slide for each definition, theorem, lemma, corollary and algorithm (the ``{prf:...}`` blocks), with
  the book's number ("Theorem 3.4": counted as ``_ext/chapter_numbers.py`` counts, and the browser test
  compares both);
- the proof after it, one numbered step per fragment (five steps a slide);
- each figure of the run (a PNG output), and each animation (:func:`olkit.plots.animate`) as its
  player, with the summary lines of the proof tables and negative
  controls printed since the last figure ("...: 12 checks, 2 identities; every step holds on this run");
- an admonition (an erratum, a remark) as a slide; each exercise's statement (never its solution);
- the prose of the book as speaker notes (press ``S`` in the deck).

A lecturer changes a deck through cell tags in the notebook: ``slides-skip`` leaves a cell out of the
deck; a markdown cell tagged ``slides-only`` (with ``remove-cell``, so that the book leaves it out) is
rendered whole as a slide of its own (a ``---`` line starts another).  Decks print to PDF through
Chromium in reveal.js's print mode (``?print-pdf``): ``python3 dev.py slides --pdf``.
"""
from __future__ import annotations

import ast
import base64
import html
import json
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "_build" / "slides"
REVEAL = ROOT / ".cache" / "npm" / "node_modules" / "reveal.js"
MATHJAX_URL = "https://cdn.jsdelivr.net/npm/mathjax@3/es5/tex-mml-chtml.js"
# the reveal.js files a deck loads (relative to the package); the theme's fonts come with it
REVEAL_FILES = ["dist/reset.css", "dist/reveal.css", "dist/reveal.js", "dist/theme/white.css",
                "dist/theme/fonts/source-sans-pro", "plugin/notes/notes.js"]
PROOF_KINDS = ("definition", "theorem", "lemma", "corollary", "proposition", "algorithm", "remark",
               "conjecture", "example", "property", "observation", "axiom", "criterion", "assumption")
NUMBERED = PROOF_KINDS + ("exercise",)
STEPS_PER_SLIDE = 5
FENCE = re.compile(r"^(?P<fence>`{3,}|:{3,})\{(?P<name>[\w:-]+)\}[ \t]*(?P<arg>.*)$")


class SlidesError(ValueError):
    """A notebook that the slides cannot be made from (an unclosed directive, an unknown reference)."""


# --------------------------------------------------------------------------------------------
# The book: sections in reading order, and the numbers of its blocks.


def toc_docs(root: Path = ROOT) -> list[str]:
    """Every page of ``_toc.yml`` in reading order (docnames)."""
    toc = yaml.safe_load((root / "_toc.yml").read_text())
    out = [toc["root"]]

    def walk(items) -> None:
        for item in items or []:
            if "file" in item:
                out.append(item["file"])
            walk(item.get("sections"))

    for part in toc.get("parts", []):
        walk(part.get("chapters"))
    return out


def doc_path(doc: str, root: Path = ROOT) -> Path:
    for suffix in (".ipynb", ".md"):
        if (root / (doc + suffix)).exists():
            return root / (doc + suffix)
    raise SlidesError(f"{doc}: no .ipynb or .md file")


def section_notebooks(root: Path = ROOT) -> list[Path]:
    """The section notebooks (chapters/ch<c>/*.ipynb) in reading order: one deck each."""
    return [p for d in toc_docs(root) if d.startswith("chapters/ch")
            for p in [doc_path(d, root)] if p.suffix == ".ipynb"]


def _cells(path: Path) -> list[dict]:
    if path.suffix == ".md":
        return [{"cell_type": "markdown", "source": path.read_text(), "metadata": {}}]
    cells = json.loads(path.read_text())["cells"]
    for c in cells:
        c["source"] = "".join(c["source"]) if isinstance(c["source"], list) else c["source"]
    return cells


def _options(body: list[str]) -> tuple[dict, list[str]]:
    """A directive's ``:key: value`` lines (at its top) and the rest of its body."""
    opts, i = {}, 0
    while i < len(body) and re.match(r"^:[\w-]+:", body[i]):
        key, _, value = body[i][1:].partition(":")
        opts[key] = value.strip()
        i += 1
    return opts, body[i:]


def numbers(root: Path = ROOT) -> dict[str, tuple[str, str]]:
    """{label: (Kind, "c.k")} of every numbered block of the chapters (``{prf:...}`` blocks and
    exercises), counted as the book counts them: per kind and chapter, in reading order, leaving out
    ``:nonumber:`` blocks and cells tagged ``remove-cell``.  Unlabelled blocks count but are not listed."""
    out, count = {}, {}
    for doc in toc_docs(root):
        m = re.match(r"chapters/ch(\d+|[A-Z])/", doc)
        if not m:
            continue
        chapter = int(m.group(1)) if m.group(1).isdigit() else m.group(1)
        for cell in _cells(doc_path(doc, root)):
            if cell["cell_type"] != "markdown" or "remove-cell" in cell["metadata"].get("tags", []):
                continue
            for block in _blocks(cell["source"], f"{doc}"):
                if block.kind not in NUMBERED or "nonumber" in block.options:
                    continue
                count[(chapter, block.kind)] = k = count.get((chapter, block.kind), 0) + 1
                if "label" in block.options:
                    out[block.options["label"]] = (block.kind.title(), f"{chapter}.{k}")
    return out


@dataclass
class Block:
    """A piece of a markdown cell: plain markdown (kind ""), or a directive and its body."""

    kind: str
    text: str
    arg: str = ""
    options: dict = field(default_factory=dict)


def _blocks(source: str, where: str) -> list[Block]:
    """Split a markdown cell into top-level directives (``{prf:theorem}``, ``{exercise}``, ...) and the
    markdown between them."""
    out, plain, lines, i = [], [], source.split("\n"), 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            plain.append(lines[i])
            i += 1
            continue
        if "".join(plain).strip():
            out.append(Block("", "\n".join(plain)))
        plain = []
        fence, j = m["fence"], i + 1
        while j < len(lines) and lines[j].rstrip() != fence:
            j += 1
        if j == len(lines):
            raise SlidesError(f"{where}: the directive {{{m['name']}}} opened by {fence} is not closed")
        opts, body = _options(lines[i + 1:j])
        name = m["name"].removeprefix("prf:")
        out.append(Block(name, "\n".join(body), m["arg"].strip(), opts))
        i = j + 1
    if "".join(plain).strip():
        out.append(Block("", "\n".join(plain)))
    return out


# --------------------------------------------------------------------------------------------
# Markdown to HTML: MyST's markdown (dollar math, roles) with the book's references resolved.


class Renderer:
    """Render a notebook's MyST markdown to HTML for a slide."""

    def __init__(self, root: Path, nb_path: Path, cells: list[dict], numbers_: dict, titles: dict,
                 cites: dict):
        from markdown_it import MarkdownIt
        from mdit_py_plugins.amsmath import amsmath_plugin
        from mdit_py_plugins.dollarmath import dollarmath_plugin
        from mdit_py_plugins.myst_role import myst_role_plugin

        self.where, self.numbers, self.titles, self.cites = nb_path.name, numbers_, titles, cites
        path = nb_path.resolve()
        self.doc = (path.relative_to(root) if root in path.parents else Path(path.name)).with_suffix("").as_posix()
        self.glue = _glue_values(cells)
        md = MarkdownIt("commonmark", {"html": True}).enable("table")
        md.use(dollarmath_plugin, double_inline=True).use(amsmath_plugin).use(myst_role_plugin)
        md.add_render_rule("math_inline", lambda self_, t, i, o, e: _math(t[i].content, False))
        md.add_render_rule("math_inline_double", lambda self_, t, i, o, e: _math(t[i].content, True))
        md.add_render_rule("math_block", lambda self_, t, i, o, e: _math(t[i].content, True))
        md.add_render_rule("math_block_label", lambda self_, t, i, o, e: _math(t[i].content, True))
        md.add_render_rule("amsmath", lambda self_, t, i, o, e: _math(t[i].content, True))
        md.add_render_rule("myst_role", lambda self_, t, i, o, e: self.role(t[i].meta["name"], t[i].content))
        self.md = md

    def __call__(self, text: str) -> str:
        return self.md.render(text)

    def inline(self, text: str) -> str:
        return self.md.renderInline(text)

    def role(self, name: str, content: str) -> str:
        shown, target = content, content
        m = re.match(r"^(.*?)\s*<([^<>]+)>$", content, re.S)
        if m:
            shown, target = m.group(1), m.group(2)
        if name == "glue:text":
            key = target.split(":")[0]
            if key not in self.glue:
                raise SlidesError(f"{self.where}: {{glue:text}}`{key}` has no glued value in the notebook")
            return html.escape(self.glue[key])
        if name in ("prf:ref", "numref") or (name == "ref" and target in self.numbers):
            if target not in self.numbers:
                raise SlidesError(f"{self.where}: {{{name}}}`{content}` names no numbered block")
            kind, num = self.numbers[target]
            text = f"{kind} {num}" if not m else shown
            return f'<span class="ref">{html.escape(text)}</span>'
        if name in ("doc", "ref"):
            key = target if name == "ref" else _resolve_doc(self.doc, target)
            text = shown if m else self.titles.get(key, target)
            return f'<span class="ref">{html.escape(text)}</span>'
        if name in ("cite", "cite:p", "cite:t"):
            keys = [k.strip() for k in target.split(",")]
            missing = [k for k in keys if k not in self.cites]
            if missing:
                raise SlidesError(f"{self.where}: {{cite}}`{content}`: no entry {missing} in references.bib")
            return "; ".join(html.escape(self.cites[k]) for k in keys)
        if name.startswith("py:"):
            return f"<code>{html.escape(shown)}</code>"
        if name == "math":
            return _math(content, False)
        return html.escape(shown)


def _math(tex: str, display: bool) -> str:
    tex = html.escape(tex.strip())
    if display:
        return f'<div class="math">\\[{tex}\\]</div>'
    return f'<span class="math">\\({tex}\\)</span>'


def _resolve_doc(doc: str, target: str) -> str:
    parts = (doc.rsplit("/", 1)[0] + "/" + target).split("/") if not target.startswith("/") else \
        target.lstrip("/").split("/")
    out: list[str] = []
    for p in parts:
        if p == "..":
            out.pop()
        elif p not in (".", ""):
            out.append(p)
    return "/".join(out)


def _glue_values(cells: list[dict]) -> dict[str, str]:
    out = {}
    for cell in cells:
        for o in cell.get("outputs", []):
            scrap = o.get("metadata", {}).get("scrapbook")
            if not scrap:
                continue
            raw = o["data"].get(scrap.get("mime_prefix", "") + "text/plain")
            if raw is not None:
                raw = "".join(raw) if isinstance(raw, list) else raw
                try:
                    out[scrap["name"]] = str(ast.literal_eval(raw))
                except (ValueError, SyntaxError):
                    out[scrap["name"]] = raw
    return out


def titles(root: Path = ROOT) -> dict[str, str]:
    """{docname or section label: title} for ``{doc}`` and ``{ref}`` roles."""
    out = {}
    for doc in toc_docs(root):
        path = doc_path(doc, root)
        label = None
        for cell in _cells(path):
            if cell["cell_type"] != "markdown":
                continue
            for line in cell["source"].split("\n"):
                m = re.match(r"^\((?P<label>[\w:.-]+)\)=\s*$", line)
                if m:
                    label = m["label"]
                    continue
                h = re.match(r"^(#+)\s+(.*)$", line)
                if h:
                    text = h.group(2).strip()
                    out.setdefault(doc, text)
                    if label:
                        out[label] = text
                label = None
    return out


def citations(root: Path = ROOT) -> dict[str, str]:
    """{bibtex key: "Author (year)"} from references.bib, author-year as the book cites."""
    from pybtex.database import parse_file

    out = {}
    for key, entry in parse_file(str(root / "references.bib")).entries.items():
        people = entry.persons.get("author") or entry.persons.get("editor") or []
        names = [" ".join(p.last_names).replace("{", "").replace("}", "") for p in people]
        who = (names[0] if len(names) == 1 else f"{names[0]} and {names[1]}" if len(names) == 2
               else f"{names[0]} et al." if names else entry.fields.get("title", key))
        out[key] = f"{who} ({entry.fields.get('year', 'n.d.')})"
    return out


# --------------------------------------------------------------------------------------------
# A deck.


@dataclass
class Slide:
    title: str
    body: str
    kind: str = "content"  # title, block, proof, figure, run, exercise, admonition, extra
    label: str = ""
    notes: list[str] = field(default_factory=list)

    def html(self) -> str:
        attrs = f' data-kind="{self.kind}"' + (f' data-label="{html.escape(self.label)}"' if self.label else "")
        # the speaker view shows the notes in a window of its own, without MathJax: their formulas stay
        # TeX (class "tex", which MathJax and the browser test's math check leave alone)
        notes = "".join(self.notes).replace('class="math"', 'class="tex"')
        notes = f'\n<aside class="notes">{notes}</aside>' if notes else ""
        head = f"<h2>{self.title}</h2>\n" if self.title and self.kind != "title" else ""
        return f"<section{attrs}>\n{head}{self.body}{notes}\n</section>"


def _summary_lines(output: dict) -> list[str]:
    """The summary line of a proof table (its caption) or of a negative control."""
    data = output.get("data", {})
    page = "".join(data.get("text/html", ""))
    if "olkit-proof" in page:
        return [html.unescape(re.sub(r"<[^>]+>", "", c)) for c in re.findall(r"<caption>(.*?)</caption>", page, re.S)]
    plain = "".join(data.get("text/plain", ""))
    if plain.startswith("Negative control"):
        return [plain.split("\n")[0]]
    return []


def deck(nb_path: Path, root: Path = ROOT, numbers_: dict | None = None, titles_: dict | None = None,
         cites: dict | None = None, images: Path | None = None) -> list[Slide]:
    """The slides of one section notebook.  Figures are written into ``images`` (if given) as
    ``<notebook>-<k>.png`` and linked; else embedded."""
    cells = _cells(nb_path)
    numbers_ = numbers(root) if numbers_ is None else numbers_
    r = Renderer(root, nb_path, cells, numbers_, titles(root) if titles_ is None else titles_,
                 citations(root) if cites is None else cites)
    slides: list[Slide] = []
    notes: list[str] = []
    heading, last_block, run_lines, in_solution, n_fig = "", None, [], False, 0

    def add(slide: Slide) -> None:
        slide.notes, notes[:] = list(notes), []
        slides.append(slide)

    def flush_run() -> None:
        if run_lines:
            add(Slide(heading, '<p class="runhead">Checked on the run:</p>' + _run_html(run_lines), "run"))
            run_lines.clear()

    for index, cell in enumerate(cells):
        tags = cell["metadata"].get("tags", [])
        where = f"{nb_path.name}, cell {index}"
        if "slides-skip" in tags:
            continue
        if "slides-only" in tags:
            if cell["cell_type"] != "markdown":
                raise SlidesError(f"{where}: only a markdown cell can be slides-only")
            if "remove-cell" not in tags:
                raise SlidesError(f"{where}: a slides-only cell needs the tag remove-cell too (the book "
                                  f"would show it)")
            for part in re.split(r"(?m)^---+\s*$", cell["source"]):
                h = re.match(r"^\s*#+\s+(.*)\n?", part)
                add(Slide(r.inline(h.group(1)) if h else heading, r(part[h.end():] if h else part), "extra"))
            continue
        if "remove-cell" in tags:
            continue
        if cell["cell_type"] == "code":
            if in_solution or "remove-output" in tags:
                continue
            for o in cell.get("outputs", []):
                run_lines.extend(_summary_lines(o))
                player = "".join(o.get("data", {}).get("text/html", ""))
                if 'class="olkit-animation"' in player:  # olkit.plots.animate: the player plays in the deck
                    add(Slide(heading, f'<div class="player">{player}</div>' + _run_html(run_lines), "animation"))
                    run_lines.clear()
                    continue
                png = o.get("data", {}).get("image/png")
                if png:
                    n_fig += 1
                    png = "".join(png) if isinstance(png, list) else png
                    if images is not None:
                        name = f"{nb_path.stem}-{n_fig}.png"
                        images.mkdir(parents=True, exist_ok=True)
                        (images / name).write_bytes(base64.b64decode(png))
                        src = f"{images.name}/{name}"
                    else:
                        src = "data:image/png;base64," + png.replace("\n", "")
                    body = f'<img class="figure" src="{src}" alt="Figure {n_fig} of {html.escape(nb_path.stem)}">'
                    add(Slide(heading, body + _run_html(run_lines), "figure"))
                    run_lines.clear()
            continue
        if cell["cell_type"] != "markdown":
            continue
        for block in _blocks(cell["source"], where):
            if block.kind == "solution-start":
                in_solution = True
                continue
            if block.kind == "solution-end":
                in_solution = False
                continue
            if in_solution:
                continue
            if block.kind == "":
                for para in _paragraphs(block.text):
                    h = re.match(r"^(#+)\s+(.*)$", para)
                    if h and len(h.group(1)) == 1 and not slides:
                        summary = ""
                        add(Slide("", f"<h1>{r.inline(h.group(2))}</h1>", "title"))
                        continue
                    if h and len(h.group(1)) <= 3:
                        flush_run()
                        heading = r.inline(h.group(2))
                        continue
                    if re.match(r"^\(.*\)=$", para):
                        continue
                    if slides and slides[-1].kind == "title" and not summary:
                        summary = para
                        slides[-1].body += f'\n<p class="summary">{r.inline(para)}</p>'
                        continue
                    notes.append(r(para))
                continue
            if block.kind in NUMBERED:
                label = block.options.get("label", "")
                kind = block.kind.title()
                num = numbers_.get(label, (kind, ""))[1] if label else ""
                caption = f"{kind} {num}".strip() + (f" ({r.inline(block.arg)})" if block.arg else "")
                css = "exercise" if block.kind == "exercise" else block.kind
                body = f'<div class="block {css}"><p class="caption">{caption}</p>{r(block.text)}</div>'
                flush_run()
                add(Slide(heading, body, "exercise" if block.kind == "exercise" else "block", label))
                last_block = f"{kind} {num}".strip() if num else kind
                continue
            if block.kind == "proof":
                flush_run()
                for k, part in enumerate(_proof_parts(r, block.text)):
                    title = f"Proof of {last_block}" if last_block else "Proof"
                    add(Slide(heading, f'<div class="block proof"><p class="caption">{title}'
                                       f'{" (continued)" if k else ""}</p>{part}</div>', "proof"))
                continue
            if block.kind in ("admonition", "erratum"):
                flush_run()
                caption = block.arg if block.kind == "admonition" else (
                    "Erratum: " + (block.options.get("title") or block.options.get("place", "")))
                add(Slide(heading, f'<div class="block admonition"><p class="caption">{r.inline(caption)}</p>'
                                   f'{r(block.text)}</div>', "admonition"))
                continue
            notes.append(r(block.text))  # another directive: its text as notes
    flush_run()
    if notes and slides:
        slides[-1].notes.extend(notes)
    if not slides or slides[0].kind != "title":
        raise SlidesError(f"{nb_path.name}: the notebook does not start with a '# title'")
    return slides


def _paragraphs(text: str) -> list[str]:
    """Markdown split at blank lines, headings and labels kept as their own pieces."""
    out, cur = [], []
    for line in text.split("\n"):
        if re.match(r"^#+\s", line) or re.match(r"^\(.*\)=$", line.strip()):
            if cur:
                out.append("\n".join(cur))
                cur = []
            out.append(line.strip())
        elif not line.strip():
            if cur:
                out.append("\n".join(cur))
                cur = []
        else:
            cur.append(line)
    if cur:
        out.append("\n".join(cur))
    return [p for p in out if p.strip()]


def _proof_parts(r: Renderer, text: str) -> list[str]:
    """A proof's HTML, one fragment per numbered step, cut into slides of STEPS_PER_SLIDE steps."""
    rendered = r(text)
    m = re.search(r"<ol>(.*)</ol>", rendered, re.S)
    if not m:
        return [rendered]
    items = re.findall(r"<li>(.*?)</li>\s*(?=<li>|$)", m.group(1).strip() + "\n", re.S)
    if not items:
        return [rendered]
    before, after = rendered[: m.start()], rendered[m.end():]
    parts = []
    for s in range(0, len(items), STEPS_PER_SLIDE):
        lis = "".join(f'<li class="fragment">{it.strip()}</li>' for it in items[s:s + STEPS_PER_SLIDE])
        start = f' start="{s + 1}"' if s else ""
        parts.append((before if s == 0 else "") + f"<ol{start}>{lis}</ol>")
    parts[-1] += f'<div class="fragment">{after}</div>' if after.strip() else ""
    return parts


def _run_html(lines: list[str]) -> str:
    if not lines:
        return ""
    items = []
    for line in lines[:6]:
        mark = "✓" if "every step holds" in line else ("✗" if line.startswith("Negative control") else "·")
        items.append(f"<li><span class=\"mark\">{mark}</span> {html.escape(line)}</li>")
    more = f"<li>… and {len(lines) - 6} more tables</li>" if len(lines) > 6 else ""
    return f'<ul class="run">{"".join(items)}{more}</ul>'


# --------------------------------------------------------------------------------------------
# Writing the decks.

CSS = """
.reveal { font-size: 28px; }
.reveal .slides { text-align: left; }
.reveal h1 { font-size: 1.7em; text-transform: none; }
.reveal h2 { font-size: 1.15em; text-transform: none; color: #555; margin-bottom: 0.5em; }
.reveal p.summary { font-size: 0.8em; color: #333; }
.reveal p.book { font-size: 0.6em; color: #777; }
.reveal .block { border-left: 6px solid #2a7ab0; background: #f3f8fc; padding: 0.4em 0.8em; margin: 0.3em 0; }
.reveal .block.theorem, .reveal .block.lemma, .reveal .block.corollary { border-color: #2a7ab0; }
.reveal .block.definition { border-color: #3a9a5b; background: #f2f9f4; }
.reveal .block.algorithm { border-color: #8a5cb8; background: #f7f3fb; }
.reveal .block.proof { border-color: #999; background: #fafafa; font-size: 0.85em; }
.reveal .block.exercise { border-color: #c77d12; background: #fdf7ee; }
.reveal .block.admonition { border-color: #c0392b; background: #fdf2f0; }
.reveal .block p.caption { font-weight: bold; margin: 0.2em 0 0.4em; }
.reveal .block p { margin: 0.3em 0; }
.reveal ol, .reveal ul { display: block; margin-left: 1.2em; }
.reveal div.player { text-align: center; }
.reveal div.player img { max-height: 440px; margin: 0 auto; }
.reveal div.player button { font-size: 0.6em; }
.reveal img.figure { display: block; margin: 0 auto; max-height: 430px; max-width: 100%; }
.reveal p.runhead { font-size: 0.7em; color: #555; }
.reveal ul.run { list-style: none; margin: 0.3em 0 0; font-size: 0.55em; font-family: monospace; }
.reveal ul.run .mark { font-weight: bold; color: #2a7a3a; }
.reveal code { font-size: 0.85em; }
.reveal .ref { font-style: normal; }
.reveal table { font-size: 0.7em; }
"""

TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>{title} (slides)</title>
<link rel="stylesheet" href="reveal.js/dist/reset.css">
<link rel="stylesheet" href="reveal.js/dist/reveal.css">
<link rel="stylesheet" href="reveal.js/dist/theme/white.css">
<link rel="stylesheet" href="slides.css">
<script>
window.MathJax = {{ tex: {{ inlineMath: [['\\\\(', '\\\\)']], displayMath: [['\\\\[', '\\\\]']], tags: 'ams' }},
  options: {{ ignoreHtmlClass: 'tex2jax_ignore|notes', processHtmlClass: 'math' }} }};
</script>
<script defer src="{mathjax}"></script>
</head>
<body>
<div class="reveal"><div class="slides">
{slides}
</div></div>
<script src="reveal.js/dist/reveal.js"></script>
<script src="reveal.js/plugin/notes/notes.js"></script>
<script>
// A slide taller than the deck (a long proof or remark) is set in a smaller font, down to 60%.
function fitSlides() {{
  const height = Reveal.getConfig().height;
  document.querySelectorAll('.reveal .slides > section').forEach(s => {{
    const shown = s.style.display;
    s.style.display = 'block';
    for (let scale = 1.0; s.scrollHeight > height && scale > 0.62; ) {{
      scale -= 0.05;
      s.style.fontSize = (100 * scale).toFixed(0) + '%';
    }}
    s.style.display = shown;
  }});
}}
Reveal.initialize({{ hash: true, slideNumber: 'c/t', center: false, width: 1100, height: 700,
  pdfSeparateFragments: false, pdfMaxPagesPerSlide: 1, plugins: [RevealNotes] }}).then(() => (window.MathJax && MathJax.startup ? MathJax.startup.promise : null))
  .then(() => {{ fitSlides(); Reveal.layout(); document.body.dataset.fitted = 'yes'; }});
</script>
</body>
</html>
"""


def write_deck(nb_path: Path, out: Path, root: Path = ROOT, **shared) -> Path:
    slides = deck(nb_path, root, images=out / "img", **shared)
    title = re.sub(r"<[^>]+>", "", slides[0].body.split("</h1>")[0])
    slides[0].body += ('\n<p class="book">Online Learning, Numerically: lecture slides of the section, '
                       'generated from its notebook</p>')
    page = TEMPLATE.format(title=html.escape(html.unescape(title)), mathjax=MATHJAX_URL,
                           slides="\n".join(s.html() for s in slides))
    path = out / f"{nb_path.stem}.html"
    path.write_text(page, encoding="utf-8")
    return path


def reveal_dir(root: Path = ROOT) -> Path:
    """reveal.js as pinned in tools/package-lock.json: from ``.cache/npm`` (``python3 dev.py assets``),
    or, without npm, its tarball fetched once from the npm registry into ``.cache/reveal.js-<version>``
    and checked against the lock file's sha512 (so that ``python3 dev.py book`` needs only Python)."""
    if (REVEAL / "dist" / "reveal.js").is_file():
        return REVEAL
    lock = json.loads((root / "tools" / "package-lock.json").read_text())["packages"]["node_modules/reveal.js"]
    version, integrity = lock["version"], lock["integrity"]
    target = root / ".cache" / f"reveal.js-{version}"
    if (target / "package" / "dist" / "reveal.js").is_file():
        return target / "package"
    import hashlib
    import io
    import tarfile
    import urllib.request

    url = f"https://registry.npmjs.org/reveal.js/-/reveal.js-{version}.tgz"
    try:
        data = urllib.request.urlopen(url, timeout=60).read()
    except OSError as err:
        raise SlidesError(f"reveal.js {version} is not installed and could not be fetched from {url} "
                          f"({err}): run python3 dev.py assets (needs npm) or retry with network") from err
    algo, _, digest = integrity.partition("-")
    if base64.b64encode(hashlib.new(algo, data).digest()).decode() != digest:
        raise SlidesError(f"{url}: the tarball does not match the {algo} of tools/package-lock.json")
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(target, filter="data")
    return target / "package"


def copy_reveal(out: Path, root: Path = ROOT) -> None:
    """The files of reveal.js that a deck loads (the theme's fonts as WOFF only), and the decks' CSS."""
    reveal = reveal_dir(root)
    for rel in REVEAL_FILES:
        src, dst = reveal / rel, out / "reveal.js" / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        if src.is_dir():
            shutil.copytree(src, dst, dirs_exist_ok=True,
                            ignore=lambda d, names: [n for n in names if n.endswith((".eot", ".ttf"))])
        else:
            shutil.copyfile(src, dst)
    (out / "slides.css").write_text(CSS.lstrip(), encoding="utf-8")


def build(out: Path = OUT, root: Path = ROOT) -> list[Path]:
    """Write every deck and an index into ``out``; return the decks' paths in reading order."""
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    copy_reveal(out, root)
    shared = {"numbers_": numbers(root), "titles_": titles(root), "cites": citations(root)}
    decks = [write_deck(nb, out, root, **shared) for nb in section_notebooks(root)]
    items = "\n".join(f'<li><a href="{p.name}">{html.escape(shared["titles_"].get(_doc(p, root), p.stem))}</a></li>'
                      for p in decks)
    (out / "index.html").write_text(
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Slides: Online Learning, '
        f'Numerically</title></head>\n<body><main><h1>Lecture slides</h1>\n<ul>\n{items}\n</ul></main>'
        '</body></html>\n', encoding="utf-8")
    return decks


def _doc(deck_path: Path, root: Path) -> str:
    return next(d for d in toc_docs(root) if d.endswith("/" + deck_path.stem))


def print_pdf(decks: list[Path], out: Path) -> list[Path]:
    """Print decks to PDF with Chromium in reveal.js's print mode (one page per slide and fragment
    state collapsed)."""
    from tools import web

    out.mkdir(parents=True, exist_ok=True)
    folder = decks[0].parent
    done = []
    with web.serve(folder) as base, web.chromium() as chrome:
        context = web.new_context(chrome, base)
        for d in decks:
            page = context.new_page()
            page.goto(base + d.name + "?print-pdf", wait_until="load")
            web.wait_for_mathjax(page)
            page.wait_for_function("() => window.Reveal && Reveal.isReady()")
            page.wait_for_timeout(300)
            target = out / (d.stem + ".pdf")
            page.pdf(path=str(target), prefer_css_page_size=True, print_background=True)
            page.close()
            done.append(target)
        context.close()
    return done
