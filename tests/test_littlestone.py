"""olkit.littlestone: exact Ldim against the definition, shattered trees and their checker,
VC dimension, SOA, the tree environment of Lemma 21.6, and the displays.

The reference implementations here are written from the definitions (UML Definitions
21.4 and 21.5, the definition of a shattered set) and share no code with olkit's search.
"""
import itertools
from functools import lru_cache

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from hypothesis.extra.numpy import arrays  # noqa: E402

import olkit  # noqa: E402
import olkit.littlestone as L  # noqa: E402
import olkit.soa as S  # noqa: E402

# -- reference implementations, from the definitions ------------------------------------------


def path_distinct_trees(points: tuple[int, ...], d: int) -> np.ndarray:
    """Every tree of depth d over ``points`` (level order v_1..v_{2^d-1}) whose root-to-leaf paths
    repeat no point.  A tree that repeats a point on a path is never shattered (the labeling that
    gives the two occurrences different labels is realized by no h), so these are all the
    candidates; ``test_trees_with_a_repeated_point_are_never_shattered`` checks this claim."""
    if d == 0:
        return np.zeros((1, 0), dtype=np.int64)
    out = []
    for r in points:
        rest = tuple(p for p in points if p != r)
        sub = path_distinct_trees(rest, d - 1)
        for a in sub:
            for b in sub:
                levels = [np.array([r])]
                for t in range(d - 1):
                    lo, hi = 2**t - 1, 2 ** (t + 1) - 1
                    levels.append(np.concatenate([a[lo:hi], b[lo:hi]]))
                out.append(np.concatenate(levels))
    return np.array(out, dtype=np.int64).reshape(len(out), 2**d - 1)


def paths(d: int) -> tuple[np.ndarray, np.ndarray]:
    """All labelings (y_1..y_d) and the node indices i_1..i_d they visit (i_1 = 1, i_{t+1} = 2 i_t + y_t)."""
    Y = np.array(list(itertools.product((0, 1), repeat=d)), dtype=np.int64).reshape(2**d, d)
    I = np.ones_like(Y)
    for t in range(1, d):
        I[:, t] = 2 * I[:, t - 1] + Y[:, t - 1]
    return Y, I


