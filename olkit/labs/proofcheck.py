"""Grading a student's proof checks by mutation: the book's own method, practised.

In a proof-check question the student writes the checks of a proof of the chapter as ``olkit.Proof``
steps, as a function of a recorded run (``hedge_checks(losses, P, eta) -> Proof``).  A check is worth
something only if it can fail, so the grader runs the student's function

1. on several runs of the **correct** algorithm (the public one and hidden ones: ties, one round,
   large inputs): every step must hold on every one of them; a check that refuses a correct run is
   wrong, and the feedback names the run and the step;
2. on the run of one **broken variant** (a wrong update, a wrong constant, a wrong tie rule:
   :class:`Variant`, built from :mod:`olkit.broken` or in the lab's module): some step must fail.

Each variant is one test of the question, so the points are earned variant by variant.  A check that
cannot fail (a quantity compared with itself, a tolerance that swallows everything) catches no variant
and earns nothing; a set of checks with one step missing loses exactly the variants that only that
step catches.  The feedback names a variant that slipped through by what it does wrong ("a Hedge that
plays the rate 3 eta"), never by its code.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..proof import Proof, ProofStepError, fmt
from .feedback import LabFeedback
from .refs import cite, url

__all__ = ["ProofCheckQuestion", "Variant", "grade_checks"]


@dataclass(frozen=True)
class Variant:
    """A broken variant of the algorithm: ``does`` says what it does wrong, for the feedback; ``run()``
    returns the arguments of the student's check function on a recorded run of the variant."""

    key: str
    does: str
    run: Callable[[], tuple]


@dataclass(frozen=True)
class ProofCheckQuestion:
    """A question "write the checks of this proof": the student's function's name and arguments, the
    book's result (a label of :mod:`olkit.labs.refs`), the correct runs (case -> (what the run is, a
    function returning the arguments)) and the broken variants."""

    function: str
    arguments: str
    ref: str
    correct: dict[str, tuple[str, Callable[[], tuple]]]
    variants: tuple[Variant, ...]

    def variant(self, key: str) -> Variant:
        for v in self.variants:
            if v.key == key:
                return v
        raise ValueError(f"no variant {key!r} in {self.function}'s question; there are "
                         f"{[v.key for v in self.variants]}")


def _run_checks(question: ProofCheckQuestion, checks: Callable, args: tuple) -> Proof:
    """The student's checks on one run: their Proof, or the ProofStepError (an AssertionError) they raised."""
    if not callable(checks):
        raise LabFeedback(f"{question.function} is not a function (got {checks!r}): define it with "
                          f"def {question.function}({question.arguments}) and run its cell")
    out = checks(*args)
    if out is None or out is Ellipsis:
        raise LabFeedback(f"{question.function} returned {out!r}: it must build an olkit.Proof, add the steps "
                          "of the proof to it and return it (is the function still '...'?)")
    if not isinstance(out, Proof):
        raise LabFeedback(f"{question.function} returned a {type(out).__name__}: it must return the olkit.Proof "
                          "whose steps it checked")
    return out


def grade_checks(question: ProofCheckQuestion, checks: Callable, variant: str,
                 cases: tuple[str, ...] | None = None) -> Proof:
    """One test of a proof-check question: ``checks`` holds on every correct run (``cases``: all of the
    question's, or the given ones) and fails on the run of the broken variant ``variant``.  Returns the
    Proof the checks built on the last correct run; raises :class:`LabFeedback` otherwise."""
    last = None
    for case in cases if cases is not None else tuple(question.correct):
        what, make = question.correct[case]
        try:
            last = _run_checks(question, checks, make())
        except LabFeedback:
            raise
        except ProofStepError as err:
            raise LabFeedback(
                f"Your {question.function} refused a correct run ({what}): step {err.step} ('{err.claim}') fails "
                f"at {err.round} with left side {fmt(err.lhs)} and right side {fmt(err.rhs)}. A step of the proof "
                f"of {cite(question.ref)} holds on every run of the algorithm; check how this step computes its "
                f"two sides from the run. ({cite(question.ref)} in the book: {url(question.ref)})") from None
        except AssertionError as err:
            raise LabFeedback(f"Your {question.function} refused a correct run ({what}): {err}") from None
        except Exception as err:  # the student's code failed on a correct run
            raise LabFeedback(f"{question.function} raised {type(err).__name__}: {err} on a correct run ({what})") \
                from err
    v = question.variant(variant)
    try:
        _run_checks(question, checks, v.run())
    except LabFeedback:
        raise
    except AssertionError:  # a ProofStepError, or a plain assert of the student's: the variant was caught
        return last
    except Exception as err:
        raise LabFeedback(f"{question.function} raised {type(err).__name__}: {err} on the run of {v.does}; it "
                          "must run to its checks on any recorded run") from err
    raise LabFeedback(f"{v.does[0].upper()}{v.does[1:]} slipped through your checks: every step held on its "
                      f"run. Which step of the proof of {cite(question.ref)} does it break? "
                      f"({cite(question.ref)} in the book: {url(question.ref)})")
