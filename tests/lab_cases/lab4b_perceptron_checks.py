"""The cases of lab4b_perceptron_checks (a proof-check lab, graded by mutation).

WRONG: per question, typical wrong sets of checks: (what is wrong, the source, a phrase of the feedback).
RIGHT: per question, right sets of checks written another way (full marks).
VACUOUS: per question, checks that cannot fail: no points at all.
MISSING: per question, (the reference with one step left out, the tests it must fail: exactly those of
the variants that only that step stops).
"""

WRONG = {
    "q1": [
        ("compares the record with itself", """
def perceptron_rule_checks(X, y, W, u, rho, r):
    p = olkit.Proof("Perceptron")
    p.step("0", "W = W", W, "==", W)
    p.step("3", "w_{t+1} = w_{t+1}", W[1:], "==", W[1:])
    return p
""", "slipped through your checks"),
        ("a strict condition y <w, x> < 0 (a zero score, as with w_1 = 0, is an update round)", """
def perceptron_rule_checks(X, y, W, u, rho, r):
    p = olkit.Proof("Perceptron")
    before, after = W[:-1], W[1:]
    changed = np.any(after != before, axis=1)
    p.step("0", "update iff y <w, x> < 0", changed, "==", y * np.sum(before * X, axis=1) < 0)
    p.step("3", "w_{t+1} = w_t + y x", after, "==", before + y[:, None] * X, where=changed[:, None], tol=1e-9,
           allow_empty=True)
    return p
""", "refused a correct run"),
        ("the update checked on every round, the correct ones too", """
def perceptron_rule_checks(X, y, W, u, rho, r):
    p = olkit.Proof("Perceptron")
    before, after = W[:-1], W[1:]
    changed = np.any(after != before, axis=1)
    p.step("0", "update iff y <w, x> <= 0", changed, "==", y * np.sum(before * X, axis=1) <= 0)
    p.step("3", "w_{t+1} = w_t + y x", after, "==", before + y[:, None] * X, tol=1e-9)
    return p
""", "refused a correct run"),
        ("a tolerance that swallows every difference", """
def perceptron_rule_checks(X, y, W, u, rho, r):
    p = olkit.Proof("Perceptron")
    before, after = W[:-1], W[1:]
    changed = np.any(after != before, axis=1)
    p.step("0", "update iff y <w, x> <= 0", changed, "==", y * np.sum(before * X, axis=1) <= 0, tol=1)
    p.step("3", "w_{t+1} = w_t + y x", after, "==", before + y[:, None] * X, where=changed[:, None], tol=1e9,
           allow_empty=True)
    return p
""", "slipped through your checks"),
        ("the update rounds taken from the condition, so that a learner that never updates has none to check", """
def perceptron_rule_checks(X, y, W, u, rho, r):
    p = olkit.Proof("Perceptron")
    before, after = W[:-1], W[1:]
    update = y * np.sum(before * X, axis=1) <= 0
    p.step("3", "w_{t+1} = w_t + y x on an update round", after, "==", before + y[:, None] * X,
           where=update[:, None], tol=1e-9)
    return p
""", "slipped through your checks"),
    ],
    "q2": [
        ("only the bound M <= (r / rho)^2", """
def perceptron_bound_checks(X, y, W, u, rho, r):
    M = int(np.any(W[1:] != W[:-1], axis=1).sum())
    return olkit.Proof("Perceptron").step("6", "M <= (r / rho)^2", M, "<=", (r / rho) ** 2)
""", "slipped through your checks"),
        ("rho recomputed from the stream instead of the promised rho", """
def perceptron_bound_checks(X, y, W, u, rho, r):
    p = olkit.Proof("Perceptron")
    rho = float(np.min(y * (X @ u)))
    before, after = W[:-1], W[1:]
    update = np.any(after != before, axis=1)
    M = int(update.sum())
    p.step("1", "<w_{t+1}, u> >= <w_t, u> + rho", after @ u, ">=", before @ u + rho, where=update, tol=1e-9)
    p.step("4", "||w_{t+1}||^2 <= ||w_t||^2 + r^2", np.sum(after**2, axis=1), "<=", np.sum(before**2, axis=1) + r**2,
           where=update, tol=1e-9)
    p.step("5", "||w_{T+1}||^2 <= M r^2", W[-1] @ W[-1], "<=", M * r**2, tol=1e-9)
    p.step("6", "M <= (r / rho)^2", M, "<=", (r / rho) ** 2)
    return p
""", "slipped through your checks"),
        ("the margin step on every round, not only on the update rounds", """
def perceptron_bound_checks(X, y, W, u, rho, r):
    p = olkit.Proof("Perceptron")
    before, after = W[:-1], W[1:]
    update = np.any(after != before, axis=1)
    p.step("1", "<w_{t+1}, u> >= <w_t, u> + rho", after @ u, ">=", before @ u + rho, tol=1e-9)
    p.step("4", "||w_{t+1}||^2 <= ||w_t||^2 + r^2", np.sum(after**2, axis=1), "<=", np.sum(before**2, axis=1) + r**2,
           where=update, tol=1e-9)
    return p
""", "refused a correct run"),
        ("a strict growth bound ||w_{t+1}||^2 < ||w_t||^2 + r^2 (equality: a zero score at a point of norm r)", """
def perceptron_bound_checks(X, y, W, u, rho, r):
    p = olkit.Proof("Perceptron")
    before, after = W[:-1], W[1:]
    update = np.any(after != before, axis=1)
    M = int(update.sum())
    p.step("1", "<w_{t+1}, u> >= <w_t, u> + rho", after @ u, ">=", before @ u + rho, where=update, tol=1e-9)
    p.step("4", "||w_{t+1}||^2 < ||w_t||^2 + r^2", np.sum(after**2, axis=1), "<", np.sum(before**2, axis=1) + r**2,
           where=update)
    p.step("6", "M <= (r / rho)^2", M, "<=", (r / rho) ** 2)
    return p
""", "refused a correct run"),
    ],
}

