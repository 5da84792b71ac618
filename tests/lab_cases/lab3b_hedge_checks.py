"""The cases of lab3b_hedge_checks (a proof-check lab, graded by mutation).

WRONG: per question, typical wrong sets of checks: (what is wrong, the source, a phrase of the feedback).
RIGHT: per question, right sets of checks written another way (full marks).
VACUOUS: per question, checks that cannot fail: no points at all.
MISSING: per question, (the reference with one step left out, the tests it must fail: exactly those of
the variants that only that step stops).
"""

_LNW = """
    T, N = losses.shape
    L = np.vstack([np.zeros(N), np.cumsum(losses, axis=0)])
    m = L.min(axis=1)
    lnW = -eta * m + np.log(np.exp(-eta * (L - m[:, None])).sum(axis=1))
"""

WRONG = {
    "q1": [
        ("eta / 8 in place of eta^2 / 8 in Hoeffding's step (a wrong constant)", """
def hedge_round_checks(losses, P, eta):
    p = olkit.Proof("Hedge")""" + _LNW + """
    step = lnW[1:] - lnW[:-1]
    p.step("1", "potential through p_t", step, "==", np.log((P * np.exp(-eta * losses)).sum(axis=1)), tol=1e-9)
    p.step("3", "Hoeffding", step, "<=", eta / 8 - eta * (P * losses).sum(axis=1), tol=1e-9)
    return p
""", "refused a correct run"),
        ("compares the potential's step with itself", """
def hedge_round_checks(losses, P, eta):
    p = olkit.Proof("Hedge")""" + _LNW + """
    step = lnW[1:] - lnW[:-1]
    p.step("1", "ln(W_{t+1}/W_t) = ln(W_{t+1}/W_t)", step, "==", step)
    p.step("3", "<p_t, l_t> <= <p_t, l_t>", (P * losses).sum(axis=1), "<=", (P * losses).sum(axis=1))
    return p
""", "slipped through your checks"),
        ("W_t by the plain formula (underflows to 0 when eta L is large)", """
def hedge_round_checks(losses, P, eta):
    p = olkit.Proof("Hedge")
    N = losses.shape[1]
    L = np.vstack([np.zeros(N), np.cumsum(losses, axis=0)])
    lnW = np.log(np.exp(-eta * L).sum(axis=1))
    step = lnW[1:] - lnW[:-1]
    p.step("1", "potential through p_t", step, "==", np.log((P * np.exp(-eta * losses)).sum(axis=1)), tol=1e-9)
    p.step("3", "Hoeffding", step, "<=", eta**2 / 8 - eta * (P * losses).sum(axis=1), tol=1e-9)
    return p
""", "refused a correct run"),
        ("W_t from the losses up to round t (one round late)", """
def hedge_round_checks(losses, P, eta):
    p = olkit.Proof("Hedge")
    N = losses.shape[1]
    L = np.vstack([np.cumsum(losses, axis=0), np.cumsum(losses, axis=0)[-1:] + losses[-1:]])
    m = L.min(axis=1)
    lnW = -eta * m + np.log(np.exp(-eta * (L - m[:, None])).sum(axis=1))
    step = lnW[1:] - lnW[:-1]
    p.step("1", "potential through p_t", step, "==", np.log((P * np.exp(-eta * losses)).sum(axis=1)), tol=1e-9)
    p.step("3", "Hoeffding", step, "<=", eta**2 / 8 - eta * (P * losses).sum(axis=1), tol=1e-9)
    return p
""", "refused a correct run"),
        ("Hoeffding with the sign of <p_t, l_t> turned", """
def hedge_round_checks(losses, P, eta):
    p = olkit.Proof("Hedge")""" + _LNW + """
    step = lnW[1:] - lnW[:-1]
    p.step("1", "potential through p_t", step, "==", np.log((P * np.exp(-eta * losses)).sum(axis=1)), tol=1e-9)
    p.step("3", "Hoeffding", step, "<=", eta**2 / 8 + eta * (P * losses).sum(axis=1), tol=1e-9)
    return p
""", "slipped through your checks"),
    ],
    "q2": [
        ("only the final bound R_T <= ln N / eta + eta T / 8", """
def hedge_bound_checks(losses, P, eta):
    p = olkit.Proof("Hedge")
    T, N = losses.shape
    R = (P * losses).sum() - losses.sum(axis=0).min()
    p.step("7", "R_T <= ln N / eta + eta T / 8", R, "<=", np.log(N) / eta + eta * T / 8)
    return p
""", "slipped through your checks"),
        ("forgets ln W_1 = ln N in the sum", """
def hedge_bound_checks(losses, P, eta):
    p = olkit.Proof("Hedge")""" + _LNW + """
    t = np.arange(1, T + 1)
    Lhat = np.cumsum((P * losses).sum(axis=1))
    p.step("5", "ln W_{t+1} <= eta^2 t / 8 - eta Lhat_t", lnW[1:], "<=", eta**2 * t / 8 - eta * Lhat, tol=1e-9)
    p.step("7", "R_t <= ln N / eta + eta t / 8", Lhat - m[1:], "<=", np.log(N) / eta + eta * t / 8, tol=1e-9)
    return p
""", "refused a correct run"),
        ("eta t / 8 in place of eta^2 t / 8 in the sum (a wrong constant)", """
def hedge_bound_checks(losses, P, eta):
    p = olkit.Proof("Hedge")""" + _LNW + """
    t = np.arange(1, T + 1)
    Lhat = np.cumsum((P * losses).sum(axis=1))
    p.step("5", "sum", lnW[1:] - lnW[0], "<=", eta * t / 8 - eta * Lhat, tol=1e-9)
    p.step("7", "R_t <= ln N / eta + eta t / 8", Lhat - m[1:], "<=", np.log(N) / eta + eta * t / 8, tol=1e-9)
    return p
""", "refused a correct run"),
        ("the regret against the worst expert", """
def hedge_bound_checks(losses, P, eta):
    p = olkit.Proof("Hedge")""" + _LNW + """
    t = np.arange(1, T + 1)
    Lhat = np.cumsum((P * losses).sum(axis=1))
    p.step("7", "R_t <= ln N / eta + eta t / 8", Lhat - L[1:].max(axis=1), "<=", np.log(N) / eta + eta * t / 8)
    return p
""", "slipped through your checks"),
    ],
}

