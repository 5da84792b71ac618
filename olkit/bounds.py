"""Mistake bounds, one plain function per theorem.

Each returns the right-hand side of the theorem's inequality; the notebooks
compare it with the mistakes of recorded runs.
"""
from __future__ import annotations

import math

__all__ = ["consistent_bound", "halving_bound", "halfspace_halving_bound"]


def _size(size: int) -> int:
    if isinstance(size, bool) or not isinstance(size, int) or size < 1:
        raise ValueError(f"the class size |H| must be a positive integer; got {size!r}")
    return size


def consistent_bound(size: int) -> int:
    """|H| - 1: the mistake bound of Consistent (UML Corollary 21.2; Telgarsky, Lecture 10)."""
    return _size(size) - 1


def halving_bound(size: int) -> float:
    """log2 |H|: the mistake bound of Halving (UML Theorem 21.3; Mohri et al. Theorem 7.1)."""
    return math.log2(_size(size))


def halfspace_halving_bound(n: int, d: int) -> float:
    """d log2(2n + 1): Halving on halfspaces with weights in the grid G^d, |H| = (2n+1)^d
    (Shalev-Shwartz's lecture, "Using Halving to learn halfspaces on a grid")."""
    if n < 1 or d < 1:
        raise ValueError(f"n and d must be positive integers; got n={n!r}, d={d!r}")
    return d * math.log2(2 * n + 1)
