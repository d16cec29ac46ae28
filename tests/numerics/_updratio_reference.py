"""The fig-updratio toy written again from the storyboard's spec, one learning rate at a time
(shared by tests/numerics/test_updratio.py and the drawn-value oracles)."""

import math

import numpy as np

N_IN, N_HIDDEN, N_OUT, ROWS, STEPS = 8, 16, 4, 64, 400


def spec_data():
    data = np.random.default_rng(0)
    x = data.normal(size=(ROWS, N_IN))
    y = data.normal(size=(ROWS, N_OUT))
    init = np.random.default_rng(1)
    w1 = init.normal(size=(N_IN, N_HIDDEN)) / math.sqrt(N_IN)
    w2 = init.normal(size=(N_HIDDEN, N_OUT)) / math.sqrt(N_HIDDEN)
    return x, y, w1, w2


def objective(w1, w2, x, y):
    return np.sum((np.tanh(x @ w1) @ w2 - y) ** 2) / (2 * ROWS)


def grads(w1, w2, x, y):
    a = np.tanh(x @ w1)
    r = (a @ w2 - y) / ROWS
    return x.T @ ((r @ w2.T) * (1 - a ** 2)), a.T @ r


def reference_run(eta, steps=STEPS):
    x, y, w1, w2 = spec_data()
    ratios, losses, norms = [], [], []
    with np.errstate(all="ignore"):
        for _ in range(steps):
            losses.append(np.mean((np.tanh(x @ w1) @ w2 - y) ** 2))
            norms.append(np.sqrt(np.sum(w1 ** 2)))
            g1, g2 = grads(w1, w2, x, y)
            ratios.append(np.sqrt(np.sum((eta * g1) ** 2)) / norms[-1])
            w1, w2 = w1 - eta * g1, w2 - eta * g2
        losses.append(np.mean((np.tanh(x @ w1) @ w2 - y) ** 2))
        norms.append(np.sqrt(np.sum(w1 ** 2)))
    return np.array(ratios), np.array(losses), np.array(norms)



def cliff_by_scan(eta_big: float, grid: float = 0.01, limit: float = 4.0) -> float:
    """The first multiplier on the grid (from 1) whose run ends non-finite, one run at a time."""
    m = 1.0
    while m < limit:
        if not np.isfinite(reference_run(eta_big * m)[1][-1]):
            return round(m, 2)
        m += grid
    raise ValueError("no cliff")


def jitter_about_trend(losses, window: int = 100, degree: int = 2) -> float:
    """RMS of the last ``window`` steps' loss about its least-squares polynomial trend, from
    the normal equations of a plain Vandermonde matrix (no numpy polynomial classes)."""
    tail = np.asarray(losses[-(window + 1):], dtype=float)
    t = (np.arange(len(tail)) - window / 2) / (window / 2)        # centred on [−1, 1]: well conditioned
    basis = np.stack([t ** k for k in range(degree + 1)], axis=1)
    coef = np.linalg.solve(basis.T @ basis, basis.T @ tail)
    residual = tail - basis @ coef
    return math.sqrt(float(residual @ residual) / len(tail))
