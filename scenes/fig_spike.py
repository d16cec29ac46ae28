"""fig-spike: what a loss spike looks like, and the clause that hurts (第六节).

Ⓐ Two curves, no numbers (示意), held alone through the notes' three silent seconds; then, one
   beat per sentence, PaLM 540B's falling loss, its ~20 spikes, the smaller model's none, and
   where the spikes fall — a cluster, one alone after a long gap (the gap bracketed), one late —
   each phrase pointing at its spikes; last, the two tickless y axes light up where they stand.
Ⓑ The clause in brackets: gradient clipping was on (it lights up when the speaker reads it), the
   fuse it is (a step arrow stopped at its cap, 「每步最多迈这么大」), the twenty spikes anyway — and the paper says it does not know why (the question
   put to the room on its own beat, the answer on the next).
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, Create, FadeIn, FadeOut, GrowArrow, Indicate, VGroup, Write

from lecture_numerics.spike import largest_cluster, lone_spike, palm_sketch
from scenes.kit import marks, theme, widgets
from scenes.kit.arrows import arrow
from scenes.kit.base import LectureScene
from scenes.kit.text import ledger_text, line, words

# Geometry (scene units; the frame is 14.2 × 8).
STRIP_LEFT, STRIP_RIGHT = -5.6, 6.6
TOP_STRIP = (1.4, 2.55)        # bottom, top of the red strip in Ⓐ (the lowest point of its curve, the highest)
LOW_STRIP = (-1.3, -0.78)      # the green strip: high enough for two takeaways under it, low enough
                               # for its name to stand well clear of the red strip's pointers
SILENCE_S = 3.0                # 停三秒不说话: the curves alone, before a word or a mark
TICK_HEIGHT = 0.16
# The strip's axes sit this far under its lowest point: room for the trend arrow between the
# curve and the axis, under the whole run (spikes rise above the curve, so it crosses none).
AXIS_DROP = 0.3
TREND_DROP, TREND_OPACITY = 0.16, 0.6
TREND_FROM, TREND_TO = 0.02, 0.97     # shares of the run it spans: all of it (「一路往下走」)
TREND_HEAD = 0.35                     # the last stretch, drawn as the arrow's head segment
TICK_DROP = 0.1
POINTER_GAP, POINTER_LEN = 0.04, 0.32   # the phrase's pointer up to the spike (or gap) it names
GAP_ARM = 0.08                          # the gap bracket's arms, down from its span
# Ⓑ: the strip small on top; the sentence and the clause; the fuse under the clause; the
# question and its answer low, clear of the takeaway.
B_STRIP, B_LEFT, B_RIGHT = (1.55, 2.5), -5.0, 5.0
# The quote on one line, the clause (the hook) on its own line under it, larger than anything else
# while it is the point; it steps down to the quote's size once the question takes over (B.5).
SAID_Y, CLAUSE_Y, FUSE_Y, WHY_Y, ADMITS_Y = 0.6, -0.1, -1.0, -1.75, -2.4
# Once the quote leaves (B.6) the clause, its fuse and the question rise into the band it freed, so
# the bottom third keeps room between the question, the paper's words and the takeaway.
CLAUSE_RISE, FUSE_RISE, WHY_RISE, ADMITS_RISE = 0.62, 0.75, 0.5, 0.3
CLAUSE_SIZE, QUOTE_SIZE = "title", "body"
STEP_FROM, STEP_LEN, STEP_WANTED, CAP_HALF = -3.0, 2.6, 1.3, 0.3   # the capped step, left of the fuse
TICK_PULSE = 1.8               # how much longer a tick grows when 「还是飞了二十次」 points at them
SPIKY = "bad"                  # the notes' 红: the run that spikes (a status: it goes wrong)
CALM = "good"                  # the notes' 绿: the smaller model, no spike
HIGHLIGHT = "accent"           # what the speaker points at: the clause, the tickless axes


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
        """A curve scaled into [bottom, top] with only a 'loss' y axis and no ticks. Parts:
        ``.axes`` (``.x_axis``, ``.y_axis``), ``.curve``, ``.y_name``, ``.label``."""
        lo, hi = float(self.sketch.loss.min()), float(self.sketch.loss.max())
        xs = left + self.sketch.t * (right - left)
        ys = bottom + (values - lo) / (hi - lo) * (top - bottom)
        curve = marks.polyline(np.column_stack([xs, ys]), color, weight="regular")
        floor = bottom - AXIS_DROP
        x_axis = marks.segment([left, floor], [right, floor], "muted", weight="thin")
        y_axis = marks.segment([left, floor], [left, top], "muted", weight="thin")
        y_name = words("loss", size="small", color="muted").next_to([left, (floor + top) / 2, 0], LEFT,
                                                                    buff=theme.space("small"))
        label = line(name, size="label", color=color).next_to([left, top, 0], UP, buff=theme.space("tight"),
                                                              aligned_edge=LEFT)
        group = VGroup(x_axis, y_axis, curve, y_name, label)
        group.axes, group.x_axis, group.y_axis = VGroup(x_axis, y_axis), x_axis, y_axis
        group.curve, group.y_name, group.label = curve, y_name, label
        group.x_of = lambda t: left + t * (right - left)
        group.y_of = lambda v: bottom + (v - lo) / (hi - lo) * (top - bottom)
        group.base = floor
        return group

    def spike_ticks(self, strip: VGroup) -> VGroup:
        top = strip.base - TICK_DROP
        return VGroup(*[marks.segment([strip.x_of(t), top], [strip.x_of(t), top - TICK_HEIGHT], SPIKY)
                        for t in self.sketch.spike_times])

    # ---- Ⓐ ----

    def two_curves(self) -> None:
        # The cue's 「先只放 Ⓐ，停三秒不说话」 is a stage direction, not a line to quote: the first beat is silent.
        self.start_panel("A", "loss 飞了：长这样")
        red = self.strip(self.sketch.loss, *TOP_STRIP, SPIKY, "PaLM {spike.palm_params}（示意）")
        green = self.strip(self.sketch.trend, *LOW_STRIP, CALM, "同样的配方，小一点的模型（示意）")
        steps = words("训练步数 →", size="small", color="muted").next_to([STRIP_RIGHT, green.base - TICK_DROP, 0], DOWN,
                                                                      buff=theme.space("fine"), aligned_edge=RIGHT)
        # The curves alone, held through the silence: names, arrow, ticks come with the words.
        bare = [VGroup(s.axes, s.curve, s.y_name) for s in (red, green)]
        self.play(*(FadeIn(b) for b in bare), FadeIn(steps), run_time=1.2)
        self.wait(SILENCE_S)

        self.beat(says="上面这条红的，是 PaLM 训 540B 的时候，loss 大概长的样子")
        self.play(FadeIn(red.label, shift=UP * 0.1), Indicate(red.curve, color=theme.color(SPIKY), scale_factor=1.0),
                  run_time=0.8)

        self.beat(says="一路往下走，那是它在变好")
        # A soft arrow under the trend the whole run long; muted, since green here names the smaller model.
        self.play(*self.trend_arrow(red), run_time=0.8)

        self.beat(says="可你看这些往上扎的尖 —— 大约二十次")
        ticks = self.spike_ticks(red)
        count = ledger_text("约 {spike.count} 次", size="label", color=SPIKY).next_to(red.label, RIGHT,
                                                                                    buff=theme.space("wide"))
        self.play(FadeIn(ticks, lag_ratio=0.1), run_time=1.0)
        self.play(FadeIn(count), run_time=0.4)

        self.beat(says="再看下面这条绿的：同一套配方，换个小一点的模型，一个尖都没有")
        none = words("没有一个尖", size="label", color=CALM).next_to(green.label, RIGHT, buff=theme.space("wide"))
        self.play(FadeIn(green.label, shift=UP * 0.1), run_time=0.5)
        self.play(Indicate(green.curve, color=theme.color(CALM), scale_factor=1.0), FadeIn(none), run_time=0.6)

        self.no_pattern(red)
        self.no_ticks(red, green)

    def no_pattern(self, red: VGroup) -> None:
        """Reminder one: no pattern in when they come — each phrase points at what it names."""
        times = self.sketch.spike_times
        cluster, lone, late = largest_cluster(times), lone_spike(times), float(times[-1])
        before_lone = float(times[int(np.searchsorted(times, lone)) - 1])
        self.beat(says="第一，这些尖出现的时刻完全没有规律 —— 挤在一起的有")
        self.point_at(red, "挤在一起的", float(cluster.mean()), span=(float(cluster[0]), float(cluster[-1])))
        self.beat(says="隔很久才来一个的也有")
        self.bracket_gap(red, "隔很久才来", (before_lone, lone))
        self.beat(says="训到很晚了还会来")
        self.point_at(red, "很晚还来", late, align_right=True)
        self.beat(says="所以不要以为「开头挺过去就没事了」", takeaway="别以为「开头挺过去就没事了」")

    def no_ticks(self, red: VGroup, green: VGroup) -> None:
        """Reminder two: the y axes have no ticks on purpose — both light up, each marked where it stands."""
        self.beat(says="第二，纵轴上我一个刻度都没画，这是故意的")
        notes = VGroup(*(words("无刻度", size="small", color=HIGHLIGHT).next_to(s.y_name, DOWN, buff=theme.space("fine"))
                         .align_to(s.y_name, RIGHT) for s in (red, green)))
        lit = [s.y_axis.animate.set_stroke(theme.color(HIGHLIGHT), width=theme.stroke("bold")) for s in (red, green)]
        self.play(*lit, FadeIn(notes), run_time=0.7)
        self.beat(says="没有刻度的曲线是示意，有刻度的才是数据", takeaway="没有刻度的曲线是示意，有刻度的才是数据")

    def trend_arrow(self, strip: VGroup) -> tuple:
        """The path under the trend and its head: (Create, GrowArrow) to play together."""
        t = self.sketch.t
        span = (t >= TREND_FROM) & (t <= TREND_TO)
        points = np.column_stack([strip.x_of(t[span]), strip.y_of(self.sketch.trend[span]) - TREND_DROP])
        head_from = int(np.searchsorted(points[:, 0], points[-1, 0] - TREND_HEAD))
        body = marks.polyline(points[:head_from + 1], "muted", weight="bold", smooth=True)
        body.set_stroke(opacity=TREND_OPACITY)
        head = arrow([*points[head_from], 0], [*points[-1], 0], "muted", weight="bold", buff=None,
                     opacity=TREND_OPACITY)
        return Create(body), GrowArrow(head)

    def phrase_top(self, strip: VGroup) -> float:
        """Where the pointers end: just under the strip's spike ticks."""
        return strip.base - TICK_DROP - TICK_HEIGHT - POINTER_GAP

    def point_at(self, strip: VGroup, text: str, t: float, *, span: tuple[float, float] | None = None,
                 align_right: bool = False) -> None:
        """A phrase under the red strip's ticks, with a short pointer up to the spike(s) it means."""
        top = self.phrase_top(strip)
        label = words(text, size="small", color=SPIKY).move_to([strip.x_of(t), top - POINTER_LEN, 0], aligned_edge=UP)
        if align_right:
            label.align_to([STRIP_RIGHT, 0, 0], RIGHT)
        pointer = arrow([strip.x_of(t), top - POINTER_LEN, 0], [strip.x_of(t), top, 0], SPIKY, weight="regular",
                        buff=None)
        extra = VGroup()
        if span is not None:
            extra.add(marks.segment([strip.x_of(span[0]), top], [strip.x_of(span[1]), top], SPIKY))
        self.play(GrowArrow(pointer), FadeIn(VGroup(label, extra), shift=UP * 0.1), run_time=0.6)

    def bracket_gap(self, strip: VGroup, text: str, ends: tuple[float, float]) -> None:
        """「隔很久」: a bracket under the ticks from the spike before the gap to the one after it,
        the phrase centred under it."""
        top = self.phrase_top(strip)
        a, b = (strip.x_of(t) for t in ends)
        bracket = marks.bracket([a, top - GAP_ARM - theme.space("hair")], [b, top - GAP_ARM - theme.space("hair")],
                                UP, SPIKY, arm=GAP_ARM)
        label = words(text, size="small", color=SPIKY).next_to(bracket, DOWN, buff=theme.space("fine"))
        self.play(Create(bracket), FadeIn(label, shift=UP * 0.1), run_time=0.6)

    # ---- Ⓑ ----

    @staticmethod
    def capped_step(y: float) -> VGroup:
        """One step as an arrow, stopped at the clipping cap (the fuse's colour); the rest it wanted,
        dashed and pale beyond the cap; the cap named under it."""
        cap_x = STEP_FROM + STEP_LEN
        step = arrow([STEP_FROM, y, 0], [cap_x, y, 0], "ink", weight="bold", buff=None)
        wanted = marks.segment([cap_x, y], [cap_x + STEP_WANTED, y], "muted", weight="bold", dashed=True)
        cap = marks.segment([cap_x, y - CAP_HALF], [cap_x, y + CAP_HALF], CALM, weight="heavy")
        name = words("每步最多迈这么大", size="small", color=CALM).next_to(cap, DOWN, buff=theme.space("fine"))
        group = VGroup(wanted, step, cap, name)
        group.step, group.wanted, group.cap, group.name = step, wanted, cap, name
        return group

    def the_clause(self) -> None:
        self.start_panel("B", "括号里那句", says="而这一节真正刺耳的，是括号里那半句话")
        red = self.strip(self.sketch.loss, *B_STRIP, SPIKY, "PaLM {spike.palm_params}（示意）", left=B_LEFT, right=B_RIGHT)
        ticks = self.spike_ticks(red)
        self.play(FadeIn(red), FadeIn(ticks), run_time=0.6)
        said = ledger_text("最大的模型在训练中出现了大约 {spike.count} 次 loss 尖峰", size=QUOTE_SIZE)
        clause = words("（尽管梯度裁剪是开着的）", size=CLAUSE_SIZE)
        said.move_to([0, SAID_Y, 0])
        clause.move_to([0, CLAUSE_Y, 0])
        self.play(FadeIn(said), FadeIn(clause), run_time=0.6)

        self.beat(says="梯度裁剪是开着的")
        # The clause lights up as he reads it out (colour and an underline, never a change of size).
        underline = marks.segment(clause.get_corner(DOWN + LEFT) + DOWN * theme.space("fine"),
                                  clause.get_corner(DOWN + RIGHT) + DOWN * theme.space("fine"), HIGHLIGHT, weight="bold")
        self.play(clause.animate.set_color(theme.text_color(HIGHLIGHT)), Create(underline), run_time=0.7)

        self.beat(says="裁剪管的是「这一步最多迈多大」，它是所有人心里的那道保险")
        # 「这一步最多迈多大」 drawn: a step that would go further is cut off at the cap; the fuse
        # badge right of it, on the same row.
        step = self.capped_step(FUSE_Y)
        fuse = widgets.badge("保险 ✓ 开着", CALM, size="label", weight="regular")
        fuse.next_to(step.wanted, RIGHT, buff=theme.space("large")).set_y(FUSE_Y)
        self.play(FadeIn(fuse, shift=DOWN * 0.1), run_time=0.5)
        self.play(GrowArrow(step.step), run_time=0.5)
        self.play(FadeIn(step.wanted), Create(step.cap), FadeIn(step.name), run_time=0.5)

        self.beat(says="保险开着，还是飞了二十次")
        still = ledger_text("还是飞了约 {spike.count} 次", size="label", color=SPIKY).next_to(red.label, RIGHT,
                                                                                       buff=theme.space("wide"))
        # Each tick pulses in place (longer, then back): no rings to pile up in the clusters.
        self.play(*[Indicate(t, color=theme.color(SPIKY), scale_factor=TICK_PULSE) for t in ticks], FadeIn(still),
                  run_time=0.7)

        self.beat(says="所以问题不是「某一步迈太大」这么简单", takeaway="问题不是「某一步迈太大」这么简单")

        self.beat(says="那到底是为什么？")          # put to the room before the answer, alone
        why = words("那到底是为什么？", size="heading").move_to([0, WHY_Y + WHY_RISE, 0])
        # The quote has been read and the takeaway holds its point: it leaves; the clause, lit,
        # and its fuse take the middle.
        # The clause steps down to the quote's size: 「不知道」 is to be the largest words next.
        shrink = theme.size(QUOTE_SIZE) / theme.size(CLAUSE_SIZE)
        self.play(FadeOut(said), FadeOut(step),
                  VGroup(clause, underline).animate.scale(shrink).move_to([0, CLAUSE_Y + CLAUSE_RISE, 0]),
                  fuse.animate.move_to([0, FUSE_Y + FUSE_RISE, 0]), run_time=0.5)
        self.play(FadeIn(why), run_time=0.5)

        self.beat(says="论文自己说：不知道")
        # Said as it is (⛔ 不要圆场): the one large word, bold, the largest on screen.
        verdict = words("不知道", size="key", weight="BOLD")
        VGroup(why.copy(), verdict).arrange(RIGHT, buff=theme.space("wide")).move_to([0, WHY_Y + WHY_RISE, 0])
        self.play(why.animate.next_to(verdict, LEFT, buff=theme.space("wide")), Write(verdict), run_time=0.7)

        self.beat(says="原话是训练成本太高，没能找到一个有原则的缓解办法")
        admits = words("「由于训练成本太高，没能找到有原则的缓解办法」—— PaLM 论文", size="label", color="muted")
        self.play(FadeIn(admits.move_to([0, ADMITS_Y + ADMITS_RISE, 0])), run_time=0.5)
