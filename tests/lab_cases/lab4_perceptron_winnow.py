"""The typical wrong answers of lab4_perceptron_winnow (tests/test_labs.py runs them through the lab's own test files).

WRONG: per question, (what the answer gets wrong, its source, a phrase the feedback must contain).
RIGHT: per question, (how the answer differs from the reference, its source): a right answer written
another way, which must get full marks.
"""

WRONG = {
    "q1": [
        ('updates only on a strictly negative score (w = 0 never moves)', """
def perceptron_update(w, x, y):
    return w + y * x if y * (w @ x) < 0 else w
""", 'Theorem 4.1, step 0'),
        ('adds x without its label', """
def perceptron_update(w, x, y):
    return w + x if y * (w @ x) <= 0 else w
""", 'Theorem 4.1, step 3'),
        ('updates on every round', """
def perceptron_update(w, x, y):
    return w + y * x
""", 'Theorem 4.1, step 0'),
        ('a step of 1/2 (a wrong constant)', """
def perceptron_update(w, x, y):
    return w + 0.5 * y * x if y * (w @ x) <= 0 else w
""", 'Theorem 4.1, step 3'),
        ('step size 2 (the bound still holds for any step size, but the rule is w + y x)', """
def perceptron_update(w, x, y):
    return w + 2 * y * x if y * (w @ x) <= 0 else w
""", 'Theorem 4.1, step 3'),
        ('a strict update that also skips the zero score of a tie after w has moved', """
def perceptron_update(w, x, y):
    if not w.any():
        return w + y * x
    return w + y * x if y * (w @ x) < 0 else w
""", 'Theorem 4.1, step 0'),
    ],
    "q2": [
        ('predicts +1 only above d (the wrong tie rule)', """
def winnow_update(w, x, y):
    yhat = 1 if w @ x > len(w) else -1
    if yhat == y:
        return w
    w = w.copy()
    w[x == 1] = 2 * w[x == 1] if y == 1 else 0
    return w
""", 'Theorem 4.4, step 0'),
        ('promotes by adding 1', """
def winnow_update(w, x, y):
    yhat = 1 if w @ x >= len(w) else -1
    if yhat == y:
        return w
    w = w.copy()
    w[x == 1] = w[x == 1] + 1 if y == 1 else 0
    return w
""", 'Theorem 4.4, step rule'),
        ('triples (a wrong constant)', """
def winnow_update(w, x, y):
    yhat = 1 if w @ x >= len(w) else -1
    if yhat == y:
        return w
    w = w.copy()
    w[x == 1] = 3 * w[x == 1] if y == 1 else 0
    return w
""", 'Theorem 4.4, step rule'),
        ('never updates', """
def winnow_update(w, x, y):
    return w
""", 'Theorem 4.4, step 0'),
    ],
}

RIGHT = {
    "q1": [
        ('updates in place on a copy, the score by a sum', """
def perceptron_update(w, x, y):
    w = np.array(w, dtype=float)
    if y * sum(a * b for a, b in zip(w, x)) <= 0:
        w += y * np.asarray(x, dtype=float)
    return w
"""),
    ],
    "q2": [
        ('np.where for both cases', """
def winnow_update(w, x, y):
    w = np.asarray(w)
    yhat = 1 if int(np.dot(w, x)) >= len(w) else -1
    if yhat == y:
        return w
    active = np.asarray(x) == 1
    return np.where(active, 2 * w if y == 1 else 0 * w, w)
"""),
    ],
}
