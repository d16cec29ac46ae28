"""fig-underflow: one real-number axis, where fp16 and bf16 stop (第六节).

One panel, one beat per sentence: the question and its answer; the two formats' bit layouts
(fp16 1|5|10 against bf16 1|8|7: fp16 has more mantissa, framed); on one named log axis fp16's
zero line, then bf16's floor 33 decades to its left, then the whole region between them in green
(only bf16 keeps it); 「下不去」 frames fp16's 5 exponent bits; and loss scaling slides the
(illustrative) gradient distribution right along the axis.
"""

from __future__ import annotations

from manim import (DOWN, LEFT, RIGHT, UP, Create, FadeIn, FadeOut, GrowArrow, ReplacementTransform, TransformFromCopy, VGroup,
                   Write)

from lecture_numerics.underflow import AXIS_RANGE, BF16_MIN_SUBNORMAL, FP16_MIN_SUBNORMAL, SKETCH_SHIFT, sketch_histogram
from scenes.kit import marks, theme, widgets
from scenes.kit.annotate import brace_label
from scenes.kit.arrows import arrow
from scenes.kit.bars import histogram
from scenes.kit.base import LectureScene
from scenes.kit.plots import NumberAxis
from scenes.kit.text import line, words

# Geometry (scene units; the frame is 14.2 × 8).
AXIS_LEFT, AXIS_WIDTH, AXIS_Y = -6.4, 9.9, -1.2
HIST_BASE, HIST_HEIGHT = AXIS_Y + 0.08, 1.45
LINE_TOP = AXIS_Y + 2.6            # the two limits stand this high; their values sit on top, under the bits
GREEN_OPACITY = 0.12               # the region only bf16 keeps; light enough that its green words hold 4.5:1
SKETCH_RISE, PUSH_RISE = 0.12, 0.58  # the sketch's name just over its bars; the × S arrow above that
FP16, BF16 = "{underflow.dtype.fp16}", "{underflow.dtype.bf16}"
# The bit layouts: drawn big in the empty frame while 「尾数比 bf16 还多」 is the point, then
# stepped into the top-right corner over the axis' right end (right of fp16's zero line and its
# label), where 「指数位只有 5 位」 finds them again.
BIT_WIDTH, BIT_HEIGHT = 0.34, 0.5
BITS_CENTRE = (0.0, 0.4)
BITS_GAP = 0.35                    # between the fp16 row (with its counts) and the bf16 row
BITS_CORNER_WIDTH = 3.0            # the cells' width once stepped aside
BITS_PER_FORMAT = 16               # both are 16-bit formats (the notes: fp16 也是 16 位)
CORNER_SHRINK = 0.6                # the cells' height once stepped aside
FIELDS = (("符号", "format.sign_bits"), ("指数", "format.{fmt}.exponent_bits"), ("尾数", "format.{fmt}.mantissa_bits"))
EXPONENT, MANTISSA = 1, 2          # field indices
# Colours by meaning. Sign, exponent and mantissa are no concept of the lecture's: the cells are
# ink, told apart by their borders and names. Gradients are the lecture's red (backward), so the
# sketch of their values is red and its lost tail muted (gone), named in muted. fp16's zero line
# and bf16's floor are two limits of the same kind: solid and dashed, each named where it stands.
# The highlight on the mantissas is the accent; the flaw the takeaway names (5 exponent bits) is
# framed 'bad' and stays so; the green region is 'good' (the notes' 绿: bf16 keeps it).
GRADIENTS, LIMIT, HIGHLIGHT, FLAW, OPERATION = "backward", "ink", "accent", "bad", "ink"


