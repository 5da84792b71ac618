"""The cases of lab2b_soa_checks (a proof-check lab, graded by mutation).

WRONG: per question, typical wrong sets of checks: (what is wrong, the source, a phrase of the feedback).
RIGHT: per question, right sets of checks written another way (full marks).
VACUOUS: per question, checks that cannot fail: no points at all.
MISSING: per question, (the reference with one step left out, the tests it must fail: exactly those of
the variants that only that step stops).
"""

WRONG = {
    "q1": [
        ("compares the record with itself", """
def soa_rule_checks(H, xs, ys, yhat, ldims):
    p = olkit.Proof("SOA")
    p.step("0", "Ldim(V_t) = Ldim(V_t)", ldims, "==", ldims)
    p.step("A", "yhat_t = yhat_t", yhat, "==", yhat)
    return p
""", "slipped through your checks"),
        ("the rule with ties towards 0 (SOA breaks them towards 1)", """
def soa_rule_checks(H, xs, ys, yhat, ldims):
    p = olkit.Proof("SOA")
    L = olkit.littlestone.LdimByDefinition(H)
    alive = np.ones(len(H), dtype=bool)
    now, rule = [L(alive)], []
    for x, y in zip(xs, ys):
        l0, l1 = L(alive & (H[:, x] == 0)), L(alive & (H[:, x] == 1))
        rule.append(1 if l1 > l0 else 0)
        alive = alive & (H[:, x] == y)
        now.append(L(alive))
    p.step("0", "recorded Ldim(V_t) = recomputed", ldims, "==", now)
    p.step("A", "yhat_t = the part of larger Ldim", yhat, "==", rule)
    return p
""", "refused a correct run"),
        ("an empty part counted as Ldim 0, not -1 (the erratum of Section 2.2)", """
def soa_rule_checks(H, xs, ys, yhat, ldims):
    p = olkit.Proof("SOA")
    L = olkit.littlestone.LdimByDefinition(H)
    alive = np.ones(len(H), dtype=bool)
    now, rule = [L(alive)], []
    for x, y in zip(xs, ys):
        l0, l1 = max(L(alive & (H[:, x] == 0)), 0), max(L(alive & (H[:, x] == 1)), 0)
        rule.append(1 if l1 >= l0 else 0)
        alive = alive & (H[:, x] == y)
        now.append(L(alive))
    p.step("0", "recorded Ldim(V_t) = recomputed", ldims, "==", now)
    p.step("A", "yhat_t = the part of larger Ldim, 1 on a tie", yhat, "==", rule)
    return p
""", "refused a correct run"),
        ("the parts of the whole class H, not of the version space", """
def soa_rule_checks(H, xs, ys, yhat, ldims):
    p = olkit.Proof("SOA")
    L = olkit.littlestone.LdimByDefinition(H)
    alive = np.ones(len(H), dtype=bool)
    everything = np.ones(len(H), dtype=bool)
    now, rule = [L(alive)], []
    for x, y in zip(xs, ys):
        l0, l1 = L(everything & (H[:, x] == 0)), L(everything & (H[:, x] == 1))
        rule.append(1 if l1 >= l0 else 0)
        alive = alive & (H[:, x] == y)
        now.append(L(alive))
    p.step("0", "recorded Ldim(V_t) = recomputed", ldims, "==", now)
    p.step("A", "yhat_t = the part of larger Ldim, 1 on a tie", yhat, "==", rule)
    return p
""", "refused a correct run"),
        ("Halving's majority vote as the rule", """
def soa_rule_checks(H, xs, ys, yhat, ldims):
    p = olkit.Proof("SOA")
    L = olkit.littlestone.LdimByDefinition(H)
    alive = np.ones(len(H), dtype=bool)
    now, rule = [L(alive)], []
    for x, y in zip(xs, ys):
        rule.append(1 if 2 * int(H[alive, x].sum()) >= alive.sum() else 0)
        alive = alive & (H[:, x] == y)
        now.append(L(alive))
    p.step("0", "recorded Ldim(V_t) = recomputed", ldims, "==", now)
    p.step("A", "yhat_t = the majority vote", yhat, "==", rule)
    return p
""", "refused a correct run"),
        ("a tolerance that swallows every difference", """
def soa_rule_checks(H, xs, ys, yhat, ldims):
    p = olkit.Proof("SOA")
    L = olkit.littlestone.LdimByDefinition(H)
    alive = np.ones(len(H), dtype=bool)
    now, rule = [L(alive)], []
    for x, y in zip(xs, ys):
        l0, l1 = L(alive & (H[:, x] == 0)), L(alive & (H[:, x] == 1))
        rule.append(1 if l1 >= l0 else 0)
        alive = alive & (H[:, x] == y)
        now.append(L(alive))
    p.step("0", "recorded Ldim(V_t) = recomputed", ldims, "==", now, tol=1e9)
    p.step("A", "yhat_t = the part of larger Ldim, 1 on a tie", yhat, "==", rule, tol=1e9)
    return p
""", "slipped through your checks"),
    ],
    "q2": [
        ("only the bound M <= Ldim(H)", """
def soa_bound_checks(H, xs, ys, yhat, ldims):
    p = olkit.Proof("SOA")
    p.step("bound", "M <= Ldim(H)", int((yhat != ys).sum()), "<=", olkit.ldim(H))
    return p
""", "slipped through your checks"),
        ("Halving's bound log2 |H| in place of Ldim(H)", """
def soa_bound_checks(H, xs, ys, yhat, ldims):
    p = olkit.Proof("SOA")
    p.step("bound", "M <= log2 |H|", int((yhat != ys).sum()), "<=", float(np.log2(len(H))))
    return p
""", "slipped through your checks"),
        ("Ldim drops on every round, not only on mistakes", """
def soa_bound_checks(H, xs, ys, yhat, ldims):
    p = olkit.Proof("SOA")
    L = olkit.littlestone.LdimByDefinition(H)
    alive = np.ones(len(H), dtype=bool)
    D = [L(alive)]
    for x, y in zip(xs, ys):
        alive = alive & (H[:, x] == y)
        D.append(L(alive))
    D = np.array(D)
    p.step("5", "Ldim(V_{t+1}) <= Ldim(V_t) - 1", D[1:], "<=", D[:-1] - 1)
    return p
""", "refused a correct run"),
        ("Ldim(V_{t+1}) >= 1: a single hypothesis left has Ldim 0", """
def soa_bound_checks(H, xs, ys, yhat, ldims):
    p = olkit.Proof("SOA")
    L = olkit.littlestone.LdimByDefinition(H)
    alive = np.ones(len(H), dtype=bool)
    D = [L(alive)]
    for x, y in zip(xs, ys):
        alive = alive & (H[:, x] == y)
        D.append(L(alive))
    D, mistake = np.array(D), yhat != ys
    p.step("5", "on a mistake Ldim drops", D[1:], "<=", D[:-1] - 1, where=mistake)
    p.step("6'", "Ldim(V_{t+1}) >= 1", D[1:], ">=", 1)
    return p
""", "refused a correct run"),
        ("M = Ldim(H): the bound as an equality", """
def soa_bound_checks(H, xs, ys, yhat, ldims):
    p = olkit.Proof("SOA")
    p.step("bound", "M = Ldim(H)", int((yhat != ys).sum()), "==", olkit.ldim(H))
    return p
""", "refused a correct run"),
    ],
}

