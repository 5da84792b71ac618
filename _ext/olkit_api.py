"""The book's API reference (the back-matter pages ``api/*.md``): a small Sphinx extension.

olkit's docstrings are plain text with a few reST roles (``:func:`hedge```).  In that plain text
``|H|`` is the size of a class and ``|<w, x>|`` an absolute value, which reST would read as a
substitution; :func:`escape_bars` escapes those bars outside inline literals.  The notebooks and the
docstrings name objects by the package's face (``olkit.Perceptron``, ``olkit.run``); autodoc documents
them where they are defined (``olkit.linear.Perceptron``), and :func:`resolve_face` sends such a
reference to the defining module, so that ``{py:class}`olkit.Perceptron``` links to its entry.
"""
from __future__ import annotations

import importlib
import re

_LITERAL = re.compile(r"(``.+?``)")
_BAR = re.compile(r"(?<!\\)\|")


def escape_bars(app, what, name, obj, options, lines) -> None:
    """Escape every ``|`` of a docstring line outside ``inline literals`` (olkit's docstrings hold no
    reST tables or line blocks)."""
    for i, line in enumerate(lines):
        parts = _LITERAL.split(line)
        lines[i] = "".join(p if k % 2 else _BAR.sub(r"\\|", p) for k, p in enumerate(parts))


def _lookup(target: str):
    """The olkit object named ``olkit.X.y``, or None."""
    parts = target.split(".")
    if len(parts) < 2 or parts[0] != "olkit":
        return None
    try:
        obj = importlib.import_module("olkit")
        for p in parts[1:]:
            obj = getattr(obj, p)
    except (AttributeError, ImportError):
        return None
    return obj


def _defined_at(obj) -> str | None:
    """Where an olkit object is defined: ``module.qualname``, or None."""
    owner = obj.fget if isinstance(obj, property) else obj
    mod, qual = getattr(owner, "__module__", None), getattr(owner, "__qualname__", None)
    return f"{mod}.{qual}" if mod and qual and mod.startswith("olkit") else None


def resolve_face(app, env, node, contnode):
    """A missing ``py`` reference to an olkit object: ``olkit.Name`` (the package's face), or a name
    relative to the documented class or module (``predict``, ``Simplex.project``, ``Ellipsoid``).
    It links to the entry of the module that defines the object; an object that exists but has no
    entry (a private helper such as ``olkit.game.lookahead``) is shown as code without a link.  A
    name that is no olkit object stays a missing reference (a warning: an error in the strict build)."""
    if node.get("refdomain") != "py":
        return None
    target, mod, cls = node.get("reftarget", ""), node.get("py:module") or "", node.get("py:class") or ""
    tries = [target]
    if not target.startswith("olkit.") and mod.startswith("olkit"):
        tries = [f"{mod}.{cls}.{target}" if cls else None, f"{mod}.{target}", f"olkit.{target}"]
    for name in filter(None, tries):
        obj = _lookup(name)
        if obj is None:
            continue
        py = env.get_domain("py")
        where = _defined_at(obj)
        for key in dict.fromkeys(filter(None, (where, name))):
            ref = py.resolve_xref(env, node["refdoc"], app.builder, node["reftype"], key, node, contnode)
            if ref is not None:
                return ref
        return contnode  # an olkit object without an entry of its own: shown as code, unlinked
    return None


def setup(app):
    app.connect("autodoc-process-docstring", escape_bars)
    app.connect("missing-reference", resolve_face)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
