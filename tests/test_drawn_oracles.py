"""Every derived number a scene draws, against a reference that does not share its code.

The drawn keys are read from each scene's ``ledger_keys`` (studio.engine.registry, no manim). Each
derived one needs an entry in ORACLES: a function giving the expected value from the inputs
by a closed form, plain arithmetic, scipy, or finite differences. A scene that draws a new
derived key without adding an oracle here fails test_every_drawn_derived_key_has_an_oracle.
Sourced keys (looked up, with a citation) are not computed, so they need no oracle.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable

import ml_dtypes
import numpy as np
import pytest
from scipy.optimize import brentq
from scipy.special import expit as scipy_expit
from scipy.special import logsumexp
from scipy.special import softmax as scipy_softmax

from lecture_numerics import Derived, load_all, quantity
from lecture_numerics import slider
from studio.engine import registry

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "numerics"))
import _timeline_reference as ref  # noqa: E402
import _s3b_reference as s3b  # noqa: E402
import _s1s2_reference as s12  # noqa: E402

REGISTRY = load_all()
GIB, TIB = 2**30, 2**40
FD_TOL = 1e-7      # central differences with h = 1e-6 on smooth functions
EXACT_TOL = 1e-9


def v(key: str) -> Any:
    """An input's value (only ever a sourced input or a module constant, never a result)."""
    q = quantity(key)
    assert not isinstance(q, Derived), f"oracles read inputs, not results: {key}"
    return q.value


@dataclass(frozen=True)
class Said:
    """A number as the slide writes it: its display string, written by hand, and (if given)
    the value behind it. For keys whose point is the words (两, 三, 两成, 128K)."""

    display: str
    value: float | None = None


def central(f: Callable[[np.ndarray], float], x, h: float = 1e-6) -> np.ndarray:
    x = np.asarray(x, dtype=float)
    out = np.zeros_like(x)
    for i in range(x.size):
        e = np.zeros_like(x)
        e[i] = h
        out[i] = (f(x + e) - f(x - e)) / (2 * h)
    return out


# ---- fig-circuit: f = (a + b)·c and three gates, by hand ------------------------------------

def _circuit() -> dict[str, Callable[[], float]]:
    a, b, c = (lambda n=n: v(f"circuit.{n}") for n in "abc")
    x, y = (lambda n=n: v(f"circuit.gates.{n}") for n in "xy")
    up = lambda g: v(f"circuit.{g}.upstream")
    return {
        "circuit.q": lambda: a() + b(),
        "circuit.f": lambda: (a() + b()) * c(),
        "circuit.grad_f": lambda: 1.0,
        "circuit.grad_c": lambda: a() + b(),             # ∂/∂c (a + b)c
        "circuit.grad_q": lambda: c(),
        "circuit.grad_a": lambda: c(),
        "circuit.grad_b": lambda: c(),
        "circuit.add.out": lambda: x() + y(),
        "circuit.add.grad_x": lambda: up("add"),
        "circuit.add.grad_y": lambda: up("add"),
        "circuit.mul.out": lambda: x() * y(),
        "circuit.mul.grad_x": lambda: y() * up("mul"),
        "circuit.mul.grad_y": lambda: x() * up("mul"),
        "circuit.max.out": lambda: max(x(), y()),
        "circuit.max.grad_x": lambda: up("max") if x() > y() else 0.0,
        "circuit.max.grad_y": lambda: up("max") if y() > x() else 0.0,
    }


# ---- fig-slider: L(x) = 2 + 3·√(2x) written again, derivatives in closed form -------------

def _loss(x):
    return 2.0 + 3.0 * np.sqrt(2.0 * x)


def _desk(x: np.ndarray) -> float:
    """The five-fader desk loss from its printed formula (slider.DESK_FORMULA)."""
    t, w, m = slider.DESK_TARGETS, slider.DESK_WEIGHTS, slider.MIDDLE
    others = sum(w[i] * (x[i] - t[i]) ** 2 for i in range(len(x)) if i != m)
    return _loss(x[m]) + others + slider.DESK_COUPLING * (x[0] - t[0]) * (x[1] - t[1])


def _slider() -> dict[str, Callable[[], float]]:
    x0 = slider.FADER_AT
    tick = lambda i: round(float(_loss(x0 + v("slider.push") * i / 3)), 2)   # three ticks per push
    oracles = {
        "slider.readout_before": lambda: tick(0),
        "slider.readout_tick_1": lambda: tick(1),
        "slider.readout_tick_2": lambda: tick(2),
        "slider.readout_after": lambda: tick(3),
        "slider.readout_change": lambda: tick(3) - tick(0),
        "slider.fader_after": lambda: x0 + v("slider.push"),                # the knob's own position
        "slider.derivative": lambda: 3 / math.sqrt(2 * x0),                # d/dx 3√(2x)
        "slider.rate_fader_to_jia": lambda: 2.0,                           # 甲 = 2x
        "slider.rate_jia_to_yi": lambda: 1 / (2 * math.sqrt(2 * x0)),      # 乙 = √甲
        "slider.rate_yi_to_loss": lambda: 3.0,                             # L = 2 + 3·乙
        "slider.chain_rate": lambda: 3 / math.sqrt(2 * x0),
    }
    for i in range(len(slider.DESK_POSITIONS)):
        oracles[f"slider.partial_{i + 1}"] = (lambda i=i: float(central(_desk, slider.DESK_POSITIONS)[i]), FD_TOL)
    return oracles


# ---- fig-vote: scipy softmax / logsumexp and finite differences -----------------------------

TOKENS = ("的", "了", "是", "在")
KEYS = ("de", "le", "shi", "zai")


def _logits() -> np.ndarray:
    return np.log(np.array(v("vote.odds"), dtype=float))       # logits = ln(odds), from the odds


def _seed(answer: str) -> np.ndarray:
    """∂/∂z of the cross-entropy logsumexp(z) − z[answer], numerically."""
    return central(lambda z: logsumexp(z) - z[TOKENS.index(answer)], _logits())


def _descend(answers, lr: float, steps: int) -> np.ndarray:
    z = _logits()
    for _ in range(steps):
        z = z - lr * np.mean([_seed_exact(z, a) for a in answers], axis=0)
    return scipy_softmax(z)


