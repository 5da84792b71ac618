"""Proofs as named steps, checked on recorded runs.

A notebook states a proof as a :class:`Proof` with numbered steps.  Each step
is a relation between two sides -- numbers, or arrays indexed by round -- and
is checked the moment it is stated: a failing step raises
:class:`ProofStepError` naming the step, the round and both sides.  A proof
whose steps all hold renders as a table (step, claim, instances checked,
smallest slack), which is the book's record that the step held on the run.

A step that checks no instance raises as well (unless ``allow_empty=True``):
a check over an empty set cannot fail, and such checks are defects.

Steps are of two kinds.  A *check* (``kind="check"``, the default) is a step that a wrong learner, a
wrong constant or a wrong proof could fail.  An *identity* (``kind="identity"``: algebra, a
definition, a property of the random generator) holds whatever the run; it is still evaluated and
shown, labelled as such, and never counted as a check.  The table's header counts each kind.

A statement "P(event) <= delta" is checked with :meth:`Proof.probability`: an exact (Clopper-Pearson)
interval for the frequency over independent runs, refuted when the whole interval lies beyond delta.

Use :func:`counterexample` where the book shows that a source's step fails, and
:func:`negative_control` next to a proof table: it runs the same checks on a deliberately broken
learner or constant, collects the steps that fail instead of raising, and raises itself when no check
fails (a check that cannot catch the broken variant has no teeth).
"""
from __future__ import annotations

import contextvars
import html
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Iterator

import numpy as np

from .claimtex import claim_tex, tex_pieces

__all__ = ["NegativeControl", "Proof", "ProofShapeError", "ProofStepError", "counterexample", "fmt", "negative_control"]

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


