"""fig-lineage: AdaGrad → RMSProp → Adam as a causal chain, each fed one constant gradient.

Every curve is a run of the update rules in optim.py (``optim.update_sizes``): the step
each optimizer takes, in learning rates, when the gradient never changes. A healthy
optimizer gives a flat line; SGD and Adam do, AdaGrad falls (its denominator only grows),
RMSProp shoots up at the start (its moving average starts at zero).

Ⓐ four thumbnails on a log step axis; Ⓑ AdaGrad with its growing denominator; Ⓒ RMSProp,
Adam and Adam without bias correction on the same log axis, all with β₂ = 0.999 (Adam's
default) so that only the correction differs. With ρ = 0.9, the value on Hinton's Coursera
slide (lecture 6.5), RMSProp's first step is 3.2×.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from lecture_numerics.axes import tick_formatter
from lecture_numerics.optim import (ADAGRAD_STEP, BETA1, BETA2, EPSILON, GRADIENT, adagrad, adam,
                                    effective_lr_curves, rmsprop, update_sizes)
from lecture_numerics.provenance import chosen, derived, sourced

RMSPROP_SLIDES = "Tieleman & Hinton, Coursera Neural Networks for Machine Learning, lecture 6.5 (sources.md)"

RHO_SLIDES = sourced("lineage.rmsprop_rho_slides", 0.9, unit="", fmt="{:g}", citation=RMSPROP_SLIDES,
                     measures="RMSProp's moving-average weight on Hinton's Coursera slide, lecture 6.5 (0.9·old + 0.1·g²)")
AVERAGE_START = sourced("lineage.average_start", 0.0, unit="", fmt=lambda v: "零" if v == 0 else f"{v:g}",
                        citation="Kingma & Ba, arXiv 1412.6980, Algorithm 1: \"m₀ ← 0 (Initialize 1st moment vector); "
                                 "v₀ ← 0 (Initialize 2nd moment vector)\"; §3: the moving averages are initialized "
                                 "as vectors of 0's, hence biased towards zero in the initial steps",
                        measures="where the moving averages (RMSProp's and Adam's v, Adam's m) start: the 零 of 「从零起步」")
THUMB_STEPS = chosen("lineage.thumb_steps", 600, unit="steps", fmt="{:,}",
                     measures="steps drawn in the AdaGrad plot of Ⓑ",
                     reason="the notes read AdaGrad at step 600")
LOG_STEPS = chosen("lineage.log_steps", 5000, unit="steps", fmt="{:,}",
                   measures="right end of the log step axes of Ⓐ's thumbnails and of Ⓒ",
                   reason="long enough that RMSProp is visibly back at 1 (β₂ = 0.999 forgets in ~1,000 steps)")
CLIP_GAIN = chosen("lineage.clip_gain", 8, unit="×", fmt="{}×", measures="top of Ⓒ's y-axis",
                   reason="high enough to show Adam-without-correction's whole bump; RMSProp's first step leaves it")
THUMB_TOP = chosen("lineage.thumb_top", 2.0, unit="×", fmt="{:g}×", measures="top of Ⓐ's thumbnails",
                   reason="twice the flat line: a fall and a spike both read as 不平, the spike clipped")

_STEP_TICKS = [1.0, 10.0, 100.0, 1000.0]
LOG_STEP_TICKS = chosen("lineage.log_step_ticks", _STEP_TICKS, unit="step", item_fmt="{:,.0f}",
                        fmt=lambda v: " / ".join(f"{x:,.0f}" for x in v), measures="Ⓒ's step-axis ticks",
                        reason="one tick per decade of steps")
_GAIN_TICKS = [0.0, 1.0, 4.0, 8.0]
GAIN_TICKS = chosen("lineage.gain_ticks", _GAIN_TICKS, unit="×", item_fmt=tick_formatter(_GAIN_TICKS),
                    fmt=lambda v: " / ".join(map(tick_formatter(_GAIN_TICKS), v)),
                    measures="Ⓒ's y-axis ticks (step ÷ steady step)",
                    reason="the steady line 1, the clip 8 and one tick between")
_LIN_STEPS = [0.0, 200.0, 400.0, 600.0]
LIN_STEP_TICKS = chosen("lineage.lin_step_ticks", _LIN_STEPS, unit="step", item_fmt=tick_formatter(_LIN_STEPS),
                        fmt=lambda v: " / ".join(map(tick_formatter(_LIN_STEPS), v)),
                        measures="Ⓑ's step-axis ticks", reason="every 200 steps up to the 600 the notes read")
_LIN_GAIN = [0.0, 0.5, 1.0]
LIN_GAIN_TICKS = chosen("lineage.lin_gain_ticks", _LIN_GAIN, unit="×", item_fmt=tick_formatter(_LIN_GAIN),
                        fmt=lambda v: " / ".join(map(tick_formatter(_LIN_GAIN), v)),
                        measures="Ⓑ's y-axis ticks", reason="0, half and the steady 1")

_BIAS = [0.0, 0.5, 1.0]
BIAS_TICKS = chosen("lineage.bias_ticks", _BIAS, unit="", item_fmt=tick_formatter(_BIAS),
                    fmt=lambda v: " / ".join(map(tick_formatter(_BIAS), v)),
                    measures="Ⓒ's small plot of the two biases (each average ÷ its true value)",
                    reason="from the zero start to no bias at all")

# ---- the runs (real loops: optim.update_sizes applies each update rule step by step) ----

def thumbnails(steps: int) -> dict[str, np.ndarray]:
    """Ⓐ: each optimizer's step over steps 1 … ``steps``, relative to its steady step."""
    return effective_lr_curves(steps, GRADIENT.value)


