"""Lab 5c: exponentiated gradient on the simplex (Section 5.2: Theorem 5.5 of the book; Kivinen and
Warmuth 1997; Cesa-Bianchi and Lugosi 2006, Theorem 2.2 for the bound with Hoeffding's lemma).

The checks of this lab's questions and the streams they play ("public" for the student's own check,
the others for grading); see :mod:`olkit.labs`.  EG plays w_1 uniform and w_{t+1,i} = w_{t,i}
exp(-eta v_{t,i}) / Z_t on linear losses f_t(w) = <g_t, w> (v_t = g_t).  Each check

1. runs the proof of Theorem 5.5 on the recorded weights (the section's steps: Hoeffding's lemma, the
   sum, the best expert, the bound): a failed step is explained with its number;
2. checks the rule round by round against the update computed independently (in the log domain, so
   that losses of a thousand do not underflow), within 1e-9 per coordinate: a different rule is a wrong
   answer even where the bound still holds (the rate 2 eta keeps it on these runs).
"""
from __future__ import annotations

import math

import numpy as np

from ..proof import Proof, ProofStepError, fmt
from .feedback import LabFeedback, _call, _explain, _rule
from .online_to_batch import _rule_at

__all__ = ["eg_case", "check_eg_update", "check_eg_regret"]

REF = "thm-eg"
#: where a step about the whole run fails, in the feedback
END = np.array(["the end of the run"], dtype=object)
#: the rule's tolerance, per coordinate of w_{t+1}, and the simplex's (sum_i w_i = 1)
TOL = 1e-9


def eg_case(case: str = "public") -> tuple[np.ndarray, float]:
    """(G, eta): linear losses g_1, ..., g_T (rows; g_{t,i} is the loss of expert i) and the step size.
    Cases: ``public`` (d = 5, T = 40, losses in [0, 1] with one better expert, eta = sqrt(8 ln d / T)),
    ``one_round`` (T = 1), ``one_dim`` (d = 1: the simplex is {1}), ``ties`` (every expert has the same
    losses), ``large`` (losses in [1000, 1001], eta = 2: exp(-eta g) underflows unless shifted),
    ``signed`` (losses in [-1, 1], r_t up to 2), ``long`` (d = 20, T = 1000)."""
    if case == "public":
        rng = np.random.default_rng(2026)
        G = rng.random((40, 5))
        G[:, 2] *= 0.6
    elif case == "one_round":
        G = np.array([[0.3, 1.0, 0.0]])
    elif case == "one_dim":
        G = np.random.default_rng(1).random((10, 1))
    elif case == "ties":
        G = np.repeat(np.random.default_rng(2).random((12, 1)), 4, axis=1)
    elif case == "large":
        G = 1000.0 + np.random.default_rng(3).random((30, 4))
        return G, 2.0
    elif case == "signed":
        G = np.random.default_rng(4).uniform(-1, 1, (50, 6))
        return G, 0.3
    elif case == "long":
        rng = np.random.default_rng(5)
        G = (rng.random((1000, 20)) < 0.5).astype(float)
        G[:, 7] = (rng.random(1000) < 0.4).astype(float)
    else:
        raise ValueError(f"no EG lab case {case!r}")
    T, d = G.shape
    return G, math.sqrt(8 * math.log(d) / T) if d > 1 else 1.0


def _log_update(w: np.ndarray, g: np.ndarray, eta: float) -> np.ndarray:
    """w exp(-eta g) / Z in the log domain: the reference of the rule (from the learner's own w_t)."""
    with np.errstate(divide="ignore"):
        a = np.log(w) - eta * g
    a = a - a.max()
    e = np.exp(a)
    return e / e.sum()


def _hedge(G: np.ndarray, eta: float) -> np.ndarray:
    """Hedge's weights w_1, ..., w_{T+1} from the definition, proportional to exp(-eta L_{t-1})."""
    L = np.vstack([np.zeros(G.shape[1]), np.cumsum(G, axis=0)])
    E = np.exp(-eta * (L - L.min(axis=1, keepdims=True)))
    return E / E.sum(axis=1, keepdims=True)