RIGHT = {
    "q1": [("a loop over the rounds, with scipy's logsumexp", """
def hedge_round_checks(losses, P, eta):
    from scipy.special import logsumexp
    p = olkit.Proof("Hedge, round by round")
    T, N = losses.shape
    L = np.zeros(N)
    moves, through, bound = [], [], []
    for t in range(T):
        before = logsumexp(-eta * L)
        L = L + losses[t]
        moves.append(logsumexp(-eta * L) - before)
        through.append(logsumexp(-eta * losses[t], b=P[t]))
        bound.append(eta**2 / 8 - eta * float(P[t] @ losses[t]))
    p.step("1", "ln(W_{t+1}/W_t) = ln sum_i p_{t,i} e^(-eta l_{t,i})", moves, "==", through, tol=1e-8)
    p.step("3", "ln(W_{t+1}/W_t) <= eta^2/8 - eta <p_t, l_t>", moves, "<=", bound, tol=1e-8)
    return p
""")],
    "q2": [("scipy's logsumexp, steps 6 marked as identities", """
def hedge_bound_checks(losses, P, eta):
    from scipy.special import logsumexp
    T, N = losses.shape
    L = np.vstack([np.zeros(N), np.cumsum(losses, axis=0)])
    lnW = logsumexp(-eta * L, axis=1)
    t = np.arange(1, T + 1)
    Lhat = np.cumsum(np.einsum("ti,ti->t", P, losses))
    best = L[1:].min(axis=1)
    p = olkit.Proof("Theorem 3.4's chain")
    p.step("5", "the sum", lnW[1:] - lnW[0], "<=", eta**2 * t / 8 - eta * Lhat, tol=1e-8)
    p.step("6", "lower bound", lnW[1:], ">=", -eta * best, tol=1e-8, kind="identity")
    p.step("6'", "ln W_1 = ln N", lnW[0], "==", np.log(N), tol=1e-12, kind="identity")
    p.step("7", "the bound", Lhat - best, "<=", np.log(N) / eta + eta * t / 8, tol=1e-8)
    return p
""")],
}

VACUOUS = {
    "q1": """
def hedge_round_checks(losses, P, eta):
    p = olkit.Proof("Hedge")
    mix = (np.asarray(P) * np.asarray(losses)).sum(axis=1)
    p.step("1", "<p_t, l_t> = <p_t, l_t>", mix, "==", mix)
    p.step("3", "<p_t, l_t> <= <p_t, l_t> + 1", mix, "<=", mix + 1)
    return p
""",
    "q2": """
def hedge_bound_checks(losses, P, eta):
    p = olkit.Proof("Hedge")
    N = np.asarray(losses).shape[1]
    p.step("6'", "ln N = ln N", np.log(N), "==", np.log(N))
    return p
""",
}

MISSING = {
    "q1": [("""
def hedge_round_checks(losses, P, eta):
    p = olkit.Proof("Hedge: step 1 only")""" + _LNW + """
    step = lnW[1:] - lnW[:-1]
    p.step("1", "potential through p_t", step, "==", np.log((P * np.exp(-eta * losses)).sum(axis=1)), tol=1e-9)
    return p
""", {"test_q1_outside"}), ("""
def hedge_round_checks(losses, P, eta):
    p = olkit.Proof("Hedge: step 3 only")""" + _LNW + """
    step = lnW[1:] - lnW[:-1]
    p.step("3", "Hoeffding", step, "<=", eta**2 / 8 - eta * (P * losses).sum(axis=1), tol=1e-9)
    return p
""", {"test_q1_peeking"})],
    "q2": [("""
def hedge_bound_checks(losses, P, eta):
    p = olkit.Proof("Hedge's chain without step 5")""" + _LNW + """
    t = np.arange(1, T + 1)
    Lhat = np.cumsum((P * losses).sum(axis=1))
    p.step("6", "lower bound", lnW[1:], ">=", -eta * m[1:], tol=1e-9)
    p.step("6'", "ln W_1 = ln N", lnW[0], "==", np.log(N), tol=1e-12)
    p.step("7", "R_t <= ln N / eta + eta t / 8", Lhat - m[1:], "<=", np.log(N) / eta + eta * t / 8, tol=1e-9)
    return p
""", {"test_q2_outside"})],
}
