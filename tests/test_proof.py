import numpy as np
import pytest

from olkit.proof import Proof, ProofStepError, counterexample, fmt


def test_passing_steps_render_with_slack():
    p = Proof("T")
    p.step("1", "a <= b", [1, 2, 3], "<=", [2, 2, 5])
    p.step("2", "a == b", [1.0, 2.0], "==", [1.0, 2.0 + 1e-15], tol=1e-12)
    text = repr(p)
    assert "2 steps checked" in text and "smallest slack 0" in text
    html = p._repr_html_()
    assert "<table" in html
    # claims are typeset as TeX in spans MathJax processes (class "math")
    assert "<span class='math notranslate nohighlight'>\\(a \\le b\\)</span>" in html


def test_failing_step_names_step_round_and_sides():
    p = Proof("Thm X")
    with pytest.raises(ProofStepError) as e:
        p.step("3", "V_{t+1} <= V_t / 2", [4, 3, 9], "<=", [5, 5, 4])
    err = e.value
    assert err.step == "3" and err.round == "round 3" and err.lhs == 9 and err.rhs == 4
    assert "Thm X, step 3" in str(err) and "round 3" in str(err)


def test_where_selects_instances_and_rounds_label_them():
    p = Proof("T")
    p.step("1", "only on mistakes", [9, 1], "<=", [0, 2], where=[False, True])
    assert p.rows[-1].instances == 1
    with pytest.raises(ProofStepError, match="round 12"):
        p.step("2", "x", [1, 3], "<", [2, 3], rounds=[11, 12])
    with pytest.raises(ProofStepError, match="d=3"):
        p.step("3", "x", [1, 3], "<", [2, 3], rounds=["d=2", "d=3"])


def test_empty_step_is_refused():
    with pytest.raises(ValueError, match="checks no instance"):
        Proof("T").step("1", "x", [1], "<=", [0], where=[False])
    Proof("T").step("1", "x", [1], "<=", [0], where=[False], allow_empty=True)


def test_strict_relations_and_tolerance():
    with pytest.raises(ProofStepError):
        Proof("T").step("1", "x", 1, "<", 1)
    Proof("T").step("1", "x", 1 + 1e-13, "<=", 1, tol=1e-12)
    with pytest.raises(ProofStepError):
        Proof("T").step("1", "x", 1 + 1e-11, "<=", 1, tol=1e-12)
    with pytest.raises(ValueError):
        Proof("T").step("1", "x", 1, "=<", 1)


def test_counterexample_requires_a_failure():
    with counterexample() as cx:
        Proof("T").step("1", "x", 2, "<=", 1)
    assert isinstance(cx.error, ProofStepError)
    with pytest.raises(AssertionError, match="did not refute"):
        with counterexample():
            Proof("T").step("1", "x", 0, "<=", 1)


def test_fmt_is_stable():
    assert fmt(3.0) == "3" and fmt(1e-16) == "0" and fmt(0.123456) == "0.1235" and fmt(np.inf) == "inf"


def test_strict_relation_with_a_tolerance_accepts_sides_within_it():
    """With tol > 0, 'a < b' holds when b - a > -tol: equal sides pass, a side beyond tol fails."""
    Proof("T").step("1", "x", 1.0, "<", 1.0, tol=1e-9)
    Proof("T").step("1", "x", 1.0 + 1e-10, ">", 1.0 + 5e-10, tol=1e-9)
    with pytest.raises(ProofStepError):
        Proof("T").step("1", "x", 1.0 + 2e-9, "<", 1.0, tol=1e-9)


def test_a_single_instance_fails_at_the_run():
    with pytest.raises(ProofStepError) as e:
        Proof("T").step("1", "x", 2, "<=", 1)
    assert e.value.round == "the run" and "fails at the run" in str(e.value)
    with pytest.raises(ProofStepError) as e:
        Proof("T").step("1", "x", [2], "<=", [1], rounds=[7])
    assert e.value.round == "round 7"
