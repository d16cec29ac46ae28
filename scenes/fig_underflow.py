"""fig-underflow: one real-number axis, where fp16 and bf16 stop (第六节).

One panel: fp16's zero line, bf16's floor 33 decades to its left, the band only bf16 can store,
and loss scaling as sliding the (illustrative) gradient distribution right along the axis.
"""

from __future__ import annotations

from manim import DOWN, LEFT, RIGHT, UP, FadeIn, Indicate, Line, Rectangle, VGroup, Write

from lecture_numerics.underflow import AXIS_RANGE, BF16_MIN_SUBNORMAL, FP16_MIN_SUBNORMAL, SKETCH_SHIFT, sketch_histogram
from scenes.kit import theme
from scenes.kit.annotate import brace_label
from scenes.kit.arrows import arrow
from scenes.kit.bars import histogram
from scenes.kit.base import LectureScene
from scenes.kit.panels import caption
from scenes.kit.plots import NumberAxis
from scenes.kit.text import line, words

# Geometry (scene units; the frame is 14.2 × 8).
AXIS_LEFT, AXIS_WIDTH, AXIS_Y = -6.4, 12.4, -1.2
HIST_BASE, HIST_HEIGHT = AXIS_Y + 0.45, 1.3
LINE_TOP = AXIS_Y + 3.3
FP16, BF16 = "{underflow.dtype.fp16}", "{underflow.dtype.bf16}"


