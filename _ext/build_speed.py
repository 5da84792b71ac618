"""Two lookups that the build repeats, made once (the HTML is byte for byte the same).

* pybtex looks up its plugins (the citation style, the backend) among the entry points of every
  installed package, for each of the book's citations: a few seconds of every build.  The answer
  depends only on the plugin's group and name, and the installed packages do not change during a
  build, so it is kept.
* Sphinx numbers the figures by unpickling every page's doctree, and then resolves each ``{numref}``
  (a theorem or a figure of another page) by unpickling the whole doctree of the page it points to,
  once per reference.  Both only read the doctrees, which do not change after they are read, so each
  is unpickled once for both (the pages are still written from their own fresh copies).
"""
from __future__ import annotations

import functools

import pybtex.plugin
from sphinx.domains.std import StandardDomain
from sphinx.environment.collectors.toctree import TocTreeCollector

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


def _forget(*_args) -> None:
    _doctrees.clear()


def setup(app):
    if not isinstance(pybtex.plugin._load_entry_point, functools._lru_cache_wrapper):
        pybtex.plugin._load_entry_point = functools.lru_cache(maxsize=None)(pybtex.plugin._load_entry_point)
    StandardDomain._resolve_numref_xref = _resolve_numref_xref
    TocTreeCollector.assign_figure_numbers = _assign_figure_numbers
    app.connect("builder-inited", _forget)
    app.connect("build-finished", _forget)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": False}
