"""Two lookups that the build repeats, made once (the HTML is byte for byte the same).

* pybtex looks up its plugins (the citation style, the backend) among the entry points of every
  installed package, for each of the book's citations: a few seconds of every build.  The answer
  depends only on the plugin's group and name, and the installed packages do not change during a
  build, so it is kept.
* Sphinx resolves each ``{numref}`` (a theorem or a figure of another page) by unpickling the whole
  doctree of the page it points to, once per reference.  The doctrees do not change while the pages
  are written and the lookup only reads them, so each is unpickled once per build.
"""
from __future__ import annotations

import functools

import pybtex.plugin
from sphinx.domains.std import StandardDomain

_numref = StandardDomain._resolve_numref_xref
_doctrees: dict = {}  # docname -> its doctree, for the numrefs of one build (read only)


def _resolve_numref_xref(self, env, fromdocname, builder, typ, target, node, contnode):
    read = env.get_doctree

    def cached(docname):
        if docname not in _doctrees:
            _doctrees[docname] = read(docname)
        return _doctrees[docname]

    env.get_doctree = cached  # only for this call: the other callers get (and change) their own copy
    try:
        return _numref(self, env, fromdocname, builder, typ, target, node, contnode)
    finally:
        del env.get_doctree


def _forget(*_args) -> None:
    _doctrees.clear()


def setup(app):
    if not isinstance(pybtex.plugin._load_entry_point, functools._lru_cache_wrapper):
        pybtex.plugin._load_entry_point = functools.lru_cache(maxsize=None)(pybtex.plugin._load_entry_point)
    StandardDomain._resolve_numref_xref = _resolve_numref_xref
    app.connect("builder-inited", _forget)
    app.connect("build-finished", _forget)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": False}
