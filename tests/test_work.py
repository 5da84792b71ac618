"""olkit.work: machine-independent counts of work."""
import sys

import numpy as np
import pytest

import olkit
from olkit.work import opcodes, opcodes_per_round


def test_opcodes_counts_python_instructions_and_grows_with_a_loop():
    def loop(k):
        s = 0
        for i in range(k):
            s += i
        return s

    r10, c10 = opcodes(loop, 10)
    r20, c20 = opcodes(loop, 20)
    assert r10 == 45 and r20 == 190 and c20 > c10 > 0
    assert opcodes(loop, 10)[1] == c10  # the same call, the same count


def test_threshold_halving_does_the_same_work_for_every_n_and_halving_does_not():
    xs, ys = np.arange(20), np.zeros(20, dtype=np.int64)
    counts = {n: opcodes_per_round(olkit.ThresholdHalving(n), xs, ys).tolist() for n in (50, 10**4, 10**9)}
    assert counts[50] == counts[10**4] == counts[10**9]
    with pytest.raises(ValueError, match="same length"):
        opcodes_per_round(olkit.ThresholdHalving(5), [1, 2], [0])


def test_a_straight_line_function_executes_exactly_its_listed_instructions():
    import dis

    def f(a, b):
        c = a + b
        return c * 2

    listed = [i.opname for i in dis.get_instructions(f)]
    result, count = opcodes(f, 1, 2)
    assert result == 6
    if sys.version_info[:2] == (3, 11):  # the book's Python: every instruction but RESUME, which runs
        assert listed[0] == "RESUME" and count == len(listed) - 1  # before the tracer sees the frame


def test_per_round_work_is_predict_plus_update():
    learner, twin = olkit.ThresholdHalving(100), olkit.ThresholdHalving(100)
    per_round = opcodes_per_round(learner, [3, 70], [0, 1])
    expected = []
    for x, y in ((3, 0), (70, 1)):
        expected.append(opcodes(twin.predict, x)[1] + opcodes(twin.update, x, y)[1])
    assert per_round.tolist() == expected