def brute_ldim_all_subclasses(F: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """Ldim, by enumerating trees, of every sub-class {F[j] : bit j of mask set} of the functions F.

    For each candidate tree and labeling, the set of functions of F that agree with the labeling
    along its path is a bitmask; a tree is shattered by a sub-class iff every labeling's mask meets it.
    """
    n = F.shape[1]
    weights = (1 << np.arange(len(F))).astype(np.int64)
    result = np.full(len(masks), 0, dtype=np.int64)
    for d in range(1, n + 1):
        trees = path_distinct_trees(tuple(range(n)), d)
        Y, I = paths(d)
        P = trees[:, I - 1]  # (trees, labelings, d): the points on each path
        agree = (F[:, P] == Y[None, None, :, :]).all(axis=3)  # (functions, trees, labelings)
        A = np.tensordot(weights, agree.astype(np.int64), axes=1)  # (trees, labelings) bitmask of agreeing functions
        shattered = np.zeros(len(masks), dtype=bool)
        for s in range(0, len(masks), 512):
            S = masks[s: s + 512]
            shattered[s: s + 512] = ((A[None] & S[:, None, None]) != 0).all(axis=2).any(axis=1)
        if not shattered.any():
            break
        result[shattered] = d
    return result


def recursive_ldim(H) -> int:
    """Ldim by the plain recursion on sets of rows (no bitsets, no pruning, no memo sharing)."""
    H = np.asarray(H)

    @lru_cache(None)
    def R(rows: frozenset) -> int:
        if not rows:
            return -1
        best = 0
        for x in range(H.shape[1]):
            r1 = frozenset(r for r in rows if H[r, x] == 1)
            r0 = rows - r1
            if r1 and r0:
                best = max(best, 1 + min(R(r0), R(r1)))
        return best

    return R(frozenset(range(len(H))))


def brute_vcdim(H) -> int:
    H = np.asarray(H)
    for k in range(H.shape[1], 0, -1):
        for S in itertools.combinations(range(H.shape[1]), k):
            if len({tuple(r) for r in H[:, S]}) == 2**k:
                return k
    return 0


def distinct(H) -> int:
    return len(np.unique(np.asarray(H), axis=0))


@pytest.fixture
def localize_everywhere(monkeypatch):
    """Make the search re-index (localize) every version space it can, to exercise that code path."""
    monkeypatch.setattr(L, "SPARSE", 2)
    monkeypatch.setattr(L, "MIN_LOCAL_WIDTH", 1)
    monkeypatch.setattr(L, "MIN_LOCAL_K", 1)


# -- the reference itself ----------------------------------------------------------------------


def test_trees_with_a_repeated_point_are_never_shattered():
    F = olkit.all_functions(3)
    for d in (2, 3):
        for tree in itertools.product(range(3), repeat=2**d - 1):
            tree = np.array(tree)
            _, I = paths(d)
            if all(len(set(tree[row - 1])) == d for row in I):
                continue
            assert not olkit.is_shattered(tree, F), tree


def test_path_distinct_tree_counts():
    # |P| * T(|P| - 1, d - 1)^2 trees
    assert len(path_distinct_trees((0, 1, 2, 3), 1)) == 4
    assert len(path_distinct_trees((0, 1, 2, 3), 2)) == 4 * 3**2
    assert len(path_distinct_trees((0, 1, 2, 3), 3)) == 4 * (3 * 2**2) ** 2


# -- exact Ldim against the definition ----------------------------------------------------------


def all_masks(k: int, sizes) -> np.ndarray:
    return np.array([sum(1 << j for j in S) for r in sizes for S in itertools.combinations(range(k), r)], dtype=np.int64)


@pytest.mark.parametrize("n, sizes", [(3, range(1, 9)), (4, list(range(1, 7)) + list(range(11, 17)))],
                         ids=["all subclasses of all_functions(3)", "subclasses of all_functions(4), |H|<=6 or >=11"])
def test_ldim_equals_the_definition_on_every_small_class(n, sizes):
    F = olkit.all_functions(n)
    masks = all_masks(len(F), sizes)
    expected = brute_ldim_all_subclasses(F, masks)
    solver = L.LdimSolver(F)  # sub-classes through one shared memo ...
    fresh = np.array([olkit.ldim(F[[j for j in range(len(F)) if m >> j & 1]]) for m in masks])  # ... and alone
    shared = np.array([solver.ldim([j for j in range(len(F)) if m >> j & 1]) for m in masks])
    assert np.array_equal(fresh, expected)
    assert np.array_equal(shared, expected)
    assert set(expected.tolist()) == set(range(n + 1))  # every value 0..n occurs


def test_ldim_with_localization_equals_the_definition(localize_everywhere):
    F = olkit.all_functions(4)
    masks = all_masks(16, [5, 12])
    expected = brute_ldim_all_subclasses(F, masks)
    got = np.array([olkit.ldim(F[[j for j in range(16) if m >> j & 1]]) for m in masks])
    assert np.array_equal(got, expected)


@pytest.mark.parametrize("localized", [False, True])
def test_ldim_equals_the_recursion_on_random_classes(localized, monkeypatch):
    if localized:
        monkeypatch.setattr(L, "SPARSE", 2)
        monkeypatch.setattr(L, "MIN_LOCAL_WIDTH", 1)
        monkeypatch.setattr(L, "MIN_LOCAL_K", 1)
    rng = np.random.default_rng(2017)
    for _ in range(150):
        m, n = int(rng.integers(1, 60)), int(rng.integers(1, 8))
        H = olkit.random_class(m, n, rng, p=float(rng.uniform(0.05, 0.95)))
        d = recursive_ldim(H)
        solver = L.LdimSolver(H)
        assert solver.ldim() == d
        tree = solver.tree()
        assert len(tree) == 2**d - 1 and olkit.is_shattered(tree, H)
        for k in range(-1, d + 3):
            assert solver.at_least(k) == (k <= d)
        rows = np.flatnonzero(rng.random(m) < 0.4)
        sub = recursive_ldim(H[rows]) if len(rows) else -1
        assert solver.ldim(rows) == sub
        if len(rows):
            assert olkit.is_shattered(solver.tree(rows), H[rows])


def test_localized_and_plain_search_agree_on_larger_classes(monkeypatch):
    rng = np.random.default_rng(7)
    classes = [olkit.random_class(3000, 24, rng, p=p) for p in (0.5, 0.15, 0.03)] + [olkit.thresholds(1100)]
    plain = []
    with monkeypatch.context() as mp:
        mp.setattr(L, "MIN_LOCAL_WIDTH", 10**9)
        plain = [olkit.ldim(H) for H in classes]
    local = []
    for H in classes:
        s = L.LdimSolver(H)
        local.append(s.ldim())
        assert olkit.is_shattered(s.tree(), H)
    assert plain == local
    assert local[-1] == 10


def test_duplicate_rows_and_columns_do_not_change_ldim():
    rng = np.random.default_rng(3)
    for _ in range(40):
        H = olkit.random_class(int(rng.integers(2, 12)), int(rng.integers(1, 6)), rng)
        d = olkit.ldim(H)
        H2 = np.concatenate([H, H[: len(H) // 2]], axis=0)[:, np.r_[np.arange(H.shape[1]), 0]]
        assert olkit.ldim(H2) == d == recursive_ldim(H)


@pytest.mark.parametrize("d", [1, 2, 3, 10, 100, 1000])
def test_singletons_have_ldim_one(d):
    assert olkit.ldim(olkit.singletons(d)) == (1 if d >= 2 else 0)


@pytest.mark.parametrize("n", list(range(1, 70)) + [127, 128, 255, 256, 511, 1023, 1024])
def test_thresholds_have_ldim_floor_log2(n):
    H = olkit.thresholds(n)
    d = int(np.floor(np.log2(n + 1)))
    assert olkit.ldim(H) == d
    assert olkit.vcdim(H) == 1
    if n in (7, 64, 1023):
        assert olkit.is_shattered(olkit.shattered_tree(H), H)


@pytest.mark.parametrize("k", range(1, 11))
def test_all_functions_have_ldim_k(k):
    H = olkit.all_functions(k)
    assert olkit.ldim(H) == k == olkit.vcdim(H)
    assert olkit.ldim_at_least(H, k) and not olkit.ldim_at_least(H, k + 1)


def test_ldim_of_the_figure_21_1_class():
    # rows h1..h4, columns v1 v2 v3 (UML Figure 21.1 with every '*' set to 0)
    H = np.array([[0, 0, 0], [0, 1, 0], [1, 0, 0], [1, 0, 1]])
    assert olkit.ldim(H) == 2
    assert olkit.is_shattered([0, 1, 2], H)
    assert not olkit.is_shattered([0, 2, 1], H)  # children swapped


def test_an_empty_version_space_has_ldim_minus_one():
    s = L.LdimSolver(olkit.thresholds(5))
    assert s.ldim([]) == -1 and s.ldim(np.zeros(6, dtype=bool)) == -1
    assert s.ldim([2]) == 0
    with pytest.raises(ValueError, match="empty class"):
        s.tree([])


# -- property tests -------------------------------------------------------------------------------

classes = st.integers(1, 24).flatmap(
    lambda m: st.integers(1, 7).flatmap(lambda n: arrays(np.uint8, (m, n), elements=st.integers(0, 1)))
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(classes)
def test_vcdim_le_ldim_le_log2_size(H):
    d = olkit.ldim(H)
    v, S = olkit.vcdim(H, return_set=True)
    assert 0 <= v <= d <= np.floor(np.log2(distinct(H)))
    assert len(S) == v and olkit.is_shattered_set(S, H)
    assert v == brute_vcdim(H)
    assert d == recursive_ldim(H)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(classes, st.data())
def test_the_witness_passes_the_checker_and_corruptions_fail(H, data):
    tree = olkit.shattered_tree(H)
    d = olkit.ldim(H)
    assert len(tree) == 2**d - 1
    assert olkit.is_shattered(tree, H)
    n = H.shape[1]
    # one level deeper, with any instances: never shattered, since Ldim(H) = d
    extra = data.draw(arrays(np.int64, 2**d, elements=st.integers(0, n - 1)))
    assert not olkit.is_shattered(np.concatenate([tree, extra]), H)
    if d < 2:
        return  # the corruptions below need a node below the root
    # a node that repeats its parent's instance: the labeling that flips it is realized by no h
    i = data.draw(st.integers(2, 2**d - 1))
    bad = tree.copy()
    bad[i - 1] = tree[i // 2 - 1]
    assert not olkit.is_shattered(bad, H)
    # a node whose instance all hypotheses that reach it label alike (there may be none)
    t = i.bit_length() - 1
    ys = [(i >> (t - 1 - s)) & 1 for s in range(t)]  # the labels on the way from the root to node i
    nodes = [i >> (t - s) for s in range(t)]
    reach = np.ones(len(H), dtype=bool)
    for node, y in zip(nodes, ys):
        reach &= H[:, tree[node - 1]] == y
    flat = [x for x in range(n) if H[reach, x].min() == H[reach, x].max()]
    if flat:
        bad = tree.copy()
        bad[i - 1] = data.draw(st.sampled_from(flat))
        assert not olkit.is_shattered(bad, H)


def test_every_corrupted_node_of_witness_trees_is_rejected():
    rng = np.random.default_rng(21)
    checked = 0
    while checked < 60:
        H = olkit.random_class(int(rng.integers(8, 60)), int(rng.integers(3, 9)), rng)
        tree, d = olkit.shattered_tree(H), olkit.ldim(H)
        if d < 2:
            continue
        checked += 1
        for i in range(2, 2**d):
            bad = tree.copy()
            bad[i - 1] = tree[i // 2 - 1]  # repeats its parent's instance
            assert not olkit.is_shattered(bad, H)
            t = i.bit_length() - 1
            reach = np.ones(len(H), dtype=bool)
            for s in range(t):  # the hypotheses that reach node i
                reach &= H[:, tree[(i >> (t - s)) - 1]] == (i >> (t - 1 - s)) & 1
            for x in range(H.shape[1]):
                if H[reach, x].min() == H[reach, x].max():  # an instance that no longer splits
                    bad[i - 1] = x
                    assert not olkit.is_shattered(bad, H)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(classes, st.integers(0, 2**32 - 1))
def test_soa_makes_at_most_ldim_mistakes_and_ldim_drops_on_each(H, seed):
    rng = np.random.default_rng(seed)
    d = olkit.ldim(H)
    target = int(rng.integers(len(H)))
    xs = rng.integers(0, H.shape[1], size=40)
    tr = olkit.run(olkit.SOA(H), xs, H[target, xs].astype(int))
    ld = tr.state["ldim"]
    assert tr.M <= d and ld[0] == d
    assert (ld[1:][tr.mistake] <= ld[:-1][tr.mistake] - 1).all()
    assert (ld[1:] <= ld[:-1]).all() and ld[-1] >= 0
    V = tr.state["V_size"]
    assert (V[1:] <= V[:-1]).all() and V[-1] >= 1


# -- VC dimension ---------------------------------------------------------------------------------


def test_vcdim_against_brute_force_on_every_small_class():
    F = olkit.all_functions(3)
    for r in range(1, 9):
        for S in itertools.combinations(range(8), r):
            H = F[list(S)]
            v, W = olkit.vcdim(H, return_set=True)
            assert v == brute_vcdim(H)
            assert olkit.is_shattered_set(W, H)


def test_vcdim_refuses_too_long_searches():
    with pytest.raises(ValueError, match="max_sets"):
        olkit.vcdim(olkit.random_class(300, 40, np.random.default_rng(0)), max_sets=10)


def test_is_shattered_set_validates():
    with pytest.raises(ValueError, match="distinct"):
        olkit.is_shattered_set([1, 1], olkit.all_functions(3))
    with pytest.raises(ValueError, match="points must be in"):
        olkit.is_shattered_set([5], olkit.all_functions(3))
    assert olkit.is_shattered_set([], olkit.all_functions(3))


# -- SOA -------------------------------------------------------------------------------------------


def uml_rule(H, xs, ys, tie=1) -> np.ndarray:
    """UML's SOA predictions, computed round by round from the definition with fresh Ldim calls."""
    H = np.asarray(H)
    alive = np.ones(len(H), dtype=bool)
    out = []
    for x, y in zip(xs, ys):
        l = [recursive_ldim(H[alive & (H[:, x] == r)]) if (alive & (H[:, x] == r)).any() else -1 for r in (0, 1)]
        out.append(1 if l[1] > l[0] else 0 if l[0] > l[1] else tie)
        alive &= H[:, x] == y
    return np.array(out)


@pytest.mark.parametrize("tie", [0, 1])
def test_soa_predicts_by_uml_rule(tie):
    rng = np.random.default_rng(11)
    ties = 0
    for _ in range(30):
        H = np.unique(olkit.random_class(int(rng.integers(2, 20)), 5, rng), axis=0)
        target = int(rng.integers(len(H)))
        xs = rng.integers(0, 5, size=12)
        ys = H[target, xs].astype(int)
        tr = olkit.run(olkit.SOA(H, tie=tie), xs, ys)
        assert np.array_equal(tr.yhat, uml_rule(H, xs, ys, tie))
        ties += int((tr.details["ldim0"] == tr.details["ldim1"]).sum())
    assert ties > 0  # the tie rule was exercised


@pytest.mark.parametrize("seed", range(12))
def test_soa_is_optimal_on_small_classes(seed):
    rng = np.random.default_rng(seed)
    H = olkit.random_class(int(rng.integers(2, 12)), int(rng.integers(2, 6)), rng)
    d = olkit.ldim(H)
    assert olkit.worst_case_mistakes(H, olkit.SOA) == d
    assert olkit.worst_case_mistakes(H, lambda A: olkit.SOA(A, tie=0)) == d
    assert olkit.worst_case_mistakes(H, olkit.Halving) >= d


def test_soa_shares_a_solver_and_reports_its_version_space():
    H = olkit.thresholds(31)
    s = L.LdimSolver(H)
    a, b = olkit.SOA(H, solver=s), olkit.SOA(None, solver=s)
    for x, y in [(15, 1), (7, 0), (11, 1)]:
        assert a.predict(x) == b.predict(x)
        a.update(x, y)
        b.update(x, y)
    assert np.array_equal(a.version_space(), np.arange(8, 12)) and a.state() == {"ldim": 2, "V_size": 4}
    with pytest.raises(ValueError, match="different class"):
        olkit.SOA(olkit.thresholds(30), solver=s)
    with pytest.raises(ValueError, match="LdimSolver"):
        olkit.SOA(H, solver="memo")


# -- the tree environment (UML Lemma 21.6) ---------------------------------------------------------


@pytest.mark.parametrize("name, H", [("thresholds 15", olkit.thresholds(15)), ("singletons 9", olkit.singletons(9)),
                                     ("all functions 4", olkit.all_functions(4)),
                                     ("random", olkit.random_class(200, 25, np.random.default_rng(4)))])
def test_tree_adversary_forces_ldim_mistakes_on_every_learner(name, H):
    d = olkit.ldim(H)
    tree = olkit.shattered_tree(H)
    makers = [olkit.Consistent, olkit.Halving, olkit.SOA, lambda A: olkit.Constant(0),
              lambda A: olkit.RandomGuess(np.random.default_rng(5))]
    for make in makers:
        adv = olkit.TreeAdversary(tree, H)
        tr = olkit.play(make(H), adv, 100)
        assert tr.T == d and tr.M == d and tr.mistake.all()
        assert np.array_equal(H[adv.witness(), tr.x], tr.y)
        game = S.TreeGame(H, tree).play(make(H))
        assert game.mistakes == d and game.ldims[-1] >= 0 and game.ldims[0] == d
        assert np.array_equal(H[game.witness(), game.xs], game.ys)


def test_tree_game_validates_and_reports():
    g = S.TreeGame(olkit.thresholds(3))
    assert g.depth == 2 and g.next_x() == int(g.tree[0])
    with pytest.raises(ValueError, match="yhat"):
        g.answer(2)
    g.answer(1)
    g.answer(0)
    assert g.done and g.next_x() is None and g.mistakes == 2
    assert "game over: 2 mistakes in 2 rounds" in g.status()
    with pytest.raises(ValueError, match="game is over"):
        g.answer(0)
    with pytest.raises(ValueError, match="2\\^d - 1"):
        S.TreeGame(olkit.thresholds(3), tree=[0, 1])


# -- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize("f", [olkit.ldim, olkit.shattered_tree, olkit.vcdim, olkit.SOA,
                               lambda H: olkit.ldim_at_least(H, 1)])
def test_bad_classes_are_refused(f):
    with pytest.raises(ValueError, match="entries in \\{0, 1\\}"):
        f(np.array([[0, 2], [1, 0]]))
    with pytest.raises(ValueError, match="empty class"):
        f(np.zeros((0, 3), dtype=np.uint8))
    with pytest.raises(ValueError, match="2-D"):
        f(np.array([0, 1, 1]))


@pytest.mark.parametrize("shape", [(L.MAX_HYPOTHESES + 1, 2), (2, L.MAX_POINTS + 1)])
def test_classes_too_large_for_the_exact_search_are_refused_naming_the_limit(shape):
    H = np.zeros(shape, dtype=np.uint8)
    for f in (olkit.ldim, olkit.vcdim):
        with pytest.raises(ValueError, match=f"limited to {L.MAX_HYPOTHESES} hypotheses and {L.MAX_POINTS} points"):
            f(H)


@pytest.mark.parametrize("tie", [2, -1, 0.5, True, "1", None])
def test_soa_tie_must_be_a_label(tie):
    with pytest.raises(ValueError, match="tie must be 0 or 1"):
        olkit.SOA(olkit.thresholds(3), tie=tie)


def test_soa_names_the_round_of_a_non_realizable_sequence():
    H = olkit.thresholds(8)
    with pytest.raises(olkit.NotRealizableError, match="round 3") as err:
        olkit.run(olkit.SOA(H), [5, 2, 6, 1], [1, 0, 0, 1])
    assert err.value.round == 3
    with pytest.raises(ValueError, match="round 1: x = 8"):
        olkit.run(olkit.SOA(H), [8], [1])
    with pytest.raises(ValueError, match="label y = 2"):
        olkit.SOA(H).update(1, 2)


def test_checker_and_solver_validate_their_input():
    H = olkit.all_functions(3)
    with pytest.raises(ValueError, match="2\\^d - 1 nodes"):
        olkit.is_shattered([0, 1], H)
    with pytest.raises(ValueError, match="points 0..2"):
        olkit.is_shattered([0, 1, 3], H)
    with pytest.raises(ValueError, match="integer points"):
        olkit.is_shattered([0.5, 1, 2], H)
    assert olkit.is_shattered([], H)
    s = L.LdimSolver(H)
    with pytest.raises(ValueError, match="outside 0..7"):
        s.ldim([8])
    with pytest.raises(ValueError, match="shape \\(8,\\)"):
        s.ldim(np.ones(3, dtype=bool))
    with pytest.raises(ValueError, match="k must be an integer"):
        s.at_least(1.5)


# -- displays ------------------------------------------------------------------------------------


@pytest.mark.parametrize("d", [0, 1, 2, 3, 5, 7])
def test_draw_tree(d):
    fig, ax = plt.subplots()
    tree = np.arange(2**d - 1)
    olkit.plots.draw_tree(ax, tree, path=[1, 0, 1][: d], leaf_labels=[f"h{j}" for j in range(2**d)], title="t")
    plt.close(fig)
    with pytest.raises(ValueError, match="path"):
        olkit.plots.draw_tree(ax, tree, path=[0] * (d + 1))
    with pytest.raises(ValueError, match="leaf_labels"):
        olkit.plots.draw_tree(ax, tree, leaf_labels=["a"] * (2**d + 1))


def test_table_text_and_html():
    t = olkit.plots.Table([[0, "*"], [1, 1]], header=["h1", "h2"], index=["v1", "v2"], caption="c")
    assert repr(t) == "c\n    h1  h2\nv1   0   *\nv2   1   1"
    assert "<th>v1</th><td>0</td><td>*</td>" in t._repr_html_()
    with pytest.raises(ValueError, match="entries"):
        olkit.plots.Table([[0]], header=["a", "b"])


def test_tree_game_widget_plays_without_a_kernel():
    w = olkit.plots.tree_game_widget({"thresholds n=7": olkit.thresholds(7), "singletons": olkit.singletons(5)})
    assert repr(w) == "TreeGame widget, 2 classes (needs a live kernel)"
    (choice, restart), (b0, b1, bsoa), image, text = w.children[0].children, w.children[1].children, *w.children[2:]
    assert image.value[:4] == b"\x89PNG"
    b0.click()
    bsoa.click()
    b1.click()
    assert "game over: 3 mistakes in 3 rounds" in text.value and b0.disabled
    choice.value = "singletons"
    assert "Ldim(V_t) = 1" in text.value and not b0.disabled


# -- LdimByDefinition: the independent implementation ---------------------------
from hypothesis import given as _given, settings as _settings, strategies as _st  # noqa: E402


@_settings(max_examples=60, deadline=None)
@_given(seed=_st.integers(0, 10**6), m=_st.integers(1, 40), n=_st.integers(1, 9))
def test_ldim_by_definition_agrees_with_the_solver(seed, m, n):
    from olkit.littlestone import LdimByDefinition, ldim_brute

    H = olkit.random_class(m, n, np.random.default_rng(seed))
    assert ldim_brute(H) == olkit.ldim(H)
    L, S = LdimByDefinition(H), olkit.LdimSolver(H)
    rows = np.random.default_rng(seed + 1).random(m) < 0.5
    assert L(rows) == S.ldim(rows) and L(np.flatnonzero(rows)) == S.ldim(rows)


def test_ldim_by_definition_conventions_and_limits():
    from olkit.littlestone import LdimByDefinition, ldim_brute

    H = olkit.thresholds(7)
    L = LdimByDefinition(H)
    assert L(np.zeros(8, dtype=bool)) == -1 and L(np.eye(8, dtype=bool)[3]) == 0 and ldim_brute(H) == 3
    assert ldim_brute(olkit.singletons(50)) == 1 and ldim_brute(olkit.all_functions(5)) == 5
    with pytest.raises(ValueError, match="shape"):
        L(np.ones(3, dtype=bool))
    with pytest.raises(ValueError, match="max_nodes"):
        LdimByDefinition(olkit.random_class(200, 12, np.random.default_rng(0)), max_nodes=3)(np.ones(200, dtype=bool))


def test_exact_algorithms_size_limits():
    from olkit.littlestone import MAX_HYPOTHESES, MAX_POINTS

    assert (MAX_HYPOTHESES, MAX_POINTS) == (2**16, 2**12)
    olkit.LdimSolver(np.zeros((2, MAX_POINTS), dtype=np.uint8))  # at the limits: accepted
    olkit.LdimSolver(olkit.all_functions(16))  # 2^16 rows
    with pytest.raises(ValueError, match="limited"):
        olkit.LdimSolver(np.zeros((2, MAX_POINTS + 1), dtype=np.uint8))
    with pytest.raises(ValueError, match="limited"):
        olkit.LdimSolver(np.zeros((MAX_HYPOTHESES + 1, 2), dtype=np.uint8))


def test_the_solver_counts_the_nodes_it_expands():
    """``nodes`` is the book's machine-independent cost of the search: it grows with the work done and a
    memoized second call adds nothing."""
    solver = olkit.littlestone.LdimSolver(olkit.thresholds(15))
    assert solver.nodes == 0
    assert solver.ldim() == 4
    n1 = solver.nodes
    assert n1 > 0
    solver.ldim()
    assert solver.nodes == n1


# -- the checks of Chapter 2 moved into olkit (tree_nodes, random_realizable, soa_ldims, soa_rule, check_soa) --


def test_tree_nodes_closed_form_equals_the_recursion():
    for d in range(0, 11):
        for y in itertools.product((0, 1), repeat=d):
            i = [1]
            for yt in y:
                i.append(2 * i[-1] + yt)
            assert S.tree_nodes(np.array(y, dtype=np.int64)).tolist() == i
    assert S.tree_nodes([1, 0]).tolist() == [1, 3, 6]


def test_tree_nodes_validates():
    with pytest.raises(ValueError, match="labels 0 and 1"):
        S.tree_nodes([0, 2])
    with pytest.raises(ValueError, match="at most 62"):
        S.tree_nodes(np.zeros(63, dtype=int))


def test_random_realizable_is_realizable_and_seeded():
    H = olkit.random_class(30, 8, np.random.default_rng(0))
    xs, ys = S.random_realizable(H, 50, np.random.default_rng(3))
    xs2, ys2 = S.random_realizable(H, 50, np.random.default_rng(3))
    assert np.array_equal(xs, xs2) and np.array_equal(ys, ys2) and len(xs) == 50
    assert (H[:, xs] == ys).all(axis=1).any()
    with pytest.raises(ValueError, match="T must be"):
        S.random_realizable(H, -1, np.random.default_rng(0))


@pytest.mark.parametrize("seed", range(4))
def test_soa_ldims_and_rule_agree_with_the_solver_and_soa(seed):
    rng = np.random.default_rng(seed)
    H = olkit.random_class(40, 8, rng)
    xs, ys = S.random_realizable(H, 25, rng)
    now, l0, l1 = S.soa_ldims(H, xs, ys)
    alive = np.ones(len(H), dtype=bool)

    def ld(rows):  # the solver, with Ldim(empty) = -1
        return olkit.ldim(H[rows]) if rows.any() else -1

    assert now[0] == olkit.ldim(H)
    for t, (x, y) in enumerate(zip(xs, ys)):
        assert l0[t] == ld(alive & (H[:, x] == 0)) and l1[t] == ld(alive & (H[:, x] == 1))
        alive &= H[:, x] == y
        assert now[t + 1] == ld(alive)
    for tie in (0, 1):
        tr = olkit.run(olkit.SOA(H, tie=tie), xs, ys)
        assert np.array_equal(S.soa_rule(H, xs, ys, tie=tie)[2], tr.yhat)


def test_soa_ldims_and_rule_validate():
    H = olkit.thresholds(5)
    with pytest.raises(ValueError, match="same length"):
        S.soa_ldims(H, [0, 1], [1])
    with pytest.raises(ValueError, match="points 0..4"):
        S.soa_ldims(H, [7], [1])
    with pytest.raises(ValueError, match="labels 0 and 1"):
        S.soa_ldims(H, [0], [3])
    with pytest.raises(ValueError, match="tie must be"):
        S.soa_rule(H, [0], [1], tie=2)


def _soa_runs(make, seeds=range(3)):
    runs = {}
    for s in seeds:
        rng = np.random.default_rng(s)
        H = olkit.random_class(60, 10, rng)
        xs, ys = S.random_realizable(H, 40, rng)
        runs[f"run {s}"] = (olkit.run(make(H), xs, ys), H)
        runs[f"run {s}, tree"] = (olkit.play(make(H), olkit.TreeAdversary(olkit.shattered_tree(H), H), 50), H)
    return runs


def test_check_soa_passes_on_soa():
    p = S.check_soa(_soa_runs(olkit.SOA), "Lemma 21.7")
    assert "Lemma 21.7" in str(p)


class _LyingSOA(olkit.SOA):
    """Broken: decides like SOA but records floor(log2 |V|) in place of Ldim."""

    def state(self):
        return {"ldim": self.V.bit_count().bit_length() - 1, "V_size": self.V.bit_count()}


class _ContrarySOA(olkit.SOA):
    """Broken: predicts the part of smaller Ldim (and records the true Ldims)."""

    def predict(self, x):
        return 1 - super().predict(x)


@pytest.mark.parametrize("broken, step", [(_LyingSOA, "step 0"), (_ContrarySOA, "step 4")])
def test_check_soa_stops_broken_soa(broken, step):
    with pytest.raises(olkit.ProofStepError, match=step):
        S.check_soa(_soa_runs(broken), "Lemma 21.7")