def _quantities(G: np.ndarray, eta: float, W: np.ndarray) -> dict:
    """The sides of the proof of Theorem 5.5 on the weights W (w_1, ..., w_{T+1}), recomputed from G."""
    T, d = G.shape
    L = np.vstack([np.zeros(d), np.cumsum(G, axis=0)])
    m = L.min(axis=1)
    Phi = -eta * m + np.log(np.exp(-eta * (L - m[:, None])).sum(axis=1))  # ln sum_i exp(-eta L_{t-1,i})
    gm = G.min(axis=1)
    lnZ = -eta * gm + np.log((W[:-1] * np.exp(-eta * (G - gm[:, None]))).sum(axis=1))
    r = G.max(axis=1) - G.min(axis=1)
    paid = (W[:-1] * G).sum(axis=1)
    return dict(L=L, Phi=Phi, lnZ=lnZ, r=r, paid=paid, R=float(paid.sum() - L[-1].min()), T=T, d=d)


def _eg_chain(q: dict, eta: float, title: str) -> Proof:
    """Steps 2 to 5 of the proof of Theorem 5.5 (what the weights must satisfy for the bound)."""
    p = Proof(title)
    scale = 1e-9 * (1 + eta * float(np.abs(q["L"]).max()))
    p.step("2", "ln Z_t <= -eta <w_t, g_t> + eta^2 r_t^2/8 (Hoeffding's lemma)", q["lnZ"], "<=",
           -eta * q["paid"] + eta**2 * q["r"] ** 2 / 8, tol=scale)
    p.step("3", "Phi_{T+1} - ln d <= -eta sum_t <w_t, g_t> + (eta^2/8) sum_t r_t^2", q["Phi"][-1] - math.log(q["d"]),
           "<=", -eta * q["paid"].sum() + eta**2 / 8 * (q["r"] ** 2).sum(), tol=scale, rounds=END)
    p.step("4", "Phi_{T+1} >= -eta min_i L_{T,i}", q["Phi"][-1], ">=", -eta * q["L"][-1].min(), tol=scale, rounds=END,
           kind="identity", why="a sum of exponentials >= its largest term")
    p.step("5", "Regret(simplex) <= ln d/eta + (eta/8) sum_t r_t^2", q["R"], "<=",
           math.log(q["d"]) / eta + eta / 8 * (q["r"] ** 2).sum(), tol=1e-9 * (1 + abs(q["R"])), rounds=END)
    return p


def _says(name: str) -> dict:
    return {"2": lambda t, e: f"Hoeffding's lemma holds for every point of the simplex: are your weights in round {t} "
                              "nonnegative and summing to 1?",
            "3": lambda t, e: (f"Your {name}'s weights pay more, summed over the rounds, than the potential's drop "
                               "allows: the weights should move away from the experts with large losses."),
            "5": lambda t, e: "The regret exceeds the theorem's bound."}


