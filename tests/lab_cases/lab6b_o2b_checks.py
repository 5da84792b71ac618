"""The cases of lab6b_o2b_checks (a proof-check lab, graded by mutation).

WRONG: per question, typical wrong sets of checks: (what is wrong, the source, a phrase of the feedback).
RIGHT: per question, right sets of checks written another way (full marks).
VACUOUS: per question, checks that cannot fail: no points at all.
MISSING: per question, (the reference with one step left out, the tests it must fail: exactly those of
the variants that only that step stops).
"""

WRONG = {
    "q1": [
        ("compares the record with itself", """
def o2b_identity_checks(run):
    p = olkit.Proof("online to batch")
    p.step("0", "L = L", run.risks.astype(float), "==", run.risks.astype(float))
    p.step("1", "conv = conv", run.conv.astype(float), "==", run.conv.astype(float))
    return p
""", "slipped through your checks"),
        ("step 2 with the risk of h_{t+1} (one round late)", """
def o2b_identity_checks(run):
    p = olkit.Proof("online to batch")
    N, T = run.samples.shape
    mistake = run.paths[np.arange(N)[:, None], np.arange(T), run.samples] != run.target[run.samples]
    lhs = (run.prob[:, None] * run.risks[:, 1:]).sum(axis=0)
    rhs = (run.prob[:, None] * mistake).sum(axis=0)
    p.step("2", "E L_D(h_t) = E 1[mistake_t]", (lhs - rhs).astype(float), "==", 0)
    return p
""", "refused a correct run"),
        ("step 0 with every point counted 1/n (the risk without p)", """
def o2b_identity_checks(run):
    p = olkit.Proof("online to batch")
    n = len(run.p)
    exact = np.array([[Fraction(int((h != run.target).sum()), n) for h in rows] for rows in run.paths], dtype=object)
    p.step("0", "recorded risks", (run.risks - exact).astype(float), "==", 0)
    return p
""", "refused a correct run"),
        ("step 1 averages h_1, ..., h_{T+1} (T + 1 hypotheses)", """
def o2b_identity_checks(run):
    p = olkit.Proof("online to batch")
    T = run.T
    p.step("1", "E_r L_D(h_r) = mean of the risks", (run.conv.sum(axis=1) / T - run.risks.sum(axis=1) / (T + 1)).astype(float),
           "==", 0)
    return p
""", "refused a correct run"),
        ("the record's step only", """
def o2b_identity_checks(run):
    p = olkit.Proof("online to batch")
    wrong = run.paths != run.target
    exact = np.array([[sum((run.p[x] for x in np.flatnonzero(r)), Fraction(0)) for r in rows] for rows in wrong])
    p.step("0", "recorded L_D(h_t) = sum_x p(x) 1[h_t(x) != target(x)]", (run.risks - exact).astype(float), "==", 0)
    return p
""", "slipped through your checks"),
    ],
    "q2": [
        ("only the PAC form", """
def o2b_bound_checks(run):
    p = olkit.Proof("online to batch")
    T, eps = run.T, run.eps
    fail = (run.prob * (run.conv >= eps).sum(axis=1)).sum() / T
    p.step("P", "P[L >= eps] <= M_A / (T eps)", float(fail), "<=", float(Fraction(run.mistake_bound) / (T * eps)))
    return p
""", "slipped through your checks"),
        ("step 3 strict (fewer mistakes than the bound)", """
def o2b_bound_checks(run):
    p = olkit.Proof("online to batch")
    N, T = run.samples.shape
    mistake = run.paths[np.arange(N)[:, None], np.arange(T), run.samples] != run.target[run.samples]
    p.step("3", "M < M_A", mistake.sum(axis=1), "<", run.mistake_bound)
    return p
""", "refused a correct run"),
        ("E L_D(h_r) from the learner's hypotheses, not from the conversion", """
def o2b_bound_checks(run):
    p = olkit.Proof("online to batch")
    N, T = run.samples.shape
    mistake = run.paths[np.arange(N)[:, None], np.arange(T), run.samples] != run.target[run.samples]
    p.step("3", "M <= M_A", mistake.sum(axis=1), "<=", run.mistake_bound)
    expected = (run.prob * run.risks[:, :T].sum(axis=1)).sum() / T
    p.step("4", "E L_D(h_r) <= M_A / T", float(expected - Fraction(run.mistake_bound, T)), "<=", 0)
    return p
""", "slipped through your checks"),
        ("Markov's step without the T", """
def o2b_bound_checks(run):
    p = olkit.Proof("online to batch")
    N, T = run.samples.shape
    mistake = run.paths[np.arange(N)[:, None], np.arange(T), run.samples] != run.target[run.samples]
    p.step("3", "M <= M_A", mistake.sum(axis=1), "<=", run.mistake_bound)
    fail = (run.prob * (run.conv >= run.eps).sum(axis=1)).sum() / T
    p.step("P", "P[L >= eps] <= M_A / eps", float(fail), "<=", float(run.mistake_bound / run.eps))
    return p
""", "slipped through your checks"),
    ],
}