def _seed_exact(z: np.ndarray, answer: str) -> np.ndarray:
    return scipy_softmax(z) - np.eye(len(TOKENS))[TOKENS.index(answer)]


def _vote() -> dict[str, Any]:
    answer = lambda: v("vote.answer")
    oracles: dict[str, Any] = {}
    for i, k in enumerate(KEYS):
        oracles[f"vote.p.{k}"] = lambda i=i: float(scipy_softmax(_logits())[i])
        oracles[f"vote.onehot.{k}"] = lambda i=i: 1.0 if TOKENS[i] == answer() else 0.0
        oracles[f"vote.seed.{k}"] = (lambda i=i: float(_seed(answer())[i]), FD_TOL)
        oracles[f"vote.mean_seed.{k}"] = (
            lambda i=i: float(np.mean([_seed(a) for a in v("vote.batch_answers")], axis=0)[i]), FD_TOL)

    def wire(a: float) -> float:
        """∂L/∂w for the wire into 的, z(的) = w·a + bias: a finite difference in w through the
        loss (any w: the bias keeps z(的) at the example's logit when w = 1)."""
        z0, right = _logits(), TOKENS.index(answer())

        def loss(w):
            z = z0.copy()
            z[0] += (w[0] - 1.0) * a
            return logsumexp(z) - z[right]

        return float(central(loss, [1.0])[0])

    oracles["vote.wire_grad.bright"] = (lambda: wire(v("vote.bright_activation")), FD_TOL)
    oracles["vote.wire_grad.dim"] = (lambda: wire(v("vote.dim_activation")), FD_TOL)
    oracles["vote.bright_payoff_ratio"] = lambda: v("vote.bright_activation") / v("vote.dim_activation")
    oracles["vote.batch_size"] = lambda: float(len("的了是的了"))                 # the five answers, counted
    oracles["vote.only_first.p_de"] = lambda: float(_descend(v("vote.batch_answers")[:1], v("vote.only_first.lr"),
                                                             v("vote.only_first.steps"))[0])
    return oracles


# ---- anim-reverse, anim-saddle ----------------------------------------------------------------

def _hessian_fd(h: float = 1e-4) -> np.ndarray:
    z = lambda x, y: (x * x - y * y) / 2          # the saddle surface, written again
    return np.array([[(z(h, 0) - 2 * z(0, 0) + z(-h, 0)) / h**2,
                      (z(h, h) - z(h, -h) - z(-h, h) + z(-h, -h)) / (4 * h * h)],
                     [(z(h, h) - z(h, -h) - z(-h, h) + z(-h, -h)) / (4 * h * h),
                      (z(0, h) - 2 * z(0, 0) + z(0, -h)) / h**2]])


def _others() -> dict[str, Any]:
    return {
        # A full Jacobian of n inputs → m outputs: one column per forward trip, one row per reverse.
        "trips.forward": lambda: v("trips.parameters"),
        "trips.reverse": lambda: v("trips.outputs"),
        # fig-saddle Ⓒ's crawl: y_k = y₀·(1 + η·ε)^k in closed form, below share·end while
        # k < log(share·end / y₀) / log(1 + η·ε), counting k = 0.
        "saddle.crawl.steps_near_top": lambda: math.floor(
            math.log(v("saddle.crawl.near_share") * v("saddle.crawl.end") / v("saddle.crawl.start"))
            / math.log(1 + v("saddle.crawl.lr") * v("saddle.crawl.curvature"))) + 1,
        # Counts read off the pictures by hand.
        "circuit.temperaments": lambda: 3,           # + distributes, × swaps, max routes
        "vote.ways_to_raise": lambda: 3,             # z = w·a + b: move b, w or a
        # A Hessian entry, measured: the saddle's finite-difference Hessian is a matrix, so each
        # entry is indexed by (sits between) this many parameters, whatever their count.
        "beststep.c.params_per_entry": lambda: np.ndim(_hessian_fd()),
    }


def _round_ticks(low: float, high: float, count: int) -> list[float]:
    """Round ticks written again: the smallest of 1, 2, 2.5, 5, 10 × 10ᵏ with at most
    ``count`` steps over [low, high], every multiple of it in the range."""
    raw = (high - low) / count
    step = min(m * 10.0 ** k for m in (1, 2, 2.5, 5) for k in range(-6, 7) if m * 10.0 ** k >= raw)
    first = math.ceil(low / step - 1e-9)
    return [round(i * step, 9) for i in range(first, int(math.floor(high / step + 1e-9)) + 1)]


def _memory_ticks() -> list[float]:
    floor = 14 * ref.V3_PARAMS / TIB      # resident: bf16 weights (2 B) + fp32 master, m, v (12 B)
    _, total, _ = ref.total_peak()
    reach = (total / TIB - floor) / 3
    step = min(m * 10.0 ** k for m in (1, 2, 2.5, 5) for k in range(-6, 7) if m * 10.0 ** k >= reach)
    ceiling = math.ceil(total / TIB / step + 1e-9) * step
    above = [t for t in _round_ticks(floor, ceiling, 3) if t > floor + 0.02 * (ceiling - floor)]
    return [0.0, *above]


def _activation_ticks() -> list[float]:
    peak = ref.activation_peak()[1] / GIB
    step = min(m * 10.0 ** k for m in (1, 2, 2.5, 5) for k in range(-6, 7) if m * 10.0 ** k >= peak / 3)
    return _round_ticks(0.0, math.ceil(peak / step + 1e-9) * step, 2)


# ---- anim-memtime: the resident bill and the step's closed forms -------------------------------

def _phase(t: float, full: bool = True) -> str:
    return "forward" if t <= ref.forward_end(full) else "backward" if t <= ref.backward_end(full) else "update"


