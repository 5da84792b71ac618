"""Time every notebook and the learners at the sizes the issues name; write benchmarks/results.md.

    .venv/bin/python benchmarks/run.py            # everything
    .venv/bin/python benchmarks/run.py --no-notebooks

Timings are wall-clock seconds, best of ``--repeat`` runs (learners) or one run (notebooks).
"""
from __future__ import annotations

import argparse
import platform
import time
from pathlib import Path

import numpy as np

import olkit

ROOT = Path(__file__).resolve().parents[1]


def best_of(f, repeat: int) -> float:
    best = np.inf
    for _ in range(repeat):
        t0 = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t0)
    return best


def notebooks() -> list[tuple[str, float]]:
    import nbclient
    import nbformat

    rows = []
    for nb_path in sorted((ROOT / "chapters").rglob("*.ipynb")):
        nb = nbformat.read(nb_path, as_version=4)
        client = nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                                         resources={"metadata": {"path": str(nb_path.parent)}})
        t0 = time.perf_counter()
        client.execute()
        rows.append((nb_path.relative_to(ROOT).as_posix(), time.perf_counter() - t0))
    return rows


def halving_big(repeat: int) -> list[tuple[str, float, int]]:
    rng = np.random.default_rng(0)
    rows = []
    T = 10_000
    for name, H in [("all functions on 20 points (2^20 x 20)", olkit.all_functions(20)),
                    ("random class 2^20 x 64", olkit.random_class(2**20, 64, rng))]:
        target = int(rng.integers(len(H)))
        xs = rng.integers(0, H.shape[1], size=T)
        ys = H[target, xs].astype(int)
        M = olkit.run(olkit.Halving(H), xs, ys).M
        rows.append((name, best_of(lambda: olkit.run(olkit.Halving(H), xs, ys), repeat), M))
    return rows


def thresholds_scaling(repeat: int) -> list[tuple[int, float, float, float | None]]:
    rng = np.random.default_rng(1)
    rows = []
    T = 10_000
    for n in [10**2, 10**3, 10**4, 10**5, 10**6]:
        k = int(rng.integers(n + 1))
        xs = rng.integers(0, n, size=T)
        ys = (xs >= k).astype(int)
        t_eff = best_of(lambda: olkit.run(olkit.ThresholdHalving(n), xs, ys), repeat)
        t_imp = best_of(lambda: olkit.run(olkit.Halving(olkit.ImplicitThresholds(n)), xs, ys), repeat)
        t_dense = None
        if n <= 10**4:
            H = olkit.thresholds(n)
            t_dense = best_of(lambda: olkit.run(olkit.Halving(H), xs, ys), repeat)
        a = olkit.run(olkit.ThresholdHalving(n), xs, ys)
        b = olkit.run(olkit.Halving(olkit.ImplicitThresholds(n)), xs, ys)
        assert np.array_equal(a.yhat, b.yhat), "efficient and matrix Halving disagree"
        rows.append((n, t_eff, t_imp, t_dense))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-notebooks", action="store_true")
    args = ap.parse_args()

    out = ["# Benchmarks", "",
           f"Machine: {platform.machine()}, {__import__('os').cpu_count()} cores, Python {platform.python_version()}, "
           f"numpy {np.__version__}. Wall-clock seconds.", ""]
    if not args.no_notebooks:
        out += ["## Notebook execution (one fresh kernel each)", "", "| notebook | seconds |", "|---|---|"]
        for name, s in notebooks():
            out.append(f"| {name} | {s:.1f} |")
            print(f"{name}: {s:.1f} s", flush=True)
        out.append("")
    out += ["## Halving over 2^20 hypotheses, 10^4 rounds (best of %d)" % args.repeat, "",
            "| class | seconds | mistakes |", "|---|---|---|"]
    for name, s, M in halving_big(args.repeat):
        out.append(f"| {name} | {s:.3f} | {M} |")
        print(f"Halving {name}: {s:.3f} s, M = {M}", flush=True)
    out += ["", "## Thresholds: efficient Halving vs matrix Halving, 10^4 rounds (best of %d)" % args.repeat, "",
            "| n | ThresholdHalving | Halving(ImplicitThresholds) | Halving(dense matrix) |", "|---|---|---|---|"]
    for n, te, ti, td in thresholds_scaling(args.repeat):
        out.append(f"| {n:,} | {te:.3f} | {ti:.3f} | {'-' if td is None else f'{td:.3f}'} |")
        print(f"thresholds n={n}: efficient {te:.3f} s, implicit {ti:.3f} s, dense {td}", flush=True)
    (ROOT / "benchmarks" / "results.md").write_text("\n".join(out) + "\n")
    print("wrote benchmarks/results.md")


if __name__ == "__main__":
    main()
