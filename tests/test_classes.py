import numpy as np
import pytest

import olkit
from olkit.classes import ImplicitThresholds, as_class, labels_of


def test_thresholds_rows_are_k_le_x():
    H = olkit.thresholds(4)
    assert H.shape == (5, 4)
    assert H.tolist() == [[1, 1, 1, 1], [0, 1, 1, 1], [0, 0, 1, 1], [0, 0, 0, 1], [0, 0, 0, 0]]
    assert H.flags.f_contiguous and H.dtype == np.uint8


def test_implicit_thresholds_match_dense():
    n = 9
    C = ImplicitThresholds(n)
    H = olkit.thresholds(n)
    idx = np.arange(n + 1)
    for x in range(n):
        assert np.array_equal(C.values(idx, x), H[:, x])
    assert np.array_equal(np.asarray(C), H)


def test_singletons_and_all_functions():
    assert np.array_equal(olkit.singletons(3), np.eye(3))
    A = olkit.all_functions(3)
    assert A.shape == (8, 3) and len(np.unique(A, axis=0)) == 8
    assert A[5].tolist() == [1, 0, 1]  # bit x of 5


def test_random_class_is_seeded():
    a = olkit.random_class(5, 7, np.random.default_rng(1))
    b = olkit.random_class(5, 7, np.random.default_rng(1))
    assert np.array_equal(a, b) and set(np.unique(a)) <= {0, 1}


def test_halfspaces_on_grid_counts_and_signs():
    n, d = 2, 2
    pts = olkit.halfspace_grid(n, d)
    H, W = olkit.halfspaces_on_grid(n, d, pts)
    assert W.shape == ((2 * n + 1) ** d, d) and H.shape == ((2 * n + 1) ** d, len(pts))
    assert np.array_equal(H, (W @ pts.T > 1e-12).astype(np.uint8))
    assert set(np.round(np.unique(W) * n).astype(int)) == set(range(-n, n + 1))


def test_halfspace_grid_size_limit_is_on_the_number_of_points():
    assert olkit.halfspace_grid(2, 2, max_points=25).shape == (25, 2)
    with pytest.raises(ValueError, match=r"\(2n\+1\)\^d = 25 points is too many"):
        olkit.halfspace_grid(2, 2, max_points=24)
    with pytest.raises(ValueError, match="too many"):
        olkit.halfspace_grid(1, 16)  # 3^16 > 2^24 by default


def test_programs_toy_language():
    P, src = olkit.programs(4, 10)
    assert len(P) == len(src) < 2**4
    i = src.index("011")
    assert P[i].tolist() == [0, 1, 1, 0, 1, 1, 0, 1, 1, 0]
    assert len(np.unique(P, axis=0)) == len(P)


def test_labels_of():
    H = olkit.thresholds(5)
    assert labels_of(H, 2, [0, 1, 2, 4]).tolist() == [0, 0, 1, 1]


@pytest.mark.parametrize(
    "bad, msg",
    [
        (np.zeros((0, 3)), "empty class"),
        (np.zeros((3, 0)), "empty domain"),
        (np.array([[0, 2]]), "entries in"),
        (np.zeros(3), "2-D"),
        (np.array([["a"]]), "numeric"),
    ],
)
def test_check_class_rejects(bad, msg):
    with pytest.raises(ValueError, match=msg):
        olkit.check_class(bad)
    with pytest.raises(ValueError, match=msg):
        olkit.Halving(bad)


@pytest.mark.parametrize("call", [lambda: olkit.thresholds(0), lambda: olkit.singletons(-1), lambda: olkit.all_functions(2.5),
                                  lambda: olkit.all_functions(30), lambda: olkit.programs(1, 5),
                                  lambda: olkit.random_class(3, 3, rng=1), lambda: olkit.random_class(3, 3, np.random.default_rng(0), p=2),
                                  lambda: olkit.halfspaces_on_grid(2, 2, np.zeros((3, 3)))])
def test_constructor_errors(call):
    with pytest.raises(ValueError):
        call()


def test_as_class_passes_implicit_through():
    C = ImplicitThresholds(3)
    assert as_class(C) is C


def test_dense_size_limit():
    from olkit.classes import MAX_ENTRIES, _dense

    _dense((2**16, 2**15), "x")  # exactly 2^31 entries
    with pytest.raises(ValueError):
        _dense((2**16, 2**15 + 1), "x")
    assert MAX_ENTRIES == 2**31


def test_halfspaces_on_grid_sizes_its_matrix_by_weights_and_points():
    from olkit.classes import MAX_ENTRIES

    # (2n+1)^d weights times m points: refused before anything is allocated
    with pytest.raises(ValueError):
        olkit.halfspaces_on_grid(2, 2, np.broadcast_to(np.zeros(2), (MAX_ENTRIES // 25 + 1, 2)))
