"""fig-batch: "a bigger batch is faster" has a precondition — a toy step-time model.

Training on D tokens in batches of B takes D / B steps. A step costs t_min while the device
still has idle parallel units, and grows in proportion to B once they are all busy (B > B_sat):
    step_time(B) = t_min · max(1, B / B_sat),   total(B) = (D / B) · step_time(B).
Below saturation doubling B halves the steps at the same step cost (twice as fast); above it
the step cost doubles too, and the two cancel. Every number here is illustrative (示意): the
figure is drawn without ticks, and only the factors are shown.
"""

from __future__ import annotations

import numpy as np

from lecture_numerics.provenance import chosen, derived

TOKENS = chosen("batch.tokens", 2**30, unit="tokens", fmt="{:,}", measures="tokens to train on (D)",
                reason="any fixed amount: the figure compares batch sizes for the same work, D cancels in every ratio")
STEP_MIN = chosen("batch.step_time_min", 1.0, unit="time units", fmt="{:g}",
                  measures="time of one step while the device is not yet saturated (t_min)",
                  reason="the time unit of the toy model")
SATURATION = chosen("batch.saturation", 64, unit="sequences", fmt="{}",
                    measures="batch at which every parallel unit is busy (B_sat), the knee",
                    reason="puts the knee mid-axis on a log scale from 1 to 4096; no real device is meant")
DOUBLING = chosen("batch.doubling", 2, unit="×", fmt="×{}", measures="how much the batch grows in the speaker's example",
                  reason="the speaker's example: batch ×2",
                  notes_quote="左边并行度还没吃满，batch 大了步数少、每步没变贵，所以真的快。")
BATCH_RANGE = chosen("batch.range", (1, 4096), unit="sequences", fmt=lambda v: f"{v[0]}–{v[1]}",
                     measures="batch sizes drawn", reason="six octaves either side of the knee")


def steps(tokens: float, batch: float) -> float:
    return tokens / batch


def step_time(batch: float, step_min: float, saturation: float) -> float:
    return step_min * max(1.0, batch / saturation)


def total_time(batch: float, tokens: float, step_min: float, saturation: float) -> float:
    return steps(tokens, batch) * step_time(batch, step_min, saturation)


def curves(points: int = 97) -> dict[str, np.ndarray]:
    """batch on a log grid over the drawn range, with steps, step time and total time there."""
    low, high = BATCH_RANGE.value
    b = np.geomspace(low, high, points)
    d, t_min, sat = TOKENS.value, STEP_MIN.value, SATURATION.value
    return {"batch": b, "steps": np.array([steps(d, x) for x in b]),
            "step_time": np.array([step_time(x, t_min, sat) for x in b]),
            "total": np.array([total_time(x, d, t_min, sat) for x in b])}


def factor(v: float) -> str:
    """A ratio as the slide writes it: 0.5 → ÷2, 2 → ×2, 1 → ×1."""
    return f"÷{1 / v:g}" if v < 1 else f"×{v:g}"


_INPUTS = {"tokens": TOKENS, "step_min": STEP_MIN, "saturation": SATURATION, "k": DOUBLING}
BELOW, ABOVE = 1 / 8, 8      # where on the curve each half is read, in units of B_sat


def _ratio(what: str, where: float):
    def compute(tokens, step_min, saturation, k):
        b = where * saturation
        f = {"steps": lambda x: steps(tokens, x),
             "step_time": lambda x: step_time(x, step_min, saturation),
             "total": lambda x: total_time(x, tokens, step_min, saturation)}[what]
        return f(k * b) / f(b)
    return compute


STEPS_AFTER = derived("batch.steps_ratio", _ratio("steps", BELOW), inputs=_INPUTS, unit="×", fmt=factor,
                      formula="(D / kB) ÷ (D / B) = 1/k", measures="steps after multiplying the batch by k")
STEP_COST_BELOW = derived("batch.step_cost_ratio_below", _ratio("step_time", BELOW), inputs=_INPUTS, unit="×",
                          fmt=factor, formula="step_time(kB) ÷ step_time(B) at B = B_sat/8",
                          measures="step cost after ×k, below saturation")
TOTAL_BELOW = derived("batch.total_ratio_below", _ratio("total", BELOW), inputs=_INPUTS, unit="×", fmt=factor,
                      formula="total(kB) ÷ total(B) at B = B_sat/8", measures="training time after ×k, below saturation")
STEP_COST_ABOVE = derived("batch.step_cost_ratio_above", _ratio("step_time", ABOVE), inputs=_INPUTS, unit="×",
                          fmt=factor, formula="step_time(kB) ÷ step_time(B) at B = 8·B_sat",
                          measures="step cost after ×k, above saturation")
TOTAL_ABOVE = derived("batch.total_ratio_above", _ratio("total", ABOVE), inputs=_INPUTS, unit="×", fmt=factor,
                      formula="total(kB) ÷ total(B) at B = 8·B_sat", measures="training time after ×k, above saturation",
                      notes_quote="右边并行度吃满了，每步变贵的倍数，正好抵掉步数少的倍数。")
