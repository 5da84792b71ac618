"""The typical wrong answers of lab3d_soa_experts (tests/test_labs.py runs them through the lab's own test files).

WRONG: per question, (what the answer gets wrong, its source, a phrase the feedback must contain).
RIGHT: per question, (how the answer differs from the reference, its source): a right answer written
another way, which must get full marks.
"""

_EXPERT = """
def soa_expert(H, xs, indices, tie):
    S = olkit.LdimSolver(H)
    V = np.ones(len(H), dtype=bool)
    out = []
    for t, x in enumerate(xs, start=1):
        V0, V1 = V & (H[:, x] == 0), V & (H[:, x] == 1)
        l0, l1 = S.ldim(V0), S.ldim(V1)
        y = 1 if l1 > l0 else 0 if l0 > l1 else tie
        if t in indices:
            y = 1 - y
        out.append(y)
        V = V1 if y == 1 else V0
    return np.array(out)
"""

WRONG = {
    "q1": [
        ("ties always to 0 (UML's rule, whatever tie is asked)", """
def soa_expert(H, xs, indices, tie):
    S = olkit.LdimSolver(H)
    V = np.ones(len(H), dtype=bool)
    out = []
    for t, x in enumerate(xs, start=1):
        V0, V1 = V & (H[:, x] == 0), V & (H[:, x] == 1)
        y = 1 if S.ldim(V1) > S.ldim(V0) else 0
        if t in indices:
            y = 1 - y
        out.append(y)
        V = V1 if y == 1 else V0
    return np.array(out)
""", "Lemma 3.1, step 3"),
        ("the indices read as 0-based rounds", """
def soa_expert(H, xs, indices, tie):
    S = olkit.LdimSolver(H)
    V = np.ones(len(H), dtype=bool)
    out = []
    for t, x in enumerate(xs):
        V0, V1 = V & (H[:, x] == 0), V & (H[:, x] == 1)
        l0, l1 = S.ldim(V0), S.ldim(V1)
        y = 1 if l1 > l0 else 0 if l0 > l1 else tie
        if t in indices:
            y = 1 - y
        out.append(y)
        V = V1 if y == 1 else V0
    return np.array(out)
""", "Lemma 3.1, step 3"),
        ("keeps the half of SOA's label, not of its own (flipped) prediction", """
def soa_expert(H, xs, indices, tie):
    S = olkit.LdimSolver(H)
    V = np.ones(len(H), dtype=bool)
    out = []
    for t, x in enumerate(xs, start=1):
        V0, V1 = V & (H[:, x] == 0), V & (H[:, x] == 1)
        l0, l1 = S.ldim(V0), S.ldim(V1)
        y = 1 if l1 > l0 else 0 if l0 > l1 else tie
        V = V1 if y == 1 else V0
        out.append(1 - y if t in indices else y)
    return np.array(out)
""", "Lemma 3.1, step 3"),
        ("the majority vote of V_t (Halving) in place of SOA's label", """
def soa_expert(H, xs, indices, tie):
    V = np.ones(len(H), dtype=bool)
    out = []
    for t, x in enumerate(xs, start=1):
        V0, V1 = V & (H[:, x] == 0), V & (H[:, x] == 1)
        y = 1 if V1.sum() > V0.sum() else 0 if V0.sum() > V1.sum() else tie
        if t in indices:
            y = 1 - y
        out.append(y)
        V = V1 if y == 1 else V0
    return np.array(out)
""", "Lemma 3.1, step 3"),
        ("starts again from H when its version space empties (a guard the algorithm does not have)", """
def soa_expert(H, xs, indices, tie):
    S = olkit.LdimSolver(H)
    V = np.ones(len(H), dtype=bool)
    out = []
    for t, x in enumerate(xs, start=1):
        if not V.any():
            V = np.ones(len(H), dtype=bool)
        V0, V1 = V & (H[:, x] == 0), V & (H[:, x] == 1)
        l0, l1 = S.ldim(V0), S.ldim(V1)
        y = 1 if l1 > l0 else 0 if l0 > l1 else tie
        if t in indices:
            y = 1 - y
        out.append(y)
        V = V1 if y == 1 else V0
    return np.array(out)
""", "does not follow"),
        ("the version space never shrinks (SOA's label on all of H)", """
def soa_expert(H, xs, indices, tie):
    S = olkit.LdimSolver(H)
    out = []
    for t, x in enumerate(xs, start=1):
        l0, l1 = S.ldim(H[:, x] == 0), S.ldim(H[:, x] == 1)
        y = 1 if l1 > l0 else 0 if l0 > l1 else tie
        out.append(1 - y if t in indices else y)
    return np.array(out)
""", "Lemma 3.1, step 3"),
    ],
    "q2": [
        ("only the experts with exactly Ldim(H) flips", _EXPERT + """
def soa_experts_advice(H, xs, tie):
    from itertools import combinations
    D = olkit.ldim(H)
    return np.array([soa_expert(H, xs, I, tie) for I in combinations(range(1, len(xs) + 1), D)]).T
""", "does not follow Algorithm 3.4's experts"),
        ("every set of rounds (2^T experts)", _EXPERT + """
def soa_experts_advice(H, xs, tie):
    from itertools import combinations
    T = len(xs)
    return np.array([soa_expert(H, xs, I, tie) for L in range(T + 1) for I in combinations(range(1, T + 1), L)]).T
""", "does not follow Algorithm 3.4's experts"),
        ("at most Ldim(H) - 1 flips (range(D))", _EXPERT + """
def soa_experts_advice(H, xs, tie):
    from itertools import combinations
    D, T = olkit.ldim(H), len(xs)
    return np.array([soa_expert(H, xs, I, tie) for L in range(D) for I in combinations(range(1, T + 1), L)]).T
""", "Theorem 3.10, step 1"),
        ("0-based index sets (round 0 does not exist, round T is never flipped)", _EXPERT + """
def soa_experts_advice(H, xs, tie):
    from itertools import combinations
    D, T = olkit.ldim(H), len(xs)
    return np.array([soa_expert(H, xs, I, tie) for L in range(D + 1) for I in combinations(range(T), L)]).T
""", "does not follow Algorithm 3.4's experts"),
        ("the experts with ties to 0 whatever tie is asked", _EXPERT + """
def soa_experts_advice(H, xs, tie):
    from itertools import combinations
    D, T = olkit.ldim(H), len(xs)
    return np.array([soa_expert(H, xs, I, 0) for L in range(D + 1) for I in combinations(range(1, T + 1), L)]).T
""", "is none of Algorithm 3.4's experts"),
    ],
}

