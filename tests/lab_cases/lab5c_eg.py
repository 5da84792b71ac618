"""The typical wrong answers of lab5c_eg (tests/test_labs.py runs them through the lab's own test files).

WRONG: per question, (what the answer gets wrong, its source, a phrase the feedback must contain).
RIGHT: per question, (how the answer differs from the reference, its source): a right answer written
another way, which must get full marks.
"""

WRONG = {
    "q1": [
        ("the wrong sign: weight moves to the experts with large losses", """
def eg_update(w, v, eta):
    u = w * np.exp(eta * (v - v.max()))
    return u / u.sum()
""", "Theorem 5.5, step 3"),
        ("the rate 2 eta (a wrong constant; the bound still holds here)", """
def eg_update(w, v, eta):
    u = w * np.exp(-2 * eta * (v - v.min()))
    return u / u.sum()
""", "does not follow"),
        ("no shift: exp(-eta v) underflows on large losses", """
def eg_update(w, v, eta):
    u = w * np.exp(-eta * v)
    return u / u.sum()
""", "subtract the smallest"),
        ("forgets w_t: the weights of the last loss only", """
def eg_update(w, v, eta):
    u = np.exp(-eta * (v - v.min()))
    return u / u.sum()
""", "does not follow"),
        ("not normalized", """
def eg_update(w, v, eta):
    return w * np.exp(-eta * (v - v.min()))
""", "not a point of the simplex"),
        ("an additive step, clipped and renormalized (OGD-like)", """
def eg_update(w, v, eta):
    u = np.maximum(w - eta * v, 0)
    return u / u.sum() if u.sum() > 0 else np.full(len(w), 1 / len(w))
""", "does not follow"),
    ],
    "q2": [
        ("the learner's total loss, without the best expert's", """
def eg_regret(G, eta):
    w = np.full(G.shape[1], 1 / G.shape[1])
    paid = 0.0
    for g in G:
        paid += w @ g
        u = w * np.exp(-eta * (g - g.min()))
        w = u / u.sum()
    return paid
""", "Theorem 5.5, step 5"),
        ("w_t after seeing g_t (off by one round)", """
def eg_regret(G, eta):
    w = np.full(G.shape[1], 1 / G.shape[1])
    paid = 0.0
    for g in G:
        u = w * np.exp(-eta * (g - g.min()))
        w = u / u.sum()
        paid += w @ g
    return paid - G.sum(axis=0).min()
""", "does not follow"),
        ("against the worst expert", """
def eg_regret(G, eta):
    w = np.full(G.shape[1], 1 / G.shape[1])
    paid = 0.0
    for g in G:
        paid += w @ g
        u = w * np.exp(-eta * (g - g.min()))
        w = u / u.sum()
    return paid - G.sum(axis=0).max()
""", "does not follow"),
        ("against the uniform point, not the best vertex", """
def eg_regret(G, eta):
    w = np.full(G.shape[1], 1 / G.shape[1])
    paid = 0.0
    for g in G:
        paid += w @ g
        u = w * np.exp(-eta * (g - g.min()))
        w = u / u.sum()
    return paid - G.sum(axis=0).mean()
""", "does not follow"),
    ],
}

RIGHT = {
    "q1": [
        ("scipy's softmax of the log-weights", """
def eg_update(w, v, eta):
    from scipy.special import softmax
    return softmax(np.log(w) - eta * np.asarray(v, dtype=float))
"""),
        ("in place, shifted by the largest exponent", """
def eg_update(w, v, eta):
    a = -eta * np.asarray(v, dtype=float)
    w = np.array(w, dtype=float)
    w *= np.exp(a - a.max())
    w /= w.sum()
    return w
"""),
    ],
    "q2": [
        ("Hedge's closed form: all rounds at once from the cumulative losses", """
def eg_regret(G, eta):
    from scipy.special import softmax
    L = np.vstack([np.zeros(G.shape[1]), np.cumsum(G, axis=0)[:-1]])
    W = softmax(-eta * L, axis=1)
    return float(np.sum(W * G) - G.sum(axis=0).min())
"""),
    ],
}
