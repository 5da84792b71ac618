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


def notebooks(folder: str = "") -> list[tuple[str, float]]:
    """Execution time of each notebook under chapters/<folder> in a fresh kernel."""
    import nbclient
    import nbformat

    rows = []
    for nb_path in sorted((ROOT / "chapters" / folder).rglob("*.ipynb")):
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


def hedge_scale(repeat: int, T: int = 100_000, N: int = 10_000, block: int = 16) -> dict:
    """Hedge (olkit.hedge, fixed eta, record=False) with N experts over T rounds of 0/1 losses (stored as uint8),
    against numpy floors measured in the same run: one vectorized pass over the loss matrix, block by block,
    that computes the cumulative sums and a log-sum-exp per round and nothing else -- with np.exp (the literal
    floor) and with the table of exp(-eta k) that olkit.hedge uses for integer losses."""
    rng = np.random.default_rng(8)
    L = np.unpackbits(np.frombuffer(rng.bytes(T * N // 8), dtype=np.uint8)).reshape(T, N)
    eta = olkit.experts.ewa_eta(N, T)
    table = np.exp(-eta * np.arange(T + 1, dtype=float))

    def floor(use_table: bool) -> np.ndarray:
        rows = np.empty((block + 1, N), dtype=np.int64)
        D = np.empty((block, N), dtype=np.int64)
        E = np.empty((block, N))
        rows[0] = 0
        out = np.empty(T)
        for s in range(0, T, block):
            lb = L[s:s + block]
            B = len(lb)
            for r in range(B):  # cumulative sums, round after round (faster than np.cumsum along axis 0)
                np.add(rows[r], lb[r], out=rows[r + 1])
            C = rows[1:B + 1]
            m = C.min(axis=1)
            np.subtract(C, m[:, None], out=D[:B])
            if use_table:
                np.take(table, D[:B], mode="clip", out=E[:B])
                e = E[:B]
            else:
                e = np.exp(-eta * D[:B])
            out[s:s + B] = -eta * m + np.log(e.sum(axis=1))
            rows[0] = rows[B]
        return out

    # correctness on a prefix: the vectorized run equals the round-by-round learner
    pre = 64
    a = olkit.hedge(L[:pre], eta)
    b = olkit.run_experts(olkit.Hedge(N, eta), L[:pre])
    assert np.array_equal(a.loss, b.loss) and np.array_equal(a.state["Phi"], b.state["Phi"])
    t_hedge = best_of(lambda: olkit.hedge(L, eta, record=False, block=block), repeat)
    t_table = best_of(lambda: floor(True), repeat)
    t_exp = best_of(lambda: floor(False), 1)
    tr = olkit.hedge(L, eta, record=False, block=block)
    return {"T": T, "N": N, "hedge": t_hedge, "floor_table": t_table, "floor_exp": t_exp, "R": tr.R,
            "bound": olkit.experts.ewa_bound(N, T)}


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
    h = hedge_scale(min(args.repeat, 2))
    out += ["", "## Hedge at scale: N = 10^4 experts, T = 10^5 rounds of 0/1 losses (`olkit.hedge`, record=False)", "",
            "| what | seconds | ratio |", "|---|---|---|",
            f"| olkit.hedge | {h['hedge']:.2f} | 1 |",
            f"| numpy floor: cumulative sums + log-sum-exp with np.exp | {h['floor_exp']:.2f} | "
            f"hedge / floor = {h['hedge'] / h['floor_exp']:.2f} |",
            f"| numpy floor: cumulative sums + log-sum-exp with the exp table | {h['floor_table']:.2f} | "
            f"hedge / floor = {h['hedge'] / h['floor_table']:.2f} |",
            "", f"Regret of that run: {h['R']:.1f}, bound sqrt((T/2) ln N) = {h['bound']:.1f}."]
    print(f"Hedge N={h['N']} T={h['T']}: {h['hedge']:.2f} s; floor (np.exp) {h['floor_exp']:.2f} s, "
          f"floor (table) {h['floor_table']:.2f} s", flush=True)
    (ROOT / "benchmarks" / "results.md").write_text("\n".join(out) + "\n")
    print("wrote benchmarks/results.md")


if __name__ == "__main__":
    main()