class FigUnderflow(LectureScene):
    scene_id = "fig-underflow"
    title = "一根真数轴：fp16 和 bf16 各停在哪"
    ledger_keys = (
        "underflow.dtype.fp16", "underflow.dtype.bf16", "underflow.axis_ticks", "underflow.fp16_min_subnormal",
        "underflow.bf16_min_subnormal", "underflow.gap_orders", "underflow.fp16_below_stored_as",
        "underflow.fp16_below_stored_as_zh", "format.fp16.exponent_bits",
        "format.fp16.mantissa_bits", "format.bf16.exponent_bits", "format.bf16.mantissa_bits",
    )

    def construct(self) -> None:
        self.panel("A")
        self.clear()
        self.question()
        self.axis_and_lines()
        self.loss_scaling_slides_right()
        self.wait(1.5)

    def question(self) -> None:
        title = line(f"{BF16} 要不要 loss scaling？", size="heading").to_corner(UP + LEFT, buff=theme.space("edge"))
        answer = words("不用", size="heading", color="good").next_to(title, RIGHT, buff=theme.space("large"))
        self.bits = VGroup(
            line(f"{FP16}：指数 {{format.fp16.exponent_bits}} 位 · 尾数 {{format.fp16.mantissa_bits}} 位", size="small"),
            line(f"{BF16}：指数 {{format.bf16.exponent_bits}} 位 · 尾数 {{format.bf16.mantissa_bits}} 位", size="small"),
        ).arrange(DOWN, aligned_edge=LEFT, buff=theme.space("snug")).to_corner(UP + RIGHT, buff=theme.space("edge"))
        self.play(FadeIn(title), run_time=0.5)
        self.play(Write(answer), FadeIn(self.bits), run_time=0.6)

    def axis_and_lines(self) -> None:
        low, high = AXIS_RANGE.value
        self.axis = NumberAxis(low, high, width=AXIS_WIDTH, log=True, ticks_key="underflow.axis_ticks")
        self.axis.shift([AXIS_LEFT, AXIS_Y, 0] - self.axis.line.get_start())
        self.play(FadeIn(self.axis), run_time=0.5)
        fp16_at, bf16_at = FP16_MIN_SUBNORMAL.value, BF16_MIN_SUBNORMAL.value

        zero_line = self.vertical(fp16_at, "backward")
        zero_label = line(f"{FP16} 归{{underflow.fp16_below_stored_as_zh}}线 ≈ {{underflow.fp16_min_subnormal}}", size="small", color="backward")
        zero_label.next_to(zero_line, UP, buff=theme.space("tight"))
        grey = self.band(low, fp16_at, "muted", AXIS_Y + 2.8, 0.35)
        grey_label = line(f"{FP16} 存成 {{underflow.fp16_below_stored_as}}", size="small", color="muted").move_to(grey)
        self.play(FadeIn(zero_line), FadeIn(zero_label), FadeIn(grey), FadeIn(grey_label), run_time=0.7)

        floor = self.vertical(bf16_at, "accent")
        floor_label = line(f"{BF16} 下界 ≈ {{underflow.bf16_min_subnormal}}", size="small", color="accent")
        floor_label.next_to(floor, UP, buff=theme.space("tight")).align_to(floor, LEFT).shift(LEFT * theme.space("gap"))
        gap = brace_label((self.axis.point(bf16_at) + DOWN * 0.55, self.axis.point(fp16_at) + DOWN * 0.55),
                          "≈ {underflow.gap_orders} 个数量级", DOWN)
        self.play(FadeIn(floor), FadeIn(floor_label), FadeIn(gap), run_time=0.7)

        green = self.band(bf16_at, fp16_at, "good", AXIS_Y + 1.1, 0.45)
        green_label = line(f"{BF16} 存得下、{FP16} 存不下", size="label", color="good").move_to(green).shift(LEFT * 1.2)
        self.play(FadeIn(green), FadeIn(green_label), run_time=0.6)
        self.say = caption("毛病不是「不够细」，是「下不去」—— 指数位只有 {format.fp16.exponent_bits} 位")
        self.play(FadeIn(self.say), Indicate(self.bits[0], color=theme.color("backward")), run_time=0.8)

    def loss_scaling_slides_right(self) -> None:
        before = self.histogram(0.0, opacity=0.35)
        sketch = words("梯度的分布（示意）", size="small", color="warm").next_to(before, LEFT, buff=theme.space("tight")).align_to(
            before, UP)
        tail = [b for b in before if b.get_right()[0] <= self.axis.point(FP16_MIN_SUBNORMAL.value)[0] + 1e-6]
        dropped = line("掉到{underflow.fp16_below_stored_as_zh}", size="small", color="backward").move_to(
            [VGroup(*tail).get_center()[0], (AXIS_Y + HIST_BASE) / 2, 0])
        self.play(FadeIn(before), FadeIn(sketch), FadeIn(dropped), run_time=0.6)
        after = self.histogram(SKETCH_SHIFT.value, opacity=0.9)
        top = HIST_BASE + HIST_HEIGHT + 0.25
        start = self.axis.point(FP16_MIN_SUBNORMAL.value)[0] + 0.12     # clear of the zero line
        push = arrow([start, top, 0], [after.get_center()[0] + theme.space("gap"), top, 0], "warm", weight="bold", buff=None)
        times = line("× S（loss scale）", size="small", color="warm").next_to(push, UP, buff=theme.space("fine")).align_to(push, LEFT)
        self.play(FadeIn(after, shift=RIGHT), FadeIn(push), FadeIn(times), run_time=0.9)

    # ---- drawing helpers ----

    def vertical(self, value: float, color: str) -> Line:
        at = self.axis.point(value)
        return Line(at, [at[0], LINE_TOP, 0], stroke_width=5, color=theme.color(color))

    def band(self, low: float, high: float, color: str, y: float, height: float) -> Rectangle:
        a, b = self.axis.point(low)[0], self.axis.point(high)[0]
        return Rectangle(width=b - a, height=height, stroke_width=0, fill_color=theme.color(color),
                         fill_opacity=0.18).move_to([(a + b) / 2, y, 0])

    def histogram(self, shift: float, opacity: float) -> VGroup:
        edges, heights = sketch_histogram(shift)
        xs = [self.axis.point(10.0 ** e)[0] for e in edges]
        # Bins below fp16's smallest subnormal are the tail that flushes to zero: drawn muted.
        colors = ["muted" if 10.0 ** hi <= FP16_MIN_SUBNORMAL.value else "warm" for hi in edges[1:]]
        return histogram(xs, heights, base=HIST_BASE, unit=HIST_HEIGHT, colors=colors, opacity=opacity)
