"""Chapter 5 at scale: online gradient descent in d = 1000 over T = 10^5 rounds, and the chapter's notebooks.

    .venv/bin/python benchmarks/oco.py                 # both; writes benchmarks/oco_results.md
    .venv/bin/python benchmarks/oco.py --no-notebooks

Wall-clock seconds, best of ``--repeat`` runs (OGD) or one run each (notebooks, fresh kernel).
"""
from __future__ import annotations

import argparse
import math
import os
import platform
import time
from pathlib import Path

import numpy as np

from olkit import convex, oco
from run import notebooks  # benchmarks/run.py (this script's folder is on sys.path)

ROOT = Path(__file__).resolve().parents[1]


def best_of(f, repeat: int) -> tuple[float, object]:
    best, out = math.inf, None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = f()
        best = min(best, time.perf_counter() - t0)
    return best, out


def ogd_at_scale(d: int, T: int, repeat: int) -> list[tuple[str, float, str]]:
    rng = np.random.default_rng(0)
    X = rng.standard_normal((T, d)) / math.sqrt(d)  # ||x_t|| about 1
    y = np.where(X @ rng.standard_normal(d) > 0, 1.0, -1.0)
    rows = []
    t_make, hinge = best_of(lambda: convex.Hinge.sequence(X, y), repeat)
    rows.append((f"make {T:,} hinge losses in d = {d}", t_make, ""))
    K = convex.Ball(d, 10.0)
    rho = float(np.linalg.norm(X, axis=1).max())
    eta = K.B / (rho * math.sqrt(T))

    def run_hinge():
        return oco.play(oco.OGD(K, eta), hinge, keep_points=False)

    t_h, tr = best_of(run_hinge, repeat)
    rows.append((f"OGD, hinge losses, ball B = 10, d = {d}, T = {T:,} (per-round sums kept)", t_h,
                 f"average hinge loss {tr.loss.mean():.3f}"))
    linear = [convex.Linear(g) for g in X]
    t_l, tr = best_of(lambda: oco.play(oco.OGD(K, eta), linear, keep_points=False), repeat)
    rows.append((f"OGD, linear losses, d = {d}, T = {T:,}", t_l, ""))
    return rows




def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--d", type=int, default=1000)
    ap.add_argument("--T", type=int, default=100_000)
    ap.add_argument("--no-notebooks", action="store_true")
    args = ap.parse_args()
    out = ["# Chapter 5 benchmarks", "",
           f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
           f"numpy {np.__version__}, load average {os.getloadavg()[0]:.1f} at the start. Wall-clock seconds.", "",
           f"## OGD at scale (best of {args.repeat})", "", "| what | seconds | note |", "|---|---|---|"]
    for what, s, note in ogd_at_scale(args.d, args.T, args.repeat):
        out.append(f"| {what} | {s:.2f} | {note} |")
        print(f"{what}: {s:.2f} s {note}", flush=True)
    if not args.no_notebooks:
        out += ["", "## Chapter 5 notebooks (one fresh kernel each)", "", "| notebook | seconds |", "|---|---|"]
        for name, s in notebooks("ch5"):
            out.append(f"| {name} | {s:.1f} |")
            print(f"{name}: {s:.1f} s", flush=True)
    (ROOT / "benchmarks" / "oco_results.md").write_text("\n".join(out) + "\n")
    print("wrote benchmarks/oco_results.md")


if __name__ == "__main__":
    main()