RIGHT = {
    "q1": [("sample by sample, in plain Python with Fractions", """
def o2b_identity_checks(run):
    T, n = run.T, len(run.p)
    bad0, bad1 = [], []
    lhs, rhs = [Fraction(0)] * T, [Fraction(0)] * T
    for s, xs in enumerate(run.samples):
        risk = [sum((run.p[x] for x in range(n) if run.paths[s, t, x] != run.target[x]), Fraction(0))
                for t in range(T + 1)]
        bad0.append(any(a != b for a, b in zip(run.risks[s], risk)))
        bad1.append(sum(run.conv[s]) != sum(run.risks[s][:T]))
        for t in range(T):
            lhs[t] += run.prob[s] * run.risks[s, t]
            rhs[t] += run.prob[s] * int(run.paths[s, t, xs[t]] != run.target[xs[t]])
    p = olkit.Proof("Theorem 6.1, sample by sample")
    p.step("0", "recorded risks are the risks", bad0, "==", False)
    p.step("1", "E_r L_D(h_r) = (1/T) sum_t L_D(h_t)", bad1, "==", False)
    p.step("2", "E L_D(h_t) = E 1[mistake_t]", [a == b for a, b in zip(lhs, rhs)], "==", True)
    return p
""")],
    "q2": [("sample by sample, in plain Python with Fractions", """
def o2b_bound_checks(run):
    T, eps, M_A = run.T, run.eps, run.mistake_bound
    M, e_risk, e_fail = [], Fraction(0), Fraction(0)
    for s, xs in enumerate(run.samples):
        M.append(sum(int(run.paths[s, t, xs[t]] != run.target[xs[t]]) for t in range(T)))
        e_risk += run.prob[s] * sum(run.conv[s]) / T
        e_fail += run.prob[s] * Fraction(sum(1 for v in run.conv[s] if v >= eps), T)
    p = olkit.Proof("Theorem 6.1's bound, sample by sample")
    p.step("3", "M <= M_A", M, "<=", M_A)
    p.step("4", "E L_D(h_r) <= M_A / T", e_risk <= Fraction(M_A, T), "==", True)
    p.step("M", "Markov", e_fail <= e_risk / eps, "==", True, kind="identity", why="Markov's inequality")
    p.step("P", "P[L_D(h_r) >= eps] <= M_A / (T eps)", e_fail <= Fraction(M_A) / (T * eps), "==", True)
    return p
""")],
}

VACUOUS = {
    "q1": """
def o2b_identity_checks(run):
    p = olkit.Proof("online to batch")
    p.step("2", "E = E", float((run.prob * run.risks[:, 0]).sum()), "==", float((run.prob * run.risks[:, 0]).sum()))
    return p
""",
    "q2": """
def o2b_bound_checks(run):
    p = olkit.Proof("online to batch")
    p.step("4", "E <= E", float((run.prob * run.conv[:, 0]).sum()), "<=", float((run.prob * run.conv[:, 0]).sum()))
    return p
""",
}

MISSING = {
    "q1": [("""
def o2b_identity_checks(run):
    p = olkit.Proof("Theorem 6.1 without step 1")
    N, T = run.samples.shape
    wrong = run.paths != run.target
    exact = np.array([[sum((run.p[x] for x in np.flatnonzero(row)), Fraction(0)) for row in rows] for rows in wrong])
    p.step("0", "recorded L_D(h_t) = sum_x p(x) 1[h_t(x) != target(x)]", (run.risks - exact).astype(float), "==", 0)
    mistake = wrong[np.arange(N)[:, None], np.arange(T), run.samples]
    lhs = (run.prob[:, None] * run.risks[:, :T]).sum(axis=0)
    rhs = (run.prob[:, None] * mistake).sum(axis=0)
    p.step("2", "E L_D(h_t) = E 1[h_t(x_t) != y_t]", (lhs - rhs).astype(float), "==", 0)
    return p
""", {"test_q1_last_as_random"})],
    "q2": [("""
def o2b_bound_checks(run):
    p = olkit.Proof("Theorem 6.1 without step 3")
    T, M_A, eps = run.T, run.mistake_bound, run.eps
    expected = (run.prob * run.conv.sum(axis=1)).sum() / T
    p.step("4", "E L_D(h_r) <= M_A(H) / T", float(expected - Fraction(M_A, T)), "<=", 0)
    fail = (run.prob * (run.conv >= eps).sum(axis=1)).sum() / T
    p.step("P", "P[L_D(h_r) >= eps] <= M_A(H) / (T eps)", float(fail - Fraction(M_A) / (T * eps)), "<=", 0)
    return p
""", {"test_q2_public"})],
}
