"""Feedback for the labs (``labs/``): a function a student wrote, played and checked by the chapter's proof.

A lab question asks for the core of an algorithm as a plain function: Halving's prediction on a
version space, Hedge's distribution over the experts.  The checks here wrap that function into a
learner, play a recorded game on a fixed stream (``case``: ``"public"`` for the student's own check,
others -- ties, a single hypothesis, one round, large losses -- for grading), and run the chapter's
proof on the trace: the same steps the chapter's notebook checks.  When a step fails,
:class:`LabFeedback` says in a sentence which step, in which round, with both sides and what it means
for the student's function; otter-grader shows that sentence as the test's failure.

A lab's tests call these functions only, so the public and hidden tests differ by the stream alone.

One module per lab: ``olkit.labs.halving`` (Lab 1), ``olkit.labs.ldim_soa`` (Lab 2),
``olkit.labs.hedge`` (Lab 3), ``olkit.labs.perceptron_winnow`` (Lab 4),
``olkit.labs.projections_ogd`` (Lab 5) and ``olkit.labs.online_to_batch`` (Lab 6), with what they
share in ``olkit.labs.feedback``.
Chapter 3's further labs: ``olkit.labs.hedge_checks`` (Lab 3b), ``olkit.labs.doubling`` (Lab 3c) and
``olkit.labs.soa_experts`` (Lab 3d).  A lab's tests call ``labs.check_...`` and ``labs.<lab>_case``,
importable from here.
"""
from __future__ import annotations

from .doubling import check_doubling_block, check_doubling_run, doubling_case
from .feedback import LabFeedback
from .halving import check_halving_predict, check_halving_run, check_halving_update, halving_case
from .halving_checks import check_halving_bound_checks, check_halving_rule_checks, halving_run_record
from .hedge import check_hedge_distribution, check_hedge_regret, hedge_case
from .hedge_checks import check_hedge_bound_checks, check_hedge_round_checks, hedge_run_record
from .ldim_soa import check_ldim, check_soa_predict, ldim_case, soa_case
from .online_to_batch import batch_case, check_exact_risk, check_halving_hypothesis, check_random_iterate_risk
from .perceptron_winnow import check_perceptron_update, check_winnow_update, perceptron_case, winnow_case
from .projections_ogd import check_ogd_step, check_projection, ogd_case
from .soa_experts import check_soa_expert, check_soa_experts_advice, soa_experts_case

__all__ = [
    "LabFeedback",
    "batch_case",
    "check_doubling_block",
    "check_doubling_run",
    "check_exact_risk",
    "check_halving_hypothesis",
    "check_halving_bound_checks",
    "check_halving_predict",
    "check_halving_rule_checks",
    "check_halving_run",
    "check_halving_update",
    "check_hedge_bound_checks",
    "check_hedge_distribution",
    "check_hedge_regret",
    "check_hedge_round_checks",
    "check_ldim",
    "check_ogd_step",
    "check_perceptron_update",
    "check_projection",
    "check_random_iterate_risk",
    "check_soa_expert",
    "check_soa_experts_advice",
    "check_soa_predict",
    "check_winnow_update",
    "doubling_case",
    "halving_case",
    "halving_run_record",
    "hedge_case",
    "hedge_run_record",
    "ldim_case",
    "ogd_case",
    "perceptron_case",
    "soa_case",
    "soa_experts_case",
    "winnow_case",
]
