"""The cases of lab5b_ogd_checks (a proof-check lab, graded by mutation).

WRONG: per question, typical wrong sets of checks: (what is wrong, the source, a phrase of the feedback).
RIGHT: per question, right sets of checks written another way (full marks).
VACUOUS: per question, checks that cannot fail: no points at all.
MISSING: per question, (the reference with one step left out, the tests it must fail: exactly those of
the variants that only that step stops).
"""

WRONG = {
    "q1": [
        ("compares the record with itself", """
def ogd_step_checks(run):
    p = olkit.Proof("OGD")
    p.step("0", "z_t = z_t", run.Z, "==", run.Z)
    p.step("P", "w_{t+1} = w_{t+1}", run.W[1:], "==", run.W[1:])
    return p
""", "slipped through your checks"),
        ("the projection onto the unit ball, whatever B", """
def ogd_step_checks(run):
    W, Z, V, eta = run.W, run.Z, run.V, run.eta
    p = olkit.Proof("OGD")
    p.step("0", "z_t = w_t - eta v_t", Z, "==", W[:-1] - eta * V, tol=1e-9)
    n = np.linalg.norm(Z, axis=1, keepdims=True)
    p.step("P", "w_{t+1} = Proj(z_t)", W[1:], "==", Z * np.minimum(1.0, 1.0 / n), tol=1e-9)
    return p
""", "refused a correct run"),
        ("step 2 strict: the projection must move every point", """
def ogd_step_checks(run):
    W, Z, U = run.W, run.Z, run.U
    p = olkit.Proof("OGD")
    after = np.linalg.norm(W[1:, None, :] - U[None], axis=2)
    before = np.linalg.norm(Z[:, None, :] - U[None], axis=2)
    p.step("2", "||w_{t+1} - u|| < ||z_t - u||", after, "<", before)
    return p
""", "refused a correct run"),
        ("step 2 alone (no check of the record or of the rule)", """
def ogd_step_checks(run):
    W, Z, U = run.W, run.Z, run.U
    p = olkit.Proof("OGD")
    after = np.linalg.norm(W[1:, None, :] - U[None], axis=2)
    before = np.linalg.norm(Z[:, None, :] - U[None], axis=2)
    p.step("2", "||w_{t+1} - u|| <= ||z_t - u||", after, "<=", before, tol=1e-9)
    return p
""", "slipped through your checks"),
        ("z_t from the next point (off by one round)", """
def ogd_step_checks(run):
    W, Z, V, eta = run.W, run.Z, run.V, run.eta
    p = olkit.Proof("OGD")
    p.step("0", "z_t = w_{t+1} - eta v_t", Z, "==", W[1:] - eta * V, tol=1e-9)
    return p
""", "refused a correct run"),
    ],
    "q2": [
        ("only the bound of step 6", """
def ogd_bound_checks(run):
    p = olkit.Proof("OGD")
    regret = run.fW.sum() - run.fU.sum(axis=0)
    rho = np.linalg.norm(run.V, axis=1).max()
    p.step("6", "Regret <= B^2/(2 eta) + eta T rho^2/2", regret, "<=",
           run.B ** 2 / (2 * run.eta) + run.eta * run.T * rho ** 2 / 2)
    return p
""", "slipped through your checks"),
        ("convexity the wrong way round (f_t(u) - f_t(w_t) <= <u - w_t, v_t>)", """
def ogd_bound_checks(run):
    W, V, U = run.W, run.V, run.U
    p = olkit.Proof("OGD")
    inner = np.einsum("tnd,td->tn", U[None] - W[:-1, None, :], V)
    p.step("1", "f_t(u) - f_t(w_t) <= <u - w_t, v_t>", run.fU - run.fW[:, None], "<=", inner, tol=1e-9)
    return p
""", "refused a correct run"),
        ("step 4 without the term (eta/2) ||v_t||^2", """
def ogd_bound_checks(run):
    W, V, U, eta = run.W, run.V, run.U, run.eta
    p = olkit.Proof("OGD")
    inner = np.einsum("tnd,td->tn", W[:-1, None, :] - U[None], V)
    D2 = ((W[:, None, :] - U[None]) ** 2).sum(axis=2)
    p.step("1", "f_t(w_t) - f_t(u) <= <w_t - u, v_t>", run.fW[:, None] - run.fU, "<=", inner, tol=1e-9)
    p.step("4", "<w_t - u, v_t> <= (D_t^2 - D_{t+1}^2)/(2 eta)", inner, "<=", (D2[:-1] - D2[1:]) / (2 * eta), tol=1e-9)
    return p
""", "refused a correct run"),
        ("a tolerance that swallows every difference", """
def ogd_bound_checks(run):
    W, V, U, eta = run.W, run.V, run.U, run.eta
    p = olkit.Proof("OGD")
    inner = np.einsum("tnd,td->tn", W[:-1, None, :] - U[None], V)
    D2 = ((W[:, None, :] - U[None]) ** 2).sum(axis=2)
    v2 = (V ** 2).sum(axis=1)
    p.step("1", "f_t(w_t) - f_t(u) <= <w_t - u, v_t>", run.fW[:, None] - run.fU, "<=", inner, tol=1e9)
    p.step("4", "one step", inner, "<=", (D2[:-1] - D2[1:]) / (2 * eta) + eta / 2 * v2[:, None], tol=1e9)
    return p
""", "slipped through your checks"),
    ],
}

