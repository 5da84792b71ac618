"""Broken pieces of Chapter 2 (:mod:`olkit.littlestone`, the tree environment): the negative controls.

Each variant has one thing wrong, said in its docstring.  The notebooks of Chapter 2 run their proof
checks on them inside :func:`olkit.negative_control`, and ``tests/test_broken_ch2.py`` runs the
notebooks with some of them patched in.

* SOA with the wrong tie rule, predicting the part of *smaller* Ldim, predicting the larger part
  (Halving's rule), or deciding with floor(log2 |V|) in place of Ldim;
* an Ldim solver with a wrong recursion (max in place of min), or one level too deep;
* a tree environment that moves to the wrong child, or confirms the prediction;
* a VC search that reports a set one point too large.
"""
from __future__ import annotations

import numpy as np

from ..adversaries import TreeAdversary
from ..littlestone import LdimSolver, vcdim
from ..soa import SOA

__all__ = [
    "AgreeingTreeAdversary",
    "Log2SOA",
    "MajoritySOA",
    "MaxRecursionSolver",
    "MinLdimSOA",
    "OneTooDeepSolver",
    "TieZeroSOA",
    "WrongChildTreeAdversary",
    "vcdim_one_too_many",
]


class TieZeroSOA(SOA):
    """Broken: breaks ties towards 0, whatever ``tie`` says (UML's SOA predicts 1 on a tie)."""

    def predict(self, x) -> int:
        yhat = super().predict(x)
        return 0 if self.details["ldim0"] == self.details["ldim1"] else yhat


class MinLdimSOA(SOA):
    """Broken: predicts the label whose part V_t(r) has the *smaller* Ldim (argmin in place of argmax)
    among the parts that some hypothesis supports (an empty part is never predicted); it records the
    true Ldims, so only its decisions are wrong."""

    def predict(self, x) -> int:
        super().predict(x)
        l0, l1 = self.details["ldim0"], self.details["ldim1"]
        if min(l0, l1) < 0:  # one part is empty: predict the other, as SOA does
            return 1 if l1 > l0 else 0
        return 1 if l1 < l0 else 0 if l0 < l1 else self.tie


class MajoritySOA(SOA):
    """Broken: predicts the label of the larger part of V_t (Halving's rule), not of the part with
    larger Ldim; it records the true Ldims."""

    def predict(self, x) -> int:
        super().predict(x)
        ones = (self.V & self._cols[int(x)]).bit_count()
        zeros = self.V.bit_count() - ones
        return 1 if ones > zeros else 0 if zeros > ones else self.tie


class Log2SOA(SOA):
    """Broken: floor(log2 |V|) (an upper bound on Ldim) in place of Ldim, in its decisions and in its
    record."""

    @staticmethod
    def _L(V: int) -> int:
        return V.bit_count().bit_length() - 1 if V else -1

    def predict(self, x) -> int:
        x = self._x(x)
        V1 = self.V & self._cols[x]
        l0, l1 = self._L(self.V & ~V1), self._L(V1)
        self.details = {"ldim0": l0, "ldim1": l1}
        return 1 if l1 > l0 else 0 if l0 > l1 else self.tie

    def state(self) -> dict:
        return {"ldim": self._L(self.V), "V_size": self.V.bit_count()}


class MaxRecursionSolver:
    """Broken: "Ldim" by the recursion with max in place of min,
    L(V) = max(0, max_x 1 + max(L(V_x^0), L(V_x^1))), the depth of the deepest chain of splits, and a
    tree of that depth (root x, and below it the deeper side's tree, repeated on both sides).

    Same interface as :class:`olkit.LdimSolver` (``ldim(rows)``, ``tree(rows)``), for small classes.
    """

    def __init__(self, H):
        self.H = np.asarray(H, dtype=np.uint8)
        self.memo: dict[bytes, tuple[int, int]] = {}

    def _best(self, mask: np.ndarray) -> tuple[int, int]:
        """(L(V), the root point that attains it, -1 if none) for the rows ``mask``."""
        if mask.sum() <= 1:
            return int(mask.sum()) - 1, -1
        key = np.packbits(mask).tobytes()
        if key not in self.memo:
            best = (0, -1)
            for x in range(self.H.shape[1]):
                ones = mask & (self.H[:, x] == 1)
                if ones.any() and (mask & ~ones).any():
                    d = 1 + max(self._best(ones)[0], self._best(mask & ~ones)[0])
                    best = max(best, (d, x), key=lambda b: b[0])
            self.memo[key] = best
        return self.memo[key]

    def _mask(self, rows) -> np.ndarray:
        if rows is None:
            return np.ones(len(self.H), dtype=bool)
        m = np.zeros(len(self.H), dtype=bool)
        m[np.asarray(rows)] = True
        return m

    def ldim(self, rows=None) -> int:
        return self._best(self._mask(rows))[0]

    def tree(self, rows=None) -> np.ndarray:
        mask = self._mask(rows)
        d, x = self._best(mask)
        if d <= 0:
            return np.zeros(0, dtype=np.int64)
        ones = mask & (self.H[:, x] == 1)
        deeper = ones if self._best(ones)[0] >= self._best(mask & ~ones)[0] else mask & ~ones
        sub = self.tree(np.flatnonzero(deeper))
        levels = [np.array([x])] + [np.tile(sub[2**t - 1: 2 ** (t + 1) - 1], 2) for t in range(d - 1)]
        return np.concatenate(levels).astype(np.int64)


class OneTooDeepSolver(LdimSolver):
    """Broken: a wrong constant, Ldim(V) + 1 for every non-empty V (the "+1" of the recursion counted
    once too often), with the true witness tree extended by one level that repeats its last level."""

    def ldim(self, rows=None) -> int:
        d = super().ldim(rows)
        return d + 1 if d >= 0 else d

    def tree(self, rows=None) -> np.ndarray:
        t = super().tree(rows)
        if len(t) == 0:
            return np.zeros(1, dtype=np.int64)
        d = int(np.log2(len(t) + 1))
        return np.concatenate([t, np.repeat(t[2 ** (d - 1) - 1:], 2)])


class WrongChildTreeAdversary(TreeAdversary):
    """Broken: moves to the child of the other label (the convention of UML's prose),
    i_{t+1} = 2 i_t + 1 - y_t."""

    def label(self, x, yhat) -> int:
        y = super().label(x, yhat)
        self.i += 1 - 2 * y
        return y


class AgreeingTreeAdversary(TreeAdversary):
    """Broken: confirms the prediction instead of contradicting it (y_t = yhat_t)."""

    def label(self, x, yhat) -> int:
        super().label(x, 1 - int(yhat))
        self.path[-1] = (int(x), int(yhat))
        return int(yhat)


def vcdim_one_too_many(H, return_set: bool = False):
    """Broken: the VC search reports its shattered set with one more point (the first point not in it),
    and a dimension one too large."""
    d, S = vcdim(H, return_set=True)
    rest = [x for x in range(np.asarray(H).shape[1]) if x not in set(S.tolist())]
    if rest:
        d, S = d + 1, np.append(S, rest[0]).astype(np.int64)
    return (d, S) if return_set else d
