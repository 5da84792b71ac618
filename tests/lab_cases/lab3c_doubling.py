"""The typical wrong answers of lab3c_doubling (tests/test_labs.py runs them through the lab's own test files).

WRONG: per question, (what the answer gets wrong, its source, a phrase the feedback must contain).
RIGHT: per question, (how the answer differs from the reference, its source): a right answer written
another way, which must get full marks.
"""

WRONG = {
    "q1": [
        ("blocks of 2^m rounds counted from round 0 (restarts at rounds 1, 3, 7, ...)", """
def doubling_block(t, N):
    m = int(np.floor(np.log2(t + 1)))
    return m, np.sqrt(8 * np.log(N) / 2**m)
""", "does not follow the doubling trick's blocks"),
        ("the block by ceil(log2 t)", """
def doubling_block(t, N):
    m = int(np.ceil(np.log2(t)))
    return m, np.sqrt(8 * np.log(N) / 2**m)
""", "is the last round of block"),
        ("the anytime rate sqrt(8 ln N / t) in place of the block's", """
def doubling_block(t, N):
    m = int(t).bit_length() - 1
    return m, np.sqrt(8 * np.log(N) / t)
""", "the anytime rate"),
        ("the rate sqrt(ln N / 2^m) (a wrong constant)", """
def doubling_block(t, N):
    m = int(t).bit_length() - 1
    return m, np.sqrt(np.log(N) / 2**m)
""", "Theorem 3.6, step 1"),
        ("four times the block's rate", """
def doubling_block(t, N):
    m = int(t).bit_length() - 1
    return m, 4 * np.sqrt(8 * np.log(N) / 2**m)
""", "Theorem 3.6, step 1"),
        ("the block by a floating-point log2 (wrong just below large powers of 2)", """
def doubling_block(t, N):
    m = int(np.log2(t))
    return m, np.sqrt(8 * np.log(N) / 2**m)
""", "compute m with integers"),
    ],
    "q2": [
        ("never restarts: the block's rate on all the losses so far", """
def doubling_run(losses):
    T, N = losses.shape
    P, L = np.empty((T, N)), np.zeros(N)
    for t in range(1, T + 1):
        m = t.bit_length() - 1
        w = np.exp(-np.sqrt(8 * np.log(N) / 2**m) * (L - L.min()))
        P[t - 1] = w / w.sum()
        L = L + losses[t - 1]
    return P
""", "it does not restart"),
        ("the weights include round t's own losses", """
def doubling_run(losses):
    T, N = losses.shape
    P = np.empty((T, N))
    for t in range(1, T + 1):
        m = t.bit_length() - 1
        if t == 2**m:
            L = np.zeros(N)
        L = L + losses[t - 1]
        w = np.exp(-np.sqrt(8 * np.log(N) / 2**m) * (L - L.min()))
        P[t - 1] = w / w.sum()
    return P
""", "round t's own losses"),
        ("Hedge tuned for the whole horizon T (it knows T)", """
def doubling_run(losses):
    T, N = losses.shape
    eta = np.sqrt(8 * np.log(N) / T)
    L = np.vstack([np.zeros(N), np.cumsum(losses, axis=0)[:-1]])
    w = np.exp(-eta * (L - L.min(axis=1, keepdims=True)))
    return w / w.sum(axis=1, keepdims=True)
""", "does not follow the doubling trick"),
        ("follows the leader of the block (ties split evenly)", """
def doubling_run(losses):
    T, N = losses.shape
    P = np.empty((T, N))
    for t in range(1, T + 1):
        m = t.bit_length() - 1
        if t == 2**m:
            L = np.zeros(N)
        lead = L == L.min()
        P[t - 1] = lead / lead.sum()
        L = L + losses[t - 1]
    return P
""", "Theorem 3.6, step 1"),
        ("returns the weights without normalizing them", """
def doubling_run(losses):
    T, N = losses.shape
    P = np.empty((T, N))
    for t in range(1, T + 1):
        m = t.bit_length() - 1
        if t == 2**m:
            L = np.zeros(N)
        P[t - 1] = np.exp(-np.sqrt(8 * np.log(N) / 2**m) * (L - L.min()))
        L = L + losses[t - 1]
    return P
""", "Theorem 3.6, step"),
    ],
}

RIGHT = {
    "q1": [
        ("a loop that doubles the block's length, and math's sqrt and log", """
def doubling_block(t, N):
    import math
    m, start = 0, 1
    while 2 * start <= t:
        start, m = 2 * start, m + 1
    return m, math.sqrt(8 * math.log(N) / start)
"""),
    ],
    "q2": [
        ("each block at once: cumulative sums within the block, scipy's softmax", """
def doubling_run(losses):
    from scipy.special import softmax
    T, N = losses.shape
    P = np.empty((T, N))
    m = 0
    while 2**m <= T:
        s, e = 2**m, min(2 ** (m + 1) - 1, T)
        block = losses[s - 1:e]
        before = np.vstack([np.zeros(N), np.cumsum(block, axis=0)[:-1]])
        P[s - 1:e] = softmax(-np.sqrt(8 * np.log(N) / 2**m) * before, axis=1)
        m += 1
    return P
"""),
        ("olkit's Doubling around olkit's Hedge", """
def doubling_run(losses):
    N = losses.shape[1]
    learner = olkit.Doubling(N, lambda horizon: olkit.Hedge(N, olkit.experts.ewa_eta(N, horizon)))
    return olkit.run_experts(learner, losses).details["p"]
"""),
    ],
}
