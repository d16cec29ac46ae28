"""fig-gradlife: the stops a gradient passes between being computed and being thrown away.

The stops are the ones the notes name at the end of 第一节 (跨卡汇总、裁剪、也许还要累积几次，
然后才交给优化器，用完扔掉) plus being computed, in the order they happen in a step:
accumulation over micro-batches comes before the cross-device reduction, and clipping
needs the reduced gradient. Each stop lists what optimisations there save (the notes: 「每一道
都有人在上面做文章」, so every stop has at least one): computing — later layers' gradients are
ready first, so sending overlaps the rest of the backward pass (time); accumulating over
micro-batches — a smaller batch's activations (memory); reducing — fewer bytes sent, sending
overlapped with computing (communication, time); the optimizer — its states and the gradient
itself, freed once used (memory). Clipping carries no tag: the notes only ever treat it as a
stability guard (「裁剪管的是「这一步最多迈多大」」, 第六节), never as a saving, so the figure
claims none there.
"""

from __future__ import annotations

from dataclasses import dataclass

from lecture_numerics.provenance import chosen, derived
from lecture_numerics.zh import zh_count


@dataclass(frozen=True)
class Stop:
    name: str
    what: str
    saves: tuple[str, ...]   # "memory" | "communication" | "time"; empty: none the notes name
    optional: bool = False


STOPS = (
    Stop("反向算出", "从后往前", ("time",)),
    Stop("累积", "可能好几次", ("memory",), optional=True),
    Stop("跨卡汇总", "取平均", ("time", "communication")),
    Stop("裁剪", "看总范数", ()),
    Stop("交给优化器", "用完扔掉", ("memory",)),
)

STOP_NAMES = chosen(
    "gradlife.stop_names", tuple(stop.name for stop in STOPS), unit="", fmt=" → ".join,
    measures="the stops fig-gradlife draws, in order",
    reason="the stations the notes walk a gradient through (算出, 累积, 汇总, 裁剪, 交给优化器)")
STOP_COUNT = derived(
    "gradlife.stops", lambda stops: len(stops), inputs={"stops": STOP_NAMES}, unit="stops",
    fmt=lambda v: zh_count(v),
    formula="len(STOPS): computed, accumulated, reduced across devices, clipped, handed to the optimizer",
    measures="stops a gradient passes between being computed and being thrown away", notes="五",
    notes_quote="一个梯度从算出来到被扔掉，中间要过五道。")

# 「每一道都有人在上面做文章 —— 要么省显存，要么省通信，要么省时间」: four of the five stops carry a
# saving; clipping (④) is a stability guard, tagged 「不省：保稳定」. A notes-only key, for the erratum.
EVERY_STOP = chosen(
    "gradlife.stops_worked_on", "几乎每一道", unit="", fmt="{}",
    measures="how many of the stops carry a saving (省显存 / 省通信 / 省时间), as the speaker says it",
    reason="every stop but clipping lists one in STOPS; clipping is drawn 「不省：保稳定」, since the notes treat "
           "it only as a stability guard",
    notes="都有人在上面做文章", notes_quote="每一道都有人在上面做文章 —— 要么省显存，要么省通信，要么省时间。")