def _configured() -> tuple[float, int, float, int, int]:
    """Closed forms for config/scenarios.yaml's memtime block: (total t, total B, activation
    peak B, activations at end of forward B, gradient peak B)."""
    model, seq, batch = v("config.memtime.model"), v("config.memtime.seq_len"), v("config.memtime.batch")
    recompute, bpp = v("config.memtime.recompute"), v("config.memtime.bytes_per_param")
    if model != "deepseek-v3" or recompute not in ("full", "none"):
        pytest.fail(f"no closed form for the configured scenario ({model}, {recompute}): add one to "
                    "tests/numerics/_timeline_reference.py")
    full = recompute == "full"
    t, total, _ = ref.total_peak(seq, batch, bpp) if full else ref.total_peak_without_recompute(seq, batch, bpp)
    return (t, total, ref.activation_peak(seq, batch, full)[1], ref.activations_end_of_forward(seq, batch, full),
            ref.gradient_peak(full)[1])


def _memtime() -> dict[str, Any]:
    n = 671e9                                                  # the published total (model.v3.total_params)
    bpp = lambda: v("config.memtime.bytes_per_param")
    return {
        "bill.v3.weights_tib": lambda: n * 2 / TIB,
        "bill.v3.optimizer_tib": lambda: n * 12 / TIB,
        "timeline.v3.activation_peak_gib": lambda: ref.activation_peak()[1] / GIB,
        "timeline.v3.activations_end_of_forward_gib": lambda: ref.activations_end_of_forward() / GIB,
        "timeline.v3.gradient_peak_tib": lambda: ref.gradient_peak()[1] / TIB,
        "timeline.v3.total_peak_tib": lambda: ref.total_peak()[1] / TIB,
        "timeline.v3.total_peak_t": lambda: ref.total_peak()[0],
        "timeline.v3.total_peak_phase": lambda: _phase(ref.total_peak()[0]),
        "timeline.configured.weights": lambda: 2 * ref.V3_PARAMS,
        "timeline.configured.optimizer": lambda: (bpp() - 4) * ref.V3_PARAMS,
        "timeline.configured.total_peak": lambda: _configured()[1],
        "timeline.configured.total_peak_t": lambda: _configured()[0],
        "timeline.configured.total_peak_phase": lambda: _phase(
            _configured()[0], v("config.memtime.recompute") == "full"),
        "timeline.configured.activation_peak": lambda: _configured()[2],
        "timeline.configured.activations_end_of_forward": lambda: _configured()[3],
        "timeline.configured.gradient_peak": lambda: _configured()[4],
        "memtime.axis.memory_ticks_tib": _memory_ticks,
        "memtime.axis.activation_ticks": _activation_ticks,
    }


# ---- 第四节–第五节: fig-zero, fig-step --------------------------------------------------------

