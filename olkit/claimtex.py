"""The claims of proof steps as TeX, for the HTML proof tables.

A step's claim is written in a plain-text notation that reads well in a text table (what nbval
compares): ``|V_{t+1}| <= |V_t| / 2 on a mistake``, ``<w_{t+1}, u> >= gamma k_t``,
``e^(-1/(2d+2))``, ``1[<w°, x_t> > 0] = (y_t + 1)/2``.  :func:`claim_tex` turns that notation into
TeX for MathJax: words become ``\\text{...}``, ``<=`` becomes ``\\le``, ``<u, v>`` an inner product,
``||x||`` a norm, ``sqrt(...)`` a root, Greek names Greek letters, ``^(...)`` a superscript, and so on.
A step can also give its TeX explicitly (``Proof.step(..., tex=...)``), which wins.
"""
from __future__ import annotations

import re

__all__ = ["claim_tex", "tex_pieces"]

GREEK = {
    "alpha", "beta", "gamma", "delta", "epsilon", "eta", "theta", "kappa", "lambda", "mu", "nu", "xi", "pi",
    "rho", "sigma", "tau", "phi", "chi", "psi", "omega", "Gamma", "Delta", "Theta", "Lambda", "Phi", "Psi", "Omega",
}
OPERATORS = {
    "log2": r"\log_2", "ln": r"\ln", "log": r"\log", "exp": r"\exp", "det": r"\det", "min": r"\min",
    "max": r"\max", "sup": r"\sup", "inf": r"\inf", "sign": r"\operatorname{sign}", "diag": r"\operatorname{diag}",
    "Ldim": r"\operatorname{Ldim}", "VCdim": r"\operatorname{VCdim}", "Vol": r"\operatorname{Vol}",
    "opt": r"\operatorname{opt}", "argmax": r"\operatorname{argmax}", "argmin": r"\operatorname{argmin}",
    "tr": r"\operatorname{tr}", "Proj": r"\operatorname{Proj}", "KL": r"\operatorname{KL}", "sum": r"\sum",
}
#: Functions written with parentheses that become TeX constructs.
CONSTRUCTS = {"sqrt": (r"\sqrt{", "}"), "floor": (r"\lfloor ", r" \rfloor"), "ceil": (r"\lceil ", r" \rceil")}
#: Short lowercase names that are names, not products of letters.
NAMES = {"lo", "hi"}
#: Two-letter English words (other two-letter lowercase tokens are products such as dn or uv).
SHORT_WORDS = {"is", "in", "of", "on", "to", "as", "at", "by", "an", "or", "if", "it", "be", "no", "so", "we", "up",
               "vs", "do", "go", "me", "my", "us"}
#: Multi-letter names that are words even in upper case.
WORDS = {"SOA", "UML", "ERM", "WM", "RWM", "EWA", "OGD", "VC", "LOO", "PAC", "Hedge", "Winnow", "Perceptron"}
#: Multi-letter identifiers with a hat.
HATS = {"yhat": r"\hat y", "phat": r"\hat p", "Rhat": r"\hat R", "Lhat": r"\hat L", "hhat": r"\hat h"}

_TOKEN = re.compile(
    r"""(?P<space>\s+)
      | (?P<op><=|>=|!=|==|\|\||[-+*/=<>()\[\]{},:;|^_'~°∩.!?])
      | (?P<num>\d+(?:\.\d+)?)
      | (?P<word>[A-Za-z][A-Za-z0-9]*(?:'s\b)?)
      | (?P<other>.)""",
    re.X,
)


def _tokens(s: str) -> list[tuple[str, str]]:
    return [(m.lastgroup, m.group()) for m in _TOKEN.finditer(s)]


def _text(s: str) -> str:
    return r"\text{" + re.sub(r"([#$%&{}\\])", r"\\\1", s) + "}"