RIGHT = {
    "q1": [("olkit.ldim on the rows of each part, -1 for an empty one, the rule with np.where", """
def soa_rule_checks(H, xs, ys, yhat, ldims):
    def dim(rows):
        return olkit.ldim(rows) if len(rows) else -1

    p = olkit.Proof("SOA, with olkit.ldim")
    V = H.copy()
    now, l0, l1 = [dim(V)], [], []
    for x, y in zip(xs, ys):
        l0.append(dim(V[V[:, x] == 0]))
        l1.append(dim(V[V[:, x] == 1]))
        V = V[V[:, x] == y]
        now.append(dim(V))
    l0, l1 = np.array(l0), np.array(l1)
    p.step("0", "recorded Ldim(V_t) = recomputed", np.asarray(ldims), "==", np.array(now))
    p.step("A", "yhat_t = argmax_r Ldim(V_t(r)), 1 on a tie", np.asarray(yhat), "==", np.where(l1 >= l0, 1, 0))
    return p
""")],
    "q2": [("the version spaces of all rounds at once, the drops with np.diff", """
def soa_bound_checks(H, xs, ys, yhat, ldims):
    L = olkit.littlestone.LdimByDefinition(H)
    agree = H[:, xs] == ys[None, :]
    alive = np.hstack([np.ones((len(H), 1), dtype=bool), np.cumprod(agree, axis=1).astype(bool)])
    D = np.array([L(alive[:, t]) for t in range(alive.shape[1])])
    mistake = yhat != ys
    M_t = np.cumsum(mistake)
    p = olkit.Proof("SOA's chain, vectorized")
    p.step("5", "on a mistake the drop Ldim(V_t) - Ldim(V_{t+1}) >= 1", -np.diff(D), ">=", 1, where=mistake)
    p.step("6'", "Ldim(V_{t+1}) >= 0", D[1:], ">=", 0)
    p.step("6", "M_t + Ldim(V_{t+1}) <= Ldim(H)", M_t + D[1:], "<=", D[0])
    p.step("bound", "M <= Ldim(H)", int(M_t[-1]), "<=", int(D[0]))
    return p
""")],
}

