"""Proofs as named steps, checked on recorded runs.

A notebook states a proof as a :class:`Proof` with numbered steps.  Each step
is a relation between two sides -- numbers, or arrays indexed by round -- and
is checked the moment it is stated: a failing step raises
:class:`ProofStepError` naming the step, the round and both sides.  A proof
whose steps all hold renders as a table (step, claim, instances checked,
smallest slack), which is the book's record that the step held on the run.

A step that checks no instance raises as well (unless ``allow_empty=True``):
a check over an empty set cannot fail, and such checks are defects.

Use :func:`counterexample` where the book shows that a source's step fails.
"""
from __future__ import annotations

import html
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterator

import numpy as np

from .claimtex import claim_tex

__all__ = ["Proof", "ProofStepError", "counterexample", "fmt"]

_RELATIONS = ("<=", ">=", "==", "<", ">")

#: Slacks (and errors of identities) below this fraction of the largest side, or of 1, print as 0:
#: they are rounding errors, whose last digits differ between machines.
ROUNDING_RTOL = 1e-9


class ProofStepError(AssertionError):
    """A proof step failed on the recorded run."""

    def __init__(self, proof: str, step: str, claim: str, round_: object, lhs: float, rel: str, rhs: float):
        self.proof, self.step, self.claim = proof, step, claim
        self.round, self.lhs, self.rel, self.rhs = round_, lhs, rel, rhs
        super().__init__(
            f"{proof}, step {step} ({claim}) fails at {round_}: "
            f"left side = {fmt(lhs)}, right side = {fmt(rhs)}, but '{rel}' was claimed"
        )


def fmt(v: float) -> str:
    """Stable short form of a number: integers exactly, others to 4 significant digits, |v| < 1e-14 as 0.

    Values below 1e-14 in absolute value are floating-point noise on the book's scales and print as 0
    (:meth:`Proof.step` also zeroes slacks below ``ROUNDING_RTOL`` times the size of the sides).
    """
    if v is None:
        return "-"
    v = float(v)
    if np.isnan(v):
        return "nan"
    if np.isinf(v):
        return "inf" if v > 0 else "-inf"
    if abs(v) < 1e-14:
        return "0"
    if v == round(v) and abs(v) < 1e15:
        return str(int(round(v)))
    return f"{v:.4g}"


@dataclass
class _Row:
    step: str
    claim: str
    rel: str
    instances: int
    slack: float | None  # smallest slack (<=, >=, <, >) or largest |lhs - rhs| (==)
    tex: str = ""  # the claim as TeX, for the HTML table
    kind: str = "run"  # "run": a check of the recorded run; "algebra": an identity true for every run