class ProofShapeError(ProofStepError):
    """A proof step whose two sides cannot be compared instance by instance (their shapes do not
    broadcast): the run and the proof disagree on the instances (the number of rounds, updates or
    experts), so the step fails.  An authoring slip and a broken learner both end here; the message
    names the step and both shapes."""

    def __init__(self, proof: str, step: str, claim: str, lshape: tuple, rshape: tuple):
        self.proof, self.step, self.claim = proof, step, claim
        self.round, self.lhs, self.rel, self.rhs = "the shapes", float("nan"), "==", float("nan")
        AssertionError.__init__(
            self,
            f"{proof}, step {step} ({claim}) fails: the left side has shape {lshape} and the right side "
            f"{rshape}; the run and the proof disagree on the instances",
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


def _table_place(shape: tuple, flat: int) -> str:
    """The name of entry ``flat`` (0-based, row-major) of a table of instances (round x expert,
    update x feature, ...): by row and column (1-based), not by its position in the flattened table;
    a step passes ``rounds=`` for other names.  Made only for the entry where a step fails."""
    i = [int(k) + 1 for k in np.unravel_index(flat, shape)]
    dims = " x ".join(map(str, shape))
    if len(shape) == 2:
        return f"row {i[0]}, column {i[1]} of the {dims} table"
    return f"index ({', '.join(map(str, i))}) of the {dims} table"


@dataclass
class _Row:
    step: str
    claim: str
    rel: str
    instances: int
    slack: float | None  # smallest slack (<=, >=, <, >) or largest |lhs - rhs| (==)
    tex: str = ""  # the claim as TeX, for the HTML table
    kind: str = "check"  # "check": a step a wrong learner could fail; "identity": true for every run
    why: str = ""  # for an identity: why it holds whatever the run ("definition of rho", ...)
    note: str = ""  # replaces the slack in the tables (probability steps: the count and the interval)
    failed: str = ""  # in a negative control: where the step failed and its two sides


#: Kinds of step; the keys are accepted by :meth:`Proof.step` (older names map to the same kinds).
KINDS = {"check": "check", "identity": "identity", "run": "check", "algebra": "identity"}

#: The negative control being collected (see :func:`negative_control`), or None.
_CONTROL: contextvars.ContextVar = contextvars.ContextVar("olkit_negative_control", default=None)


class Proof:
    """A proof stated as numbered steps and checked on a run.

    >>> p = Proof("Theorem 21.3 (Halving)")
    >>> claim = "|V_{t+1}| <= |V_t| / 2 on a mistake"
    >>> p.step("1", claim, V_next, "<=", V_now / 2, where=mistake)
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
        kind: str = "check",
        why: str = "",
    ) -> "Proof":
        """Check ``lhs rel rhs`` on every selected instance; record or raise.

        ``lhs`` and ``rhs`` broadcast against each other; ``where`` (boolean)
        selects the instances the step is about (e.g. the mistake rounds);
        ``rounds`` labels the instances in error messages (default: round 1, 2,
        ...); ``tol`` is an absolute tolerance for floating-point sides.

        ``claim`` is plain text (the text table, which nbval compares); the HTML
        table shows it as mathematics, ``tex`` if given, else
        :func:`olkit.claimtex.claim_tex` of the claim.  ``kind="identity"`` marks a
        step that holds whatever the run (algebra, a definition, a property of the
        generator; ``why`` says which): it is still evaluated, on the run's numbers,
        shown and labelled, and not counted as a check.

        Inside :func:`negative_control` a failing step does not raise: it is recorded
        (with where it failed) and the proof goes on.
        """
        if rel not in _RELATIONS:
            raise ValueError(f"rel must be one of {_RELATIONS}; got {rel!r}")
        if kind not in KINDS:
            raise ValueError(f"kind must be 'check' or 'identity'; got {kind!r}")
        kind = KINDS[kind]
        if tol < 0:
            raise ValueError(f"tol must be >= 0; got {tol!r}")
        try:
            L, R = np.broadcast_arrays(np.asarray(lhs, dtype=float), np.asarray(rhs, dtype=float))
            if where is not None:
                np.broadcast_shapes(np.shape(where), L.shape)
        except ValueError:  # the sides (or the selection) do not match: the step fails
            err = ProofShapeError(self.title, name, claim, np.shape(lhs), np.shape(rhs))
            if not self._collect(err, kind):
                raise err from None
            tex = claim_tex(claim) if tex is None else tex
            self.rows.append(_Row(name, claim, rel, 0, None, tex, kind, why,
                                  failed=f"fails: sides of shapes {np.shape(lhs)} and {np.shape(rhs)}"))
            return self
        L, R = L.ravel(), R.ravel()
        single = L.size == 1
        shape = np.broadcast_shapes(np.shape(lhs), np.shape(rhs))
        table = shape if rounds is None and len(shape) >= 2 else None
        if rounds is not None:
            labels = np.broadcast_to(np.asarray(rounds), L.shape).ravel()
        else:  # positions 1, 2, ...; in a table, named by row and column when a step fails (below)
            labels = np.arange(1, L.size + 1)
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
            lab = labels[i] if table is None else _table_place(table, int(labels[i]) - 1)
            if rounds is None:
                where_txt = "the run" if single else lab if isinstance(lab, str) else f"round {lab}"
            else:
                where_txt = f"round {lab}" if isinstance(lab, (int, np.integer)) else str(lab)
            err = ProofStepError(self.title, name, claim, where_txt, L[i], rel, R[i])
            if not self._collect(err, kind):
                raise err
            failed = f"fails at {where_txt}: {fmt(L[i])} {rel} {fmt(R[i])} is false"
        else:
            failed = ""
        tex = claim_tex(claim) if tex is None else tex
        self.rows.append(_Row(name, claim, rel, int(L.size), slack, tex, kind, why, failed=failed))
        return self

    def probability(
        self,
        name: str,
        claim: str,
        events,
        runs,
        rel: str,
        bound,
        *,
        level: float = 0.99,
        rounds=None,
        tex: str | None = None,
    ) -> "Proof":
        """Check "P(event) <= bound" (``rel="<="``) or "P(event) >= bound" (``rel=">="``) from
        ``events`` occurrences in ``runs`` independent runs, with an exact binomial test.

        The step is refuted when the Clopper-Pearson interval at confidence ``level`` lies wholly
        beyond the bound: for ``<=``, when its lower end exceeds ``bound`` (the runs show, at that
        confidence, that the probability is above it); for ``>=``, when its upper end is below.  A bare
        frequency is never compared with the bound.  The table prints the count and the interval;
        the recorded slack is the distance from the interval's near end to the bound.  ``events``,
        ``runs`` and ``bound`` broadcast (one instance per parameter value); ``rounds`` labels them.
        """
        from scipy.stats import binomtest

        if rel not in ("<=", ">="):
            raise ValueError(f"a probability step claims '<=' or '>='; got {rel!r}")
        if not 0 < level < 1:
            raise ValueError(f"level must be in (0, 1); got {level!r}")
        k, n, b = np.broadcast_arrays(np.asarray(events), np.asarray(runs), np.asarray(bound, dtype=float))
        k, n, b = k.ravel(), n.ravel(), b.ravel()
        if not (np.issubdtype(k.dtype, np.integer) and np.issubdtype(n.dtype, np.integer)):
            raise ValueError("events and runs must be integer counts")
        if k.size == 0:
            raise ValueError(f"{self.title}, step {name} ({claim}) checks no instance")
        if (n < 1).any() or (k < 0).any() or (k > n).any():
            raise ValueError(f"need 0 <= events <= runs and runs >= 1; got events={k}, runs={n}")
        labels = np.arange(1, k.size + 1) if rounds is None else np.broadcast_to(np.asarray(rounds), k.shape).ravel()
        lo, hi = np.empty(k.size), np.empty(k.size)
        for i in range(k.size):
            ci = binomtest(int(k[i]), int(n[i])).proportion_ci(confidence_level=level, method="exact")
            lo[i], hi[i] = ci.low, ci.high
        # refuted when the interval lies beyond the bound; the slack is the near end's distance to it
        s = b - lo if rel == "<=" else hi - b
        ok = s >= 0
        i = int(np.argmin(s))
        pct = f"{100 * level:g}%"
        note = (f"{int(k[i])}/{int(n[i])}; {pct} CP interval [{fmt(lo[i])}, {fmt(hi[i])}]"
                + (f" (of {k.size})" if k.size > 1 else ""))
        kind = "check"
        if not ok.all():
            where_txt = "the runs" if k.size == 1 else (
                f"round {labels[i]}" if rounds is None or isinstance(labels[i], (int, np.integer)) else str(labels[i]))
            side = lo[i] if rel == "<=" else hi[i]
            err = ProofStepError(self.title, name, claim + f" [{pct} CP interval of {int(k[i])}/{int(n[i])}]",
                                 where_txt, side, rel, b[i])
            if not self._collect(err, kind):
                raise err
            failed = f"fails at {where_txt}: {note} lies beyond {fmt(b[i])}"
        else:
            failed = ""
        tex = claim_tex(claim) if tex is None else tex
        self.rows.append(_Row(name, claim, rel, int(n.sum()), float(s.min()), tex, kind, note=note, failed=failed))
        return self

    def _collect(self, err: ProofStepError, kind: str) -> bool:
        """In a negative control: record the failure and go on (True); else False (the caller raises)."""
        ctl = _CONTROL.get()
        if ctl is None:
            return False
        ctl._record(self, err, kind)
        return True

    @property
    def checks(self) -> int:
        """How many steps are checks (a wrong learner, constant or proof could fail them)."""
        return sum(r.kind == "check" for r in self.rows)

    @property
    def identities(self) -> int:
        """How many steps are identities (true whatever the run; shown, not counted as checks)."""
        return sum(r.kind == "identity" for r in self.rows)

    def _header(self) -> str:
        c, i = self.checks, self.identities
        return f"{c} check{'' if c == 1 else 's'}, {i} identit{'y' if i == 1 else 'ies'}"

    # -- rendering -------------------------------------------------------
    def _table(self) -> list[tuple[str, str, str, str]]:
        out = []
        for r in self.rows:
            head = "max |lhs-rhs|" if r.rel == "==" else "smallest slack"
            label = f"  [identity: {r.why or 'true for every run'}]" if r.kind == "identity" else ""
            value = r.note or f"{head} {fmt(r.slack)}"
            if r.failed:
                value = f"FAILS: {r.failed}"
            out.append((r.step, f"{r.claim}  [{r.rel}]{label}", str(r.instances), value))
        return out

    def __repr__(self) -> str:
        lines = [f"{self.title}: {self._header()}"]
        for step, claim, n, slack in self._table():
            lines.append(f"  {step:>4}  {claim}  |  {n} checked  |  {slack}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        e = html.escape
        rel_tex = {"<=": r"\le", ">=": r"\ge", "==": "=", "<": "<", ">": ">"}

        def math(t: str) -> str:  # a long claim in pieces, so that it wraps within its column
            return " ".join(f"<span class='math notranslate nohighlight'>{e(chr(92) + '(' + p + chr(92) + ')')}</span>"
                            for p in tex_pieces(t))

        def value(r: _Row) -> str:
            if r.failed:
                return f"<strong class='olkit-fails'>fails</strong>: {e(r.failed)}"
            return e(r.note or fmt(r.slack))

        body = "".join(
            f"<tr class='olkit-step-{r.kind}'><td>{e(r.step)}</td>"
            f"<td style='text-align:left'>{math(r.tex)}"
            + (f" <em class='olkit-identity'>(identity: {e(r.why or 'true for every run')})</em>"
               if r.kind == "identity" else "")
            + f"</td><td>{math(rel_tex[r.rel])}</td><td>{r.instances}</td><td>{value(r)}</td></tr>"
            for r in self.rows
        )
        failing = sum(bool(r.failed) for r in self.rows)
        verdict = (f"{failing} of {len(self.rows)} steps fail (negative control)" if failing
                   else f"{self._header()}; every step holds on this run")
        return (
            f"<table class='olkit-proof'><caption>{e(self.title)}: {e(verdict)}</caption>"
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


@dataclass
class _Failure:
    proof: str
    step: str
    kind: str
    message: str
    where: str = ""  # where the step failed: "round 17", "row 2, column 3 of the 9 x 4 table", "the run"


@dataclass
class NegativeControl:
    """What :func:`negative_control` collected: the broken variant and the steps it failed."""

    broken: str
    expect: tuple[str, ...] = ()
    failures: list[_Failure] = field(default_factory=list)
    proofs: list[Proof] = field(default_factory=list)

    def _record(self, proof: Proof, err: AssertionError, kind: str) -> None:
        if proof is not None and all(q is not proof for q in self.proofs):
            self.proofs.append(proof)
        title = proof.title if proof is not None else "assert"
        step = getattr(err, "step", "assert")
        self.failures.append(_Failure(title, str(step), kind, str(err), str(getattr(err, "round", ""))))

    @property
    def caught(self) -> list[_Failure]:
        """The failures that count: checks (and the notebook's asserts), not identities."""
        return [f for f in self.failures if f.kind == "check"]

    def __repr__(self) -> str:
        f = self.caught
        lines = [f"Negative control ({self.broken}): {len(f)} failing check{'' if len(f) == 1 else 's'}"]
        lines += [f"  {x.message}" for x in f[:3]]
        if len(f) > 3:
            lines.append(f"  ... and {len(f) - 3} more")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        e = html.escape
        items = "".join(f"<li><code>{e(x.message)}</code></li>" for x in self.caught[:3])
        more = f"<li>... and {len(self.caught) - 3} more</li>" if len(self.caught) > 3 else ""
        return (f"<div class='olkit-control'><strong>Negative control</strong> ({e(self.broken)}): "
                f"{len(self.caught)} failing check{'' if len(self.caught) == 1 else 's'}<ul>{items}{more}</ul></div>")


@contextmanager
def negative_control(broken: str, expect: str | tuple[str, ...] | None = None,
                     at: dict | None = None) -> Iterator[NegativeControl]:
    """Run a proof's checks on a deliberately broken learner or constant; require that a check fails.

    Inside the block every :class:`Proof` step that fails is recorded instead of raised, and the
    proof goes on (so the control shows every step that catches the broken variant).  A
    :class:`ProofStepError` or ``AssertionError`` that escapes the block (a notebook's own assert)
    counts as a failure too.  On leaving the block the control raises ``AssertionError`` when no
    check failed -- failing identities do not count -- and, if ``expect`` names steps, when none of
    them failed.  Any other exception (an input guard's ``ValueError``, a crash) propagates: it is
    not a proof check catching the variant.

    ``at`` maps a step to the place where it must fail first, as the notebook computes it on its own
    (the first round where the broken learner departs from the algorithm, say): an int ``k`` means
    "round k", a string is compared with the place as written ("row 2, column 3 of the 9 x 4
    table").  A step that fails elsewhere, or not at all, fails the control.

    >>> with negative_control("Hedge with rate 3 eta", expect="3") as ctl:
    ...     hedge_proof(broken_run)
    >>> ctl   # shows the failing steps and where they fail
    """
    ctl = NegativeControl(broken, (expect,) if isinstance(expect, str) else tuple(expect or ()))
    token = _CONTROL.set(ctl)
    try:
        yield ctl
    except ProofStepError as err:
        ctl._record(None, err, "check")
        ctl.failures[-1].proof = err.proof
    except AssertionError as err:
        ctl._record(None, err, "check")
    finally:
        _CONTROL.reset(token)
    if not ctl.caught:
        raise AssertionError(
            f"negative control ({broken}): every check held on the broken variant; the checks have no teeth"
        )
    if ctl.expect and not any(f.step in ctl.expect for f in ctl.caught):
        raise AssertionError(
            f"negative control ({broken}): expected step {' or '.join(ctl.expect)} to fail; "
            f"failed instead: {', '.join(sorted({f.step for f in ctl.caught}))}"
        )
    for step, place in (at or {}).items():
        want = f"round {place}" if isinstance(place, (int, np.integer)) else str(place)
        got = [f.where for f in ctl.caught if f.step == step]
        if want not in got:
            raise AssertionError(
                f"negative control ({broken}): expected step {step} to fail at {want}; "
                + (f"it failed at {', '.join(got)}" if got else "it did not fail")
            )
