"""Chapter 6 (olkit.batch): time the notebooks of every chapter and the online-to-batch Monte Carlo at
scale; write benchmarks/batch_results.md.

    .venv/bin/python benchmarks/batch.py

Wall-clock seconds; notebooks one fresh kernel each (one run), the Monte Carlo best of 3.
"""
from __future__ import annotations

import os
import platform
from fractions import Fraction
from pathlib import Path

import numpy as np

import olkit
from olkit import batch
from run import best_of, notebooks  # benchmarks/run.py (this script's folder is on sys.path)

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "batch_results.md"


def monte_carlo_rows() -> list[tuple[str, float]]:
    """Halving on a random class over 16 points: runs x T rounds of online-to-batch, risks and mistakes
    of every round of every run (what Chapter 6.1 computes), through SeenSetPaths."""
    rng = np.random.default_rng(0)
    n = 16
    H = np.unique(olkit.random_class(64, n, rng), axis=0)
    p = [Fraction(1, n)] * n
    D = batch.FiniteDistribution(p, H[0])
    rows = []
    for runs, T in [(1000, 100), (10_000, 100), (10_000, 1000)]:
        XS, _ = D.sample(T, np.random.default_rng(1), runs=runs)

        def go():
            seen = batch.SeenSetPaths(lambda: olkit.Halving(H), H[0])
            ids = seen.paths(XS)
            tab = seen.table
            risk = D.risk(tab)[ids]
            mistake = tab[ids[:, :T], XS] != D.target[XS]
            batch.count_test(risk[:, :T], mistake)

        rows.append((f"{runs:,} runs x T = {T:,} (a class of {len(H)} functions on {n} points)", best_of(go, 3)))
    return rows


def main() -> None:
    load = os.getloadavg()[0]
    nbs = notebooks()
    mc = monte_carlo_rows()
    lines = [
        "# Chapter 6 benchmarks (and every notebook's execution time)",
        "",
        f"Written by `benchmarks/batch.py`. Machine: {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, numpy {np.__version__}; load average {load:.1f} at the start. "
        "Wall-clock seconds.",
        "",
        "## Notebook execution (one fresh kernel each)",
        "",
        "| notebook | seconds |",
        "|---|---|",
        *[f"| {name} | {sec:.1f} |" for name, sec in nbs],
        "",
        "## Online to batch at scale: Halving's risks and mistakes for every round of every run (best of 3)",
        "",
        "| experiment | seconds |",
        "|---|---|",
        *[f"| {name} | {sec:.3f} |" for name, sec in mc],
        "",
    ]
    OUT.write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