class _Parser:
    def __init__(self, s: str):
        # inner products <u, v>: '<' then a non-space, a comma, and '>' after a non-space, no '<' or '>' inside
        s = re.sub(r"<(?=[^\s<>=])([^<>]*?,[^<>]*?[^\s<>=])>", "\u27e8\\1\u27e9", s)
        self.toks = _tokens(s)
        self.i = 0

    def peek(self, k: int = 0) -> tuple[str, str]:
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else ("end", "")

    def take(self) -> tuple[str, str]:
        t = self.peek()
        self.i += 1
        return t

    # -- groups ---------------------------------------------------------------------------------
    def group(self, close: str) -> str:
        """Everything up to the matching ``close`` (consumed), translated."""
        out = self.seq(stop={close})
        if self.peek()[1] == close:
            self.take()
        return out

    def atom_after_script(self) -> str:
        """The argument of ^ or _: a braced or parenthesized group, or one signed atom."""
        kind, tok = self.peek()
        if tok == "{":
            self.take()
            return self.group("}")
        if tok == "(":
            self.take()
            return self.group(")")
        sign = ""
        if tok == "-":
            self.take()
            sign = "-"
            kind, tok = self.peek()
            if tok == "(":
                self.take()
                return sign + "(" + self.group(")") + ")"
        if kind == "num":
            self.take()
            out = tok
            if self.peek()[1] == "[" and tok == "1":  # 2^-1[mistake_t]
                self.take()
                out = r"\mathbb{1}[" + self.group("]") + "]"
            return sign + out
        if kind == "word":
            self.take()
            out = sign + self.name(tok, in_script=True)
            if self.peek()[1] == "_":  # 2^-M_t: the subscript belongs to the exponent's atom
                self.take()
                out += "_{" + self.atom_after_script() + "}"
            return out
        if tok == "*":
            self.take()
            return sign + r"\star"
        return sign

    def scripts(self) -> str:
        """Subscripts, superscripts, stars, primes, tildes and circles that follow an atom."""
        out = ""
        while True:
            tok = self.peek()[1]
            if tok == "_":
                self.take()
                out += "_{" + self.atom_after_script() + "}"
            elif tok == "^":
                self.take()
                out += "^{" + self.atom_after_script() + "}"
            elif tok == "*":
                self.take()
                out += r"^{\star}"
            elif tok == "°":
                self.take()
                out += r"^{\circ}"
            elif tok == "'":
                self.take()
                out += "'"
            else:
                return out

    def name(self, tok: str, in_script: bool = False) -> str:
        if tok.endswith("'s"):
            return _text(tok)
        if tok in GREEK:
            return "\\" + tok
        if tok in HATS:
            return HATS[tok]
        if tok in OPERATORS:
            return OPERATORS[tok]
        if len(tok) == 1 or re.fullmatch(r"[A-Z]{2,3}", tok) and tok not in WORDS:
            return tok
        if re.fullmatch(r"[a-z]{2}", tok) and tok not in SHORT_WORDS and tok not in NAMES:
            return tok  # dn, uv: a product of two letters
        if re.fullmatch(r"[A-Za-z]\d+", tok):  # v1, h2
            return tok[0] + "_{" + tok[1:] + "}"
        return r"\mathrm{" + tok + "}" if in_script or self.peek()[1] in ("_", "^") else _text(tok)

    def is_word(self, k: int = 0) -> bool:
        """Whether the token at offset k reads as an English word."""
        kind, tok = self.peek(k)
        if kind != "word":
            return False
        nxt = self.peek(k + 1)[1]
        if tok.endswith("'s"):
            return True
        if tok in CONSTRUCTS and nxt == "(":
            return False
        if tok in OPERATORS:  # "max of the form" is words, "max V_t" is an operator
            return nxt == "" or (self.peek(k + 1)[0] == "space" and self.is_word_at(k + 2) and nxt != "_")
        if tok in GREEK or tok in HATS or nxt in ("_", "^", "*", "°", "'", "~"):
            return False
        if tok in ("a", "A"):
            return self.is_word_at(k + 2) or self.is_word_at(k - 2)
        if len(tok) == 1 or (re.fullmatch(r"[A-Z]{2,3}", tok) and tok not in WORDS) or re.fullmatch(r"[A-Za-z]\d+", tok):
            return False
        if re.fullmatch(r"[a-z]{2}", tok) and tok not in SHORT_WORDS:
            return False
        return True

    def is_word_at(self, k: int) -> bool:
        j = self.i + k
        if j < 0 or j >= len(self.toks):
            return False
        kind, tok = self.toks[j]
        return (kind == "word" and len(tok) > 1 and tok not in GREEK and tok not in OPERATORS
                and not (re.fullmatch(r"[a-z]{2}", tok) and tok not in SHORT_WORDS))

    # -- sequences ------------------------------------------------------------------------------
    def seq(self, stop: set[str] = frozenset()) -> str:
        out: list[str] = []
        words: list[str] = []  # a run of text, flushed as one \text{...}

        def flush():
            if words:
                out.append(_text("".join(words)))
                words.clear()

        while True:
            kind, tok = self.peek()
            if kind == "end" or tok in stop:
                break
            if kind == "space":
                self.take()
                if words:
                    words.append(" ")
                else:
                    out.append(" ")
                continue
            if self.is_word():
                self.take()
                if not words and out and out[-1] == " ":
                    words.append(" ")  # the space before a text run goes inside it
                words.append(tok)
                # hyphenated and dotted words: depth-1, non-empty, numpy.linalg.det
                while self.peek()[1] in ("-", ".") and self.peek(1)[0] in ("word", "num"):
                    words.append(self.take()[1] + self.take()[1])
                continue
            flush()
            self.take()
            if kind == "word":
                if tok in CONSTRUCTS and self.peek()[1] == "(":
                    self.take()
                    left, right = CONSTRUCTS[tok]
                    out.append(left + self.group(")") + right)
                elif self.peek()[1] == "~":
                    self.take()
                    out.append(r"\tilde{" + self.name(tok) + "}" + self.scripts())
                else:
                    out.append(self.name(tok) + self.scripts())
            elif kind == "num":
                if tok == "1" and self.peek()[1] == "[":
                    self.take()
                    out.append(r"\mathbb{1}[" + self.group("]") + "]")
                else:
                    out.append(tok + self.scripts())
            elif tok == "(":
                out.append("(" + self.group(")") + ")" + self.scripts())
            elif tok == "[":
                out.append("[" + self.group("]") + "]")
            elif tok == "{":
                out.append(r"\{" + self.group("}") + r"\}")
            elif tok == "\u27e8":
                out.append(r"\langle " + self.group("\u27e9") + r"\rangle" + self.scripts())
            elif tok == "||":
                out.append(r"\|")
                out.append(self.scripts())
            elif tok == "|":
                out.append("|" + self.scripts())
            else:
                out.append({"<=": r"\le ", ">=": r"\ge ", "!=": r"\ne ", "==": "=", "*": r"\cdot ", "∩": r"\cap ",
                            "~": r"\sim ", "°": r"^{\circ}", "_": r"\_", "^": r"\hat{}"}.get(tok, tok))
        flush()
        return "".join(out)


