"""fig-spike: what a loss spike looks like, and the clause that hurts (第六节).

Ⓐ Two curves, no numbers (示意): PaLM 540B's falling loss with its ~20 spikes, and a smaller model's without.
Ⓑ The clause in brackets: gradient clipping was on — and the paper says it does not know why.
"""

from __future__ import annotations

import numpy as np
from manim import (DOWN, LEFT, RIGHT, UP, FadeIn, Flash, Indicate, Line, VGroup,
                   VMobject, Write)

from lecture_numerics.spike import palm_sketch
from scenes.kit import theme
from scenes.kit.arrows import arrow
from scenes.kit.annotate import boxed
from scenes.kit.base import LectureScene
from scenes.kit.panels import caption
from scenes.kit.text import ledger_text, line, words

# Geometry (scene units; the frame is 14.2 × 8).
STRIP_LEFT, STRIP_RIGHT = -5.6, 6.6
TOP_STRIP = (0.8, 2.35)        # bottom, top of the red strip in Ⓐ
LOW_STRIP = (-1.95, -0.55)      # the green strip
TICK_HEIGHT = 0.16


TREND_DROP, TREND_OPACITY = 0.3, 0.6   # the trend arrow, just under the sketched curve
AXIS_DROP = 0.08               # the strip's axes sit just under its lowest point
TICK_DROP = 0.1
TREND_FROM, TREND_TO = 0.03, 0.24   # shares of the run the trend arrow spans
SPOT_DROP, STAMP_DROP = 0.55, 0.5
B_STRIP, B_LEFT, B_RIGHT = (1.3, 2.4), -5.0, 5.0
QUOTE_Y, FUSE_Y, ADMITS_Y, VERDICT_Y = 0.6, -0.45, -1.5, -2.6
FLASH_SIZE = 0.12
SPIKY = "bad"                  # the notes' 红: the run that spikes


