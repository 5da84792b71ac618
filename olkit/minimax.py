"""The exact minimax regret of the two-expert game (Mohri et al. Theorem 7.5 and its lower bound).

Two experts, losses in {(1, 0), (0, 1)}, T rounds: :class:`TwoExpertMinimax` computes the game's
value exactly by backward induction over the difference of the experts' cumulative losses, and
:class:`MinimaxLearner` plays the strategy that attains it against every sequence.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from .expert_game import _losses
from .game import int_at_least

__all__ = ["MinimaxLearner", "TwoExpertMinimax"]


class TwoExpertMinimax:
    """The minimax regret of the game with two experts and losses in {0, 1}^2, by backward induction
    in exact arithmetic (Fractions).

    The learner plays p (its weight on expert 1), the adversary then a loss vector in
    {(0,0), (1,1), (1,0), (0,1)} (it sees p, not the coin), and the regret is
    sum_t <p_t, l_t> - min(L_{T,1}, L_{T,2}).  Writing min(a, b) = (a + b)/2 - |a - b|/2, the regret is
    sum_t (p_t - 1/2) s_t + |d_T| / 2 with s_t = l_{t,1} - l_{t,2} and d_T = L_{T,1} - L_{T,2}, so
    the value with r rounds to go depends on the lead d only:

        V_0(d) = |d| / 2,   V_r(d) = min_{p in [0,1]} max_{l} [(p - 1/2) s(l) + V_{r-1}(d + s(l))].

    The max over l is the larger of a flat line (s = 0: V_{r-1}(d)) and two lines of slope +1 and
    -1 in p; the min over p of the two sloped lines is where they cross (clipped to [0, 1]).
    All numbers are dyadic rationals, kept exactly as integers over 2^(T_max + 1); the
    results are returned as Fractions.
    ``value(T)`` is V_T(0); ``p(r, d)`` the minimax weight on expert 1 with r rounds to go and lead
    d, the crossing point (so the strategy equalizes the two informative loss vectors).
    """

    def __init__(self, T_max: int):
        self.T_max = n = int_at_least(T_max, "T_max", 0)
        # every value and weight is a dyadic rational with denominator dividing 2^(T_max + 1): work with
        # integer numerators over D = 2^(T_max + 1), which is exact and much faster than Fractions
        D = self.D = 1 << (n + 1)
        half = D >> 1
        V = [[abs(d) * half for d in range(-n, n + 1)]]  # V[r][d + n]; V_0(d) = |d| / 2
        P: list[list[int]] = [[]]
        for r in range(1, n + 1):
            prev, v, p = V[-1], [0] * (2 * n + 1), [0] * (2 * n + 1)
            for d in range(-(n - r), n - r + 1):
                up, down, flat = prev[d + 1 + n], prev[d - 1 + n], prev[d + n]  # l = (1,0): s = +1; (0,1): s = -1
                twice = D + down - up  # 2 x D, where x - 1/2 + up = 1/2 - x + down
                if twice % 2:
                    raise AssertionError("internal error: the crossing point is not a multiple of 2^-(T_max+1)")
                x = min(max(twice // 2, 0), D)
                best = max(x - half + up, half - x + down)
                v[d + n], p[d + n] = max(best, flat), x
            V.append(v)
            P.append(p)
        self._V, self._P = V, P

    def value(self, T: int) -> Fraction:
        T = int_at_least(T, "T", 0)
        if T > self.T_max:
            raise ValueError(f"T must be <= T_max = {self.T_max}; got {T}")
        return Fraction(self._V[T][self.T_max], self.D)

    def V(self, r: int, d: int) -> Fraction:
        """V_r(d): the minimax regret still to come with r rounds to go and lead d = L_1 - L_2 (|d| <= T_max - r),
        counting |d_T| / 2 at the end."""
        r = int_at_least(r, "r", 0)
        if r > self.T_max or abs(d) > self.T_max - r:
            raise ValueError(f"(r, d) = ({r}, {d}) is outside the computed game (T_max = {self.T_max})")
        return Fraction(self._V[r][int(d) + self.T_max], self.D)

    def values(self) -> list[Fraction]:
        """V_T(0) for T = 0, ..., T_max."""
        return [Fraction(v[self.T_max], self.D) for v in self._V]

    def p(self, r: int, d: int) -> Fraction:
        """The minimax weight on expert 1 with r >= 1 rounds to go and lead d = L_1 - L_2."""
        r = int_at_least(r, "r", 1)
        if r > self.T_max or abs(d) > self.T_max - r:
            raise ValueError(f"(r, d) = ({r}, {d}) is outside the computed game (T_max = {self.T_max})")
        return Fraction(self._P[r][int(d) + self.T_max], self.D)


class MinimaxLearner:
    """The minimax strategy of :class:`TwoExpertMinimax` for a game of ``T`` rounds, as a learner
    (plays the distribution (p, 1 - p); losses must be in {0, 1})."""

    def __init__(self, game: TwoExpertMinimax, T: int):
        if not isinstance(game, TwoExpertMinimax):
            raise ValueError("game must be a TwoExpertMinimax")
        self.game, self.T = game, int_at_least(T, "T", 1)
        if self.T > game.T_max:
            raise ValueError(f"T must be <= the game's T_max = {game.T_max}; got {T}")
        self.N = 2
        self.t, self.d = 1, 0
        self.L = np.zeros(2)
        self.details: dict = {}

    def distribution(self) -> np.ndarray:
        q = self.game.p(self.T - self.t + 1, self.d)
        return np.array([float(q), float(1 - q)])

    def predict(self, f=None):
        self.details = {"p1": self.game.p(self.T - self.t + 1, self.d)}
        return None

    def update(self, ell, loss=None) -> None:
        ell = _losses(ell, "losses", (2,), binary=True)
        if self.t > self.T:
            raise ValueError(f"the game has T = {self.T} rounds")
        self.d += int(ell[0]) - int(ell[1])
        self.L = self.L + ell
        self.t += 1

    def state(self) -> dict:
        return {"L": self.L.copy(), "d": self.d}