def claim_tex(claim: str) -> str:
    """TeX (without delimiters) for a claim written in the book's plain-text notation."""
    return re.sub(r" {2,}", " ", _Parser(str(claim)).seq()).strip()


#: A formula longer than this (characters of TeX) is offered to the browser in pieces.
BREAK_AFTER = 60


def tex_pieces(tex: str, longer_than: int = BREAK_AFTER) -> list[str]:
    r"""A long formula split where a line may break, each piece valid TeX on its own.

    MathJax 3 does not break a formula across lines, so a long claim typeset as one formula widens
    its table beyond the page.  Typeset as several formulas separated by spaces, it wraps like text.
    The split points are the separators ``,``, ``;`` and ``:`` followed by a space or a control space
    ``\ `` (kept with the piece before them; the space becomes the gap between the pieces) that are
    outside every group: TeX braces (so that no ``\text{...}`` or ``\frac{..}{..}`` is cut) and
    brackets of any kind, counted together so that an interval such as ``[-1, 1)`` stays whole.  A
    formula of at most ``longer_than`` characters, or one whose brackets do not balance, is one piece.

    >>> tex_pieces(r"B = 2: (3, 4) \to (1.2, 1.6); x \to \text{ itself}", 10)
    ['B = 2:', '(3, 4) \\to (1.2, 1.6);', 'x \\to \\text{ itself}']
    """
    if len(tex) <= longer_than:
        return [tex]
    pieces, start, braces, brackets, i = [], 0, 0, 0, 0
    while i < len(tex):
        c = tex[i]
        if c == "\\":
            nxt = tex[i + 1:i + 2]
            if nxt in ("{", "}"):  # an escaped brace is a bracket, not a group
                brackets += 1 if nxt == "{" else -1
            elif tex.startswith("langle", i + 1):
                brackets += 1
            elif tex.startswith("rangle", i + 1):
                brackets -= 1
            i += 2
            continue
        if c == "{":
            braces += 1
        elif c == "}":
            braces -= 1
        elif c in "([":
            brackets += 1
        elif c in ")]":
            brackets -= 1
        elif c in ",;:" and braces == 0 and brackets == 0 and (tex[i + 1:i + 2] == " " or tex[i + 1:i + 3] == "\\ "):
            pieces.append(tex[start:i + 1].strip())
            start = i + 1 if tex[i + 1] == " " else i + 3  # a control space after it becomes the gap
        if braces < 0:
            return [tex]
        i += 1
    pieces.append(tex[start:].strip())
    if braces != 0 or brackets != 0:
        return [tex]
    return [p for p in pieces if p]