class FigSpike(LectureScene):
    scene_id = "fig-spike"
    title = "loss 尖峰长什么样，以及括号里那半句"
    ledger_keys = ("spike.palm_params", "spike.count")

    def construct(self) -> None:
        self.sketch = palm_sketch()
        self.start_panel("A", "loss 飞了：长什么样（示意）")
        self.two_curves()
        self.start_panel("B", "梯度裁剪是开着的")
        self.the_clause()

    # ---- drawing ----

    def strip(self, values: np.ndarray, bottom: float, top: float, color: str, name: str, left: float = STRIP_LEFT,
              right: float = STRIP_RIGHT) -> VGroup:
        """A curve scaled into [bottom, top] with only a 'loss' y axis and no ticks."""
        lo, hi = float(self.sketch.loss.min()), float(self.sketch.loss.max())
        xs = left + self.sketch.t * (right - left)
        ys = bottom + (values - lo) / (hi - lo) * (top - bottom)
        curve = VMobject(stroke_width=3, stroke_color=theme.color(color))
        curve.set_points_as_corners(np.column_stack([xs, ys, np.zeros_like(xs)]))
        muted = theme.color("muted")
        axes = VGroup(Line([left, bottom - AXIS_DROP, 0], [right, bottom - AXIS_DROP, 0], stroke_width=2, color=muted),
                      Line([left, bottom - AXIS_DROP, 0], [left, top, 0], stroke_width=2, color=muted))
        y_name = words("loss", size="small", color="muted").next_to([left, (bottom + top) / 2, 0], LEFT, buff=theme.space("small"))
        label = line(name, size="label", color=color).next_to([left, top, 0], UP, buff=theme.space("tight"), aligned_edge=LEFT)
        group = VGroup(axes, curve, y_name, label)
        group.x_of = lambda t: left + t * (right - left)
        group.y_of = lambda v: bottom + (v - lo) / (hi - lo) * (top - bottom)
        group.base = bottom
        return group

    def spike_ticks(self, strip: VGroup) -> VGroup:
        return VGroup(*[Line([strip.x_of(t), strip.base - TICK_DROP, 0], [strip.x_of(t), strip.base - TICK_DROP - TICK_HEIGHT, 0],
                             stroke_width=3, color=theme.color(SPIKY)) for t in self.sketch.spike_times])

    # ---- Ⓐ ----

    def two_curves(self) -> None:
        red = self.strip(self.sketch.loss, *TOP_STRIP, SPIKY, "PaLM {spike.palm_params}（示意）")
        green = self.strip(self.sketch.trend, *LOW_STRIP, "good", "同样的配方，小一点的模型（示意）")
        steps = words("训练步数 →", size="small", color="muted").next_to([STRIP_RIGHT, LOW_STRIP[0] - TICK_DROP, 0], DOWN,
                                                                      buff=theme.space("fine"), aligned_edge=RIGHT)
        self.play(FadeIn(red), FadeIn(green), FadeIn(steps), run_time=1.2)
        self.wait(1.0)                                      # 停三秒不说话: nothing competes with the silence

        # A soft arrow just under the trend, from early in the run to a third of the way.
        early, later = (int(f * (len(self.sketch.t) - 1)) for f in (TREND_FROM, TREND_TO))
        trend = arrow(*[[red.x_of(self.sketch.t[i]), red.y_of(self.sketch.trend[i]) - TREND_DROP, 0] for i in (early, later)],
                      "good", weight="bold", buff=None, opacity=TREND_OPACITY)
        self.play(FadeIn(trend), run_time=0.5)
        ticks = self.spike_ticks(red)
        count = ledger_text("约 {spike.count} 次", size="label", color=SPIKY).next_to(red[3], RIGHT, buff=theme.space("wide"))
        self.play(FadeIn(ticks, lag_ratio=0.1), FadeIn(count), run_time=1.0)
        none = words("一个尖都没有", size="label", color="good").next_to(green[3], RIGHT, buff=theme.space("wide"))
        self.play(Indicate(green[1], color=theme.color("good")), FadeIn(none), run_time=0.6)

        # Reminder one: no pattern in when they come.
        times = self.sketch.spike_times
        gaps = np.diff(times)
        spots = (("挤在一起的", times[1]), ("隔很久的", (times[int(np.argmax(gaps))] + times[int(np.argmax(gaps)) + 1]) / 2),
                 ("训到很晚还来的", times[-1]))
        marks = VGroup(*[words(text, size="small", color=SPIKY).move_to(
            [red.x_of(t), TOP_STRIP[0] - SPOT_DROP, 0]) for text, t in spots])
        marks[-1].align_to([STRIP_RIGHT, 0, 0], RIGHT)
        self.play(FadeIn(marks, lag_ratio=0.3), run_time=0.9)
        self.play(FadeIn(caption("别以为开头挺过去就没事了")), run_time=0.5)
        # Reminder two: the y axis has no ticks on purpose.
        stamp = words("纵轴没有刻度：论文只描述、没给数 —— 没有刻度的曲线是示意", size="small", color="muted")
        stamp.next_to([STRIP_LEFT, LOW_STRIP[0] - STAMP_DROP, 0], DOWN, buff=0, aligned_edge=LEFT)
        self.play(FadeIn(stamp), run_time=0.5)
        self.wait(1.5)

    # ---- Ⓑ ----

    def the_clause(self) -> None:
        red = self.strip(self.sketch.loss, *B_STRIP, SPIKY, "PaLM {spike.palm_params}（示意）", left=B_LEFT, right=B_RIGHT)
        ticks = self.spike_ticks(red)
        self.play(FadeIn(red), FadeIn(ticks), run_time=0.6)
        said = ledger_text("最大的模型在训练中出现了大约 {spike.count} 次 loss 尖峰", size="body")
        clause = words("（尽管梯度裁剪是开着的）", size="body", color="warm")
        quote = VGroup(said, clause).arrange(RIGHT, buff=theme.space("tight")).move_to([0, QUOTE_Y, 0])
        self.play(FadeIn(said), FadeIn(clause), run_time=0.6)
        self.play(Indicate(clause, color=theme.color("warm")), run_time=0.7)

        fuse_text = words("梯度裁剪 = 保险：这一步最多迈多大   ✓ 开着", size="label")
        fuse = boxed(fuse_text, "good", weight="thin").move_to([0, FUSE_Y, 0])
        self.play(FadeIn(fuse), run_time=0.5)
        self.play(*[Flash(t.get_bottom(), color=theme.color(SPIKY), line_length=FLASH_SIZE, flash_radius=FLASH_SIZE)
                    for t in ticks], run_time=0.6)

        admits = words("「由于训练成本太高，没能找到有原则的缓解办法」—— PaLM 论文", size="label")
        admits.move_to([0, ADMITS_Y, 0])
        verdict = words("不知道", size="title", color=SPIKY).move_to([0, VERDICT_Y, 0])
        self.play(FadeIn(admits), run_time=0.5)
        self.play(Write(verdict), run_time=0.6)
        self.wait(2.0)
