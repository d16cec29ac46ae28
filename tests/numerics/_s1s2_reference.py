"""Independent references for the numbers drawn by 第一节–第二节 (fig-3x, fig-vanish, fig-reverse,
fig-act-bill, fig-gradlife, fig-batch, fig-recompute, fig-per-byte): numpy's own FLOP count, pair
counts, a roofline, exact rationals, scipy, hand counts, and the hand-written V3 inventory of
_v3_reference.py. Shared by the tests/numerics/test_s1s2_*.py tests and by the ``_s1s2()``
section of tests/test_drawn_oracles.py; none of it calls the numerics' code.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from scipy.optimize import brentq, minimize_scalar
from scipy.special import expit

from _v3_reference import DENSE, DENSE_ACT, H, LAYERS, MOE_ACT, S

# ---- fig-3x, fig-recompute: numpy counts the FLOPs of the three products ----------------------


def naive_flops(subscripts: str, *shapes: tuple[int, ...]) -> int:
    """numpy's naive FLOP count for a two-operand contraction (multiply and add counted).

    The operands are zero-strided views, so any shape costs no memory. numpy prints the count
    with four significant digits: exact for small shapes; for large ones, products over the same
    index sizes print the same number, so their ratios stay exact."""
    operands = [np.broadcast_to(np.zeros((), dtype=np.float32), shape) for shape in shapes]
    _, report = np.einsum_path(subscripts, *operands, optimize="greedy")
    line = next(row for row in report.splitlines() if "Naive FLOP count" in row)
    return int(float(line.split(":")[1]))


def linear_layer_flops(s: int, d_in: int, d_out: int) -> tuple[int, int, int]:
    """(Y = X·W, ∂L/∂W = Xᵀ·∂L/∂Y, ∂L/∂X = ∂L/∂Y·Wᵀ) for X (s × d_in), W (d_in × d_out)."""
    return (naive_flops("si,io->so", (s, d_in), (d_in, d_out)),
            naive_flops("si,so->io", (s, d_in), (s, d_out)),
            naive_flops("so,io->si", (s, d_out), (d_in, d_out)))


# ---- fig-per-byte: FLOPs per saved byte, counted pair by pair --------------------------------


def causal_flops_per_byte(s: int, qk: int, v: int) -> float:
    """One head, counted pair by pair: each unmasked (i ≥ j) pair costs a qk-wide dot product
    for QKᵀ and a v-wide multiply-add for AV (2 FLOPs per multiply-add); bytes: bf16 O, s × v."""
    mask = np.tril(np.ones((s, s), dtype=bool))
    pairs = int(mask.sum())
    assert pairs == s * (s + 1) // 2
    return 2 * pairs * (qk + v) / (2 * s * v)


def attention_slope(qk: int, v: int, s: int = 64) -> float:
    """Price gained per token of length: the pair count at s + 1 minus the one at s."""
    return causal_flops_per_byte(s + 1, qk, v) - causal_flops_per_byte(s, qk, v)


def crossover(qk: int, v: int, width: float, s: int = 64) -> float:
    """Where the attention line through the pair counts at s and s + 1 meets a flat line at
    ``width`` FLOPs per byte (a d_model-input linear's price), by brentq."""
    slope = attention_slope(qk, v, s)
    at = causal_flops_per_byte(s, qk, v)
    return brentq(lambda x: at + slope * (x - s) - width, 0.0, 1e7, xtol=1e-9)


# ---- fig-recompute: Korthikanti's Eq. 1, tensor by tensor ---------------------------------------


def korthikanti_layer_bytes(s: int, h: int, a: int, b: int = 1) -> tuple[float, float]:
    """(bytes one GPT layer keeps, bytes of them that are a·s² attention scores), from §4.1's
    list (16-bit activations, 1-byte dropout masks):
      attention: QKV input 2sbh, Q and K 4sbh, softmax output 2as²b, its dropout mask as²b,
                 dropout output 2as²b, V 2sbh, projection input 2sbh, dropout mask sbh;
      MLP:       input 2sbh, GeLU input 8sbh, GeLU output 8sbh, dropout mask sbh;
      two layer norms: 2sbh each."""
    sbh, as2b = s * b * h, a * s * s * b
    scores = 2 * as2b + as2b + 2 * as2b
    attention = 2 * sbh + 4 * sbh + scores + 2 * sbh + 2 * sbh + sbh
    mlp = 2 * sbh + 8 * sbh + 8 * sbh + sbh
    norms = 2 * (2 * sbh)
    return attention + mlp + norms, scores


# ---- fig-act-bill, fig-recompute: the hand-written V3 inventory ----------------------------------


def v3_stored_without_recompute() -> int:
    """Bytes every layer keeps for backward, one 128K sequence: 3 dense layers, the rest MoE."""
    return S * (DENSE * DENSE_ACT + (LAYERS - DENSE) * MOE_ACT)


def v3_stored_all_moe() -> int:
    """The same if every layer were an MoE layer."""
    return S * LAYERS * MOE_ACT


def v3_stored_with_full_recompute() -> int:
    """Each layer's bf16 input only."""
    return LAYERS * S * H * 2


# ---- fig-batch: a roofline written again -------------------------------------------------------


def roofline_step_time(b: float, latency: float, peak_throughput: float) -> float:
    """A step takes the larger of a latency floor and B ÷ peak throughput."""
    return max(latency, b / peak_throughput)


def roofline_total(b: float, tokens: float, latency: float, peak_throughput: float) -> float:
    """Steps × step time."""
    return (tokens / b) * roofline_step_time(b, latency, peak_throughput)


# ---- fig-reverse Ⓒ: a Jacobian rebuilt column by column and row by row -----------------------


def jacobian_pass_counts(n: int, m: int) -> tuple[int, int]:
    """(JVPs, VJPs) needed to rebuild the Jacobian of f(x) = tanh(A x), n inputs → m outputs,
    counted by calling each once per column and once per row (both rebuilds checked equal)."""
    rng = np.random.default_rng(1)
    a, x = rng.normal(size=(m, n)), rng.normal(size=n)
    local = 1 - np.tanh(a @ x) ** 2                 # J = diag(local) · A
    calls = {"jvp": 0, "vjp": 0}

    def jvp(v):                                     # one forward-mode pass: J · v
        calls["jvp"] += 1
        return local * (a @ v)

    def vjp(u):                                     # one reverse-mode pass: uᵀ · J
        calls["vjp"] += 1
        return (u * local) @ a

    by_columns = np.column_stack([jvp(e) for e in np.eye(n)])
    by_rows = np.vstack([vjp(e) for e in np.eye(m)])
    np.testing.assert_allclose(by_columns, by_rows, atol=1e-12)
    np.testing.assert_allclose(by_columns, local[:, None] * a, atol=1e-12)
    return calls["jvp"], calls["vjp"]


# ---- fig-gradlife: the stops, by hand -----------------------------------------------------------

# Where the notes' sentence starts (「一个梯度从算出来到被扔掉」) and the stops it lists
# (「跨卡汇总、裁剪、也许还要累积几次，然后才交给优化器」), in the order a step meets them.
GRADIENT_STOPS_BY_HAND = ("算出来", "累积", "跨卡汇总", "裁剪", "交给优化器")


# ---- fig-vanish: exact rationals and scipy -------------------------------------------------------


def chain_input_gradient(rate: float, layers: int) -> Fraction:
    """rate^(layers − 1) in exact rationals (the decimal rate as written, e.g. 0.8 = 4/5)."""
    return Fraction(repr(rate)) ** (layers - 1)


def log10_fraction(q: Fraction) -> float:
    return math.log10(q.numerator) - math.log10(q.denominator)


def powers_of_ten_spanning(low: Fraction, high: Fraction) -> list[int]:
    """Exponents from the largest power of ten ≤ low to the smallest ≥ high, compared exactly."""
    lo = 0
    while Fraction(10) ** lo > low:
        lo -= 1
    while Fraction(10) ** (lo + 1) <= low:
        lo += 1
    hi = lo
    while Fraction(10) ** hi < high:
        hi += 1
    return list(range(lo, hi + 1))


def sigmoid_slope_peak() -> tuple[float, float]:
    """(x, σ′(x)) where σ′ = σ(1 − σ) is largest, by scipy's bounded minimiser."""
    found = minimize_scalar(lambda x: -expit(x) * (1 - expit(x)), bounds=(-6, 6), method="bounded",
                            options={"xatol": 1e-9})
    return float(found.x), float(-found.fun)


def central_difference(f, x: float, h: float = 1e-6) -> float:
    return (f(x + h) - f(x - h)) / (2 * h)
