"""Optimizers fed a constant gradient (fig-lineage): each one's effective step, run for real.

With the same gradient g at every step, a healthy optimizer moves the same amount every
step. ``update_sizes`` runs an optimizer's update rule and returns |Δθ_t| ÷ lr, the step
measured in learning rates; anything not flat is the optimizer's own doing.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from lecture_numerics.provenance import chosen, derived, sourced, speakers_example

ADAM = "Kingma & Ba 2014, Adam (arXiv 1412.6980), Algorithm 1 defaults"

BETA1 = sourced("optim.adam.beta1", 0.9, unit="", measures="Adam's first-moment decay β1", citation=ADAM)
BETA2 = sourced("optim.adam.beta2", 0.999, unit="", measures="Adam's second-moment decay β2", citation=ADAM)
EPSILON = sourced("optim.adam.epsilon", 1e-8, unit="", measures="Adam's ε", citation=ADAM, fmt="{:g}")
GRADIENT = chosen("optim.constant_gradient", 0.5, unit="", fmt="{:g}",
                  measures="the constant gradient fed to every optimizer",
                  reason="the notes feed 「同一串恒定的梯度」 without a value; any value does, since the adaptive "
                         "optimizers are scale-free, and 0.5 keeps SGD's steps on the same scale as theirs",
                  notes_quote="喂同一串恒定的梯度进去")
ADAGRAD_STEP = speakers_example("optim.adagrad_probe_step", 600, unit="steps",
                                measures="step at which the notes read AdaGrad's effective learning rate",
                                notes="六百", notes_quote="跑到第六百步只剩稳态的百分之四")

Rule = Callable[[float, dict, int], float]  # (gradient, state, step t ≥ 1) → update ÷ lr


def adagrad(eps: float = 1e-8) -> Rule:
    def rule(g: float, state: dict, t: int) -> float:
        state["sum_sq"] = state.get("sum_sq", 0.0) + g * g
        return g / (np.sqrt(state["sum_sq"]) + eps)
    return rule


def rmsprop(beta2: float, eps: float = 1e-8) -> Rule:
    """Mean square as a moving average from zero, no bias correction."""
    def rule(g: float, state: dict, t: int) -> float:
        state["v"] = beta2 * state.get("v", 0.0) + (1 - beta2) * g * g
        return g / (np.sqrt(state["v"]) + eps)
    return rule


def adam(beta1: float, beta2: float, eps: float = 1e-8, bias_correction: bool = True) -> Rule:
    def rule(g: float, state: dict, t: int) -> float:
        state["m"] = beta1 * state.get("m", 0.0) + (1 - beta1) * g
        state["v"] = beta2 * state.get("v", 0.0) + (1 - beta2) * g * g
        m, v = state["m"], state["v"]
        if bias_correction:
            m, v = m / (1 - beta1**t), v / (1 - beta2**t)
        return m / (np.sqrt(v) + eps)
    return rule


def sgd() -> Rule:
    return lambda g, state, t: g


def update_sizes(rule: Rule, gradient: float, steps: int) -> np.ndarray:
    """|Δθ_t| ÷ lr for t = 1 … steps under a constant gradient."""
    state: dict = {}
    return np.array([abs(rule(gradient, state, t)) for t in range(1, steps + 1)])


def effective_lr_curves(steps: int = 1000, gradient: float = 0.5) -> dict[str, np.ndarray]:
    """The four boxes of fig-lineage: SGD, AdaGrad, RMSProp, Adam, each relative to its step 1
    (SGD, AdaGrad) or its steady state (RMSProp, Adam: 1 learning rate per step)."""
    b1, b2, eps = BETA1.value, BETA2.value, EPSILON.value
    sgd_curve = update_sizes(sgd(), gradient, steps)
    adagrad_curve = update_sizes(adagrad(eps), gradient, steps)
    return {"sgd": sgd_curve / sgd_curve[0], "adagrad": adagrad_curve / adagrad_curve[0],
            "rmsprop": update_sizes(rmsprop(b2, eps), gradient, steps),
            "adam": update_sizes(adam(b1, b2, eps), gradient, steps)}


_LONG_RUN = 20_000  # steps: 0.999^20000 ≈ 2e-9, the moving averages have forgotten their zero start


def _adagrad_ratio(gradient: float, probe: int, eps: float) -> float:
    sizes = update_sizes(adagrad(eps), gradient, probe)
    return float(sizes[probe - 1] / sizes[0])


def _rmsprop_gain(gradient: float, beta2: float, eps: float) -> float:
    sizes = update_sizes(rmsprop(beta2, eps), gradient, _LONG_RUN)
    return float(sizes[0] / sizes[-1])


def _adam_no_bc_peak(gradient: float, beta1: float, beta2: float, eps: float) -> float:
    sizes = update_sizes(adam(beta1, beta2, eps, bias_correction=False), gradient, _LONG_RUN)
    return float(sizes.max() / sizes[-1])


def _times(digits: int):
    return lambda v: f"{v:.{digits}f}×"


ADAGRAD_AT_600 = derived(
    "optim.adagrad_lr_at_600", _adagrad_ratio,
    inputs={"gradient": GRADIENT, "probe": ADAGRAD_STEP, "eps": EPSILON}, unit="fraction",
    fmt=lambda v: f"{100 * v:.0f}%", formula="|Δθ_600| ÷ |Δθ_1|, AdaGrad run on a constant gradient",
    measures="AdaGrad's effective learning rate at step 600 relative to step 1",
    notes="4 %", notes_quote="于是有效学习率一路往下掉，跑到第六百步只剩稳态的百分之四。")
RMSPROP_GAIN = derived(
    "optim.rmsprop_first_step_gain", _rmsprop_gain,
    inputs={"gradient": GRADIENT, "beta2": BETA2, "eps": EPSILON}, unit="×", fmt=_times(0),
    formula="|Δθ_1| ÷ |Δθ_∞|, RMSProp (moving average from zero, β2 = 0.999, no bias correction)",
    measures="RMSProp's first update relative to its steady-state update",
    notes="32 ×", notes_quote="第一步的更新被放大了三十二倍，直接冲出画面。")
ADAM_NO_BC_PEAK = derived(
    "optim.adam_no_bias_correction_peak", _adam_no_bc_peak,
    inputs={"gradient": GRADIENT, "beta1": BETA1, "beta2": BETA2, "eps": EPSILON}, unit="×", fmt=_times(1),
    formula="max_t |Δθ_t| ÷ |Δθ_∞|, Adam with momentum but without bias correction",
    measures="peak update gain of Adam without bias correction",
    notes="6.6 ×", notes_quote="如果 Adam 只加动量、不做校正， 峰值只有六点六倍，不是三十二倍")
ADAM_FIRST_STEP = derived(
    "optim.adam_first_step_gain",
    lambda gradient, beta1, beta2, eps: float(update_sizes(adam(beta1, beta2, eps), gradient, 1)[0]),
    inputs={"gradient": GRADIENT, "beta1": BETA1, "beta2": BETA2, "eps": EPSILON}, unit="×", fmt=_times(1),
    formula="|Δθ_1| ÷ lr, Adam with bias correction", measures="Adam's first update in learning rates (flat from step 1)")
