"""The typical wrong answers of lab5_projections_ogd (tests/test_labs.py runs them through the lab's own test files).

WRONG: per question, (what the answer gets wrong, its source, a phrase the feedback must contain).
RIGHT: per question, (how the answer differs from the reference, its source): a right answer written
another way, which must get full marks.
"""

WRONG = {
    "q1": [
        ('projects onto the unit ball whatever B', """
def project_ball(z, B):
    n = np.linalg.norm(z)
    return z if n <= 1 else z / n
""", 'Theorem 5.1, step 2'),
        ('always rescales to the sphere', """
def project_ball(z, B):
    return z * (B / np.linalg.norm(z))
""", 'Theorem 5.1, step 2'),
        ('no projection', """
def project_ball(z, B):
    return z
""", 'does not follow'),
    ],
    "q2": [
        ('clips to [-1, 1] whatever the box', """
def project_box(z, lo, hi):
    return np.clip(z, -1, 1)
""", 'does not follow'),
        ('scales the whole point (not the closest point)', """
def project_box(z, lo, hi):
    m = np.max(np.maximum(z / hi, z / lo))
    return z if m <= 1 else z / m
""", 'Theorem 5.1, step 2'),
        ('clips below only', """
def project_box(z, lo, hi):
    return np.maximum(z, lo)
""", 'does not follow'),
    ],
    "q3": [
        ('clips at 0 and renormalizes', """
def project_simplex(z):
    w = np.maximum(z, 0)
    return w / w.sum() if w.sum() > 0 else np.full(len(z), 1 / len(z))
""", 'Theorem 5.1, step 2'),
        ('softmax', """
def project_simplex(z):
    e = np.exp(z - z.max())
    return e / e.sum()
""", 'Theorem 5.1, step 2'),
        ('one shift for every coordinate, then clips (theta of all coordinates)', """
def project_simplex(z):
    return np.maximum(z - (z.sum() - 1) / len(z), 0)
""", 'does not follow'),
    ],
    "q4": [
        ('steps up the gradient', """
def ogd_step(w, v, eta, project):
    return project(w + eta * v)
""", 'Theorem 5.1, step 2'),
        ('forgets the projection', """
def ogd_step(w, v, eta, project):
    return w - eta * v
""", 'does not follow'),
        ('projects before the step', """
def ogd_step(w, v, eta, project):
    return project(w) - eta * v
""", 'Theorem 5.1, step 2'),
    ],
}

RIGHT = {
    "q1": [
        ('the closed form z min(1, B/||z||)', """
def project_ball(z, B):
    z = np.asarray(z, dtype=float)
    n = np.sqrt(z @ z)
    return z * min(1.0, B / n) if n > 0 else z
"""),
        ('in place, on a copy', """
def project_ball(z, B):
    w = np.array(z, dtype=float)
    n = float(np.sqrt(np.sum(w ** 2)))
    if n > B:
        w *= B / n
    return w
"""),
    ],
    "q2": [
        ('np.clip', """
def project_box(z, lo, hi):
    return np.clip(z, lo, hi)
"""),
    ],
    "q3": [
        ('bisection on the threshold theta', """
def project_simplex(z):
    z = np.asarray(z, dtype=float)
    lo, hi = z.min() - 1.0, z.max()
    for _ in range(200):
        theta = (lo + hi) / 2
        if np.maximum(z - theta, 0).sum() > 1:
            lo = theta
        else:
            hi = theta
    return np.maximum(z - (lo + hi) / 2, 0)
"""),
        ('a shorter bisection (60 halvings), which the 1e-9 tolerance of the rule lets pass', """
def project_simplex(z):
    z = np.asarray(z, dtype=float)
    lo, hi = z.min() - 1.0, z.max()
    for _ in range(60):
        theta = (lo + hi) / 2
        lo, hi = (theta, hi) if np.maximum(z - theta, 0).sum() > 1 else (lo, theta)
    return np.maximum(z - hi, 0)
"""),
    ],
    "q4": [
        ('the step into a new variable first', """
def ogd_step(w, v, eta, project):
    z = np.asarray(w, dtype=float) - eta * np.asarray(v, dtype=float)
    return project(z)
"""),
    ],
}