class Proof:
    """A proof stated as numbered steps and checked on a run.

    >>> p = Proof("Theorem 21.3 (Halving)")
    >>> p.step("1", "|V_{t+1}| <= |V_t| / 2 on a mistake", V_next, "<=", V_now / 2, where=mistake)
    """

    def __init__(self, title: str):
        self.title = title
        self.rows: list[_Row] = []

    def step(
        self,
        name: str,
        claim: str,
        lhs,
        rel: str,
        rhs,
        *,
        where=None,
        rounds=None,
        tol: float = 0.0,
        allow_empty: bool = False,
        tex: str | None = None,
        kind: str = "run",
    ) -> "Proof":
        """Check ``lhs rel rhs`` on every selected instance; record or raise.

        ``lhs`` and ``rhs`` broadcast against each other; ``where`` (boolean)
        selects the instances the step is about (e.g. the mistake rounds);
        ``rounds`` labels the instances in error messages (default: round 1, 2,
        ...); ``tol`` is an absolute tolerance for floating-point sides.

        ``claim`` is plain text (the text table, which nbval compares); the HTML
        table shows it as mathematics, ``tex`` if given, else
        :func:`olkit.claimtex.claim_tex` of the claim.  ``kind="algebra"`` marks a
        step that is an identity of algebra, true whatever the run (it is still
        evaluated, on the run's numbers); the tables say so.
        """
        if rel not in _RELATIONS:
            raise ValueError(f"rel must be one of {_RELATIONS}; got {rel!r}")
        if kind not in ("run", "algebra"):
            raise ValueError(f"kind must be 'run' or 'algebra'; got {kind!r}")
        if tol < 0:
            raise ValueError(f"tol must be >= 0; got {tol!r}")
        L, R = np.broadcast_arrays(np.asarray(lhs, dtype=float), np.asarray(rhs, dtype=float))
        L, R = L.ravel(), R.ravel()
        single = L.size == 1
        labels = np.arange(1, L.size + 1) if rounds is None else np.broadcast_to(np.asarray(rounds), L.shape).ravel()
        if where is not None:
            shape = np.broadcast_shapes(np.shape(where), np.shape(lhs), np.shape(rhs))
            sel = np.broadcast_to(np.asarray(where, dtype=bool), shape).ravel()
            L, R, labels = L[sel], R[sel], labels[sel]
        if L.size == 0 and not allow_empty:
            raise ValueError(
                f"{self.title}, step {name} ({claim}) checks no instance; a check over an empty set cannot fail"
            )
        if rel == "==":
            dev = np.abs(L - R)
            ok = dev <= tol
            slack = float(dev.max()) if L.size else None
        else:
            s = R - L if rel in ("<=", "<") else L - R
            ok = s >= -tol if rel in ("<=", ">=") else s > -tol if tol else s > 0
            slack = float(s.min()) if L.size else None
        if slack is not None and np.isfinite(slack):
            # a slack below rounding level of the sides is shown as 0, so that the table is the same on
            # every machine (the check itself used the exact values)
            finite = np.concatenate([np.abs(L[np.isfinite(L)]), np.abs(R[np.isfinite(R)]), [1.0]])
            if abs(slack) <= ROUNDING_RTOL * float(finite.max()):
                slack = 0.0
        if not ok.all():
            i = int(np.argmin(ok))
            lab = labels[i]
            if rounds is None:
                where_txt = "the run" if single else f"round {lab}"
            else:
                where_txt = f"round {lab}" if isinstance(lab, (int, np.integer)) else str(lab)
            raise ProofStepError(self.title, name, claim, where_txt, L[i], rel, R[i])
        self.rows.append(_Row(name, claim, rel, int(L.size), slack, claim_tex(claim) if tex is None else tex, kind))
        return self

    # -- rendering -------------------------------------------------------
    def _table(self) -> list[tuple[str, str, str, str]]:
        out = []
        for r in self.rows:
            head = "max |lhs-rhs|" if r.rel == "==" else "smallest slack"
            note = "  [algebra: true for every run]" if r.kind == "algebra" else ""
            out.append((r.step, f"{r.claim}  [{r.rel}]{note}", str(r.instances), f"{head} {fmt(r.slack)}"))
        return out

    def __repr__(self) -> str:
        lines = [f"{self.title}: {len(self.rows)} steps checked"]
        for step, claim, n, slack in self._table():
            lines.append(f"  {step:>4}  {claim}  |  {n} checked  |  {slack}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        e = html.escape
        rel_tex = {"<=": r"\le", ">=": r"\ge", "==": "=", "<": "<", ">": ">"}

        def math(t: str) -> str:
            return f"<span class='math notranslate nohighlight'>{e(chr(92) + '(' + t + chr(92) + ')')}</span>"

        body = "".join(
            f"<tr class='olkit-step-{r.kind}'><td>{e(r.step)}</td>"
            f"<td style='text-align:left'>{math(r.tex)}"
            + (" <em class='olkit-algebra'>(algebra: true for every run)</em>" if r.kind == "algebra" else "")
            + f"</td><td>{math(rel_tex[r.rel])}</td><td>{r.instances}</td><td>{e(fmt(r.slack))}</td></tr>"
            for r in self.rows
        )
        return (
            f"<table class='olkit-proof'><caption>{e(self.title)}: every step holds on this run</caption>"
            "<thead><tr><th>step</th><th>claim</th><th>relation</th><th>instances checked</th>"
            "<th>smallest slack (for =: largest error)</th></tr></thead>"
            f"<tbody>{body}</tbody></table>"
        )


class _Counter:
    error: ProofStepError | None = None


@contextmanager
def counterexample() -> Iterator[_Counter]:
    """Run a proof step that is expected to fail; raise if it holds.

    Used for errata: the block must raise :class:`ProofStepError`, which is
    captured in ``cx.error`` so the notebook can print it.
    """
    c = _Counter()
    try:
        yield c
    except ProofStepError as err:
        c.error = err
        return
    raise AssertionError("the counterexample did not refute the step: every step held")
