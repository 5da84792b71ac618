"""The Perceptron on a long separable stream: olkit's look-ahead against scikit-learn, a plain Python loop
and one pass of X @ w, measured side by side in one run (issue 9); writes benchmarks/perceptron_results.md.

    .venv/bin/python benchmarks/perceptron.py             # T = 10^6, d = 100
    .venv/bin/python benchmarks/perceptron.py --T 200000  # a quicker run
    .venv/bin/python benchmarks/perceptron.py --notebooks # also time the Chapter 4 notebooks

Timings are wall-clock seconds, best of ``--repeat`` runs (the plain loops run once: they are slow).
All the Perceptrons start from w = 0, update on y <w, x> <= 0 with w += y x, and must end at the same
weights (checked).
"""
from __future__ import annotations

import argparse
import os
import platform
import time
import warnings
from pathlib import Path

import numpy as np

import olkit
from run import best_of, notebooks  # benchmarks/run.py (this script's folder is on sys.path)

ROOT = Path(__file__).resolve().parents[1]




def plain_loop(X, y):
    """The textbook loop, one Python round trip per round: sign only, no tie tolerance."""
    w = np.zeros(X.shape[1])
    for t in range(len(y)):
        if y[t] * (X[t] @ w) <= 0:
            w = w + y[t] * X[t]
    return w


def same_rule_loop(X, y):
    """A per-round loop with olkit's decision rule (the tie tolerance 1e-9 ||w|| ||x||)."""
    w = np.zeros(X.shape[1])
    for t in range(len(y)):
        x = X[t]
        if y[t] * (x @ w) <= 1e-9 * np.sqrt(w @ w) * np.sqrt(x @ x):
            w = w + y[t] * x
    return w




def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--T", type=int, default=10**6)
    ap.add_argument("--d", type=int, default=100)
    ap.add_argument("--gamma", type=float, default=0.05)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--notebooks", action="store_true", help="also time the Chapter 4 notebooks")
    args = ap.parse_args()
    nb_rows = notebooks("ch4") if args.notebooks else []
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import Perceptron as SkPerceptron

    warnings.filterwarnings("ignore", category=ConvergenceWarning)
    T, d = args.T, args.d
    t0 = time.perf_counter()
    X, y, u = olkit.separable_stream(T, d, args.gamma, np.random.default_rng(0))
    t_gen = time.perf_counter() - t0
    print(f"stream: T = {T}, d = {d}, gamma = {args.gamma} ({t_gen:.1f} s to generate)", flush=True)

    trace = olkit.run_stream(olkit.Perceptron(d), X, y)
    w_ours = trace.state["w"][-1]
    sk = lambda: SkPerceptron(fit_intercept=False, shuffle=False, eta0=1, max_iter=1, tol=None,  # noqa: E731
                              penalty=None).fit(X, y)
    w_sk = sk().coef_[0]
    rows = {}
    rows["olkit run_stream (look-ahead)"] = best_of(lambda: olkit.run_stream(olkit.Perceptron(d), X, y), args.repeat)
    rows["scikit-learn Perceptron, one epoch"] = best_of(sk, args.repeat)
    rows["one pass of X @ w"] = best_of(lambda: X @ w_ours, args.repeat)
    t0 = time.perf_counter()
    w_loop = plain_loop(X, y)
    rows["plain Python loop (sign only)"] = time.perf_counter() - t0
    n_part = min(T, 100_000)
    t0 = time.perf_counter()
    same_rule_loop(X[:n_part], y[:n_part])
    rows[f"Python loop with the tie rule ({n_part:,} rounds, scaled to T)"] = (time.perf_counter() - t0) * T / n_part
    n_run = min(T, 62_088)
    t0 = time.perf_counter()
    olkit.run(olkit.Perceptron(d), X[:n_run], y[:n_run])
    rows[f"olkit.run, round by round ({n_run:,} rounds, scaled to T)"] = (time.perf_counter() - t0) * T / n_run
    same = np.array_equal(w_ours, w_sk) and np.array_equal(w_ours, w_loop)
    assert same, "the Perceptrons disagree"

    ours = rows["olkit run_stream (look-ahead)"]
    ratios = {
        "olkit / scikit-learn (target <= 2)": ours / rows["scikit-learn Perceptron, one epoch"],
        "plain loop / olkit (target >= 20)": rows["plain Python loop (sign only)"] / ours,
        "olkit / X @ w (target <= 3)": ours / rows["one pass of X @ w"],
    }
    out = ["# The Perceptron on a long separable stream", "",
           f"Written by `benchmarks/perceptron.py` on {time.strftime('%Y-%m-%d')}. Machine: {platform.machine()}, "
           f"{os.cpu_count()} cores (shared), Python {platform.python_version()}, numpy {np.__version__}. "
           f"Stream: `olkit.separable_stream(T={T}, d={d}, gamma={args.gamma})`, {trace.U} updates "
           f"({trace.M} mistakes); all the Perceptrons end at the same weights, bit for bit: {same}.", "",
           f"| what | seconds (best of {args.repeat}; loops once) |", "|---|---|"]
    out += [f"| {k} | {v:.3f} |" for k, v in rows.items()]
    out += ["", "| ratio | measured |", "|---|---|"] + [f"| {k} | {v:.2f} |" for k, v in ratios.items()]
    if nb_rows:
        out += ["", "## Chapter 4 notebooks (one fresh kernel each)", "", "| notebook | seconds |", "|---|---|"]
        out += [f"| {name} | {sec:.1f} |" for name, sec in nb_rows]
    text = "\n".join(out) + "\n"
    (ROOT / "benchmarks" / "perceptron_results.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