RIGHT = {
    "q1": [
        ("olkit.ldim on the sub-classes, with the empty class by hand, and a set of indices", """
def soa_expert(H, xs, indices, tie):
    flips = set(indices)
    rows = np.arange(len(H))
    predictions = np.zeros(len(xs), dtype=int)
    for t in range(1, len(xs) + 1):
        x = xs[t - 1]
        halves = {r: rows[H[rows, x] == r] for r in (0, 1)}
        ld = {r: (olkit.ldim(H[halves[r]]) if len(halves[r]) else -1) for r in (0, 1)}
        y = tie if ld[0] == ld[1] else int(ld[1] > ld[0])
        y = 1 - y if t in flips else y
        predictions[t - 1] = y
        rows = halves[y]
    return predictions
"""),
    ],
    "q2": [
        ("olkit's soa_experts (the book's construction, depth first)", """
def soa_experts_advice(H, xs, tie):
    advice, index_sets = olkit.experts.soa_experts(H, xs, tie=tie)
    return advice
"""),
        ("the index sets built by hand, experts in reverse order", """
def soa_experts_advice(H, xs, tie):
    D, T = olkit.ldim(H), len(xs)
    sets = [()]
    for t in range(1, T + 1):
        sets += [s + (t,) for s in sets if len(s) < D]
    return np.array([soa_expert(H, xs, list(s), tie) for s in sets[::-1]]).T
"""),
    ],
}
