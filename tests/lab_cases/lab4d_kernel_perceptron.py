"""The typical wrong answers of lab4d_kernel_perceptron (tests/test_labs.py runs them through the lab's own test files).

WRONG: per question, (what the answer gets wrong, its source, a phrase the feedback must contain).
RIGHT: per question, (how the answer differs from the reference, its source): a right answer written
another way, which must get full marks.
"""

WRONG = {
    "q1": [
        ("a tie predicts +1", """
def kernel_predict(alpha, X, y, K, x):
    f = sum(alpha[j] * y[j] * K(X[j], x) for j in range(len(y)))
    return 1 if f >= 0 else -1
""", "does not follow"),
        ("forgets the labels y_j", """
def kernel_predict(alpha, X, y, K, x):
    f = sum(alpha[j] * K(X[j], x) for j in range(len(y)))
    return 1 if f > 0 else -1
""", "Theorem 4.1, step M"),
        ("forgets the counts: every point of the sample votes", """
def kernel_predict(alpha, X, y, K, x):
    f = sum(y[j] * K(X[j], x) for j in range(len(y)))
    return 1 if f > 0 else -1
""", "Theorem 4.1, step M"),
        ("the inner product <x_j, x> in place of the kernel", """
def kernel_predict(alpha, X, y, K, x):
    f = sum(alpha[j] * y[j] * np.dot(X[j], x) for j in range(len(y)))
    return 1 if f > 0 else -1
""", "Theorem 4.1, step M"),
    ],
    "q2": [
        ("updates only on a mistake of the prediction (a tie with y = -1 is no mistake, but an update round)", """
def kernel_update(alpha, X, y, K, i):
    f = sum(alpha[j] * y[j] * K(X[j], X[i]) for j in range(len(y)))
    yhat = 1 if f > 0 else -1
    if yhat != y[i]:
        alpha = alpha.copy()
        alpha[i] += 1
    return alpha
""", "Theorem 4.1, step 0"),
        ("a strict condition y f(x) < 0 (alpha = 0 never moves)", """
def kernel_update(alpha, X, y, K, i):
    f = sum(alpha[j] * y[j] * K(X[j], X[i]) for j in range(len(y)))
    if y[i] * f < 0:
        alpha = alpha.copy()
        alpha[i] += 1
    return alpha
""", "Theorem 4.1, step 0"),
        ("adds 1 to every count", """
def kernel_update(alpha, X, y, K, i):
    f = sum(alpha[j] * y[j] * K(X[j], X[i]) for j in range(len(y)))
    if y[i] * f <= 0:
        alpha = alpha + 1
    return alpha
""", "Theorem 4.1, step 3"),
        ("stores alpha_i y_i in alpha (adds the label)", """
def kernel_update(alpha, X, y, K, i):
    f = sum(alpha[j] * K(X[j], X[i]) for j in range(len(y)))
    if y[i] * f <= 0:
        alpha = alpha.copy()
        alpha[i] += y[i]
    return alpha
""", "whole numbers >= 0"),
        ("updates on every round", """
def kernel_update(alpha, X, y, K, i):
    alpha = alpha.copy()
    alpha[i] += 1
    return alpha
""", "Theorem 4.1, step 0"),
    ],
}

RIGHT = {
    "q1": [
        ("the kernel column as an array, a dot product with alpha y", """
def kernel_predict(alpha, X, y, K, x):
    k = np.array([K(xj, x) for xj in X])
    return 1 if float(np.dot(alpha * y, k)) > 0 else -1
"""),
    ],
    "q2": [
        ("in place on a copy, the support points only", """
def kernel_update(alpha, X, y, K, i):
    alpha = np.array(alpha)
    support = np.flatnonzero(alpha)
    f = sum(alpha[j] * y[j] * K(X[j], X[i]) for j in support)
    if y[i] * f <= 0:
        alpha[i] = alpha[i] + 1
    return alpha
"""),
    ],
}
