"""Chapter 6's checks stop broken versions of olkit.batch, olkit.distributions and olkit.estimates.

Each case runs ``chapters/ch6/6_1_online_to_batch.ipynb`` with one piece of olkit.batch replaced by a
broken variant and asserts that a proof check fails (ProofStepError) at the named step.
"""
from __future__ import annotations

import pytest

from notebooks import patch_code, run_broken, stopped_by_recomputation

# The conversion peeks: what it records as the round-t hypothesis is h_(t+1), which has seen x_t
# (olkit.broken.batch.PeekingPaths).  Step 2 of the theorem must fail.
PEEKING_PATHS = "from olkit.broken.batch import PeekingPaths"

# The conversion returns the last hypothesis where the random iterate was asked for: step 1 fails.
LAST_AS_RANDOM = "from olkit.broken.batch import last_as_random"

# Sampling ignores the probabilities p: x is uniform on the domain.
UNIFORM_SAMPLING = '''
import numpy as np
from olkit.distributions import FiniteDistribution as _Base
class UniformSampling(_Base):
    def sample(self, T, rng, runs=None):
        shape = (T,) if runs is None else (runs, T)
        xs = rng.integers(0, self.n, size=shape)
        return xs, self.target[xs]
'''

# The exact risk forgets the probabilities (each point weighs 1/n).
UNWEIGHTED_EXACT_RISK = '''
from fractions import Fraction
from olkit.distributions import FiniteDistribution as _Base
class UnweightedRisk(_Base):
    def risk_exact(self, h):
        return Fraction(sum(int(a != b) for a, b in zip(h, self.target)), self.n)
'''

# The risk under a loss forgets the label noise.
NOISELESS_LOSS_RISK = '''
import numpy as np
from olkit.distributions import FiniteDistribution as _Base
class NoiselessLossRisk(_Base):
    def loss_risk(self, w, loss):
        W = np.atleast_2d(np.asarray(w, dtype=float))
        out = np.asarray(loss(W @ self.X.T, self.target), dtype=float) @ self.p
        return float(out[0]) if np.ndim(w) == 1 else out
'''

# The count test compares each column's count with the expected count of the next column (an
# off-by-one in what is compared): the check of the sampler's counts fails first.
SHIFTED_COUNT_TEST = '''
import numpy as np
from olkit.estimates import count_test as _count_test
def shifted_count_test(prob, outcome, axis=0):
    prob = np.asarray(prob, dtype=float)
    if prob.ndim == 2 and axis == 0:  # runs x rounds: compare round t with round t + 1
        prob = np.roll(prob, -1, axis=1)
    return _count_test(prob, outcome, axis)
'''

# 6.2: the absolute risk forgets the label noise (so E[V_t | past] = 0 fails).
NOISELESS_ABSOLUTE_RISK = '''
import numpy as np
from olkit.distributions import FiniteDistribution as _Base
class NoiselessAbsoluteRisk(_Base):
    def absolute_risk(self, h):
        h = np.clip(np.asarray(h, dtype=float), 0.0, 1.0)
        out = np.abs(h - self.target) @ self.p
        return float(out) if np.ndim(out) == 0 else out
'''

# 6.2: Hedge with the sign of the exponent flipped (it follows the worst experts).
FLIPPED_HEDGE = '''
import numpy as np
from olkit.experts import hedge as _hedge
def flipped_hedge(losses, eta, **kw):
    losses = np.asarray(losses, dtype=float)
    return _hedge(1.0 - losses, eta, **kw)
'''

# 6.2: Theorem 7.6's bound with the wrong constant, sqrt(T ln N / 8) in place of sqrt((T/2) ln N).
SMALL_EWA_BOUND = '''
import math
def small_ewa_bound(N, T, eta=None):
    return math.sqrt(T * math.log(N) / 8)
'''

# 6.2: the doubling trick's constant forgotten (sqrt((T/2) ln N) alone).
NO_CONSTANT_DOUBLING = '''
import math
def no_constant_doubling(N, T):
    return math.sqrt(T / 2 * math.log(N))
'''

# 6.3: a "leave-one-out" that trains on the whole sample (the training error).
NOT_LEAVING_OUT = "from olkit.broken.batch import training_error"

# 6.2: the forecaster peeks at round t's outcome (its weights use L_t, not L_(t-1)).
PEEKING_EWA = "from olkit.broken.batch import peeking_ewa_runs"

# 6.3: the Perceptron stops after one pass, converged or not.
ONE_PASS_PERCEPTRON = '''
import numpy as np
from olkit.batch import ConvergedPerceptron
from olkit.linear import Perceptron
def one_pass(X, y, max_passes=1000):
    X = np.atleast_2d(np.asarray(X, dtype=float))
    learner, support = Perceptron(X.shape[1]), set()
    for i in range(X.shape[0]):
        u = learner.updates
        learner.update(X[i], int(y[i]))
        if learner.updates > u:
            support.add(i)
    return ConvergedPerceptron(learner.w.copy(), learner.updates, tuple(sorted(support)), 1)
'''

# 6.3: the support records only the positions of the first pass's updates.
FIRST_PASS_SUPPORT = '''
import numpy as np
from olkit.batch import ConvergedPerceptron, perceptron_to_convergence as _ptc
def first_pass_support(X, y, max_passes=1000):
    run = _ptc(X, y, max_passes)
    first = _ptc(np.atleast_2d(np.asarray(X, dtype=float))[:1], list(y)[:1])
    return ConvergedPerceptron(run.w, run.M, first.support, run.passes)
'''