RIGHT = {
    "q1": [("a loop over the rounds, the update as the difference of the weights", """
def perceptron_rule_checks(X, y, W, u, rho, r):
    p = olkit.Proof("The Perceptron, round by round")
    changed, condition, step, added = [], [], [], []
    for t in range(len(y)):
        w, w_next = W[t], W[t + 1]
        changed.append(not np.array_equal(w, w_next))
        condition.append(y[t] * float(np.dot(w, X[t])) <= 0)
        if changed[-1]:
            step.append(w_next - w)
            added.append(y[t] * X[t])
    p.step("0", "update iff y_t <w_t, x_t> <= 0", np.array(changed), "==", np.array(condition))
    if step:
        p.step("3", "w_{t+1} - w_t = y_t x_t on an update round", np.array(step), "==", np.array(added), tol=1e-9)
    return p
""")],
    "q2": [("a loop with the norms from np.linalg.norm, and the chain of step 6 written out", """
def perceptron_bound_checks(X, y, W, u, rho, r):
    import math
    p = olkit.Proof("The margin bound, round by round")
    gain, growth, rounds = [], [], []
    for t in range(len(y)):
        if np.any(W[t + 1] != W[t]):
            rounds.append(t + 1)
            gain.append(float(W[t + 1] @ u - W[t] @ u))
            growth.append(np.linalg.norm(W[t + 1]) ** 2 - np.linalg.norm(W[t]) ** 2)
    M = len(rounds)
    p.step("1", "<w_{t+1}, u> - <w_t, u> >= rho", gain, ">=", rho, rounds=rounds, tol=1e-9)
    p.step("4", "||w_{t+1}||^2 - ||w_t||^2 <= r^2", growth, "<=", r**2, rounds=rounds, tol=1e-9)
    p.step("5", "||w_{T+1}|| <= sqrt(M) r", float(np.linalg.norm(W[-1])), "<=", math.sqrt(M) * r, tol=1e-9)
    p.step("6", "M <= r^2 / rho^2", M, "<=", r**2 / rho**2)
    return p
""")],
}

VACUOUS = {
    "q1": """
def perceptron_rule_checks(X, y, W, u, rho, r):
    p = olkit.Proof("Perceptron")
    p.step("0", "W = W", np.asarray(W), "==", np.asarray(W))
    return p
""",
    "q2": """
def perceptron_bound_checks(X, y, W, u, rho, r):
    M = int(np.any(W[1:] != W[:-1], axis=1).sum())
    return olkit.Proof("Perceptron").step("6", "M <= M", M, "<=", M)
""",
}

MISSING = {
    "q1": [("""
def perceptron_rule_checks(X, y, W, u, rho, r):
    p = olkit.Proof("The Perceptron: the update only")
    before, after = W[:-1], W[1:]
    changed = np.any(after != before, axis=1)
    p.step("3", "on an update round w_{t+1} = w_t + y_t x_t", after, "==", before + y[:, None] * X,
           where=changed[:, None], tol=1e-9, allow_empty=True)
    return p
""", {"test_q1_public", "test_q1_strict_ties"}), ("""
def perceptron_rule_checks(X, y, W, u, rho, r):
    p = olkit.Proof("The Perceptron: the condition only")
    before, after = W[:-1], W[1:]
    changed = np.any(after != before, axis=1)
    p.step("0", "w changes exactly on the rounds with y_t <w_t, x_t> <= 0", changed, "==",
           y * np.einsum("ij,ij->i", before, X) <= 0)
    return p
""", {"test_q1_wrong_sign", "test_q1_step_two"})],
    "q2": [("""
def perceptron_bound_checks(X, y, W, u, rho, r):
    p = olkit.Proof("The Perceptron's margin bound, without step 1")
    before, after = W[:-1], W[1:]
    update = np.any(after != before, axis=1)
    M = int(update.sum())
    p.step("4", "on an update ||w_{t+1}||^2 <= ||w_t||^2 + r^2", np.sum(after**2, axis=1), "<=",
           np.sum(before**2, axis=1) + r**2, where=update, tol=1e-9)
    p.step("5", "||w_{T+1}||^2 <= M r^2", W[-1] @ W[-1], "<=", M * r**2, tol=1e-9)
    p.step("6", "M <= (r / rho)^2", M, "<=", (r / rho) ** 2)
    return p
""", {"test_q2_thin_margin"})],
}
