"""The typical wrong answers of lab1_halving (tests/test_labs.py runs them through the lab's own test files).

WRONG: per question, (what the answer gets wrong, its source, a phrase the feedback must contain): a
failed step of Theorem 1.3's proof ("Theorem 1.3, step 0'"), or a round where the function does not
follow the rule of Algorithm 1.3 that the question states ("does not follow").
RIGHT: per question, (how the answer differs from the reference, its source): a right answer written
another way, which must get full marks.
"""

WRONG = {
    "q1": [
        ('ties go to 0', """
def halving_predict(H, alive, x):
    ones = int(H[alive, x].sum())
    return 1 if 2 * ones > alive.sum() else 0
""", "Theorem 1.3, step 0'"),
        ('votes of all of H, not of V_t', """
def halving_predict(H, alive, x):
    return 1 if 2 * int(H[:, x].sum()) >= len(H) else 0
""", "Theorem 1.3, step 0'"),
        ('the minority vote', """
def halving_predict(H, alive, x):
    ones = int(H[alive, x].sum())
    return 0 if 2 * ones >= alive.sum() else 1
""", "Theorem 1.3, step 0'"),
        ('the mean rounded with np.round (half to even: ties go to 0)', """
def halving_predict(H, alive, x):
    return int(np.round(H[alive, x].mean()))
""", "does not follow"),
        ('a float instead of a label', """
def halving_predict(H, alive, x):
    return H[alive, x].mean()
""", 'must return the label 0 or 1'),
    ],
    "q2": [
        ('forgets the version space (keeps every hypothesis that agrees with this label)', """
def halving_update(H, alive, x, y):
    return H[:, x] == y
""", 'Theorem 1.3, step 0 ('),
        ('keeps the hypotheses that disagree', """
def halving_update(H, alive, x, y):
    return alive & (H[:, x] != y)
""", 'Theorem 1.3, step 0'),
        ('does not update', """
def halving_update(H, alive, x, y):
    return alive
""", 'Theorem 1.3, step 0 ('),
        ('indices into the alive rows used as indices into H', """
def halving_update(H, alive, x, y):
    keep = np.flatnonzero(H[alive, x] == y)
    out = np.zeros(len(H), dtype=bool)
    out[keep] = True
    return out
""", 'Theorem 1.3, step 0 ('),
        ('a list of indices instead of a mask', """
def halving_update(H, alive, x, y):
    return np.flatnonzero(alive & (H[:, x] == y))
""", 'boolean array'),
    ],
    "q3": [
        ('sizes after the update only (off by one round)', """
def halving_run(H, xs, ys):
    alive = np.ones(len(H), dtype=bool)
    predictions, sizes = [], []
    for x, y in zip(xs, ys):
        predictions.append(1 if 2 * int(H[alive, x].sum()) >= alive.sum() else 0)
        sizes.append(int(alive.sum()))
        alive = alive & (H[:, x] == y)
    return predictions, sizes
""", 'sizes'),
        ('predicts the label of the first alive hypothesis (Consistent, not Halving)', """
def halving_run(H, xs, ys):
    alive = np.ones(len(H), dtype=bool)
    predictions, sizes = [], [len(H)]
    for x, y in zip(xs, ys):
        predictions.append(int(H[np.flatnonzero(alive)[0], x]))
        alive = alive & (H[:, x] == y)
        sizes.append(int(alive.sum()))
    return predictions, sizes
""", "Theorem 1.3, step 0'"),
        ('records |V_t| before the update as |V_{t+1}|', """
def halving_run(H, xs, ys):
    alive = np.ones(len(H), dtype=bool)
    predictions, sizes = [], [len(H)]
    for x, y in zip(xs, ys):
        predictions.append(1 if 2 * int(H[alive, x].sum()) >= alive.sum() else 0)
        sizes.append(int(alive.sum()))
        alive = alive & (H[:, x] == y)
    return predictions, sizes
""", 'Theorem 1.3, step 0 ('),
    ],
}

RIGHT = {
    "q1": [
        ('counts both votes with bincount', """
def halving_predict(H, alive, x):
    zeros, ones = np.bincount(H[alive, x], minlength=2)[:2]
    return int(ones >= zeros)
"""),
    ],
    "q2": [
        ('a loop over the hypotheses, into a new array', """
def halving_update(H, alive, x, y):
    out = np.zeros(len(H), dtype=bool)
    for i in range(len(H)):
        out[i] = bool(alive[i]) and H[i, x] == y
    return out
"""),
        ('in place on the vector it is given', """
def halving_update(H, alive, x, y):
    alive[H[:, x] != y] = False
    return alive
"""),
    ],
    "q3": [
        ('keeps the version space as a list of row indices', """
def halving_run(H, xs, ys):
    rows = list(range(len(H)))
    predictions, sizes = [], [len(rows)]
    for x, y in zip(xs, ys):
        ones = sum(int(H[i, x]) for i in rows)
        predictions.append(1 if 2 * ones >= len(rows) else 0)
        rows = [i for i in rows if H[i, x] == y]
        sizes.append(len(rows))
    return predictions, sizes
"""),
    ],
}
