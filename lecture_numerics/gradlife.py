"""fig-gradlife: the stops a gradient passes between being computed and being thrown away.

The stops are the ones the notes name at the end of 第一节 (跨卡汇总、裁剪、也许还要累积几次，
然后才交给优化器，用完扔掉) plus being computed, in the order they happen in a step:
accumulation over micro-batches comes before the cross-device reduction, and clipping
needs the reduced gradient. Each stop lists what optimisations there save (the notes: 「每一道
都有人在上面做文章」, so every stop has at least one): computing — later layers' gradients are
ready first, so sending overlaps the rest of the backward pass (time); accumulating over
micro-batches — a smaller batch's activations (memory); reducing — fewer bytes sent, sending
overlapped with computing (communication, time); clipping — one fused pass over all gradients
for the total norm instead of one small kernel per tensor (time); the optimizer — its states
and the gradient itself, freed once used (memory).
"""

from __future__ import annotations

from dataclasses import dataclass

from lecture_numerics.provenance import derived
from lecture_numerics.zh import zh_count


@dataclass(frozen=True)
class Stop:
    name: str
    what: str
    saves: tuple[str, ...]   # "memory" | "communication" | "time"
    optional: bool = False


STOPS = (
    Stop("反向算出", "从后往前出来", ("time",)),
    Stop("累积", "可能累加好几次", ("memory",), optional=True),
    Stop("跨卡汇总", "取平均", ("time", "communication")),
    Stop("裁剪", "先看总范数", ("time",)),
    Stop("交给优化器", "用完扔掉", ("memory",)),
)

STOP_COUNT = derived(
    "gradlife.stops", lambda: len(STOPS), inputs={}, unit="stops", fmt=lambda v: zh_count(v),
    formula="len(STOPS): computed, accumulated, reduced across devices, clipped, handed to the optimizer",
    measures="stops a gradient passes between being computed and being thrown away", notes="五",
    notes_quote="一个梯度从算出来到被扔掉，中间要过五道。")