RIGHT = {
    "q1": [("loops over the rounds and the comparators, with math", """
def ogd_step_checks(run):
    import math
    p = olkit.Proof("OGD, round by round")
    err0, errP, after, before = [], [], [], []
    for t in range(run.T):
        w, z, v, w_next = run.W[t], run.Z[t], run.V[t], run.W[t + 1]
        err0.append(float(np.max(np.abs(z - (w - run.eta * v)))))
        norm = math.sqrt(float(z @ z))
        proj = z if norm <= run.B else z * (run.B / norm)
        errP.append(float(np.max(np.abs(w_next - proj))))
        for u in run.U:
            after.append(math.dist(w_next, u))
            before.append(math.dist(z, u))
    p.step("0", "z_t = w_t - eta v_t", err0, "<=", 1e-9)
    p.step("P", "w_{t+1} = Proj(z_t)", errP, "<=", 1e-9)
    p.step("2", "||w_{t+1} - u|| <= ||z_t - u||", after, "<=", np.array(before) + 1e-9)
    return p
""")],
    "q2": [("one comparator at a time, the steps as in the book", """
def ogd_bound_checks(run):
    p = olkit.Proof("Theorem 5.1, comparator by comparator")
    eta, V, W = run.eta, run.V, run.W
    v2 = np.einsum("td,td->t", V, V)
    rho2 = v2.max()
    for j, u in enumerate(run.U):
        D2 = np.einsum("td,td->t", W - u, W - u)
        inner = np.einsum("td,td->t", W[:-1] - u, V)
        gap = run.fW - run.fU[:, j]
        p.step("1", f"convexity, comparator {j + 1}", gap, "<=", inner, tol=1e-9)
        Z2 = np.einsum("td,td->t", W[:-1] - eta * V - u, W[:-1] - eta * V - u)
        p.step("3", f"the square expanded, comparator {j + 1}", Z2, "==", D2[:-1] - 2 * eta * inner + eta**2 * v2,
               tol=1e-9, kind="identity", why="algebra")
        p.step("4", f"one step, comparator {j + 1}", inner, "<=", (D2[:-1] - D2[1:]) / (2 * eta) + eta / 2 * v2,
               tol=1e-9)
        p.step("5", f"telescoping, comparator {j + 1}", gap.sum(), "<=", (D2[0] - D2[-1]) / (2 * eta) + eta / 2 * v2.sum(),
               tol=1e-9)
        p.step("6", f"the bound, comparator {j + 1}", gap.sum(), "<=", run.B**2 / (2 * eta) + eta * run.T * rho2 / 2,
               tol=1e-9)
    return p
""")],
}

VACUOUS = {
    "q1": """
def ogd_step_checks(run):
    p = olkit.Proof("OGD")
    p.step("0", "z = z", np.asarray(run.Z), "==", np.asarray(run.Z))
    p.step("P", "w = w", np.asarray(run.W), "==", np.asarray(run.W))
    p.step("2", "||z|| <= ||z||", np.linalg.norm(run.Z, axis=1), "<=", np.linalg.norm(run.Z, axis=1))
    return p
""",
    "q2": """
def ogd_bound_checks(run):
    p = olkit.Proof("OGD")
    regret = run.fW.sum() - run.fU.sum(axis=0)
    p.step("5", "Regret <= Regret", regret, "<=", regret)
    return p
""",
}

MISSING = {
    "q1": [("""
def ogd_step_checks(run):
    W, Z, U, B = run.W, run.Z, run.U, run.B
    p = olkit.Proof("OGD without step 0")
    norms = np.linalg.norm(Z, axis=1)
    proj = Z * np.minimum(1.0, B / np.maximum(norms, 1e-300))[:, None]
    p.step("P", "w_{t+1} = Proj(z_t)", np.abs(W[1:] - proj).max(axis=1), "==", 0, tol=1e-9)
    after = np.linalg.norm(W[1:, None, :] - U[None], axis=2)
    before = np.linalg.norm(Z[:, None, :] - U[None], axis=2)
    p.step("2", "||w_{t+1} - u|| <= ||z_t - u||", after, "<=", before, tol=1e-9)
    return p
""", {"test_q1_step_2eta"})],
    "q2": [("""
def ogd_bound_checks(run):
    W, V, U, B, eta, T = run.W, run.V, run.U, run.B, run.eta, run.T
    p = olkit.Proof("OGD's regret bound without step 1")
    inner = np.einsum("tnd,td->tn", W[:-1, None, :] - U[None], V)
    D2 = ((W[:, None, :] - U[None]) ** 2).sum(axis=2)
    v2 = (V ** 2).sum(axis=1)
    p.step("4", "one step", inner, "<=", (D2[:-1] - D2[1:]) / (2 * eta) + eta / 2 * v2[:, None], tol=1e-9)
    regret = run.fW.sum() - run.fU.sum(axis=0)
    p.step("5", "telescoping", regret, "<=", (D2[0] - D2[-1]) / (2 * eta) + eta / 2 * v2.sum(), tol=1e-9)
    p.step("6", "the bound", regret, "<=", B ** 2 / (2 * eta) + eta * T * v2.max() / 2, tol=1e-9)
    return p
""", {"test_q2_public", "test_q2_not_subgradient"})],
}
