"""The typical wrong answers of lab4c_winnow_eta (tests/test_labs.py runs them through the lab's own test files).

WRONG: per question, (what the answer gets wrong, its source, a phrase the feedback must contain).
RIGHT: per question, (how the answer differs from the reference, its source): a right answer written
another way, which must get full marks.
"""

WRONG = {
    "q1": [
        ("a tie predicts +1", """
def winnow_eta_predict(w, x):
    return 1 if w @ x >= 0 else -1
""", "does not follow"),
        ("always +1", """
def winnow_eta_predict(w, x):
    return 1
""", "Theorem 4.5, step M"),
        ("the sign the wrong way round", """
def winnow_eta_predict(w, x):
    return -1 if w @ x > 0 else 1
""", "Theorem 4.5, step M"),
        ("follows the heaviest expert alone", """
def winnow_eta_predict(w, x):
    return 1 if x[np.argmax(w)] > 0 else -1
""", "Theorem 4.5, step M"),
        ("np.sign, which gives 0 on a tie", """
def winnow_eta_predict(w, x):
    return np.sign(w @ x)
""", "must return the label -1 or +1"),
    ],
    "q2": [
        ("forgets to divide by Z", """
def winnow_eta_update(w, x, y, eta):
    if y * (w @ x) > 0:
        return w
    return w * np.exp(eta * y * x)
""", "Theorem 4.5, step rule"),
        ("updates on every round", """
def winnow_eta_update(w, x, y, eta):
    new = w * np.exp(eta * y * x)
    return new / new.sum()
""", "Theorem 4.5, step 0"),
        ("a strict condition: a score of 0 does not update", """
def winnow_eta_update(w, x, y, eta):
    if y * (w @ x) >= 0:
        return w
    new = w * np.exp(eta * y * x)
    return new / new.sum()
""", "Theorem 4.5, step 0"),
        ("forgets eta", """
def winnow_eta_update(w, x, y, eta):
    if y * (w @ x) > 0:
        return w
    new = w * np.exp(y * x)
    return new / new.sum()
""", "Theorem 4.5, step rule"),
        ("the exponent's sign the wrong way round", """
def winnow_eta_update(w, x, y, eta):
    if y * (w @ x) > 0:
        return w
    new = w * np.exp(-eta * y * x)
    return new / new.sum()
""", "Theorem 4.5, step rule"),
    ],
}

RIGHT = {
    "q1": [
        ("np.sign with the tie sent to -1", """
def winnow_eta_predict(w, x):
    return int(np.sign(float(np.dot(w, x)))) or -1
"""),
    ],
    "q2": [
        ("in the log domain with scipy.special.softmax", """
def winnow_eta_update(w, x, y, eta):
    from scipy.special import softmax
    w = np.asarray(w, dtype=float)
    if y * float(np.sum(w * x)) > 0:
        return w
    return softmax(np.log(w) + eta * y * np.asarray(x))
"""),
        ("in place, with the largest exponent subtracted", """
def winnow_eta_update(w, x, y, eta):
    w = np.array(w, dtype=float)
    if y * (w @ x) <= 0:
        a = eta * y * x
        w *= np.exp(a - a.max())
        w /= w.sum()
    return w
"""),
    ],
}
