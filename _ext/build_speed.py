"""Three things the build repeats, made once, and a garbage collector that runs less often (the HTML
is byte for byte the same).

* pybtex looks up its plugins (the citation style, the backend) among the entry points of every
  installed package, for each of the book's citations: a few seconds of every build.  The answer
  depends only on the plugin's group and name, and the installed packages do not change during a
  build, so it is kept.
* Sphinx numbers the figures by unpickling every page's doctree, and then resolves each ``{numref}``
  (a theorem or a figure of another page) by unpickling the whole doctree of the page it points to,
  once per reference.  Both only read the doctrees, which do not change after they are read, so each
  is unpickled once for both (the pages are still written from their own fresh copies).
* The sidebar of every page is the book's table of contents with titles only (``titles_only=True``,
  sphinx-book-theme's sidebar).  Sphinx makes it by copying every page's whole table of contents,
  every section of every notebook, and then keeping only the page titles: 2.6 CPU-seconds over the
  60 pages, 0.45 s with this.  An entry's titles-only copy depends only on the entry (its title,
  its page, whether the page is an ancestor of the page being written), not on the page being
  written, so it is made once and copied for each page: the small copy, not the whole one.  Every
  other table of contents (``titles_only=False``, a page's own toctree) is made as before.
* Python's garbage collector, with its default thresholds (700, 10, 10), walks the build's growing
  heap of docutils nodes again and again: a quarter of the build's CPU.  With :data:`GC_THRESHOLD`
  (the value of ``tools/kernels.py``'s, for the notebooks' forked kernels), three alternating pairs
  of builds took 20-25 s instead of 25-30 s, with the same peak memory (330 MB; 620 MB with the
  collector off).
"""
from __future__ import annotations

import functools
import gc

import pybtex.plugin
from sphinx import addnodes
from sphinx.domains.std import StandardDomain
from sphinx.environment.adapters import toctree as _toctree
from sphinx.environment.collectors.toctree import TocTreeCollector

#: The garbage collector's thresholds during the build (see above).
GC_THRESHOLD = (10_000, 20, 100)

_numref = StandardDomain._resolve_numref_xref
_figure_numbers = TocTreeCollector.assign_figure_numbers
_doctrees: dict = {}  # docname -> its doctree, for the readers below, during one build (read only)


def _reading(env, call):
    """``call()`` with env.get_doctree answering from :data:`_doctrees`; only for this call: the other
    callers get (and change) their own copy."""
    read = env.get_doctree

    def cached(docname):
        if docname not in _doctrees:
            _doctrees[docname] = read(docname)
        return _doctrees[docname]

    env.get_doctree = cached
    try:
        return call()
    finally:
        del env.get_doctree


def _resolve_numref_xref(self, env, fromdocname, builder, typ, target, node, contnode):
    return _reading(env, lambda: _numref(self, env, fromdocname, builder, typ, target, node, contnode))


def _assign_figure_numbers(self, env):
    _doctrees.clear()  # the pages read in this build: their doctrees as they are now
    return _reading(env, lambda: _figure_numbers(self, env))


_entries_from_toctree = _toctree._entries_from_toctree
_toctree_entry = _toctree._toctree_entry
_titles_only = [False]  # whether the toctree being resolved is a titles-only one (its calls nest)
_titles: dict = {}  # (title, page, ancestor or not, prune, collapse) -> (titles-only toc, refdoc)


def _entries_titles_aware(env, prune, titles_only, *args, **kwargs):
    outer, _titles_only[0] = _titles_only[0], titles_only
    try:
        return _entries_from_toctree(env, prune, titles_only, *args, **kwargs)
    finally:
        _titles_only[0] = outer


def _titles_only_of(toc) -> None:
    """What Sphinx's _entries_from_toctree keeps of an entry when titles_only is set (the same code:
    each top-level item's title, and under it only the toctrees it contains).  Applying it twice
    changes nothing, so Sphinx applying it again to the copy is harmless."""
    for top_level in toc.children:
        if len(top_level) > 1:
            if subtrees := list(top_level.findall(addnodes.toctree)):
                top_level[1][:] = subtrees
            else:
                top_level.pop(1)


def _toctree_entry_once(title, ref, env, prune, collapse, tags, toctree_ancestors, included, excluded,
                        toctreenode, parents):
    """Sphinx's _toctree_entry; in a titles-only toctree, made once per entry and copied."""
    if not _titles_only[0] or ref in parents:  # not titles-only, or a circle (Sphinx warns, every time)
        return _toctree_entry(title, ref, env, prune, collapse, tags, toctree_ancestors, included,
                              excluded, toctreenode, parents)
    key = (title, ref, ref in toctree_ancestors, prune, collapse)
    if key not in _titles:
        toc, refdoc = _toctree_entry(title, ref, env, prune, collapse, tags, toctree_ancestors, included,
                                     excluded, toctreenode, parents)
        _titles_only_of(toc)
        _titles[key] = (toc, refdoc)
    toc, refdoc = _titles[key]
    return toc.deepcopy(), refdoc


def _forget(*_args) -> None:
    _doctrees.clear()
    _titles.clear()


def setup(app):
    gc.set_threshold(*GC_THRESHOLD)  # the reading and writing that follow (see above)
    if not isinstance(pybtex.plugin._load_entry_point, functools._lru_cache_wrapper):
        pybtex.plugin._load_entry_point = functools.lru_cache(maxsize=None)(pybtex.plugin._load_entry_point)
    StandardDomain._resolve_numref_xref = _resolve_numref_xref
    TocTreeCollector.assign_figure_numbers = _assign_figure_numbers
    _toctree._entries_from_toctree = _entries_titles_aware
    _toctree._toctree_entry = _toctree_entry_once
    app.connect("builder-inited", _forget)
    app.connect("env-updated", _forget)  # the pages' tables of contents are final from here on
    app.connect("build-finished", _forget)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": False}
