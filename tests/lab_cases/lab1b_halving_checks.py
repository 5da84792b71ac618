"""The cases of lab1b_halving_checks (a proof-check lab, graded by mutation).

WRONG: per question, typical wrong sets of checks: (what is wrong, the source, a phrase of the feedback).
RIGHT: per question, right sets of checks written another way (full marks).
VACUOUS: per question, checks that cannot fail: no points at all.
MISSING: per question, (the reference with one step left out, the tests it must fail: exactly those of
the variants that only that step stops).
"""

WRONG = {
    "q1": [
        ("compares the record with itself", """
def halving_rule_checks(H, xs, ys, yhat, sizes):
    p = olkit.Proof("Halving")
    p.step("0", "|V_t| = |V_t|", sizes, "==", sizes)
    p.step("0'", "yhat_t = yhat_t", yhat, "==", yhat)
    return p
""", "slipped through your checks"),
        ("the majority with ties towards 0 (Halving breaks them towards 1)", """
def halving_rule_checks(H, xs, ys, yhat, sizes):
    p = olkit.Proof("Halving")
    alive = np.ones(len(H), dtype=bool)
    V, majority = [len(H)], []
    for x, y in zip(xs, ys):
        majority.append(1 if 2 * int(H[alive, x].sum()) > alive.sum() else 0)
        alive = alive & (H[:, x] == y)
        V.append(int(alive.sum()))
    p.step("0", "recorded |V_t| = consistent", sizes, "==", V)
    p.step("0'", "yhat_t = majority", yhat, "==", majority)
    return p
""", "refused a correct run"),
        ("V_t after the round's update (one round late)", """
def halving_rule_checks(H, xs, ys, yhat, sizes):
    p = olkit.Proof("Halving")
    alive = np.ones(len(H), dtype=bool)
    V, majority = [], []
    for x, y in zip(xs, ys):
        alive = alive & (H[:, x] == y)
        V.append(int(alive.sum()))
        majority.append(1 if 2 * int(H[alive, x].sum()) >= alive.sum() else 0)
    p.step("0", "recorded |V_t| = consistent", sizes[1:], "==", V)
    p.step("0'", "yhat_t = majority", yhat, "==", majority)
    return p
""", "refused a correct run"),
        ("a tolerance that swallows every difference", """
def halving_rule_checks(H, xs, ys, yhat, sizes):
    p = olkit.Proof("Halving")
    alive = np.ones(len(H), dtype=bool)
    V, majority = [len(H)], []
    for x, y in zip(xs, ys):
        majority.append(1 if 2 * int(H[alive, x].sum()) >= alive.sum() else 0)
        alive = alive & (H[:, x] == y)
        V.append(int(alive.sum()))
    p.step("0", "recorded |V_t| = consistent", sizes, "==", V, tol=1e9)
    p.step("0'", "yhat_t = majority", yhat, "==", majority, tol=1e9)
    return p
""", "slipped through your checks"),
    ],
    "q2": [
        ("only the bound M <= log2 |H|", """
def halving_bound_checks(H, xs, ys, yhat, sizes):
    p = olkit.Proof("Halving")
    p.step("5", "M <= log2 |H|", int((yhat != ys).sum()), "<=", float(np.log2(len(H))))
    return p
""", "slipped through your checks"),
        ("halving on every round, not only on mistakes", """
def halving_bound_checks(H, xs, ys, yhat, sizes):
    p = olkit.Proof("Halving")
    alive = np.ones(len(H), dtype=bool)
    V = [len(H)]
    for x, y in zip(xs, ys):
        alive = alive & (H[:, x] == y)
        V.append(int(alive.sum()))
    V = np.array(V)
    p.step("2", "|V_{t+1}| <= |V_t| / 2", V[1:], "<=", V[:-1] / 2)
    return p
""", "refused a correct run"),
        ("strictly less than half on a mistake", """
def halving_bound_checks(H, xs, ys, yhat, sizes):
    p = olkit.Proof("Halving")
    alive = np.ones(len(H), dtype=bool)
    V = [len(H)]
    for x, y in zip(xs, ys):
        alive = alive & (H[:, x] == y)
        V.append(int(alive.sum()))
    V, mistake = np.array(V), yhat != ys
    p.step("2", "|V_{t+1}| < |V_t| / 2", V[1:], "<", V[:-1] / 2, where=mistake)
    p.step("4a", "|V_{t+1}| >= 1", V[1:], ">=", 1)
    return p
""", "refused a correct run"),
    ],
}

