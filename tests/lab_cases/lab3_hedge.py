"""The typical wrong answers of lab3_hedge (tests/test_labs.py runs them through the lab's own test files).

WRONG: per question, (what the answer gets wrong, its source, a phrase the feedback must contain).
RIGHT: per question, (how the answer differs from the reference, its source): a right answer written
another way, which must get full marks.
"""

WRONG = {
    "q1": [
        ('exponentiates without subtracting the minimum (overflows on large losses)', """
def hedge_distribution(L, eta):
    w = np.exp(-eta * L)
    return w / w.sum()
""", 'subtract min(L)'),
        ('the wrong sign in the exponent', """
def hedge_distribution(L, eta):
    w = np.exp(eta * (L - L.max()))
    return w / w.sum()
""", 'Theorem 3.4, step 3'),
        ('not normalized', """
def hedge_distribution(L, eta):
    return np.exp(-eta * (L - L.min()))
""", 'not 1: divide the weights by their sum'),
        ('the rate doubled (a wrong constant)', """
def hedge_distribution(L, eta):
    w = np.exp(-2 * eta * (L - L.min()))
    return w / w.sum()
""", '= 2 eta'),
        ('the rate halved: a run that still meets the bound, but not Hedge', """
def hedge_distribution(L, eta):
    w = np.exp(-eta / 2 * (L - L.min()))
    return w / w.sum()
""", 'does not follow'),
    ],
    "q2": [
        ('p_t from the losses up to round t (off by one round)', """
def hedge_regret(losses, eta):
    L = np.zeros(losses.shape[1])
    expected = 0.0
    for loss in losses:
        L = L + loss
        w = np.exp(-eta * (L - L.min()))
        expected += (w / w.sum()) @ loss
    return expected - L.min()
""", 'Theorem 3.4, step 0'),
        ('against the worst expert', """
def hedge_regret(losses, eta):
    L = np.zeros(losses.shape[1])
    expected = 0.0
    for loss in losses:
        w = np.exp(-eta * (L - L.min()))
        expected += (w / w.sum()) @ loss
        L = L + loss
    return expected - L.max()
""", 'Theorem 3.4, step 0'),
        ('the uniform distribution every round', """
def hedge_regret(losses, eta):
    return float(losses.mean(axis=1).sum() - losses.sum(axis=0).min())
""", 'Theorem 3.4, step 0'),
    ],
}

RIGHT = {
    "q1": [
        ("scipy's softmax", """
def hedge_distribution(L, eta):
    from scipy.special import softmax
    return softmax(-eta * np.asarray(L, dtype=float))
"""),
        ("log space: exp(-eta L - logsumexp(-eta L)), in place", """
def hedge_distribution(L, eta):
    from scipy.special import logsumexp
    x = -eta * np.asarray(L, dtype=float)
    x -= logsumexp(x)
    np.exp(x, out=x)
    return x
"""),
    ],
    "q2": [
        ('all rounds at once: the cumulative losses before each round', """
def hedge_regret(losses, eta):
    losses = np.asarray(losses, dtype=float)
    before = np.vstack([np.zeros(losses.shape[1]), np.cumsum(losses, axis=0)[:-1]])
    P = np.array([hedge_distribution(L, eta) for L in before])
    return float(np.sum(P * losses) - losses.sum(axis=0).min())
"""),
    ],
}