def _s4s5() -> dict[str, Any]:
    psi, n_d, k = 7.5e9, 64, 12                             # ZeRO Figure 1 (sources.md)
    n, s = 671e9, 131072                                     # V3 total parameters, one 128K sequence
    core = 2 * 128 * (192 + 128) * (s + 1) / 2               # causal QKᵀ + AV per token, 128 heads
    per_sequence = ref.LAYERS * s * ref.H * 2                # each layer's bf16 input, full recompute
    moe_matmuls = 2 * (7168 * 1536 + 1536 * 128 * 192 + 7168 * 576 + 512 * 128 * 256 + 128 * 128 * 7168
                       + 9 * 3 * 7168 * 2048 + 7168 * 256)   # one MoE layer's weight matmuls per token (MLA, 9 experts, router)
    return {
        "zero.baseline_gb": lambda: 16 * psi / 1e9,
        "zero.pos_gb": lambda: (4 * psi + k * psi / n_d) / 1e9,
        "zero.pos_g_gb": lambda: (2 * psi + 14 * psi / n_d) / 1e9,
        "zero.pos_g_p_gb": lambda: 16 * psi / n_d / 1e9,
        "zero.baseline_over_stage3": lambda: float(n_d),
        "zero.comm_stage3_over_baseline": lambda: 3 / 2,        # 3Ψ ÷ 2Ψ
        "zero.cut_count": lambda: 3,                            # P_os, P_os+g, P_os+g+p
        "bill.v3.total_tib": lambda: n * 16 / TIB,
        "bill.v3.gpus_80gib": lambda: math.ceil(n * 16 / (80 * GIB)),
        "act.v3.full_recompute_gib": lambda: 61 * s * 7168 * 2 / GIB,
        "flops.v3.six_nd_pflop_128k": lambda: 6 * 37e9 * s / 1e15,
        "flops.v3.real_over_6nd_128k": lambda: (6 * 37e9 + 3 * 61 * core) / (6 * 37e9),
        # GPT-3 175B at n_ctx 2048 (Brown et al. Table 2.1 shapes typed in): causal QKᵀ + AV over 96
        # heads of 128, against the 12·d² weights of a layer, both at 2 FLOPs per multiply-add
        "flops.gpt3.attention_share_2k": lambda: (96 * 256 * 2049) / (96 * 256 * 2049 + 24 * 12288 ** 2),
        "onestep.item_count": lambda: 4,                        # weights, gradients, optimizer, activations
        "onestep.seq_len_k": lambda: s / 1024,
        "onestep.bytes_per_tib": lambda: 1024 ** 4,              # 1 TiB, the bill's ÷ 1024⁴
        "onestep.v3.attention_share_round": lambda: core / (core + moe_matmuls),
        # fig-step's split bar: the rest of the layer is its weight matmuls; 「反推」 from that share alone
        "onestep.v3.matmul_share_128k": lambda: moe_matmuls / (core + moe_matmuls),
        "flops.v3.real_over_6nd_from_share": lambda: (core + moe_matmuls) / moe_matmuls,
        "onestep.sweep.crossing_batch": lambda: -(-16 * ref.V3_PARAMS // per_sequence),
        # Each item at the total peak, from the closed form's sawtooth top of that layer: optimizer
        # 12 B and weights 2 B per parameter, the gradients and activations of the top it peaks on.
        "onestep.v3.items_at_total_peak_tib": lambda: [
            v / TIB for v in (12 * ref.V3_PARAMS, 2 * ref.V3_PARAMS,
                              ref.sawtooth_tops()["gradients"][ref.total_peak()[2]],
                              ref.sawtooth_tops()["activations"][ref.total_peak()[2]])],
        "onestep.sweep.batch_ticks": lambda: _round_ticks(0.0, 120.0, 3),
        "onestep.sweep.tib_ticks": lambda: _round_ticks(0.0, 120 * per_sequence / TIB, 3),
    }


# ---- 第六节: fig-underflow (closed forms of the bit layouts), … ---------------------------------

def _s6() -> dict[str, Any]:
    return {
        "underflow.fp16_min_subnormal": lambda: 2.0 ** (1 - 15 - 10),     # bias 15, 10 mantissa bits
        "underflow.bf16_min_subnormal": lambda: 2.0 ** (1 - 127 - 7),      # bias 127, 7 mantissa bits
        "underflow.gap_orders": lambda: 109 * math.log10(2),
        "underflow.fp16_below_stored_as": lambda: 0.0,                     # half the smallest → ties to even → 0
        "underflow.fp16_below_stored_as_zh": lambda: 0.0,
        "underflow.axis_ticks": lambda: [10.0 ** k for k in range(-40, 1, 10)],
        "prepost.variance_sum": lambda: 1 + 1,                             # unit variances, uncorrelated
        "prepost.share_at_24": lambda: float(Fraction(1, 2**12)),          # (1/√2)^24
        "prepost.x_ticks": lambda: [0.0, 6.0, 12.0, 18.0, 24.0],
        "prepost.y_ticks": lambda: [float(Fraction(1, 8**k)) for k in range(5)],
        "prepost.verdict_count": lambda: 2,                                # 预训练, 微调
        "stability.cure_kinds": lambda: 3,                                 # 治结构, 治数值, 治现场
    }


# ---- fig-optimizers, fig-precision, fig-descent --------------------------------------------

BF16 = ml_dtypes.bfloat16
RULER_BYTES = ("bytes.weights_bf16", "bytes.gradients_bf16", "bytes.master_fp32", "bytes.momentum_fp32",
               "bytes.variance_fp32")

# State copies by hand: parameter-shaped tensors each update rule keeps between steps.
#   SGD       θ ← θ − α·g                                         nothing kept           0
#   momentum  u ← μ·u + g;  θ ← θ − α·u                           u                      1
#   AdaGrad   G ← G + g²;  θ ← θ − α·g/√G                         G                      1
#   RMSProp   s ← ρ·s + (1 − ρ)·g²;  θ ← θ − α·g/√s               s                      1
#   Adam      m ← β1·m + (1 − β1)·g;  v ← β2·v + (1 − β2)·g²;     m, v (t is a scalar)   2
#             θ ← θ − α·m̂/(√v̂ + ε)
#   AdamW     Adam's m, v, and θ ← θ − α·λ·θ (decay needs no state) m, v                 2
#   Muon      B ← μ·B + G;  θ ← θ − α·NS5(B) (orthogonalised)     B                      1
STATE_COPIES_BY_HAND = {"sgd": 0, "momentum": 1, "adagrad": 1, "rmsprop": 1, "adam": 2, "adamw": 2, "muon": 1}


def _ruler_segments(width: int) -> int:
    """Segments of the sourced byte table whose width is one value of a format (dtype itemsize)."""
    return sum(1 for k in RULER_BYTES if v(k) == width)


def _width(finfo) -> int:
    """A format's width from its fields: sign + exponent + stored mantissa bits."""
    return 1 + finfo.nexp + finfo.nmant


def _first_sum() -> np.float32:
    return np.float32(v("precision.start_weight")) + np.float32(v("precision.increment"))


def _bf16_run(adds: int) -> float:
    """x ← bf16(fp32(x) + fp32(increment)): the sum in float32, each result stored through ml_dtypes."""
    x, step = BF16(v("precision.start_weight")), np.float32(v("precision.increment"))
    for _ in range(adds):
        x = BF16(np.float32(x) + step)
    return float(x)


def _counter_stops(naive: int) -> list[int]:
    return sorted(set(range(1, 11)) | {naive} | set(range(100, int(v("precision.adds")) + 1, 100)))


def _bf16_moves(adds: int) -> int:
    """Steps of the ml_dtypes run whose stored value differs from the one before."""
    x, step, moves = BF16(v("precision.start_weight")), np.float32(v("precision.increment")), 0
    for _ in range(adds):
        nxt = BF16(np.float32(x) + step)
        moves, x = moves + int(nxt != x), nxt
    return moves


def _fp32_run(adds: int) -> float:
    x, step = np.float32(v("precision.start_weight")), np.float32(v("precision.increment"))
    for _ in range(adds):
        x = np.float32(x + step)
    return float(x)


def _bf16_ticks() -> list[float]:
    """The start and its bf16 neighbours above, enumerated from the 16-bit pattern: +1 per tick."""
    bits = np.array([v("precision.start_weight")], dtype=BF16).view(np.uint16)[0]
    return [float(x) for x in (bits + np.arange(v("precision.tick_count"), dtype=np.uint16)).view(BF16)]


def _fp16_round(g: float) -> float:
    """Round to nearest even on fp16's subnormal grid (multiples of 2^-24), for |g| below its normals."""
    fi = np.finfo(np.float16)
    assert abs(g) < float(fi.smallest_normal)
    step = float(fi.smallest_subnormal)
    return round(g / step) * step             # Python's round: ties to even, as IEEE


def _adds_to_cover(gap: Fraction, increment: Fraction) -> int:
    """Count exact additions of the increment until they reach the gap."""
    n, total = 0, Fraction(0)
    while total < gap:
        n, total = n + 1, total + increment
    return n


def _half_life(beta: float) -> float:
    """β^k = ½ solved numerically (closed form: ln ½ ÷ ln β)."""
    return float(brentq(lambda k: beta ** k - 0.5, 1e-9, 1e7, xtol=1e-12, rtol=1e-15))


def _decades(horizon: int) -> list[int]:
    ticks, t = [], 1
    while t <= horizon:
        ticks.append(t)
        t *= 10
    return ticks


def _circuit_grad() -> np.ndarray:
    """∇f of f = (a + b)·c at fig-circuit's inputs, by central differences."""
    return central(lambda p: (p[0] + p[1]) * p[2], [v("circuit.a"), v("circuit.b"), v("circuit.c")])


def _s3_first_half() -> dict[str, Any]:
    bf16, fp16, fp32 = ml_dtypes.finfo(BF16), np.finfo(np.float16), np.finfo(np.float32)
    spacing = lambda: float(bf16.eps)                    # gap above 1.0 = 2^-nmant
    naive = lambda: _adds_to_cover(Fraction(spacing()), Fraction(repr(inc())))
    inc = lambda: v("precision.increment")
    oracles: dict[str, Any] = {
        # fig-optimizers Ⓑ: the ruler summed by hand from the sourced byte table.
        "bytes.per_param_total": lambda: sum(v(k) for k in RULER_BYTES),
        "bytes.optimizer_sum": lambda: v("bytes.master_fp32") + v("bytes.momentum_fp32") + v("bytes.variance_fp32"),
        # ZeRO's K and fig-zero's optimizer bytes: the fp32 master, m and v, counted by hand.
        "zero.k": lambda: 3 * 4,
        "bill.optimizer_over_weights": lambda: (v("bytes.master_fp32") + v("bytes.momentum_fp32")
                                                + v("bytes.variance_fp32")) / v("bytes.weights_bf16"),
        # Muon keeps one momentum buffer and no second moment: weights, gradients, master, momentum.
        "bytes.muon_per_param": lambda: (v("bytes.weights_bf16") + v("bytes.gradients_bf16")
                                         + v("bytes.master_fp32") + v("bytes.momentum_fp32")),
        "optimizers.ruler.fp32_segments": lambda: _ruler_segments(np.dtype(np.float32).itemsize),
        "optimizers.ruler.bf16_segments": lambda: _ruler_segments(np.dtype(BF16).itemsize),
        # fig-optimizers Ⓐ: the hand count above, and its distinct levels.
        "optimizers.state_levels": lambda: sorted(set(STATE_COPIES_BY_HAND.values())),
        # fig-precision Ⓐ: the formats' fields as numpy and ml_dtypes know them.
        "format.fp32.total_bits": lambda: _width(fp32),
        "format.bf16.total_bits": lambda: _width(bf16),
        "format.fp16.total_bits": lambda: _width(fp16),
        "precision.exponent_bits_moved": lambda: bf16.nexp - fp16.nexp,
        "precision.tiny_gradient_fp16": lambda: _fp16_round(v("precision.tiny_gradient")),
        # Exact: both sides are one bf16 value, and ≈ 1e-8 would hide inside EXACT_TOL's absolute 1e-9.
        "precision.tiny_gradient_bf16": (lambda: float(BF16(v("precision.tiny_gradient"))), 0.0),
        # fig-precision Ⓑ: the run again, in ml_dtypes.bfloat16 and numpy.float32.
        "precision.bf16.spacing_at_1": spacing,
        "precision.bf16.ticks_near_1": _bf16_ticks,
        "precision.bf16.first_sum": lambda: float(_first_sum()),
        "precision.bf16.first_stored": lambda: float(BF16(_first_sum())),
        "precision.bf16.after_1000_adds": lambda: _bf16_run(v("precision.adds")),
        "precision.fp32.after_1000_adds": lambda: _fp32_run(v("precision.adds")),
        "precision.increment_over_spacing": lambda: inc() / spacing(),
        # The naive count the speaker says (二十六): one gap over one increment, in exact fractions.
        "precision.spacing_over_increment": lambda: float(Fraction(spacing()) / Fraction(repr(inc()))),
        # The magnified gap: halfway between 1.0 and its bf16 neighbour (ml_dtypes' nextafter-by-bits).
        "precision.bf16.rounding_midpoint": lambda: (v("precision.start_weight") + _bf16_ticks()[1]) / 2,
        # The counter: 1 … 10, the exact-arithmetic count, every hundred; the ml_dtypes run read at each.
        "precision.counter_stops": lambda: _counter_stops(naive()),
        "precision.bf16.stored_at_stops": lambda: [_bf16_run(n) for n in _counter_stops(naive())],
        "precision.bf16.steps_moved": lambda: _bf16_moves(v("precision.adds")),
        # fig-precision Ⓒ.
        "precision.criterion_ticks": lambda: _decades(v("precision.criterion_horizon")),
        "optim.adam.half_life_m": lambda: _half_life(v("optim.adam.beta1")),
        "optim.adam.half_life_v": lambda: _half_life(v("optim.adam.beta2")),
        # fig-descent Ⓑ: |∇L| of the bowl L = (x² + 4y²)/2 written again, by central differences.
        "descent.bowl_grad_norms": (lambda: [float(np.linalg.norm(central(lambda p: (p[0] ** 2 + 4 * p[1] ** 2) / 2,
                                                                           point)))
                                             for point in v("descent.bowl_points")], FD_TOL),
        # fig-descent Ⓒ: −∇ of fig-circuit's f = (a + b)·c, and |∂f/∂a| ÷ |∂f/∂c|.
        "descent.a_over_c": (lambda: abs(_circuit_grad()[0]) / abs(_circuit_grad()[2]), FD_TOL),
    }
    for i, name in enumerate("abc"):
        oracles[f"descent.neg_grad_{name}"] = (lambda i=i: float(-_circuit_grad()[i]), FD_TOL)
    for name, count in STATE_COPIES_BY_HAND.items():
        oracles[f"optimizers.state_copies.{name}"] = lambda count=count: count
    return oracles


# ---- fig-lineage (closed forms of the constant-gradient runs), fig-updratio (the toy again) ----

def _s3_lineage_updratio() -> dict[str, Any]:
    import _updratio_reference as toy
    from functools import lru_cache
    from scipy.optimize import minimize_scalar

    b1, b2 = (lambda: v("optim.adam.beta1")), (lambda: v("optim.adam.beta2"))
    # Adam without bias correction on a constant g: m = (1 − β₁ᵗ)g, v = (1 − β₂ᵗ)g².
    bump = lambda t: (1 - b1() ** t) / math.sqrt(1 - b2() ** t)

    def peak_step() -> int:
        t = minimize_scalar(lambda s: -bump(s), bounds=(1, 200), method="bounded").x
        return max((math.floor(t), math.ceil(t)), key=bump)

    eta_ok = lambda: 10 ** -1.54          # the storyboard's own sweep of the same toy (exponent grid 0.02)
    spread = lambda: v("updratio.spread")

    @lru_cache(maxsize=None)
    def run(which: str):
        return toy.reference_run({"ok": eta_ok(), "big": eta_ok() * spread()}[which])

    @lru_cache(maxsize=None)
    def cliff() -> float:
        return toy.cliff_by_scan(eta_ok() * spread(), v("updratio.cliff_grid"))

    eps = 1e-5                             # ε = 1e-8 in the runs against g-sized denominators
    return {
        "optim.adagrad_lr_at_600": (lambda: 1 / math.sqrt(v("optim.adagrad_probe_step")), eps),
        "lineage.adagrad_denominator_growth": (lambda: math.sqrt(v("optim.adagrad_probe_step")), eps),
        "optim.rmsprop_first_step_gain": (lambda: 1 / math.sqrt(1 - b2()), eps),
        "lineage.rmsprop_first_step_gain_slides": (lambda: 1 / math.sqrt(1 - v("lineage.rmsprop_rho_slides")), eps),
        "optim.adam_no_bias_correction_peak": (lambda: bump(peak_step()), eps),
        "lineage.adam_no_bc_peak_step": peak_step,
        "lineage.adagrad_pages": lambda: 2159 - 2121 + 1,            # JMLR 12 (2011) 2121–2159, counted by hand
        "updratio.lr_ok": eta_ok,
        "updratio.lr_small": lambda: eta_ok() / spread(),
        "updratio.lr_big": lambda: eta_ok() * spread(),
        "updratio.final_loss_ok": lambda: float(run("ok")[1][-1]),
        "updratio.final_loss_big": lambda: float(run("big")[1][-1]),
        "updratio.weight_norm_growth": lambda: float(run("big")[2][-1] / run("big")[2][0]),
        # 「抖动」: the loss's RMS about its least-squares quadratic trend over the last 100 steps.
        "updratio.loss_jitter_big": lambda: toy.jitter_about_trend(run("big")[1]),
        # fig-saddle: the three flat points by hand — gradient (a·x, b·y) vanishes at 0; Hessian diag(a, b).
        "flat.slopes_at_centre": lambda: [0.0, 0.0, 0.0],
        "flat.up_fraction_ticks": lambda: [0.0, 0.5, 1.0],
        "flat.directions_one_parameter": lambda: 2,                    # − and +
        # The edge is chaotic: summation order alone moves it by a few 0.01 steps (the scene shows
        # one decimal), so the one-run-at-a-time scan agrees to within that.
        "updratio.nan_multiplier": (cliff, 0.03),
        # 刚好's distance to the same wall: 太大 is spread × 刚好, so spread × the scanned multiplier.
        "updratio.cliff_over_ok": (lambda: spread() * cliff(), 0.03),
    }


# ---- 第一节–第二节: fig-3x, fig-vanish, fig-reverse, fig-act-bill, fig-gradlife, fig-batch,
#      fig-recompute, fig-per-byte ------------------------------------------------------------

# Small counts as the speaker says them, written by hand (两 before a measure word).
SAID_ZH = {1: "一", 2: "两", 3: "三", 4: "四", 5: "五", 10: "十"}


def _said_zh(value: float) -> Said:
    return Said(SAID_ZH[round(value)], value)


def _three_products() -> tuple[int, int, int]:
    """numpy's FLOP count of fig-3x's three products on V3's wq_a over one 128K sequence."""
    return s12.linear_layer_flops(v("scenario.seq_len_128k"), v("model.v3.dim"), v("model.v3.q_lora_rank"))


def _v3_qk() -> int:
    return v("model.v3.qk_nope_head_dim") + v("model.v3.qk_rope_head_dim")


def _batch_ratio(what: str, regime: str) -> float:
    """total / steps / step time after ×k on the roofline, at a batch inside one regime: below the
    knee both B and kB sit under it, above it B is already past it."""
    d, t, sat, k = v("batch.tokens"), v("batch.step_time_min"), v("batch.saturation"), v("batch.doubling")
    peak = sat / t                                        # sequences per time unit once saturated
    b = sat / (2 * k) if regime == "below" else 2 * sat
    f = {"steps": lambda x: d / x, "step_time": lambda x: s12.roofline_step_time(x, t, peak),
         "total": lambda x: s12.roofline_total(x, d, t, peak)}[what]
    return f(k * b) / f(b)


def _chains() -> tuple[Fraction, Fraction]:
    """g_1 of the 0.8 and the 1.2 chain, exactly."""
    layers = v("vanish.layers")
    return (s12.chain_input_gradient(v("vanish.rate_low"), layers),
            s12.chain_input_gradient(v("vanish.rate_high"), layers))


def _relu_slope() -> float:
    """ReLU′ on the positive half-axis, by central differences of max(0, x) at mid-axis."""
    return s12.central_difference(lambda x: max(0.0, x), v("vanish.axis.x_half") / 2)


def _s1s2() -> dict[str, Any]:
    v3_width, gpt3_width = (lambda: v("model.v3.dim")), (lambda: v("model.gpt3.d_model"))
    gpt3_head = lambda: v("model.gpt3.d_head")
    without, full = s12.v3_stored_without_recompute(), s12.v3_stored_with_full_recompute()
    act_top = math.ceil(without / TIB)
    korthikanti = lambda: s12.korthikanti_layer_bytes(
        v("model.gpt3.context_tokens"), v("model.gpt3.d_model"), v("model.gpt3.n_heads"))
    return {
        # fig-3x: numpy's counts, in units of the forward product
        "threex.forward_matmuls": lambda: _three_products()[0] / _three_products()[0],
        "threex.backward_matmuls": lambda: sum(_three_products()[1:]) / _three_products()[0],
        "threex.train_over_inference": lambda: sum(_three_products()) / _three_products()[0],
        "threex.forward_matmuls_zh": lambda: _said_zh(_three_products()[0] / _three_products()[0]),
        "threex.backward_matmuls_zh": lambda: _said_zh(sum(_three_products()[1:]) / _three_products()[0]),
        "threex.train_over_inference_zh": lambda: _said_zh(sum(_three_products()) / _three_products()[0]),
        # fig-recompute Ⓐ: one more forward product, counted the same way
        "recompute.compute_multiple_after": lambda: (sum(_three_products()) + _three_products()[0])
        / _three_products()[0],
        "recompute.compute_extra_fraction": lambda: float(
            Fraction(sum(_three_products()) + _three_products()[0], sum(_three_products())) - 1),
        "recompute.activation_shrink": lambda: without / full,
        "recompute.activation_shrink_said": lambda: round(without / full, -1),
        "recompute.seq_len_label": lambda: Said("128K", 128 * 1024),
        # fig-recompute Ⓑ: Korthikanti's tensor list, the a·s² scores are what selective recompute drops
        "recompute.gpt3.selective_saving": lambda: korthikanti()[1] / korthikanti()[0],
        # fig-act-bill: the hand-written V3 inventory
        "act.v3.no_recompute_tib": lambda: without / TIB,
        # fig-circuit Ⓒ: the bill counted in kept bf16 values (one kept gate input each), said as its order
        "circuit.gate_repeats": lambda: Said("几万亿", without / 2),
        "act_bill.axis.ticks_tib": lambda: _round_ticks(0.0, act_top, act_top),
        "act_bill.axis.inset_ticks_gib": lambda: _round_ticks(0.0, v("act_bill.axis.inset_top_gib"), 2),
        # fig-per-byte: pair counts, the linear layer's price in closed form, brentq for the crossings
        "per_byte.v3.attention_slope": lambda: s12.attention_slope(_v3_qk(), v("model.v3.v_head_dim")),
        "per_byte.gpt3.attention_slope": lambda: s12.attention_slope(gpt3_head(), gpt3_head()),
        # V3's slope on GPT-3's flat line, against GPT-3's own crossing (both by brentq)
        "per_byte.gpt3_with_v3_slope_error_tokens": lambda: s12.crossover(gpt3_head(), gpt3_head(), gpt3_width())
        - s12.crossover(_v3_qk(), v("model.v3.v_head_dim"), gpt3_width()),
        # 2·s·d_in·d_out FLOPs ÷ (2 B × s·d_out): the input width
        "per_byte.v3.linear_flops_per_byte": lambda: 2 * v3_width() * v("model.v3.q_lora_rank")
        / (2 * v("model.v3.q_lora_rank")),
        "per_byte.gpt3.linear_flops_per_byte": lambda: 2 * gpt3_width() * gpt3_width() / (2 * gpt3_width()),
        "recompute.v3.crossover_tokens": (lambda: s12.crossover(_v3_qk(), v("model.v3.v_head_dim"), v3_width()),
                                          1e-9),
        "recompute.gpt3.crossover_tokens": (lambda: s12.crossover(gpt3_head(), gpt3_head(), gpt3_width()), 1e-9),
        "per_byte.axis.x_ticks": lambda: _round_ticks(0.0, v("per_byte.axis.max_tokens"), 4),
        "per_byte.axis.y_ticks": lambda: _round_ticks(0.0, v("per_byte.axis.max_flops_per_byte"), 4),
        # fig-batch: the roofline
        "batch.steps_ratio": lambda: _batch_ratio("steps", "below"),
        "batch.total_ratio_below": lambda: _batch_ratio("total", "below"),
        "batch.step_cost_ratio_above": lambda: _batch_ratio("step_time", "above"),
        "batch.total_ratio_above": lambda: _batch_ratio("total", "above"),
        # fig-gradlife: counted by hand
        "gradlife.stops": lambda: len(s12.GRADIENT_STOPS_BY_HAND),
        # fig-reverse Ⓒ: one JVP per input, one VJP per output (rebuilt and counted on small chains
        # in test_s1s2_reverse_passes)
        "reverse.counterexample.forward_passes": lambda: v("reverse.counterexample.inputs"),
        "reverse.counterexample.reverse_passes": lambda: v("reverse.counterexample.outputs"),
        "reverse.ours.forward_passes": lambda: v("slider.desk_faders"),
        "reverse.ours.reverse_passes": lambda: v("trips.outputs"),
        # fig-vanish: exact rationals, scipy, central differences
        "vanish.rate_0p8_60_layers": lambda: float(_chains()[0]),
        "vanish.rate_1p2_60_layers": lambda: float(_chains()[1]),
        "vanish.orders_between_zh": lambda: _said_zh(s12.log10_fraction(_chains()[1] / _chains()[0])),
        "vanish.output_gradient": (lambda: s12.central_difference(lambda loss: loss, 0.0), FD_TOL),   # ∂L/∂L
        "vanish.rate_offset_zh": lambda: Said(
            {1: "一成", 2: "两成", 3: "三成"}[round(10 * (1 - Fraction(repr(v("vanish.rate_low")))))],
            float(Fraction(repr(v("vanish.rate_high"))) - 1)),
        "vanish.relu_slope_positive": (_relu_slope, FD_TOL),
        "vanish.sigmoid_max_slope": lambda: s12.sigmoid_slope_peak()[1],
        "vanish.sigmoid_at_max_slope": (lambda: float(scipy_expit(s12.sigmoid_slope_peak()[0])), 1e-6),
        "vanish.axis.layer_ticks": lambda: [1, v("vanish.layers")],                 # input end, output end
        "vanish.axis.linear_ticks": lambda: _round_ticks(0.0, v("vanish.axis.linear_top"), 2),
        "vanish.axis.log_ticks": lambda: [10.0 ** e for e in s12.powers_of_ten_spanning(*_chains())],
        # one step of the log line: neighbouring powers of ten, one exponent apart
        "vanish.axis.log_step": lambda: 10.0 ** (lambda e: e[1] - e[0])(list(s12.powers_of_ten_spanning(*_chains()))),
        "vanish.axis.slope_ticks": (lambda: [0.0, s12.sigmoid_slope_peak()[1], _relu_slope()], FD_TOL),
        "vanish.axis.x_ticks": lambda: [-v("vanish.axis.x_half"), 0.0, v("vanish.axis.x_half")],
    }


def _lr_in_units_of_1e4() -> dict[str, Any]:
    """fig-lr-curve's Table 2.1 read in 10⁻⁴, as the speaker reads it, written by hand."""
    return {
        "lr.axis.lr_ticks_e4": lambda: [0.5, 1.0, 2.0, 5.0],           # 5e-5, 1e-4, 2e-4, 5e-4
        "lr.gpt3.medium_lr_e4": lambda: Said("3.0", 3.0),               # 「三乘十的负四次方」
        "lr.gpt3.175b_lr_e4": lambda: Said("0.6", 0.6),                 # 「零点六」
    }


def _lr_v3_tail() -> dict[str, Any]:
    """fig-lr-curve B.6: V3's schedule walked piece by piece to its last token (§4.2: the final
    167B tokens at 7.3 × 10⁻⁶), over its peak 2.2 × 10⁻⁴."""
    return {"lr.v3.final_over_peak": lambda: s3b.v3_lr(s3b.v3_total(v) - 1, v) / v("v3.peak_lr")}


def _lr_inset() -> dict[str, Any]:
    """fig-lr-curve Ⓐ's inset: the first 1 % of GPT-3's 300B tokens, by hand."""
    return {"lr.gpt3.inset_tokens": lambda: 3e9}


def _layers_left_at_total_peak() -> dict[str, Any]:
    """fig-step A.11: the total peaks while backward recomputes the last MoE layer it reaches; below
    it stand V3's dense layers (config.json first_k_dense_replace = 3), so that layer and the three
    dense ones are still to run before the gradients peak: 3 + 1, by hand."""
    return {"timeline.v3.total_peak_layers_before_gradient_peak": lambda: 3 + 1}


# ---- fig-momentum Ⓒ: the heavy ball on the deeper loss again, from the left wall ----------------

def _momentum_slope(x: float) -> float:
    """f′ of f = H((x/w)² − 1)² + T·x/w, by hand."""
    H, T, w = v("momentum.loss.height"), v("momentum.loss.tilt"), v("momentum.loss.width")
    return 4 * H * (x / w) * ((x / w) ** 2 - 1) / w + T / w


def _momentum_wells() -> tuple[float, float]:
    """(deep valley bottom, ridge top) of the base loss, by brentq: f′'s cubic turns at ±w/√3."""
    w = v("momentum.loss.width")
    turn = w / math.sqrt(3)
    return brentq(_momentum_slope, -2 * w, -turn), brentq(_momentum_slope, -turn, turn)


def _deeper_left_run() -> list[float]:
    """x_{k+1} = x_k − η·g(x_k) + β·(x_k − x_{k−1}) with g the deeper loss's slope: f′ minus the
    bump's own derivative, the bump b·exp(−(x − r)²/2s²) centred on the ridge r; from −start."""
    bump, s, ridge = v("momentum.deeper.bump_height"), v("momentum.deeper.bump_width"), _momentum_wells()[1]
    g = lambda x: _momentum_slope(x) - bump * math.exp(-(x - ridge) ** 2 / (2 * s * s)) * (x - ridge) / (s * s)
    lr, beta = v("momentum.lr"), v("optim.adam.beta1")
    x = prev = -v("momentum.start")
    xs = [x]
    for _ in range(v("momentum.steps")):
        x, prev = x - lr * g(x) + beta * (x - prev), x
        xs.append(x)
    return xs


def _momentum_deeper() -> dict[str, Any]:
    return {"momentum.deeper.green_path_left": _deeper_left_run}


def test_the_left_deeper_run_ends_in_the_deep_valley_and_stays_on_its_side():
    """fig-momentum C.9's second start: from the left wall the ball settles at the deep valley's
    bottom (within 1e-3) and never reaches the ridge, so the two starts on one curve have two ends."""
    valley, ridge = _momentum_wells()
    path = REGISTRY["momentum.deeper.green_path_left"].value
    assert abs(path[-1] - valley) < 1e-3
    assert max(path) < ridge
    assert REGISTRY["momentum.deeper.left_start"].value == -v("momentum.start")


ORACLES: dict[str, Any] = {**_circuit(), **_slider(), **_vote(), **_others(), **_memtime(), **_s3_first_half(),
                           **s3b.oracles(v), **_s1s2(), **_s4s5(), **_s6(), **_s3_lineage_updratio(),
                           **_lr_in_units_of_1e4(), **_momentum_deeper(), **_lr_v3_tail(), **_lr_inset(),
                           **_layers_left_at_total_peak()}


def drawn_derived_keys() -> list[str]:
    drawn = {k for entry in registry.discover().values() for k in entry.ledger_keys}
    return sorted(k for k in drawn if isinstance(REGISTRY.get(k), Derived))


DRAWN = drawn_derived_keys()


def test_every_drawn_derived_key_has_an_oracle():
    missing = [k for k in DRAWN if k not in ORACLES]
    assert not missing, f"drawn derived keys with no independent reference in ORACLES: {missing}"
    # Sanity: the enumeration sees every scene, including fig-circuit's gate outputs.
    assert {"circuit.add.out", "circuit.mul.out", "timeline.v3.activation_peak_gib"} <= set(DRAWN)


def test_every_oracle_still_names_a_drawn_derived_key():
    stale = sorted(set(ORACLES) - set(DRAWN))
    assert not stale, f"ORACLES entries no scene draws (or no longer derived): {stale}"


@pytest.mark.parametrize("key", DRAWN)
def test_drawn_value_matches_its_independent_reference(key):
    if key not in ORACLES:
        pytest.fail(f"{key} is drawn but has no oracle")
    oracle = ORACLES[key]
    fn, tol = oracle if isinstance(oracle, tuple) else (oracle, EXACT_TOL)
    expected, ours = fn(), REGISTRY[key].value
    if isinstance(expected, Said):
        assert REGISTRY[key].display == expected.display, key
        if expected.value is not None:
            assert ours == pytest.approx(expected.value, rel=tol, abs=tol), key
    elif isinstance(expected, str):
        assert ours == expected, key
    elif isinstance(expected, list):
        assert list(ours) == pytest.approx(expected, rel=tol, abs=tol), key
    else:
        assert ours == pytest.approx(expected, rel=tol, abs=tol), key
