"""Independent references for the numbers drawn by the second half of 第三节 (fig-onelr,
fig-momentum, fig-beststep, fig-lr-curve, fig-muon): closed forms and plain loops, written
again here without the numerics' code. ``oracles(v)`` is merged into test_drawn_oracles.ORACLES;
``v(key)`` reads an input (sourced or chosen), never a result."""

from __future__ import annotations

import math
from typing import Any, Callable


def heavy_ball_loop(v, beta: float, steps: int | None = None) -> list[float]:
    """fig-momentum's run written again: f′ by hand from f = H((x/w)² − 1)² + T·x/w."""
    H, T, w = v("momentum.loss.height"), v("momentum.loss.tilt"), v("momentum.loss.width")
    slope = lambda x: 4 * H * (x / w) * ((x / w) ** 2 - 1) / w + T / w
    lr, x, prev = v("momentum.lr"), v("momentum.start"), v("momentum.start")
    xs = [x]
    for _ in range(v("momentum.steps") if steps is None else steps):
        x, prev = x - lr * slope(x) + beta * (x - prev), x
        xs.append(x)
    return xs


def pit_bottom(v) -> float:
    from scipy.optimize import brentq

    H, T, w = v("momentum.loss.height"), v("momentum.loss.tilt"), v("momentum.loss.width")
    slope = lambda x: 4 * H * (x / w) * ((x / w) ** 2 - 1) / w + T / w
    return brentq(slope, w / math.sqrt(3), 2 * w)        # right of the local maximum of f′'s cubic


def crossing_terms(v) -> tuple[float, float, float]:
    """(gradient term, momentum term, net) at green's first iterate left of the pit bottom."""
    H, T, w = v("momentum.loss.height"), v("momentum.loss.tilt"), v("momentum.loss.width")
    xs, beta, lr = heavy_ball_loop(v, v("optim.adam.beta1")), v("optim.adam.beta1"), v("momentum.lr")
    k = next(i for i, x in enumerate(xs) if x < pit_bottom(v))
    slope = 4 * H * (xs[k] / w) * ((xs[k] / w) ** 2 - 1) / w + T / w
    return -lr * slope, beta * (xs[k - 1] - xs[k]), xs[k] - xs[k + 1]


def _gray_final_slope(v) -> float:
    H, T, w = v("momentum.loss.height"), v("momentum.loss.tilt"), v("momentum.loss.width")
    x = heavy_ball_loop(v, 0.0)[-1]
    return abs(4 * H * (x / w) * ((x / w) ** 2 - 1) / w + T / w)


def gpt3_175b_lr(tokens: float, v) -> float:
    """GPT-3 175B's schedule from Appendix B, piece by piece with math.cos."""
    peak, warmup, end = v("gpt3.175b.lr"), v("gpt3.warmup_tokens"), v("gpt3.decay_tokens")
    floor = v("gpt3.final_lr_fraction") * peak
    if tokens < warmup:
        return peak * tokens / warmup
    if tokens < end:
        return floor + (peak - floor) * (1 + math.cos(math.pi * (tokens - warmup) / (end - warmup))) / 2
    return floor


def v3_lr(tokens: float, v) -> float:
    """DeepSeek-V3's schedule from §4.2 (after warmup), piece by piece."""
    peak, hold = v("v3.peak_lr"), v("v3.hold_until_tokens")
    decay, decayed = v("v3.decay_tokens"), v("v3.decayed_lr")
    if tokens < hold:
        return peak
    if tokens < hold + decay:
        return decayed + (peak - decayed) * (1 + math.cos(math.pi * (tokens - hold) / decay)) / 2
    if tokens < hold + decay + v("lr.v3.decayed_hold_tokens"):
        return decayed
    return v("v3.final_lr")


def v3_total(v) -> float:
    return v("v3.hold_until_tokens") + v("v3.decay_tokens") + v("lr.v3.decayed_hold_tokens") + v("lr.v3.final_tokens")


def geometric_sum(beta: float, terms: int = 20_000) -> float:
    """Σ β^k added term by term (the weights of all past gradients): → 1 ÷ (1 − β)."""
    total, weight = 0.0, 1.0
    for _ in range(terms):
        total += weight
        weight *= beta
    return total


