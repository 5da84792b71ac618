"""The typical wrong answers of lab6_online_to_batch (tests/test_labs.py runs them through the lab's own test files).

WRONG: per question, (what the answer gets wrong, its source, a phrase the feedback must contain).
RIGHT: per question, (how the answer differs from the reference, its source): a right answer written
another way, which must get full marks.
"""

WRONG = {
    "q1": [
        ('ties go to 0', """
def halving_hypothesis(H, alive):
    return (2 * H[alive].sum(axis=0) > alive.sum()).astype(int)
""", 'does not follow'),
        ('the vote of all of H', """
def halving_hypothesis(H, alive):
    return (2 * H.sum(axis=0) >= len(H)).astype(int)
""", 'does not follow'),
        ('the first alive hypothesis (Consistent)', """
def halving_hypothesis(H, alive):
    return H[np.flatnonzero(alive)[0]].astype(int)
""", 'Theorem 6.1, step 3'),
    ],
    "q2": [
        ('the probability of agreement', """
def exact_risk(h, p, target):
    return sum((p[x] for x in range(len(p)) if h[x] == target[x]), Fraction(0))
""", 'Theorem 6.1, step 2'),
        ('counts points, ignores p', """
def exact_risk(h, p, target):
    return Fraction(sum(int(a != b) for a, b in zip(h, target)), len(p))
""", 'Theorem 6.1, step 2'),
        ('a float', """
def exact_risk(h, p, target):
    return float(sum(p[x] for x in range(len(p)) if h[x] != target[x]))
""", 'exact number'),
    ],
    "q3": [
        ('h_t after seeing x_t (off by one round)', """
def random_iterate_risk(H, xs, p, target):
    alive = np.ones(len(H), dtype=bool)
    total = Fraction(0)
    for x in xs:
        alive = alive & (H[:, x] == H[target, x])
        h = (2 * H[alive].sum(axis=0) >= alive.sum()).astype(int)
        total += sum((p[j] for j in range(len(p)) if h[j] != H[target, j]), Fraction(0))
    return total / len(xs)
""", 'does not follow'),
        ("the last iterate's risk, not the average", """
def random_iterate_risk(H, xs, p, target):
    alive = np.ones(len(H), dtype=bool)
    for x in xs[:-1]:
        alive = alive & (H[:, x] == H[target, x])
    h = (2 * H[alive].sum(axis=0) >= alive.sum()).astype(int)
    return sum((p[j] for j in range(len(p)) if h[j] != H[target, j]), Fraction(0))
""", 'does not follow'),
        ('divides by T + 1', """
def random_iterate_risk(H, xs, p, target):
    alive = np.ones(len(H), dtype=bool)
    total = Fraction(0)
    for x in xs:
        h = (2 * H[alive].sum(axis=0) >= alive.sum()).astype(int)
        total += sum((p[j] for j in range(len(p)) if h[j] != H[target, j]), Fraction(0))
        alive = alive & (H[:, x] == H[target, x])
    return total / (len(xs) + 1)
""", 'does not follow'),
        ('the chance that h_r is right, not that it errs', """
def random_iterate_risk(H, xs, p, target):
    alive = np.ones(len(H), dtype=bool)
    total = Fraction(0)
    for x in xs:
        h = (2 * H[alive].sum(axis=0) >= alive.sum()).astype(int)
        total += sum((p[j] for j in range(len(p)) if h[j] == H[target, j]), Fraction(0))
        alive = alive & (H[:, x] == H[target, x])
    return total / len(xs)
""", 'Theorem 6.1, step 4'),
    ],
}

RIGHT = {
    "q1": [
        ('a loop over the points', """
def halving_hypothesis(H, alive):
    rows = H[alive]
    return np.array([1 if 2 * int(rows[:, x].sum()) >= len(rows) else 0 for x in range(H.shape[1])])
"""),
    ],
    "q2": [
        ('the probabilities of the points where h errs, summed as Fractions', """
def exact_risk(h, p, target):
    wrong = [p[x] for x in range(len(p)) if int(h[x]) != int(target[x])]
    return sum(wrong) if wrong else Fraction(0)
"""),
    ],
    "q3": [
        ('a list of the risks, then their mean as a Fraction', """
def random_iterate_risk(H, xs, p, target):
    alive = np.ones(len(H), dtype=bool)
    risks = []
    for x in xs:
        risks.append(exact_risk(halving_hypothesis(H, alive), p, H[target]))
        alive &= H[:, x] == H[target, x]
    return Fraction(sum(risks), len(risks))
"""),
    ],
}
