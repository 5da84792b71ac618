"""olkit.claimtex: the plain-text claims of proof steps as TeX."""
import json
import re
from pathlib import Path

import pytest

import olkit
from olkit.claimtex import claim_tex
from notebooks import notebooks

CASES = [
    ("|V_{t+1}| <= |V_t| / 2 on a mistake", r"|V_{t+1}| \le |V_{t}| / 2 \text{ on a mistake}"),
    ("<w_{t+1}, u> >= gamma k_t", r"\langle w_{t+1}, u\rangle \ge \gamma k_{t}"),
    ("e^(-1/(2d+2))", r"e^{-1/(2d+2)}"),
    ("|V_{t+1}| <= |H| 2^-M_t", r"|V_{t+1}| \le |H| 2^{-M_{t}}"),
    ("realizable: 1[<w°, x_t> > 0] = (y_t + 1)/2",
     r"\text{realizable}: \mathbb{1}[\langle w^{\circ}, x_{t}\rangle > 0] = (y_{t} + 1)/2"),
    ("Ldim(V) <= floor(log2 |V|)", r"\operatorname{Ldim}(V) \le \lfloor \log_2 |V| \rfloor"),
    ("||x_t|| <= sqrt(d)", r"\|x_{t}\| \le \sqrt{d}"),
    ("M_Halving(H) > Ldim(H)", r"M_{\mathrm{Halving}}(H) > \operatorname{Ldim}(H)"),
    ("U <= 2d(d+1) ln(2dn^2)", r"U \le 2d(d+1) \ln(2dn^{2})"),
    ("a single point is a shattered depth-1 tree", r"\text{a single point is a shattered depth-1 tree}"),
    ("yhat_t = 1 on a tie", r"\hat y_{t} = 1 \text{ on a tie}"),
]


@pytest.mark.parametrize("claim, tex", CASES)
def test_claims_translate(claim, tex):
    assert claim_tex(claim) == tex


def _balanced(tex: str) -> bool:
    depth = 0
    for i, ch in enumerate(tex):
        if ch == "{" and (i == 0 or tex[i - 1] != "\\"):
            depth += 1
        elif ch == "}" and (i == 0 or tex[i - 1] != "\\"):
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def test_every_claim_of_the_book_gives_balanced_tex_without_raw_operators():
    claims = set()
    for nb in notebooks():
        for cell in json.loads(Path(nb).read_text())["cells"]:
            for out in cell.get("outputs", []):
                text = "".join(out.get("data", {}).get("text/plain", ""))
                claims.update(m.group(1) for m in re.finditer(r"^\s+\S+\s\s(.*?)\s\s\[(?:<=|>=|==|<|>)\]", text, re.M))
    assert len(claims) > 100
    for c in claims:
        tex = claim_tex(c)
        assert _balanced(tex), (c, tex)
        assert "<=" not in tex and ">=" not in tex and "||" not in tex, (c, tex)


def test_the_html_table_carries_math_and_the_text_table_the_plain_claim():
    p = olkit.Proof("t").step("1", "M <= log2 |H|", 3, "<=", 4).step("8", "e^0 = 1", 1, "==", 1, kind="identity")
    html = p._repr_html_()
    assert r"\(M \le \log_2 |H|\)" in html and "class='math" in html and "identity" in html
    assert "M <= log2 |H|  [<=]" in repr(p) and "[identity: true for every run]" in repr(p)
    assert "\\(x^2\\)" in olkit.Proof("t").step("1", "anything", 1, "==", 1, tex="x^2")._repr_html_()
    with pytest.raises(ValueError, match="kind"):
        olkit.Proof("t").step("1", "c", 1, "==", 1, kind="other")


def test_a_long_claim_is_split_where_a_line_may_break():
    from olkit.claimtex import tex_pieces

    tex = claim_tex("at w = (0.5, -1, 0), x = (2, 1, 0): hinge (y = -1) 1, absolute (y = 1) 1, squared 1/2")
    pieces = tex_pieces(tex)
    assert len(pieces) == 5 and " ".join(pieces) == tex
    assert pieces[0].endswith(",") and pieces[1] == "x = (2, 1, 0):"
    for p in pieces:  # every piece is a whole group: braces and brackets balance
        assert p.count("{") == p.count("}") and p.count("(") == p.count(")")
    short = claim_tex("|V_{t+1}| <= |V_t| / 2 on a mistake")
    assert tex_pieces(short) == [short], "a short claim stays one formula"
    interval = r"\text{Box }[-1, 1] \times [-1, 2] \times [-1, 1]: (-2, 1.5, 7) \to (-1, 1.5, 1)"
    assert tex_pieces(interval, 10) == [interval[:interval.index(":") + 1], interval[interval.index(":") + 2:]]
    assert tex_pieces(r"\frac{a, b}{c}: a, [0, 1) \cup (2, 3]: z", 5) == [r"\frac{a, b}{c}:", "a,", r"[0, 1) \cup (2, 3]:", "z"]
    spaced = r"w = 0,\ \langle w, x\rangle = 0,\ -1.5 \to -x"  # a control space after the comma
    assert tex_pieces(spaced, 5) == [r"w = 0,", r"\langle w, x\rangle = 0,", r"-1.5 \to -x"]
    unbalanced = r"\text{an open interval } (0, 1: \text{ unbalanced}, x"
    assert tex_pieces(unbalanced, 5) == [unbalanced]


def test_the_html_table_typesets_a_long_claim_in_pieces():
    p = olkit.Proof("long")
    claim = "at w = (0.5, -1, 0), x = (2, 1, 0): hinge (y = -1) 1, absolute (y = 1) 1, squared 1/2"
    p.step("1", claim, 1, "<=", 1)
    html = p._repr_html_()
    cell = html.split("<td style='text-align:left'>")[1].split("</td>")[0]
    assert cell.count("class='math") == 5 and "\\(x = (2, 1, 0):\\)" in cell