# 6.3: the margin measured to the nearest point only, not to the hull's edges (too large).
VERTEX_MARGIN = '''
import numpy as np
def vertex_margin(X, y):
    Z = np.asarray(y, dtype=float)[:, None] * np.atleast_2d(np.asarray(X, dtype=float))
    return float(np.min(np.linalg.norm(Z, axis=1)))
'''

NB = "ch6/6_1_online_to_batch.ipynb"
NB2 = "ch6/6_2_high_probability.ipynb"
NB3 = "ch6/6_3_leave_one_out.ipynb"
CASES_3 = [
    ("loo_error", NOT_LEAVING_OUT, "training_error", "step 1 (E LOO(S') = (1/(m+1)) sum_i"),
    ("perceptron_to_convergence", ONE_PASS_PERCEPTRON, "one_pass", "step c (converged"),
    ("perceptron_to_convergence", FIRST_PASS_SUPPORT, "first_pass_support", "step 1 (LOO error at position i"),
    ("margin_2d", VERTEX_MARGIN, "vertex_margin", "step 3 (M(S') <= r^2/rho^2)"),
]
CASES_2 = [
    ("distributions", "FiniteDistribution", NOISELESS_ABSOLUTE_RISK, "NoiselessAbsoluteRisk", "step 2 (lo <= 0 <= hi: E[V_t]"),
    ("experts", "hedge", FLIPPED_HEDGE, "flipped_hedge", "step 0 (|loss paid - olkit.experts.hedge's loss|"),
    ("experts", "ewa_bound", SMALL_EWA_BOUND, "small_ewa_bound", "step R (R_T <= ln N/eta + eta T/8"),
    ("experts", "doubling_bound", NO_CONSTANT_DOUBLING, "no_constant_doubling", "step D (doubling_bound(N, T)/T"),
    ("batch", "ewa_runs", PEEKING_EWA, "peeking_ewa_runs", "step 0 (|loss paid - olkit.experts.hedge's loss|"),
]
CASES = [
    ("SeenSetPaths", PEEKING_PATHS, "PeekingPaths", "step 2 (p-value of K_t against mu_t"),
    ("random_iterate", LAST_AS_RANDOM, "last_as_random", "step c (the four conversions, by hand"),
    ("FiniteDistribution", UNIFORM_SAMPLING, "UniformSampling", "step S (counts of the points"),
    ("FiniteDistribution", UNWEIGHTED_EXACT_RISK, "UnweightedRisk", "step R (L_D((0, 1, 1)) = 1/8"),
    ("FiniteDistribution", NOISELESS_LOSS_RISK, "NoiselessLossRisk", "step R (hinge risk of w"),
    ("count_test", SHIFTED_COUNT_TEST, "shifted_count_test", "step S (counts of the points"),
]


#: Variants that a cell recomputing the learner (or the run) by its definition, without olkit, stops
#: before the proof's step named in the case is reached (those cells came with mutation testing,
#: benchmarks/mutants_chN.md). The first line of that cell:
RECOMPUTED = {
    'PeekingPaths': '# Recomputed without olkit: Halving and SOA by their definitions (V_t = {h in H : h(x_s) = y_s,',
    'NoiselessAbsoluteRisk': '# Recomputed without olkit: the experts (thresholds 1[x >= k]), their risks as Fractions, eta,',
    'peeking_ewa_runs': '# Recomputed without olkit: the experts (thresholds 1[x >= k]), their risks as Fractions, eta,',
    'one_pass': 'def origin_radius(X):',
    'first_pass_support': 'def origin_radius(X):',
    'vertex_margin': 'def origin_radius(X):',
}


@pytest.mark.parametrize("name, source, replacement, step", CASES, ids=[c[2] for c in CASES])
def test_chapter_6_1_checks_catch_broken_variant(name, source, replacement, step):
    module = {"FiniteDistribution": "distributions", "count_test": "estimates"}.get(name, "batch")
    ename, evalue = run_broken(NB, patch_code(module, name, source, replacement))
    if replacement in RECOMPUTED:
        assert stopped_by_recomputation(ename, evalue, RECOMPUTED[replacement]), f"{ename}: {evalue}"
        return
    assert ename == "ProofStepError", f"the notebook did not fail on a proof check: {ename}: {evalue}"
    assert step in evalue, evalue


@pytest.mark.parametrize("module, name, source, replacement, step", CASES_2, ids=[c[3] for c in CASES_2])
def test_chapter_6_2_checks_catch_broken_variant(module, name, source, replacement, step):
    ename, evalue = run_broken(NB2, patch_code(module, name, source, replacement))
    if replacement in RECOMPUTED:
        assert stopped_by_recomputation(ename, evalue, RECOMPUTED[replacement]), f"{ename}: {evalue}"
        return
    assert ename == "ProofStepError", f"the notebook did not fail on a proof check: {ename}: {evalue}"
    assert step in evalue, evalue


@pytest.mark.parametrize("name, source, replacement, step", CASES_3, ids=[c[2] for c in CASES_3])
def test_chapter_6_3_checks_catch_broken_variant(name, source, replacement, step):
    ename, evalue = run_broken(NB3, patch_code("batch", name, source, replacement))
    if replacement in RECOMPUTED:
        assert stopped_by_recomputation(ename, evalue, RECOMPUTED[replacement]), f"{ename}: {evalue}"
        return
    assert ename == "ProofStepError", f"the notebook did not fail on a proof check: {ename}: {evalue}"
    assert step in evalue, evalue