class FigUnderflow(LectureScene):
    scene_id = "fig-underflow"
    title = "一根真数轴：fp16 和 bf16 各停在哪"
    ledger_keys = (
        "underflow.dtype.fp16", "underflow.dtype.bf16", "underflow.axis_ticks", "underflow.fp16_min_subnormal",
        "underflow.bf16_min_subnormal", "underflow.gap_orders", "underflow.fp16_below_stored_as",
        "underflow.fp16_below_stored_as_zh", "format.sign_bits", "format.fp16.exponent_bits",
        "format.fp16.mantissa_bits", "format.bf16.exponent_bits", "format.bf16.mantissa_bits",
    )

    def construct(self) -> None:
        self.panel("A", says="『bf16 要不要 loss scaling』—— 不用")
        self.clear()
        self.question()
        self.beat(says="但理由不是『16 位够用』—— fp16 也是 16 位，而且尾数比 bf16 还多")
        self.more_mantissa()
        self.axis_and_lines()
        self.beat(says="所以 fp16 的毛病不是『不够细』，是『下不去』—— 它的指数位只有 5 位",
                  takeaway="毛病不是「不够细」，是「下不去」—— 指数位只有 {format.fp16.exponent_bits} 位")
        # 「指数位只有 5 位」: fp16's exponent field is framed in the flaw's colour and stays so.
        fp16 = self.bits[0]
        flaw = marks.frame_around(fp16.field(EXPONENT), FLAW, pad="hair", weight="bold", corner="square")
        self.play(Create(flaw), fp16.counts[EXPONENT].animate.set_color(theme.text_color(FLAW)), run_time=0.8)
        self.loss_scaling_slides_right()

    def question(self) -> None:
        # Body size: the ⭐⭐ takeaway under it must read clearly larger.
        title = line(f"{BF16} 要不要 loss scaling？", size="body").to_corner(UP + LEFT, buff=theme.space("edge"))
        answer = words("不用", size="body", color="good").next_to(title, RIGHT, buff=theme.space("large"))
        self.play(FadeIn(title), run_time=0.5)
        self.play(Write(answer), run_time=0.5)

    @staticmethod
    def layouts(bit_width: float, height: float, size: str, named: bool, gap: float = BITS_GAP,
                per_bit: bool = True) -> VGroup:
        """fp16 over bf16, sign cells aligned, so 5 against 8 and 10 against 7 read as lengths."""
        rows = VGroup()
        for fmt, name in (("fp16", FP16), ("bf16", BF16)):
            fields = [widgets.Field(field if named else "", key.format(fmt=fmt), "ink") for field, key in FIELDS]
            rows.add(widgets.bit_layout(fields, bit_width=bit_width, height=height, size=size, per_bit=per_bit,
                                        title=line(name, size="label" if size == "small" else "body")))
        rows.arrange(DOWN, buff=gap, aligned_edge=RIGHT)
        return rows

    def more_mantissa(self) -> None:
        """The two layouts, big in the empty frame, their mantissas framed through the beat."""
        self.bits = self.layouts(BIT_WIDTH, BIT_HEIGHT, "label", named=True).move_to([*BITS_CENTRE, 0])
        self.play(FadeIn(self.bits, shift=UP * theme.space("small")), run_time=0.7)
        self.mantissa_frames = VGroup(*(marks.frame_around(row.field(MANTISSA), HIGHLIGHT, pad="hair", weight="bold",
                                                           corner="square") for row in self.bits))
        self.play(Create(self.mantissa_frames), run_time=0.6)

    def step_bits_aside(self) -> None:
        """The layouts step into the top-right corner, smaller (text stays at its size), names
        dropped: the axis takes the frame."""
        # One block per field there: too small to count bits, the three lengths still read.
        aside = self.layouts(BITS_CORNER_WIDTH / BITS_PER_FORMAT, BIT_HEIGHT * CORNER_SHRINK, "small", named=False,
                             gap=theme.space("small"), per_bit=False)
        aside.to_corner(UP + RIGHT, buff=theme.space("edge"))
        self.play(FadeOut(self.mantissa_frames), run_time=0.3)
        moves = [FadeOut(row.names) for row in self.bits]
        for old, new in zip(self.bits, aside):
            moves += [ReplacementTransform(old.cells, new.cells), ReplacementTransform(old.counts, new.counts),
                      ReplacementTransform(old.title, new.title)]
        self.play(*moves, run_time=0.8)
        self.remove(self.bits)
        self.add(aside)
        self.bits = aside

    def axis_and_lines(self) -> None:
        self.beat(says="看这根对数轴：fp16 的归零线在这儿")
        self.step_bits_aside()
        low, high = AXIS_RANGE.value
        self.axis = NumberAxis(low, high, width=AXIS_WIDTH, log=True, ticks_key="underflow.axis_ticks",
                               title="数的大小（对数轴）")
        self.axis.shift([AXIS_LEFT, AXIS_Y, 0] - self.axis.line.get_start())
        self.enlarge_tick_labels()
        self.play(FadeIn(self.axis), run_time=0.5)
        fp16_at, bf16_at = FP16_MIN_SUBNORMAL.value, BF16_MIN_SUBNORMAL.value
        zero_line = self.vertical(fp16_at)
        # The limits' values are what the figure is about: body size, so their exponents read.
        zero_label = line(f"{FP16} 归{{underflow.fp16_below_stored_as_zh}}线 ≈ {{underflow.fp16_min_subnormal}}",
                          size="body", color=LIMIT)
        zero_label.next_to(zero_line, UP, buff=theme.space("tight"))
        self.play(Create(zero_line), run_time=0.5)
        self.play(FadeIn(zero_label), run_time=0.4)

        self.beat(says="bf16 的下界远在左边 33 个数量级之外")
        floor = self.vertical(bf16_at, dashed=True)
        floor_label = line(f"{BF16} 下界 ≈ {{underflow.bf16_min_subnormal}}", size="body", color=LIMIT)
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
        # Named in the grey of the bars it names: those values are gone.
        dropped = line("这截掉到{underflow.fp16_below_stored_as_zh}", size="small", color="muted")
        dropped.next_to(tail, LEFT, buff=theme.space("small")).set_y(HIST_BASE + HIST_HEIGHT * 0.2)
        self.play(FadeIn(before), FadeIn(sketch), run_time=0.6)
        self.play(FadeIn(dropped), run_time=0.6)

        self.beat(says="就是把整条分布在这根轴上往右推")
        after = self.histogram(SKETCH_SHIFT.value, opacity=0.9)
        top = HIST_BASE + HIST_HEIGHT + PUSH_RISE
        start = self.fp16_x + 0.3      # the arrow and its × S label well clear of the zero line
        push = arrow([start, top, 0], [after.get_center()[0] + theme.space("gap"), top, 0], OPERATION, weight="bold",
                     buff=None)
        times = line("× S（loss scale）", size="small", color=OPERATION).next_to(push, UP, buff=theme.space("fine")).align_to(push, LEFT)
        self.play(GrowArrow(push), FadeIn(times), run_time=0.6)
        # The distribution before × S steps back to a grey outline, so the pushed one reads alone.
        ghost = before.animate.set_fill(opacity=0).set_stroke(theme.color("muted"), width=theme.stroke("thin"), opacity=1)
        # Its name goes with it, beside the pushed distribution (clear of fp16's zero line).
        named = sketch.copy().next_to(after, RIGHT, buff=theme.space("small")).set_y(HIST_BASE + HIST_HEIGHT * 0.6)
        # The ghost is the distribution before the push: its 「这截掉到零」 is no longer true, so it says so.
        earlier = words("推之前", size="small", color="muted").move_to(dropped).align_to(dropped, RIGHT)
        self.play(TransformFromCopy(before, after), ghost, sketch.animate.move_to(named),
                  FadeOut(dropped), FadeIn(earlier), run_time=0.9)

    # ---- drawing helpers ----

    def enlarge_tick_labels(self) -> None:
        """The axis' tick labels at body size: their exponents (10⁻⁴⁰ …) are the point, and at the
        axes' small size the raised digits fall under the 14 px floor."""
        for i, tick in enumerate(self.axis.ticks):
            mark, small = tick.submobjects
            big = line(f"{{underflow.axis_ticks[{i}]}}", size="body", color="muted")
            big.move_to(small, aligned_edge=UP)
            tick.remove(small)
            tick.add(big)

    def vertical(self, value: float, *, dashed: bool = False):
        at = self.axis.point(value)
        return marks.segment(at, [at[0], LINE_TOP, 0], LIMIT, weight="heavy", dashed=dashed)

    def region(self, low: float, high: float, color: str):
        """The whole area between two values, from the axis up to the limits' tops."""
        a, b = self.axis.point(low)[0], self.axis.point(high)[0]
        return marks.shade([a, AXIS_Y, 0], [b, LINE_TOP, 0], color, opacity=GREEN_OPACITY)

    def histogram(self, shift: float, opacity: float) -> VGroup:
        edges, heights = sketch_histogram(shift)
        xs = [self.axis.point(10.0 ** e)[0] for e in edges]
        # Bins below fp16's smallest subnormal are the tail that flushes to zero: drawn muted.
        colors = ["muted" if 10.0 ** hi <= FP16_MIN_SUBNORMAL.value else GRADIENTS for hi in edges[1:]]
        return histogram(xs, heights, base=HIST_BASE, unit=HIST_HEIGHT, colors=colors, opacity=opacity)
