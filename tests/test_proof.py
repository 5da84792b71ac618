import numpy as np
import pytest

import olkit
from olkit.proof import Proof, ProofStepError, counterexample, fmt


def test_passing_steps_render_with_slack():
    p = Proof("T")
    p.step("1", "a <= b", [1, 2, 3], "<=", [2, 2, 5])
    p.step("2", "a == b", [1.0, 2.0], "==", [1.0, 2.0 + 1e-15], tol=1e-12)
    text = repr(p)
    assert text.startswith("T: 2 checks, 0 identities") and "smallest slack 0" in text
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


def test_header_counts_checks_and_identities():
    p = Proof("T")
    p.step("1", "a <= b", 1, "<=", 2)
    p.step("2", "a == a", 3, "==", 3, kind="identity", why="definition of a")
    p.step("3", "b >= a", 2, ">=", 1, kind="check")
    assert repr(p).splitlines()[0] == "T: 2 checks, 1 identity"
    assert "[identity: definition of a]" in repr(p)
    assert "identity: definition of a" in p._repr_html_()
    assert (p.checks, p.identities) == (2, 1)
    # the older names are the same kinds
    q = Proof("U").step("1", "x", 1, "<=", 1, kind="algebra").step("2", "y", 1, "<=", 1, kind="run")
    assert (q.checks, q.identities) == (1, 1) and repr(q).splitlines()[0] == "U: 1 check, 1 identity"
    with pytest.raises(ValueError, match="kind"):
        Proof("T").step("1", "x", 1, "<=", 1, kind="maybe")


def test_probability_step_is_an_exact_binomial_test():
    from scipy.stats import binomtest

    p = Proof("T")
    # 3 failures in 1000 runs: the 99% interval [0.00041, 0.0111] does not refute P <= 0.01 ...
    p.probability("1", "P(fail) <= delta", 3, 1000, "<=", 0.01)
    ci = binomtest(3, 1000).proportion_ci(confidence_level=0.99, method="exact")
    assert p.rows[-1].slack == pytest.approx(0.01 - ci.low)
    assert "3/1000; 99% CP interval" in repr(p) and fmt(ci.high) in repr(p)
    # ... but 25 failures in 1000 do (the lower end is above 0.01), even though each run is a coin
    with pytest.raises(ProofStepError, match="step 2"):
        p.probability("2", "P(fail) <= delta", 25, 1000, "<=", 0.01)
    # a bare frequency above delta is not a refutation when the interval still reaches delta
    p.probability("3", "P(fail) <= delta", 2, 100, "<=", 0.01)
    # ">=": refuted when the upper end is below the bound
    p.probability("4", "P(success) >= 1 - delta", 990, 1000, ">=", 0.99)
    with pytest.raises(ProofStepError):
        p.probability("5", "P(success) >= 1 - delta", 950, 1000, ">=", 0.99)
    # one instance per parameter value
    p.probability("6", "P(fail) <= delta", [0, 1, 2], 200, "<=", [0.01, 0.02, 0.05], rounds=["a", "b", "c"])
    assert p.rows[-1].instances == 600
    with pytest.raises(ProofStepError, match="c"):
        p.probability("7", "x", [0, 1, 40], 200, "<=", [0.01, 0.02, 0.05], rounds=["a", "b", "c"])
    for bad in [dict(events=5, runs=3), dict(events=-1, runs=3), dict(events=0.5, runs=3)]:
        with pytest.raises(ValueError):
            p.probability("8", "x", bad["events"], bad["runs"], "<=", 0.1)
    with pytest.raises(ValueError, match="<="):
        p.probability("9", "x", 1, 10, "==", 0.1)