def check_eg_update(eg_update, case: str = "public") -> Proof:
    """EG whose update is the student's ``eg_update(w, v, eta)`` -> w_{t+1}, played from the uniform
    point on a lab loss matrix; the proof of Theorem 5.5 on the recorded weights, then the rule
    w_{t+1,i} proportional to w_{t,i} exp(-eta v_{t,i}) round by round."""
    G, eta = eg_case(case)
    T, d = G.shape
    W = np.empty((T + 1, d))
    W[0] = 1.0 / d
    for t in range(1, T + 1):
        out = _call(eg_update, "eg_update", t, W[t - 1].copy(), G[t - 1].copy(), eta)
        w = np.asarray(out, dtype=float) if out is not None and out is not Ellipsis else None
        if w is None or w.shape != (d,):
            raise LabFeedback(f"eg_update returned {'None' if w is None else 'shape ' + str(w.shape)} in round {t}; it "
                              f"must return the d = {d} weights w_(t+1)" + (" (is the function still '...'?)"
                                                                            if w is None else ""))
        if not np.all(np.isfinite(w)):
            raise LabFeedback(f"eg_update returned {np.array2string(w, precision=3)} in round {t}, a value that is not "
                              f"finite: with losses near {fmt(float(np.abs(G[t - 1]).max()))} and eta = {fmt(eta)}, "
                              "exp(-eta v) underflows to 0 (or overflows); subtract the smallest v_i (or work with "
                              "logarithms) before exponentiating: the normalization removes the shift")
        if np.any(w < -TOL) or abs(w.sum() - 1) > TOL:
            raise LabFeedback(f"eg_update returned {np.array2string(w, precision=3)} in round {t}, which is not a point "
                              f"of the simplex (its weights sum to {fmt(float(w.sum()))}): EG normalizes, dividing by "
                              "Z_t = sum_i w_(t,i) exp(-eta v_(t,i))")
        W[t] = w
    q = _quantities(G, eta, W)
    try:
        p = _eg_chain(q, eta, "Theorem 5.5 (EG's regret bound) with your eg_update")
    except ProofStepError as err:
        raise _explain(err, _says("eg_update"), ref=REF) from None
    for t in range(1, T + 1):
        want = _log_update(W[t - 1], G[t - 1], eta)
        if np.abs(W[t] - want).max() > TOL:
            raise _rule("eg_update", t, "the update of exponentiated gradient, w_(t+1,i) = w_(t,i) exp(-eta v_(t,i)) "
                        "/ Z_t", REF, np.array2string(W[t], precision=4), np.array2string(want, precision=4),
                        f"from w_t = {np.array2string(W[t - 1], precision=4)}, v_t = "
                        f"{np.array2string(G[t - 1], precision=3)} and eta = {fmt(eta)}")
    p.step("1", "Phi_{t+1} - Phi_t = ln Z_t", np.diff(q["Phi"]), "==", q["lnZ"], tol=1e-9 * (1 + eta * np.abs(G).max()))
    p.step("H", "EG's w_t = Hedge's w_t, proportional to exp(-eta L_{t-1})", np.abs(W - _hedge(G, eta)).max(axis=1),
           "<=", 1e-9)
    return p


def check_eg_regret(eg_regret, case: str = "public") -> Proof:
    """The student's ``eg_regret(G, eta)``: the regret of EG against the simplex on the linear losses G,
    sum_t <w_t, g_t> - min_i sum_t g_{t,i}; the theorem's bound on it (step 5), then the rule: the
    book's regret of EG's weights, within 1e-9 (relative)."""
    G, eta = eg_case(case)
    out = _call(eg_regret, "eg_regret", 1, G.copy(), eta)
    if out is None or out is Ellipsis or np.ndim(out) != 0 or not np.isfinite(float(out)):
        raise LabFeedback(f"eg_regret returned {out!r}; it must return one finite number, the regret"
                          + (" (is the function still '...'?)" if out is None or out is Ellipsis else ""))
    yours = float(out)
    q = _quantities(G, eta, _hedge(G, eta))
    bound = math.log(q["d"]) / eta + eta / 8 * (q["r"] ** 2).sum()
    p = Proof("Theorem 5.5 (EG's regret bound) on your eg_regret")
    try:
        p.step("5", "Regret(simplex) <= ln d/eta + (eta/8) sum_t r_t^2", yours, "<=", bound,
               tol=1e-9 * (1 + abs(yours)), rounds=END)
    except ProofStepError as err:
        says = {"5": lambda t, e: ("Your regret exceeds the theorem's bound: the regret is EG's total loss "
                                   "sum_t <w_t, g_t> minus the total loss of the best expert (the best point of the "
                                   "simplex is a vertex).")}
        raise _explain(err, says, ref=REF) from None
    if abs(yours - q["R"]) > 1e-9 * (1 + abs(q["R"])):
        raise _rule_at("On this run", "eg_regret", "the regret of EG against the simplex, sum_t <w_t, g_t> - "
                       "min_i L_(T,i), with w_t computed from the losses before round t", REF, fmt(yours), fmt(q["R"]),
                       f"EG's total loss is {fmt(float(q['paid'].sum()))} and the best expert's "
                       f"{fmt(float(q['L'][-1].min()))}")
    p.step("R", "your regret = sum_t <w_t, g_t> - min_i L_{T,i} (EG's weights)", yours, "==", q["R"],
           tol=1e-9 * (1 + abs(q["R"])))
    return p
