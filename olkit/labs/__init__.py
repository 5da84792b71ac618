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
share in ``olkit.labs.feedback``.  A lab's tests call ``labs.check_...`` and ``labs.<lab>_case``,
importable from here.

Chapters 5 and 6 also have ``olkit.labs.ogd_checks`` (Lab 5b), ``olkit.labs.eg`` (Lab 5c),
``olkit.labs.o2b_checks`` (Lab 6b) and ``olkit.labs.clopper_pearson`` (Lab 6c).
"""
from __future__ import annotations

from .feedback import LabFeedback
from .halving import check_halving_predict, check_halving_run, check_halving_update, halving_case
from .halving_checks import check_halving_bound_checks, check_halving_rule_checks, halving_run_record
from .hedge import check_hedge_distribution, check_hedge_regret, hedge_case
from .ldim_soa import check_ldim, check_soa_predict, ldim_case, soa_case
from .online_to_batch import batch_case, check_exact_risk, check_halving_hypothesis, check_random_iterate_risk
from .perceptron_winnow import check_perceptron_update, check_winnow_update, perceptron_case, winnow_case
from .projections_ogd import check_ogd_step, check_projection, ogd_case
from .ogd_checks import OGDRun, check_ogd_bound_checks, check_ogd_step_checks, ogd_run_record
from .eg import check_eg_regret, check_eg_update, eg_case
from .o2b_checks import O2BRun, check_o2b_bound_checks, check_o2b_identity_checks, o2b_run_record
from .clopper_pearson import check_clopper_pearson, check_refutes, cp_case, refute_case

__all__ = [
    "LabFeedback",
    "check_clopper_pearson",
    "check_refutes",
    "cp_case",
    "refute_case",
    "O2BRun",
    "check_o2b_bound_checks",
    "check_o2b_identity_checks",
    "o2b_run_record",
    "check_eg_regret",
    "check_eg_update",
    "eg_case",
    "OGDRun",
    "check_ogd_bound_checks",
    "check_ogd_step_checks",
    "ogd_run_record",
    "batch_case",
    "check_exact_risk",
    "check_halving_hypothesis",
    "check_halving_bound_checks",
    "check_halving_predict",
    "check_halving_rule_checks",
    "check_halving_run",
    "check_halving_update",
    "check_hedge_distribution",
    "check_hedge_regret",
    "check_ldim",
    "check_ogd_step",
    "check_perceptron_update",
    "check_projection",
    "check_random_iterate_risk",
    "check_soa_predict",
    "check_winnow_update",
    "halving_case",
    "halving_run_record",
    "hedge_case",
    "ldim_case",
    "ogd_case",
    "perceptron_case",
    "soa_case",
    "winnow_case",
]