def test_negative_control_collects_failures_and_demands_one():
    from olkit.proof import negative_control

    def proof(factor):
        p = Proof("Thm")
        p.step("1", "a <= b", [1, 2], "<=", [2, 2])
        p.step("2", "c <= 2a", [1, 2 * factor], "<=", [2, 4])
        p.step("3", "identity", 1, "==", 1, kind="identity")
        p.step("4", "d <= 3", 2 * factor, "<=", 3)
        return p

    with negative_control("factor 3", expect="2") as ctl:
        p = proof(3)
    # both failing steps are recorded and the proof went on to the end
    assert [f.step for f in ctl.caught] == ["2", "4"]
    assert "round 2" in ctl.caught[0].message
    assert "FAILS" in repr(p) and "2 of 4 steps fail" in p._repr_html_()
    assert repr(ctl).startswith("Negative control (factor 3): 2 failing checks")
    # a control on the correct learner fails the notebook
    with pytest.raises(AssertionError, match="no teeth"):
        with negative_control("factor 1"):
            proof(1)
    # the expected step must be among the failures
    with pytest.raises(AssertionError, match="expected step 1"):
        with negative_control("factor 3", expect="1"):
            proof(3)
    # a notebook assert counts; an input guard does not
    with negative_control("assert") as ctl:
        assert 1 > 2, "the sentence about the run"
    assert ctl.caught[0].step == "assert"
    with pytest.raises(ValueError):
        with negative_control("guard"):
            raise ValueError("bad input")
    # a failing identity alone is not a caught variant
    with pytest.raises(AssertionError, match="no teeth"):
        with negative_control("identity only"):
            Proof("I").step("1", "x", 1, "==", 2, kind="identity")
    # outside a control, failures raise again
    with pytest.raises(ProofStepError):
        proof(3)


def test_a_table_of_instances_names_row_and_column():
    lhs = np.zeros((3, 4))
    lhs[1, 2] = 5.0  # row 2, column 3 (not the 7th entry of the flattened table)
    with pytest.raises(ProofStepError, match=r"fails at row 2, column 3 of the 3 x 4 table:"):
        Proof("T").step("1", "x <= 1", lhs, "<=", 1.0)
    with pytest.raises(ProofStepError, match=r"fails at row 2, column 3 of the 3 x 4 table:"):
        Proof("T").step("1", "x <= 1", lhs, "<=", np.ones(4))
    with pytest.raises(ProofStepError, match=r"index \(1, 1, 2\) of the 2 x 2 x 2 table"):
        Proof("T").step("1", "x <= 1", np.eye(2)[None, :, ::-1].repeat(2, 0) * 5, "<=", 1.0)


def test_sides_of_different_shapes_fail_the_step_and_name_both_shapes():
    """A run and a proof that disagree on the instances (9 recorded updates, 8 recomputed) fail the step."""
    with pytest.raises(olkit.ProofShapeError, match=r"step 4 .* shape \(9,\) and the right side \(8,\)"):
        olkit.Proof("T").step("4", "a <= b", np.zeros(9), "<=", np.ones(8))
    with pytest.raises(olkit.ProofShapeError):
        olkit.Proof("T").step("4", "a <= b", np.zeros(3), "<=", 1, where=np.ones(4, bool))
    with olkit.negative_control("sides of different shapes", expect=["4"]) as ctl:
        olkit.Proof("T").step("4", "a <= b", np.zeros(9), "<=", np.ones(8))
    assert [f.step for f in ctl.caught] == ["4"]


def test_a_negative_control_can_require_where_a_step_fails():
    lhs = np.array([0, 0, 5, 0])  # fails first at round 3
    with olkit.negative_control("fails at round 3", expect="1", at={"1": 3}) as ctl:
        Proof("T").step("1", "x <= 1", lhs, "<=", 1)
    assert ctl.caught[0].where == "round 3"
    with pytest.raises(AssertionError, match="expected step 1 to fail at round 2; it failed at round 3"):
        with olkit.negative_control("fails at round 3", at={"1": 2}):
            Proof("T").step("1", "x <= 1", lhs, "<=", 1)
    with pytest.raises(AssertionError, match="expected step 2 to fail at round 1; it did not fail"):
        with olkit.negative_control("fails at round 3", at={"2": 1}):
            Proof("T").step("1", "x <= 1", lhs, "<=", 1)
    with olkit.negative_control("a table", at={"t": "row 2, column 1 of the 2 x 2 table"}):
        Proof("T").step("t", "x <= 1", np.array([[0, 0], [2, 0]]), "<=", 1)
