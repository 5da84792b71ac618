"""Errata to the sources: an ``{erratum}`` box in the chapters, and a back-matter page made from them.

Where a source errs, the chapter says so in a box next to the numerical counterexample::

    ```{erratum} uml2014
    :place: Section 21.1.1, the tree game described in words
    :says: after a prediction $1$ the environment moves to the right child
    :correction: it moves to the left child, as the formula $i_{t+1} = 2i_t + y_t$ says
    :witness: Figure 21.1 read in words fails step D21.4' at the labels $(0, 0, 0, 0)$
    :title: the tree game in words

    The box's text: what the source says, why it is wrong, what the book does instead.
    ```

The argument is the source's key in ``references.bib``; ``:place:`` (the theorem, equation, section or
page of the source), ``:says:``, ``:correction:`` and ``:witness:`` (the numerical counterexample, in one
line, as it reads on the errata page: no "below") are required: a box without them stops the build.  The box shows "Erratum (<author, year>,
<place>)" or its ``:title:``, then its text.

The page ``errata.md`` holds ``{errata-list}``, replaced when the book is written by every erratum of the
book, grouped by source (in the order of ``references.bib``), each with its place, what it says, the
correction, the witness and a link to the box in its section.  The list is made from the boxes, so it
cannot drift from them; ``tests/test_errata.py`` compares the two.
"""
from __future__ import annotations

import re
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util.docutils import SphinxDirective

FIELDS = ("place", "says", "correction", "witness")


class errata_list(nodes.General, nodes.Element):
    """Where the errata page's list goes (filled in ``doctree-resolved``)."""


def _sources(app) -> dict[str, dict]:
    """key -> {'authors', 'year', 'title'} of references.bib, in the file's order."""
    from pybtex.database import parse_file

    bib = parse_file(str(Path(app.srcdir) / "references.bib"))
    out = {}
    for key, entry in bib.entries.items():
        people = entry.persons.get("author", [])
        last = [re.sub(r"[{}]", "", " ".join(p.last_names)) for p in people]  # {Course notes}
        authors = last[0] if len(last) == 1 else " and ".join(last) if len(last) == 2 else ", ".join(last[:-1]) + " and " + last[-1]
        title = re.sub(r"[{}]", "", entry.fields.get("title", ""))
        year = entry.fields.get("year", "n.d.")
        out[key] = {"authors": authors, "year": year, "title": title}
    return out


def missing_fields(options: dict) -> list[str]:
    """The required fields an erratum's options lack (empty: complete)."""
    return [f for f in FIELDS if not str(options.get(f, "")).strip()]


class ErratumDirective(SphinxDirective):
    required_arguments = 1
    has_content = True
    option_spec = {"place": directives.unchanged, "says": directives.unchanged,
                   "correction": directives.unchanged, "witness": directives.unchanged,
                   "title": directives.unchanged, "class": directives.class_option}

    def run(self):
        key = self.arguments[0]
        sources = self.env.app.olkit_sources
        if key not in sources:
            raise self.error(f"erratum: {key!r} is not a key of references.bib")
        lacking = missing_fields(self.options)
        if lacking:
            raise self.error(f"erratum to {key}: no {', '.join(':' + f + ':' for f in lacking)} (every erratum names "
                             "the source's place, what it says, the correction and its numerical witness)")
        serial = self.env.new_serialno("olkit-erratum")
        node_id = f"erratum-{self.env.docname.replace('/', '-')}-{serial}"
        box = nodes.admonition(classes=["erratum", *self.options.get("class", [])], ids=[node_id])
        src = sources[key]
        head = self.options.get("title") or f"{src['authors']} {src['year']}, {self.options['place']}"
        title_nodes, _ = self.state.inline_text(f"Erratum: {head}", self.lineno)
        box += nodes.title("", "", *title_nodes)
        self.state.nested_parse(self.content, self.content_offset, box)
        fields = {}
        for f in FIELDS + ("title",):
            if self.options.get(f):
                parsed, _ = self.state.inline_text(self.options[f], self.lineno)
                fields[f] = nodes.inline("", "", *parsed)
        entries = getattr(self.env, "olkit_errata", [])
        entries.append({"docname": self.env.docname, "id": node_id, "key": key, "serial": serial,
                        "fields": fields, "raw": {f: self.options.get(f, "") for f in FIELDS}})
        self.env.olkit_errata = entries
        return [box]


class ErrataListDirective(SphinxDirective):
    has_content = False

    def run(self):
        # the list's formulas are put in when the page is written: the page must load MathJax
        self.env.get_domain("math").data.setdefault("has_equations", {})[self.env.docname] = True
        return [errata_list()]


def _purge(app, env, docname) -> None:
    env.olkit_errata = [e for e in getattr(env, "olkit_errata", []) if e["docname"] != docname]


def _merge(app, env, docnames, other) -> None:
    env.olkit_errata = getattr(env, "olkit_errata", []) + [
        e for e in getattr(other, "olkit_errata", []) if e["docname"] in docnames]


def _always_rebuild_errata(app, env, added, changed, removed):
    return [doc for doc in env.found_docs if doc == "errata"]


def _fill(app, doctree, docname) -> None:
    for placeholder in list(doctree.findall(errata_list)):
        entries = sorted(getattr(app.env, "olkit_errata", []), key=lambda e: (e["key"], e["docname"], e["serial"]))
        order = list(app.olkit_sources)
        content = []
        for key in order:
            mine = [e for e in entries if e["key"] == key]
            if not mine:
                continue
            src = app.olkit_sources[key]
            sec = nodes.section(ids=[f"errata-{key}"], names=[f"errata {key}"])
            sec += nodes.title(text=f"{src['authors']} ({src['year']}), {src['title']}")
            items = nodes.bullet_list(classes=["olkit-errata"])
            for e in mine:  # the chapters' docnames sort in reading order (chapters/ch1/1_2_...)
                item = nodes.list_item(ids=[f"list-{e['id']}"])
                para = nodes.paragraph()
                place = nodes.strong()
                place += e["fields"]["place"].deepcopy()
                para += place
                para += nodes.Text(". ")
                for label, field in (("It says", "says"), ("Correction", "correction"), ("Witness", "witness")):
                    para += nodes.emphasis(text=f"{label}: ")
                    para += e["fields"][field].deepcopy()
                    para += nodes.Text(". ")
                uri = app.builder.get_relative_uri(docname, e["docname"]) + "#" + e["id"]
                title = app.env.titles.get(e["docname"])
                ref = nodes.reference("", "", refuri=uri, internal=True)
                ref += nodes.Text(f"In {title.astext() if title is not None else e['docname']}")
                para += ref
                item += para
                items += item
            sec += items
            content.append(sec)
        n, k = len(entries), len(content)
        count = nodes.paragraph(text=f"{n} {'erratum' if n == 1 else 'errata'} in {k} {'source' if k == 1 else 'sources'}.")
        placeholder.replace_self([count, *content])


def _load_sources(app) -> None:
    app.olkit_sources = _sources(app)


def setup(app):
    app.add_node(errata_list)
    app.add_directive("erratum", ErratumDirective)
    app.add_directive("errata-list", ErrataListDirective)
    app.connect("builder-inited", _load_sources)
    app.connect("env-purge-doc", _purge)
    app.connect("env-merge-info", _merge)
    app.connect("env-get-outdated", _always_rebuild_errata)
    app.connect("doctree-resolved", _fill)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "env_version": 1}
