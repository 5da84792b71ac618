"""Time the exact Littlestone dimension (olkit.littlestone); write benchmarks/ldim_results.md.

    .venv/bin/python benchmarks/ldim.py             # everything (about a minute on 2 cores)
    .venv/bin/python benchmarks/ldim.py --quick     # the two headline cases only

Each timing is one exact computation of Ldim(H) from scratch (a fresh LdimSolver), wall-clock
seconds, best of ``--repeat`` runs. "nodes" is the number of search nodes expanded, a
machine-independent measure of the work. The column "plain" repeats the computation with
localization switched off (every version space stays a bitset over all of H), to show what
re-indexing sparse version spaces saves.
"""
from __future__ import annotations

import argparse
import os
import platform
import time
from pathlib import Path

import numpy as np

import olkit
import olkit.littlestone as L

ROOT = Path(__file__).resolve().parents[1]


def timed(H, repeat: int, localize: bool = True) -> tuple[float, int, int]:
    """(best seconds, Ldim, nodes) of computing Ldim(H) from scratch."""
    saved = L.MIN_LOCAL_WIDTH
    if not localize:
        L.MIN_LOCAL_WIDTH = 10**12
    try:
        best, d, nodes = np.inf, None, None
        for _ in range(repeat):
            t0 = time.perf_counter()
            s = L.LdimSolver(H)
            d = s.ldim()
            best = min(best, time.perf_counter() - t0)
            nodes = s.nodes
        return best, d, nodes
    finally:
        L.MIN_LOCAL_WIDTH = saved


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    out = ["# Benchmarks: exact Littlestone dimension", "",
           f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
           f"numpy {np.__version__}. Wall-clock seconds of one exact Ldim computation from scratch "
           f"(best of {args.repeat}); `nodes` = search nodes expanded; `plain` = the same search without "
           "re-indexing sparse version spaces. Written by `benchmarks/ldim.py`.", ""]

    out += ["## Headline cases", "", "| class | hypotheses | points | Ldim | seconds | plain | nodes | witness tree + is_shattered |",
            "|---|---|---|---|---|---|---|---|"]
    for name, H in [("random (seed 0), p = 1/2", olkit.random_class(4000, 60, np.random.default_rng(0))),
                    ("thresholds on 1023 points", olkit.thresholds(1023))]:
        s, d, nodes = timed(H, args.repeat)
        sp, dp, _ = timed(H, args.repeat, localize=False)
        assert d == dp
        t0 = time.perf_counter()
        tree = olkit.shattered_tree(H)
        ok = olkit.is_shattered(tree, H)
        tw = time.perf_counter() - t0
        assert ok and len(tree) == 2**d - 1
        out.append(f"| {name} | {H.shape[0]} | {H.shape[1]} | {d} | {s:.3f} | {sp:.3f} | {nodes} | {tw:.3f} |")
        print(out[-1], flush=True)
    if args.quick:
        out.append("")
        (ROOT / "benchmarks" / "ldim_results.md").write_text("\n".join(out) + "\n")
        return

    sizes, points = [250, 1000, 4000, 16000, 65536], [20, 60, 200]
    out += ["", "## Random classes (p = 1/2, seed 1): seconds (Ldim) by number of hypotheses (rows) and points (columns)", "",
            "| hypotheses \\ points | " + " | ".join(str(n) for n in points) + " | plain, 60 points |",
            "|---" * (len(points) + 2) + "|"]
    rng = np.random.default_rng(1)
    for m in sizes:
        cells = []
        for n in points:
            H = olkit.random_class(m, n, rng)
            s, d, _ = timed(H, 1 if m >= 16000 else args.repeat)
            cells.append(f"{s:.3f} ({d})")
            if n == 60:
                plain = timed(H, 1, localize=False)[0]
        out.append(f"| {m} | " + " | ".join(cells) + f" | {plain:.3f} |")
        print(out[-1], flush=True)

    out += ["", "## Other classes", "", "| class | hypotheses | points | Ldim | seconds | plain | nodes |", "|---|---|---|---|---|---|---|"]
    rng = np.random.default_rng(2)
    others = [(f"thresholds n = {n}", olkit.thresholds(n)) for n in (255, 1023, 4095)]
    others += [(f"all functions k = {k}", olkit.all_functions(k)) for k in (10, 14)]
    others += [("singletons d = 4096", olkit.singletons(4096)), ("programs < 12 bits, 64 points", olkit.programs(12, 64)[0])]
    others += [(f"random sparse p = {p}", olkit.random_class(4000, 60, rng, p=p)) for p in (0.1, 0.03)]
    others += [("random 20000 x 100, p = 0.1", olkit.random_class(20000, 100, rng, p=0.1))]
    for name, H in others:
        rep = 1 if H.shape[0] * H.shape[1] > 10**6 else args.repeat
        s, d, nodes = timed(H, rep)
        sp = timed(H, 1, localize=False)[0]
        out.append(f"| {name} | {H.shape[0]} | {H.shape[1]} | {d} | {s:.3f} | {sp:.3f} | {nodes} |")
        print(out[-1], flush=True)
    out.append("")
    (ROOT / "benchmarks" / "ldim_results.md").write_text("\n".join(out) + "\n")
    print("wrote benchmarks/ldim_results.md")


if __name__ == "__main__":
    main()
