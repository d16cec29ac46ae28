"""fig-underflow: one real-number axis, where fp16 and bf16 stop (第六节).

One panel, one beat per sentence: the question and its answer; the bit widths (fp16 has more
mantissa); on one named log axis fp16's zero line, then bf16's floor 33 decades to its left, then
the whole region between them in green (only bf16 keeps it); the takeaway 「下不去」; and loss
scaling as sliding the (illustrative) gradient distribution right along the axis.
"""

from __future__ import annotations

from manim import (DOWN, LEFT, RIGHT, UP, Create, FadeIn, GrowArrow, Indicate, Line, Rectangle, TransformFromCopy, VGroup,
                   Write)

from lecture_numerics.underflow import AXIS_RANGE, BF16_MIN_SUBNORMAL, FP16_MIN_SUBNORMAL, SKETCH_SHIFT, sketch_histogram
from scenes.kit import theme
from scenes.kit.annotate import brace_label
from scenes.kit.arrows import arrow
from scenes.kit.bars import histogram
from scenes.kit.base import LectureScene
from scenes.kit.plots import NumberAxis
from scenes.kit.text import line, words

# Geometry (scene units; the frame is 14.2 × 8).
AXIS_LEFT, AXIS_WIDTH, AXIS_Y = -6.4, 9.9, -1.2
HIST_BASE, HIST_HEIGHT = AXIS_Y + 0.08, 1.6
LINE_TOP = AXIS_Y + 3.2            # the two limits stand this high; their values sit on top
GREEN_OPACITY = 0.12               # the region only bf16 keeps; light enough that its green words hold 4.5:1
GHOST_STROKE = 2                   # the distribution before × S, an outline once the pushed one stands beside it
SKETCH_RISE, PUSH_RISE = 0.12, 0.62   # the sketch's name just over its bars; the × S arrow above that
FP16, BF16 = "{underflow.dtype.fp16}", "{underflow.dtype.bf16}"
# Colours by meaning: gradients are the lecture's red (backward), so the sketch of their values
# is red; fp16's zero line is a plain black limit beside bf16's blue one; the flaw the takeaway
# names (5 exponent bits) turns 'bad' and stays so; × S is an operation, in ink.
GRADIENTS, ZERO_LINE, FLOOR, FLAW, OPERATION = "backward", "ink", "accent", "bad", "ink"


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
        self.panel("A", says="『bf16 要不要 loss scaling』—— 不用")
        self.clear()
        self.question()
        self.beat(says="但理由不是『16 位够用』—— fp16 也是 16 位，而且尾数比 bf16 还多")
        self.play(FadeIn(self.bits, shift=LEFT * 0.2), run_time=0.6)
        self.play(Indicate(VGroup(self.bits[0][1], self.bits[1][1]), color=theme.color("accent")), run_time=0.6)
        self.axis_and_lines()
        self.beat(says="所以 fp16 的毛病不是『不够细』，是『下不去』—— 它的指数位只有 5 位",
                  takeaway="毛病不是「不够细」，是「下不去」—— 指数位只有 {format.fp16.exponent_bits} 位")
        # 「指数位只有 5 位」: the strip's fp16 exponent turns 'bad' once, in place, and stays so
        # (a pulse would grow into 尾数 beside it and flicker back).
        self.play(self.bits[0][0].animate.set_color(theme.text_color(FLAW)), run_time=0.8)
        self.loss_scaling_slides_right()

    def question(self) -> None:
        title = line(f"{BF16} 要不要 loss scaling？", size="heading").to_corner(UP + LEFT, buff=theme.space("edge"))
        answer = words("不用", size="heading", color="good").next_to(title, RIGHT, buff=theme.space("large"))
        # Each format's row: [exponent, mantissa], so a beat can point at one column.
        self.bits = VGroup(*(VGroup(line(f"{dtype}：指数 {{format.{key}.exponent_bits}} 位", size="small"),
                                    line(f"尾数 {{format.{key}.mantissa_bits}} 位", size="small"))
                             .arrange(RIGHT, buff=theme.space("medium")) for dtype, key in ((FP16, "fp16"), (BF16, "bf16"))))
        self.bits.arrange(DOWN, aligned_edge=LEFT, buff=theme.space("snug")).to_corner(UP + RIGHT, buff=theme.space("edge"))
        self.play(FadeIn(title), run_time=0.5)
        self.play(Write(answer), run_time=0.5)

    def axis_and_lines(self) -> None:
        self.beat(says="看这根对数轴：fp16 的归零线在这儿")
        low, high = AXIS_RANGE.value
        self.axis = NumberAxis(low, high, width=AXIS_WIDTH, log=True, ticks_key="underflow.axis_ticks",
                               title="数的大小（对数轴）")
        self.axis.shift([AXIS_LEFT, AXIS_Y, 0] - self.axis.line.get_start())
        self.play(FadeIn(self.axis), run_time=0.5)
        fp16_at, bf16_at = FP16_MIN_SUBNORMAL.value, BF16_MIN_SUBNORMAL.value
        zero_line = self.vertical(fp16_at, ZERO_LINE)
        # The limits' values are what the figure is about: body size, so their exponents read.
        zero_label = line(f"{FP16} 归{{underflow.fp16_below_stored_as_zh}}线 ≈ {{underflow.fp16_min_subnormal}}",
                          size="body", color=ZERO_LINE)
        zero_label.next_to(zero_line, UP, buff=theme.space("tight"))
        self.play(Create(zero_line), run_time=0.5)
        self.play(FadeIn(zero_label), run_time=0.4)

        self.beat(says="bf16 的下界远在左边 33 个数量级之外")
        floor = self.vertical(bf16_at, FLOOR)
        floor_label = line(f"{BF16} 下界 ≈ {{underflow.bf16_min_subnormal}}", size="body", color=FLOOR)
        floor_label.next_to(floor, UP, buff=theme.space("tight")).align_to(floor, LEFT).shift(LEFT * theme.space("gap"))
        gap = brace_label((self.axis.point(bf16_at) + DOWN * 0.55, self.axis.point(fp16_at) + DOWN * 0.55),
                          "≈ {underflow.gap_orders} 个数量级", DOWN)
        self.play(Create(floor), run_time=0.5)
        self.play(FadeIn(floor_label), FadeIn(gap), run_time=0.6)

        self.beat(says="中间那一大片绿，全是 bf16 存得下、fp16 存不下的")
        self.fp16_x = self.axis.point(fp16_at)[0]
        green = self.region(bf16_at, fp16_at, "good")
        green_label = VGroup(line(f"{BF16} 存得下", size="label", color="good"),
                             line(f"{FP16} 存不下：存成 {{underflow.fp16_below_stored_as}}", size="label", color="good"))
        green_label.arrange(DOWN, buff=theme.space("tight")).move_to(green).set_y(LINE_TOP - 0.75)
        self.add_foreground_mobjects(zero_line, floor)
        self.play(FadeIn(green), run_time=0.7)
        self.play(FadeIn(green_label), run_time=0.4)

    def loss_scaling_slides_right(self) -> None:
        self.beat(says="而 loss scaling 做的事")
        before = self.histogram(0.0, opacity=0.45)
        sketch = words("梯度的分布（示意）", size="small", color=GRADIENTS)
        sketch.next_to(before, UP, buff=SKETCH_RISE).align_to([self.fp16_x + theme.space("small"), 0, 0], LEFT)
        tail = VGroup(*(b for b in before if b.get_right()[0] <= self.fp16_x + 1e-6))
        dropped = line("这截掉到{underflow.fp16_below_stored_as_zh}", size="small", color="backward")
        dropped.next_to(tail, LEFT, buff=theme.space("small")).set_y(HIST_BASE + HIST_HEIGHT * 0.2)
        self.play(FadeIn(before), FadeIn(sketch), run_time=0.6)
        self.play(FadeIn(dropped), Indicate(tail, color=theme.color("backward"), scale_factor=1.0), run_time=0.6)

        self.beat(says="就是把整条分布在这根轴上往右推")
        after = self.histogram(SKETCH_SHIFT.value, opacity=0.9)
        top = HIST_BASE + HIST_HEIGHT + PUSH_RISE
        start = self.fp16_x + 0.12     # clear of the zero line
        push = arrow([start, top, 0], [after.get_center()[0] + theme.space("gap"), top, 0], OPERATION, weight="bold",
                     buff=None)
        times = line("× S（loss scale）", size="small", color=OPERATION).next_to(push, UP, buff=theme.space("fine")).align_to(push, LEFT)
        self.play(GrowArrow(push), FadeIn(times), run_time=0.6)
        # The distribution before × S steps back to a grey outline, so the pushed one reads alone.
        ghost = before.animate.set_fill(opacity=0).set_stroke(theme.color("muted"), width=GHOST_STROKE, opacity=1)
        self.play(TransformFromCopy(before, after), ghost, run_time=0.9)

    # ---- drawing helpers ----

    def vertical(self, value: float, color: str) -> Line:
        at = self.axis.point(value)
        return Line(at, [at[0], LINE_TOP, 0], stroke_width=5, color=theme.color(color))

    def region(self, low: float, high: float, color: str) -> Rectangle:
        """The whole area between two values, from the axis up to the limits' tops."""
        a, b = self.axis.point(low)[0], self.axis.point(high)[0]
        return Rectangle(width=b - a, height=LINE_TOP - AXIS_Y, stroke_width=0, fill_color=theme.color(color),
                         fill_opacity=GREEN_OPACITY).move_to([(a + b) / 2, (AXIS_Y + LINE_TOP) / 2, 0])

    def histogram(self, shift: float, opacity: float) -> VGroup:
        edges, heights = sketch_histogram(shift)
        xs = [self.axis.point(10.0 ** e)[0] for e in edges]
        # Bins below fp16's smallest subnormal are the tail that flushes to zero: drawn muted.
        colors = ["muted" if 10.0 ** hi <= FP16_MIN_SUBNORMAL.value else GRADIENTS for hi in edges[1:]]
        return histogram(xs, heights, base=HIST_BASE, unit=HIST_HEIGHT, colors=colors, opacity=opacity)
