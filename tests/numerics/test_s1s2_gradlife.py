"""fig-gradlife: the stops, counted from the notes' own sentence."""

from __future__ import annotations

from lecture_numerics import quantity
from lecture_numerics.gradlife import STOPS


def test_five_stops_from_the_notes():
    spoken = "跨卡汇总、裁剪、也许还要累积几次，然后才交给优化器，用完扔掉"
    named_in_sentence = [s.name for s in STOPS if s.name in spoken]
    assert len(named_in_sentence) + 1 == len(STOPS)        # + 算出来, the start of the story
    assert STOPS[0].name == "反向算出"
    assert quantity("gradlife.stops").value == 5 and quantity("gradlife.stops").display == "五"


def test_accumulation_before_the_reduction_and_clipping_after():
    order = [s.name for s in STOPS]
    assert order.index("累积") < order.index("跨卡汇总") < order.index("裁剪") < order.index("交给优化器")


def test_every_saving_is_one_the_notes_name():
    # 「每一道都有人在上面做文章 —— 要么省显存，要么省通信，要么省时间」. Clipping is only ever a
    # stability guard in the notes (「裁剪管的是「这一步最多迈多大」」), so it claims no saving.
    kinds = {"memory", "communication", "time"}
    assert all(set(stop.saves) <= kinds for stop in STOPS)
    assert {kind for stop in STOPS for kind in stop.saves} == kinds
    assert [s.name for s in STOPS if not s.saves] == ["裁剪"]