def oracles(v: Callable[[str], Any]) -> dict[str, Any]:
    c, ratio = (lambda: v("step.step_times_lambda")), (lambda: v("onelr.red_over_blue"))
    return {
        "onelr.run_count": lambda: 2,                                   # red and blue, counted on the picture
        "onelr.lr_gap_cheng": lambda: round(10 * ratio()) - 10,          # 1.1 = 1 + one tenth (一成)
        "momentum.run_count": lambda: 2,                                # gray and green
        "momentum.gray_final_slope": (lambda: _gray_final_slope(v), 1e-3),
        "momentum.crossing.gradient_term": lambda: crossing_terms(v)[0],
        "momentum.crossing.momentum_term": lambda: crossing_terms(v)[1],
        "momentum.crossing.net": lambda: crossing_terms(v)[2],
        "momentum.window_beta_0p9": lambda: geometric_sum(v("optim.adam.beta1")),
        "momentum.window_beta_low": lambda: geometric_sum(v("momentum.knob.beta_low")),
        "momentum.window_beta_high": lambda: geometric_sum(v("momentum.knob.beta_high")),
        # fig-beststep: g ÷ h by hand; halfway counts from (1 − c/κ)^k = ½ solved with log2
        "beststep.a.gradient": lambda: v("beststep.a.curvature") * v("beststep.a.point"),
        "beststep.a.best_step": lambda: v("beststep.a.point"),          # h·x ÷ h lands at 0
        "beststep.b.flat_curvature": lambda: v("onelr.lambda_steep") / v("step.kappa_figure"),
        "beststep.b.steep_distance": lambda: v("beststep.b.steep_gradient") / v("onelr.lambda_steep"),
        "beststep.b.flat_distance": lambda: v("beststep.b.flat_gradient") * v("step.kappa_figure") / v("onelr.lambda_steep"),
        "beststep.b.steep_best_lr": lambda: 1 / v("onelr.lambda_steep"),
        "beststep.b.flat_best_lr": lambda: v("step.kappa_figure") / v("onelr.lambda_steep"),
        "beststep.threshold": lambda: 2 / v("onelr.lambda_steep"),
        "beststep.step_share_of_threshold": lambda: v("step.step_times_lambda") / 2,
        "step.halfway_coefficient": lambda: math.log(2) / v("step.step_times_lambda"),
        "step.halfway_steps_kappa25": lambda: round(-1 / math.log2(1 - v("step.step_times_lambda") / v("step.kappa_figure"))),
        "step.halfway_steps_kappa1000": lambda: round(-1 / math.log2(1 - v("step.step_times_lambda") / v("step.kappa_model"))),
        "beststep.c.hessian_entries": lambda: v("model.v3.total_params") ** 2,
        "beststep.c.diagonal_tib": lambda: v("model.v3.total_params") * v("beststep.c.fp32_bytes") / 2 ** 40,
        # fig-lr-curve: ratios of the sourced numbers, and the schedules' ends written again
        "lr.segment_count": lambda: 3,                                   # 升上去、稳住、降下来
        "lr.school_count": lambda: 2,                                    # GPT-3 and V3
        "lr.gpt3.warmup_share": lambda: 375e6 / 300e9,
        "lr.gpt3.size_ratio_medium_175b": lambda: 175e9 / 350e6,
        "lr.gpt3.lr_ratio_medium_175b": lambda: 3.0e-4 / 0.6e-4,
        "lr.gpt3.rows_medium_to_175b": lambda: len(["medium", "large", "xl", "2.7b", "6.7b", "13b", "175b"]),
        "lr.gpt3.final_over_peak": lambda: gpt3_175b_lr(300e9 - 1, v) / v("gpt3.175b.lr"),
        "lr.v3.cosine_end_over_peak": lambda: v3_lr(14.3e12, v) / v("v3.peak_lr"),
        # fig-muon: the two unit steps by hand for g = (a, b) with a, b > 0
        "muon.ruler_count": lambda: 2,                                   # the circle and the square
        "muon.answer_count": lambda: 2,                                  # SGD and Muon
        "history.polyak_lead_years": lambda: v("history.backprop_nature.year") - v("history.polyak.year"),
    }
