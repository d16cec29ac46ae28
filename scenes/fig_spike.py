"""fig-spike: what a loss spike looks like, and the clause that hurts (第六节).

Ⓐ Two curves, no numbers (示意), held alone through the notes' three silent seconds; then, one
   beat per sentence, PaLM 540B's falling loss, its ~20 spikes, the smaller model's none, and
   where the spikes fall — a cluster, one alone after a long gap, one late — each phrase pointing
   at its spikes.
Ⓑ The clause in brackets: gradient clipping was on — and the paper says it does not know why
   (the question put to the room on its own beat, the answer on the next).
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, Create, FadeIn, GrowArrow, Indicate, Line, VGroup, VMobject, Write

from lecture_numerics.spike import largest_cluster, lone_spike, palm_sketch
from scenes.kit import theme
from scenes.kit.arrows import arrow
from scenes.kit.annotate import boxed
from scenes.kit.base import LectureScene
from scenes.kit.text import ledger_text, line, words

# Geometry (scene units; the frame is 14.2 × 8).
STRIP_LEFT, STRIP_RIGHT = -5.6, 6.6
TOP_STRIP = (1.4, 2.55)        # bottom, top of the red strip in Ⓐ
LOW_STRIP = (-1.3, -0.4)       # the green strip: high enough that the no-ticks note clears the takeaways
SILENCE_S = 3.0                 # 停三秒不说话: the curves alone, before a word or a mark
TICK_HEIGHT = 0.16


TREND_DROP, TREND_OPACITY = 0.2, 0.6  # the trend arrow follows the curve this far under it (spikes rise
                                      # above the curve, so it crosses none)
TREND_FROM, TREND_TO = 0.02, 0.16     # shares of the run it spans: the steep early descent
TREND_HEAD = 0.25                     # the last stretch, drawn as the arrow's head segment
AXIS_DROP = 0.08               # the strip's axes sit just under its lowest point
TICK_DROP = 0.1
POINTER_GAP, POINTER_LEN = 0.04, 0.32   # the phrase's pointer up to the spike it names
B_STRIP, B_LEFT, B_RIGHT = (1.3, 2.4), -5.0, 5.0
QUOTE_Y, FUSE_Y, STILL_Y, NOT_SIMPLE_Y, WHY_Y, ADMITS_Y = 0.55, -0.3, -1.0, -1.6, -2.35, -3.15
TICK_PULSE = 1.8                # how much longer a tick grows when 「还是飞了二十次」 points at them
SPIKY = "bad"                  # the notes' 红: the run that spikes


class FigSpike(LectureScene):
    scene_id = "fig-spike"
    title = "loss 尖峰长什么样，以及括号里那半句"
    ledger_keys = ("spike.palm_params", "spike.count")

    def construct(self) -> None:
        self.sketch = palm_sketch()
        self.two_curves()
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
        # The cue's 「先只放 Ⓐ，停三秒不说话」 is a stage direction, not a line to quote: the first beat is silent.
        self.start_panel("A", "loss 飞了：长什么样（示意）")
        red = self.strip(self.sketch.loss, *TOP_STRIP, SPIKY, "PaLM {spike.palm_params}（示意）")
        green = self.strip(self.sketch.trend, *LOW_STRIP, "good", "同样的配方，小一点的模型（示意）")
        steps = words("训练步数 →", size="small", color="muted").next_to([STRIP_RIGHT, LOW_STRIP[0] - TICK_DROP, 0], DOWN,
                                                                      buff=theme.space("fine"), aligned_edge=RIGHT)
        # The curves alone, held through the silence: names, arrow, ticks come with the words.
        self.play(FadeIn(red[:3]), FadeIn(green[:3]), FadeIn(steps), run_time=1.2)
        self.wait(SILENCE_S)

        self.beat(says="上面这条红的，是 PaLM 训 540B 的时候，loss 大概长的样子")
        self.play(FadeIn(red[3], shift=UP * 0.1), Indicate(red[1], color=theme.color(SPIKY), scale_factor=1.0),
                  run_time=0.8)

        self.beat(says="一路往下走，那是它在变好")
        # A soft arrow that follows the trend just under it (a straight one would cut across the
        # convex curve and its spikes); neutral ink, since green here names the smaller model.
        self.play(*self.trend_arrow(red), run_time=0.6)

        self.beat(says="可你看这些往上扎的尖 —— 大约二十次")
        ticks = self.spike_ticks(red)
        count = ledger_text("约 {spike.count} 次", size="label", color=SPIKY).next_to(red[3], RIGHT, buff=theme.space("wide"))
        self.play(FadeIn(ticks, lag_ratio=0.1), run_time=1.0)
        self.play(FadeIn(count), run_time=0.4)

        self.beat(says="再看下面这条绿的：同一套配方，换个小一点的模型，一个尖都没有")
        none = words("一个尖都没有", size="label", color="good").next_to(green[3], RIGHT, buff=theme.space("wide"))
        self.play(FadeIn(green[3], shift=UP * 0.1), run_time=0.5)
        self.play(Indicate(green[1], color=theme.color("good"), scale_factor=1.0), FadeIn(none), run_time=0.6)

        # Reminder one: no pattern in when they come — each phrase points at its spike(s).
        times = self.sketch.spike_times
        cluster, lone, late = largest_cluster(times), lone_spike(times), float(times[-1])
        self.beat(says="第一，这些尖出现的时刻完全没有规律 —— 挤在一起的有")
        self.point_at(red, "挤在一起的", float(cluster.mean()), bracket=(float(cluster[0]), float(cluster[-1])))
        self.beat(says="隔很久才来一个的也有")
        self.point_at(red, "隔很久才来一个的", lone, ends_at_pointer=True)
        self.beat(says="训到很晚了还会来")
        self.point_at(red, "训到很晚还来", late, align_right=True)
        self.beat(says="所以不要以为「开头挺过去就没事了」", takeaway="别以为「开头挺过去就没事了」")

        # Reminder two: the y axis has no ticks on purpose.
        self.beat(says="第二，纵轴上我一个刻度都没画，这是故意的")
        stamp = words("纵轴没有刻度 —— 故意的：论文只描述了尖长什么样，没给数", size="small", color="muted")
        # On the row of 「训练步数 →」, from the y axes it talks about.
        stamp.move_to(steps, aligned_edge=UP).align_to([STRIP_LEFT, 0, 0], LEFT)
        self.play(FadeIn(stamp), Indicate(VGroup(red[0][1], green[0][1]), color=theme.color("accent")), run_time=0.7)
        self.beat(says="没有刻度的曲线是示意，有刻度的才是数据", takeaway="没有刻度的曲线是示意，有刻度的才是数据")

    def trend_arrow(self, strip: VGroup) -> tuple:
        """The path under the early descent and its head: (Create, GrowArrow) to play together."""
        t = self.sketch.t
        span = (t >= TREND_FROM) & (t <= TREND_TO)
        points = np.column_stack([strip.x_of(t[span]), strip.y_of(self.sketch.trend[span]) - TREND_DROP,
                                  np.zeros(int(span.sum()))])
        head_from = int(np.searchsorted(points[:, 0], points[-1, 0] - TREND_HEAD))
        body = VMobject(stroke_width=theme.stroke("bold"), stroke_color=theme.color("muted"),
                        stroke_opacity=TREND_OPACITY)
        body.set_points_smoothly(points[:head_from + 1])
        head = arrow(points[head_from], points[-1], "muted", weight="bold", buff=None, opacity=TREND_OPACITY)
        return Create(body), GrowArrow(head)

    def point_at(self, strip: VGroup, text: str, t: float, *, bracket: tuple[float, float] | None = None,
                 align_right: bool = False, ends_at_pointer: bool = False) -> None:
        """A phrase under the red strip's ticks, with a short pointer up to the spike(s) it means."""
        top = strip.base - TICK_DROP - TICK_HEIGHT - POINTER_GAP
        label = words(text, size="small", color=SPIKY).move_to([strip.x_of(t), top - POINTER_LEN, 0], aligned_edge=UP)
        if align_right:
            label.align_to([STRIP_RIGHT, 0, 0], RIGHT)
        if ends_at_pointer:          # the phrase ends at its spike, leaving room for the late one
            label.align_to([strip.x_of(t) + theme.space("tight"), 0, 0], RIGHT)
        pointer = arrow([strip.x_of(t), top - POINTER_LEN, 0], [strip.x_of(t), top, 0], SPIKY, weight="regular", buff=None)
        marks = VGroup(pointer, label)
        if bracket is not None:
            span = Line([strip.x_of(bracket[0]), top, 0], [strip.x_of(bracket[1]), top, 0], stroke_width=3,
                        color=theme.color(SPIKY))
            marks.add(span)
        self.play(GrowArrow(pointer), FadeIn(VGroup(*marks[1:]), shift=UP * 0.1), run_time=0.6)

    # ---- Ⓑ ----

    def the_clause(self) -> None:
        self.start_panel("B", "括号里那半句话", says="而这一节真正刺耳的，是括号里那半句话")
        red = self.strip(self.sketch.loss, *B_STRIP, SPIKY, "PaLM {spike.palm_params}（示意）", left=B_LEFT, right=B_RIGHT)
        ticks = self.spike_ticks(red)
        self.play(FadeIn(red), FadeIn(ticks), run_time=0.6)
        said = ledger_text("最大的模型在训练中出现了大约 {spike.count} 次 loss 尖峰", size="body")
        # The clause is warm from the start (「刺耳的，是括号里那半句话」) and pulses when the speaker
        # reads it out: colour, not scale, so it never grows over its neighbour or the edge.
        clause = words("（尽管梯度裁剪是开着的）", size="body", color="warm")
        VGroup(said, clause).arrange(RIGHT, buff=theme.space("tight")).move_to([0, QUOTE_Y, 0])
        self.play(FadeIn(said), FadeIn(clause), run_time=0.6)

        self.beat(says="梯度裁剪是开着的")
        self.play(Indicate(clause, color=theme.text_color("warm"), scale_factor=1.0), run_time=0.7)

        self.beat(says="裁剪管的是「这一步最多迈多大」，它是所有人心里的那道保险")
        fuse = boxed(words("梯度裁剪 = 保险：这一步最多迈多大   ✓ 开着", size="label"), "good", weight="thin")
        self.play(FadeIn(fuse.move_to([0, FUSE_Y, 0])), run_time=0.5)

        self.beat(says="保险开着，还是飞了二十次")
        still = ledger_text("保险开着，还是飞了约 {spike.count} 次", size="label", color=SPIKY).move_to([0, STILL_Y, 0])
        # Each tick pulses in place (longer, then back): no rings to pile up in the clusters.
        self.play(*[Indicate(t, color=theme.color(SPIKY), scale_factor=TICK_PULSE) for t in ticks], FadeIn(still),
                  run_time=0.7)

        self.beat(says="所以问题不是「某一步迈太大」这么简单")
        not_simple = words("→ 问题不是「某一步迈太大」这么简单", size="label").move_to([0, NOT_SIMPLE_Y, 0])
        self.play(FadeIn(not_simple, shift=RIGHT * 0.2), run_time=0.5)

        self.beat(says="那到底是为什么？")          # put to the room before the answer
        why = words("那到底是为什么？", size="heading").move_to([0, WHY_Y, 0])
        self.play(FadeIn(why), run_time=0.5)

        self.beat(says="论文自己说：不知道")
        verdict = words("不知道", size="title", color=SPIKY)
        VGroup(why.copy(), verdict).arrange(RIGHT, buff=theme.space("wide")).move_to([0, WHY_Y, 0])
        self.play(why.animate.next_to(verdict, LEFT, buff=theme.space("wide")), Write(verdict), run_time=0.7)

        self.beat(says="原话是训练成本太高，没能找到一个有原则的缓解办法")
        admits = words("「由于训练成本太高，没能找到有原则的缓解办法」—— PaLM 论文", size="label")
        self.play(FadeIn(admits.move_to([0, ADMITS_Y, 0])), run_time=0.5)