RIGHT = {
    "q1": [("the version spaces of all rounds at once (cumulative products)", """
def halving_rule_checks(H, xs, ys, yhat, sizes):
    agree = H[:, xs] == ys[None, :]
    alive = np.hstack([np.ones((len(H), 1), dtype=bool), np.cumprod(agree, axis=1).astype(bool)])
    V = alive.sum(axis=0)
    ones = (alive[:, :-1] & (H[:, xs] == 1)).sum(axis=0)
    p = olkit.Proof("Halving, vectorized")
    p.step("0", "recorded |V_t| = consistent", sizes, "==", V)
    p.step("0'", "yhat_t = majority, 1 on a tie", yhat, "==", (2 * ones >= V[:-1]).astype(int))
    return p
""")],
    "q2": [("the chain on the recorded mistakes, with log2 from math", """
def halving_bound_checks(H, xs, ys, yhat, sizes):
    import math
    p = olkit.Proof("Halving's chain")
    V = [len(H)]
    for t in range(len(xs)):
        V.append(int(np.all(H[:, xs[: t + 1]] == ys[: t + 1], axis=1).sum()))
    V = np.array(V)
    M_t = np.cumsum(yhat != ys)
    p.step("2", "halves on a mistake", 2 * V[1:], "<=", V[:-1], where=(yhat != ys))
    p.step("4a", "the target stays", V[1:], ">=", 1)
    p.step("4b", "|V_{t+1}| <= |H| 2^-M_t", V[1:], "<=", len(H) / 2.0 ** M_t)
    p.step("5", "M <= log2 |H|", int(M_t[-1]), "<=", math.log2(len(H)))
    return p
""")],
}

VACUOUS = {
    "q1": """
def halving_rule_checks(H, xs, ys, yhat, sizes):
    p = olkit.Proof("Halving")
    p.step("0", "|V_t| = |V_t|", np.asarray(sizes), "==", np.asarray(sizes))
    p.step("0'", "yhat = yhat", np.asarray(yhat), "==", np.asarray(yhat))
    return p
""",
    "q2": """
def halving_bound_checks(H, xs, ys, yhat, sizes):
    p = olkit.Proof("Halving")
    p.step("5", "M <= M", int((yhat != ys).sum()), "<=", int((yhat != ys).sum()))
    return p
""",
}

MISSING = {
    "q1": [("""
def halving_rule_checks(H, xs, ys, yhat, sizes):
    p = olkit.Proof("Halving: the record only")
    alive = np.ones(len(H), dtype=bool)
    V = [len(H)]
    for x, y in zip(xs, ys):
        alive = alive & (H[:, x] == y)
        V.append(int(alive.sum()))
    p.step("0", "the recorded |V_t| = the hypotheses consistent with rounds 1..t-1", sizes, "==", V)
    return p
""", {"test_q1_public", "test_q1_over_h"})],
    "q2": [("""
def halving_bound_checks(H, xs, ys, yhat, sizes):
    p = olkit.Proof("Halving's bound, without step 4a")
    alive = np.ones(len(H), dtype=bool)
    V = [len(H)]
    for x, y in zip(xs, ys):
        alive = alive & (H[:, x] == y)
        V.append(int(alive.sum()))
    V, mistake = np.array(V), np.asarray(yhat) != np.asarray(ys)
    p.step("2", "on a mistake |V_{t+1}| <= |V_t| / 2", V[1:], "<=", V[:-1] / 2, where=mistake)
    p.step("4b", "|V_{t+1}| <= |H| 2^-M_t", V[1:], "<=", len(H) * 2.0 ** -np.cumsum(mistake))
    p.step("5", "M <= log2 |H|", int(mistake.sum()), "<=", float(np.log2(len(H))))
    return p
""", {"test_q2_unrealizable"})],
}
