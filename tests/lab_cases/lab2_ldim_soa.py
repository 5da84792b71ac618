"""The typical wrong answers of lab2_ldim_soa (tests/test_labs.py runs them through the lab's own test files).

WRONG: per question, (what the answer gets wrong, its source, a phrase the feedback must contain): a
failed step of Definition 2.2, Lemma 2.1 or Lemma 2.4, or a round where SOA's prediction does not
follow the rule of Algorithm 2.1 ("does not follow").
RIGHT: per question, (how the answer differs from the reference, its source): a right answer written
another way, which must get full marks.
"""

WRONG = {
    "q1": [
        ('one more than the recursion (counts levels, not edges)', """
def ldim(V):
    V = np.unique(V, axis=0)
    if len(V) == 1:
        return 1
    best = 1
    for x in range(V.shape[1]):
        V0, V1 = V[V[:, x] == 0], V[V[:, x] == 1]
        if len(V0) and len(V1):
            best = max(best, 1 + min(ldim(V0), ldim(V1)))
    return best
""", 'Definition 2.2, step base'),
        ('max instead of min of the two parts', """
def ldim(V):
    V = np.unique(V, axis=0)
    if len(V) == 1:
        return 0
    best = 0
    for x in range(V.shape[1]):
        V0, V1 = V[V[:, x] == 0], V[V[:, x] == 1]
        if len(V0) and len(V1):
            best = max(best, 1 + max(ldim(V0), ldim(V1)))
    return best
""", 'Lemma 2.1, step recursion'),
        ('floor(log2 |V|), the upper bound, not the dimension', """
def ldim(V):
    return int(np.floor(np.log2(len(np.unique(V, axis=0)))))
""", 'Lemma 2.1, step recursion'),
        ('the first splitting point instead of the best one', """
def ldim(V):
    V = np.unique(V, axis=0)
    if len(V) == 1:
        return 0
    for x in range(V.shape[1]):
        V0, V1 = V[V[:, x] == 0], V[V[:, x] == 1]
        if len(V0) and len(V1):
            return 1 + min(ldim(V0), ldim(V1))
""", 'Lemma 2.1, step recursion'),
    ],
    "q2": [
        ('ties go to 0', """
def soa_predict(H, alive, x, ldim):
    V0, V1 = H[alive & (H[:, x] == 0)], H[alive & (H[:, x] == 1)]
    l0 = ldim(V0) if len(V0) else -1
    l1 = ldim(V1) if len(V1) else -1
    return 1 if l1 > l0 else 0
""", 'does not follow'),
        ('the majority vote (Halving, not SOA)', """
def soa_predict(H, alive, x, ldim):
    return 1 if 2 * int(H[alive, x].sum()) >= alive.sum() else 0
""", 'Lemma 2.4, step 4'),
        ('the smaller dimension', """
def soa_predict(H, alive, x, ldim):
    V0, V1 = H[alive & (H[:, x] == 0)], H[alive & (H[:, x] == 1)]
    l0 = ldim(V0) if len(V0) else -1
    l1 = ldim(V1) if len(V1) else -1
    return 1 if l1 <= l0 else 0
""", 'Lemma 2.4, step 4'),
        ('an empty part counted as Ldim 0, not -1 (the erratum of Section 2.2)', """
def soa_predict(H, alive, x, ldim):
    V0, V1 = H[alive & (H[:, x] == 0)], H[alive & (H[:, x] == 1)]
    l0 = ldim(V0) if len(V0) else 0
    l1 = ldim(V1) if len(V1) else 0
    return 1 if l1 >= l0 else 0
""", 'Lemma 2.4, step 4'),
        ('the parts of the whole class H, not of V_t', """
def soa_predict(H, alive, x, ldim):
    l0, l1 = ldim(H[H[:, x] == 0]), ldim(H[H[:, x] == 1])
    return 1 if l1 >= l0 else 0
""", 'does not follow'),
    ],
}

RIGHT = {
    "q1": [
        ('memoized on the set of rows, splits tried from the largest part', """
def ldim(V):
    memo = {}

    def rec(rows):
        key = frozenset(map(tuple, rows))
        if key in memo:
            return memo[key]
        if len(key) <= 1:
            memo[key] = 0 if key else -1
            return memo[key]
        R = np.array(sorted(key))
        best = 0
        for x in range(R.shape[1]):
            ones = R[:, x] == 1
            if ones.any() and (~ones).any():
                best = max(best, 1 + min(rec(R[ones]), rec(R[~ones])))
        memo[key] = best
        return best

    return rec(np.asarray(V))
"""),
    ],
    "q2": [
        ('compares the two parts through their rows, the empty part as -1', """
def soa_predict(H, alive, x, ldim):
    parts = []
    for r in (0, 1):
        rows = H[alive & (H[:, x] == r)]
        parts.append(ldim(rows) if rows.shape[0] > 0 else -1)
    return 0 if parts[0] > parts[1] else 1
"""),
    ],
}