def adagrad_run(steps: int) -> tuple[np.ndarray, np.ndarray]:
    """Ⓑ: AdaGrad's step (÷ its first step) and its denominator √Σg² (÷ |g|), both from the
    run: the denominator is recovered as g ÷ step, what the rule divided by."""
    g = GRADIENT.value
    sizes = update_sizes(adagrad(EPSILON.value), g, steps)
    return sizes / sizes[0], (g / sizes) / abs(g)


@lru_cache(maxsize=None)
def _late_runs(steps: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    g, b1, b2, eps = GRADIENT.value, BETA1.value, BETA2.value, EPSILON.value
    return (update_sizes(rmsprop(b2, eps), g, steps), update_sizes(adam(b1, b2, eps), g, steps),
            update_sizes(adam(b1, b2, eps, bias_correction=False), g, steps))


def late_runs(steps: int) -> dict[str, np.ndarray]:
    """Ⓒ: RMSProp, Adam, Adam without bias correction (β₂ = 0.999 for all), steps 1 … ``steps``,
    in learning rates (the steady step of each is 1)."""
    rms, adam_bc, adam_raw = _late_runs(steps)
    return {"rmsprop": rms, "adam": adam_bc, "adam_raw": adam_raw}


def log_sampled_steps(steps: int, count: int = 300) -> np.ndarray:
    """Whole steps 1 … ``steps`` spaced evenly on a log axis (every early step, then sparser):
    the samples Ⓒ draws of each run, so a 5,000-step curve costs a few hundred points."""
    return np.unique(np.round(np.geomspace(1, steps, count)).astype(int))


def bias_factors(steps: int) -> tuple[np.ndarray, np.ndarray]:
    """Ⓒ: the two biases of Adam's averages on a constant g, each run from its zero start as the
    rule runs it: m_t ÷ g = 1 − β₁ᵗ (the momentum) and √(v_t ÷ g²) = √(1 − β₂ᵗ) (the
    denominator), steps 1 … ``steps``. The uncorrected step is their ratio (m over √v): both
    start small, so they partly cancel."""
    g, b1, b2 = GRADIENT.value, BETA1.value, BETA2.value
    m = v = 0.0
    momentum, denominator = np.empty(steps), np.empty(steps)
    for t in range(steps):
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        momentum[t], denominator[t] = m / g, np.sqrt(v) / abs(g)
    return momentum, denominator


def _no_bc(beta1: float, beta2: float, steps: int) -> np.ndarray:
    return update_sizes(adam(beta1, beta2, EPSILON.value, bias_correction=False), GRADIENT.value, steps)


ADAGRAD_DENOMINATOR_GROWTH = derived(
    "lineage.adagrad_denominator_growth", lambda probe: float(adagrad_run(probe)[1][-1] / adagrad_run(probe)[1][0]),
    inputs={"probe": ADAGRAD_STEP}, unit="×", fmt="{:.1f}×",
    formula="√(Σ_{t≤600} g²) ÷ √(g²), from the AdaGrad run", measures="how much AdaGrad's denominator grew by step 600")
RMSPROP_GAIN_SLIDES = derived(
    "lineage.rmsprop_first_step_gain_slides",
    lambda rho, steps: float(update_sizes(rmsprop(rho, EPSILON.value), GRADIENT.value, steps)[0]),
    inputs={"rho": RHO_SLIDES, "steps": LOG_STEPS}, unit="×", fmt="{:.1f}×",
    formula="|Δθ_1| ÷ α|g|, RMSProp run with the slides' ρ = 0.9",
    measures="RMSProp's first step with the slides' ρ (the 32× needs ρ = 0.999)")
ADAM_RAW_FIRST = derived(
    "lineage.adam_no_bc_first_step", lambda beta1, beta2: float(_no_bc(beta1, beta2, 1)[0]),
    inputs={"beta1": BETA1, "beta2": BETA2}, unit="×", fmt="{:.1f}×",
    formula="|Δθ_1| ÷ α|g|, Adam without bias correction", measures="where Adam-without-correction starts")
ADAM_RAW_PEAK_STEP = derived(
    "lineage.adam_no_bc_peak_step", lambda beta1, beta2, steps: int(np.argmax(_no_bc(beta1, beta2, steps))) + 1,
    inputs={"beta1": BETA1, "beta2": BETA2, "steps": LOG_STEPS}, unit="step", fmt="{}",
    formula="argmax_t |Δθ_t|, Adam without bias correction", measures="step of the bump's peak")
ADAM_FLATNESS = derived(
    "lineage.adam_max_deviation", lambda steps: float(np.max(np.abs(late_runs(steps)["adam"] - 1))),
    inputs={"steps": LOG_STEPS}, unit="", fmt="{:.0e}",
    formula="max_t |Δθ_t ÷ α − 1|, Adam with bias correction", measures="how flat Adam's line is (ε makes it non-zero)")
RMSPROP_AT_END = derived(
    "lineage.rmsprop_at_log_end", lambda steps: float(late_runs(steps)["rmsprop"][-1]),
    inputs={"steps": LOG_STEPS}, unit="×", fmt="{:.2f}×",
    formula="|Δθ_5000| ÷ α, RMSProp", measures="RMSProp at the right end of Ⓒ: back at the flat line")

# ---- Ⓓ how the three were published (the notes' closing band) ----------------------------------

_ADAM_PAPER = "Kingma & Ba, Adam, arXiv 1412.6980"
YEAR_RMSPROP = sourced("lineage.year_rmsprop", 2012, unit="year", fmt="{}",
                       citation=f"{_ADAM_PAPER}, References: \"Tieleman, T. and Hinton, G. Lecture 6.5 - RMSProp, "
                                "COURSERA: Neural Networks for Machine Learning. Technical report, 2012.\"",
                       measures="year of the RMSProp lecture, as the Adam paper cites it")
ADAGRAD_FIRST_PAGE = sourced("lineage.adagrad_first_page", 2121, unit="page", fmt="{}",
                             citation="Duchi, Hazan, Singer, JMLR 12 (2011) 2121–2159 (sources.md)",
                             measures="first page of the AdaGrad paper")
ADAGRAD_LAST_PAGE = sourced("lineage.adagrad_last_page", 2159, unit="page", fmt="{}",
                            citation="Duchi, Hazan, Singer, JMLR 12 (2011) 2121–2159 (sources.md)",
                            measures="last page of the AdaGrad paper")
ADAGRAD_PAGES = derived("lineage.adagrad_pages", lambda first, last: last - first + 1,
                        inputs={"first": ADAGRAD_FIRST_PAGE, "last": ADAGRAD_LAST_PAGE}, unit="pages", fmt="{}",
                        formula="last page − first page + 1", measures="length of the AdaGrad paper",
                        notes="三十九", notes_quote="AdaGrad：正经的 JMLR 长文，整整三十九页。")
RMSPROP_LECTURE = sourced("lineage.rmsprop_lecture", "6.5", unit="lecture", fmt="{}",
                          citation="Tieleman & Hinton, Coursera Neural Networks for Machine Learning, lecture 6.5 "
                                   "(sources.md; cited so in Kingma & Ba's references)",
                          measures="the Coursera lecture that is RMSProp's only publication",
                          notes="6.5", notes_quote="今天所有引用它的论文，引的都是「第 6.5 讲」。")
