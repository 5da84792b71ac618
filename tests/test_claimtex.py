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