VACUOUS = {
    "q1": """
def soa_rule_checks(H, xs, ys, yhat, ldims):
    p = olkit.Proof("SOA")
    p.step("0", "Ldim(V_t) = Ldim(V_t)", np.asarray(ldims), "==", np.asarray(ldims))
    p.step("A", "yhat = yhat", np.asarray(yhat), "==", np.asarray(yhat))
    return p
""",
    "q2": """
def soa_bound_checks(H, xs, ys, yhat, ldims):
    p = olkit.Proof("SOA")
    p.step("bound", "M <= M", int((yhat != ys).sum()), "<=", int((yhat != ys).sum()))
    return p
""",
}

MISSING = {
    "q1": [("""
def soa_rule_checks(H, xs, ys, yhat, ldims):
    p = olkit.Proof("SOA: the record only")
    L = olkit.littlestone.LdimByDefinition(H)
    alive = np.ones(len(H), dtype=bool)
    now = [L(alive)]
    for x, y in zip(xs, ys):
        alive = alive & (H[:, x] == y)
        now.append(L(alive))
    p.step("0", "the recorded Ldim(V_t) = Ldim of V_t recomputed from the labels", ldims, "==", now)
    return p
""", {"test_q1_public", "test_q1_halving", "test_q1_whole_class"}),
        ("""
def soa_rule_checks(H, xs, ys, yhat, ldims):
    p = olkit.Proof("SOA: the rule only")
    L = olkit.littlestone.LdimByDefinition(H)
    alive = np.ones(len(H), dtype=bool)
    rule = []
    for x, y in zip(xs, ys):
        l0, l1 = L(alive & (H[:, x] == 0)), L(alive & (H[:, x] == 1))
        rule.append(1 if l1 >= l0 else 0)
        alive = alive & (H[:, x] == y)
    p.step("A", "yhat_t = the label r with the larger Ldim(V_t(r)), 1 on a tie", yhat, "==", rule)
    return p
""", {"test_q1_log_record"})],
    "q2": [("""
def soa_bound_checks(H, xs, ys, yhat, ldims):
    p = olkit.Proof("SOA's bound, without step 6'")
    L = olkit.littlestone.LdimByDefinition(H)
    alive = np.ones(len(H), dtype=bool)
    D = [L(alive)]
    for x, y in zip(xs, ys):
        alive = alive & (H[:, x] == y)
        D.append(L(alive))
    D, mistake = np.array(D), np.asarray(yhat) != np.asarray(ys)
    p.step("5", "on a mistake Ldim(V_{t+1}) <= Ldim(V_t) - 1", D[1:], "<=", D[:-1] - 1, where=mistake)
    p.step("6", "M_t <= Ldim(H) - Ldim(V_{t+1})", np.cumsum(mistake), "<=", D[0] - D[1:])
    p.step("bound", "M <= Ldim(H)", int(mistake.sum()), "<=", int(D[0]))
    return p
""", {"test_q2_unrealizable"}),
        ("""
def soa_bound_checks(H, xs, ys, yhat, ldims):
    p = olkit.Proof("SOA's bound, without step 5")
    L = olkit.littlestone.LdimByDefinition(H)
    alive = np.ones(len(H), dtype=bool)
    D = [L(alive)]
    for x, y in zip(xs, ys):
        alive = alive & (H[:, x] == y)
        D.append(L(alive))
    D, mistake = np.array(D), np.asarray(yhat) != np.asarray(ys)
    p.step("6'", "Ldim(V_{t+1}) >= 0", D[1:], ">=", 0)
    p.step("6", "M_t <= Ldim(H) - Ldim(V_{t+1})", np.cumsum(mistake), "<=", D[0] - D[1:])
    p.step("bound", "M <= Ldim(H)", int(mistake.sum()), "<=", int(D[0]))
    return p
""", {"test_q2_whole_class"})],
}
