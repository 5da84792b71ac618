"""The typical wrong answers of lab6c_clopper_pearson (tests/test_labs.py runs them through the lab's own test
files).

WRONG: per question, (what the answer gets wrong, its source, a phrase the feedback must contain).
RIGHT: per question, (how the answer differs from the reference, its source): a right answer written
another way, which must get full marks.
"""

WRONG = {
    "q1": [
        ("the normal (Wald) interval", """
def clopper_pearson(k, n, level):
    from scipy.stats import norm
    f = k / n
    z = norm.ppf(1 - (1 - level) / 2)
    half = z * (f * (1 - f) / n) ** 0.5
    return max(0.0, f - half), min(1.0, f + half)
""", "does not follow"),
        ("the beta quantiles without the ends: nan when k = 0 or k = n", """
def clopper_pearson(k, n, level):
    from scipy.stats import beta
    a = (1 - level) / 2
    return beta.ppf(a, k, n - k + 1), beta.ppf(1 - a, k + 1, n - k)
""", "k = 0"),
        ("one-sided: 1 - level in each tail", """
def clopper_pearson(k, n, level):
    from scipy.stats import beta
    a = 1 - level
    lo = 0.0 if k == 0 else beta.ppf(a, k, n - k + 1)
    hi = 1.0 if k == n else beta.ppf(1 - a, k + 1, n - k)
    return lo, hi
""", "does not follow"),
        ("the beta parameters of the two ends swapped", """
def clopper_pearson(k, n, level):
    from scipy.stats import beta
    a = (1 - level) / 2
    lo = 0.0 if k == 0 else beta.ppf(a, k + 1, n - k)
    hi = 1.0 if k == n else beta.ppf(1 - a, k, n - k + 1)
    return lo, hi
""", "does not follow"),
        ("the Wilson score interval", """
def clopper_pearson(k, n, level):
    from scipy.stats import norm
    z = norm.ppf(1 - (1 - level) / 2)
    f = k / n
    centre = (f + z * z / (2 * n)) / (1 + z * z / n)
    half = z * (f * (1 - f) / n + z * z / (4 * n * n)) ** 0.5 / (1 + z * z / n)
    return centre - half, centre + half
""", "does not follow"),
    ],
    "q2": [
        ("the bare frequency above delta", """
def refutes(k, n, delta):
    return k / n > delta
""", "Theorem 6.1, step P"),
        ("the upper end above delta", """
def refutes(k, n, delta):
    from scipy.stats import beta
    hi = 1.0 if k == n else beta.ppf(0.995, k + 1, n - k)
    return bool(hi > delta)
""", "Theorem 6.1, step P"),
        ("the 95% interval", """
def refutes(k, n, delta):
    from scipy.stats import beta
    lo = 0.0 if k == 0 else beta.ppf(0.025, k, n - k + 1)
    return bool(lo > delta)
""", "does not follow"),
        ("a normal (Wald) 99% interval", """
def refutes(k, n, delta):
    f = k / n
    return bool(f - 2.5758293035489 * (f * (1 - f) / n) ** 0.5 > delta)
""", "does not follow"),
        ("a one-sided 99% lower end", """
def refutes(k, n, delta):
    from scipy.stats import beta
    lo = 0.0 if k == 0 else beta.ppf(0.01, k, n - k + 1)
    return bool(lo > delta)
""", "does not follow"),
    ],
}

RIGHT = {
    "q1": [
        ("scipy's exact binomial test, as olkit.Proof.probability computes it", """
def clopper_pearson(k, n, level):
    from scipy.stats import binomtest
    ci = binomtest(k, n).proportion_ci(confidence_level=level, method="exact")
    return ci.low, ci.high
"""),
        ("a bisection on the binomial tails", """
def clopper_pearson(k, n, level):
    from scipy.stats import binom
    a = (1 - level) / 2

    def solve(f):  # f increasing in p, f(p) = 0 at the end wanted
        lo, hi = 0.0, 1.0
        for _ in range(100):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if f(mid) < 0 else (lo, mid)
        return (lo + hi) / 2

    lower = 0.0 if k == 0 else solve(lambda p: binom.sf(k - 1, n, p) - a)
    upper = 1.0 if k == n else solve(lambda p: a - binom.cdf(k, n, p))
    return lower, upper
"""),
    ],
    "q2": [
        ("the p-value form: P_delta[K >= k] < 0.005", """
def refutes(k, n, delta):
    from scipy.stats import binom
    return k > 0 and binom.sf(k - 1, n, delta) < 0.005
"""),
        ("scipy's exact binomial test", """
def refutes(k, n, delta):
    from scipy.stats import binomtest
    return binomtest(k, n).proportion_ci(confidence_level=0.99, method="exact").low > delta
"""),
    ],
}
