"""anim-memtime: memory within one training step (第五节, after fig-step Ⓐ).

One section. Memory against time, stacked by category, grows over the step: forward piles
activations up, backward recomputes, uses and frees them while gradients appear, the update
touches all optimizer state. The activations (the stored inputs) peak at the end of forward;
the peak while recomputing (+ 重算临时), the gradients' full size and the total's peak (in ink,
as in fig-step) get their ledger numbers as the step passes them. Pale means idle: the weights
band lights up behind the cursor through forward and backward (every layer uses them), the
optimizer band only in the update, the last sliver of the time axis (「只在每一步的最后那一瞬间
被用一次」). The axis breaks above the resident block, and the block is drawn taller than the
gradients at their largest, so the optimizer state still reads as the biggest item.

The clip plays once and ends on the whole picture: the step runs fast (a few seconds), the
speaker's sentence about the peak comes once the step has been seen whole, and the finished
picture — total peak and sentence — holds for more than half of the clip.

Numbers follow config/scenarios.yaml: for the lecture's case the scene draws the lecture's
own quantities (timeline.v3.*, bill.v3.*); for any other setting it draws the
timeline.configured.* quantities computed from the same simulator for that setting.
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, RIGHT, UL, UP, FadeIn, VGroup, linear

from lecture_numerics.memtime_axes import MAIN_TICKS, ZOOM_TICKS, main_scale, zoom_ceiling, zoom_unit
from lecture_numerics.memtime_configured import configured_scenario, is_lecture_case
from lecture_numerics.models import TIB
from lecture_numerics.timeline import Timeline, memory_timeline
from scenes.kit import marks
from scenes.kit.annotate import legend, on_plot
from scenes.kit.arrows import arrow
from scenes.kit.base import LectureScene
from scenes.kit.charts import (RESIDENT_OPACITY, SEAM_OVERLAP, BrokenScale, StackedMemoryChart, TimeAxis,
                               ZoomStrip, band, guide, marker, set_area, window)
from scenes.kit.panels import EDGE_BUFF, takeaway_line
from scenes.kit.reveal import Driven, Reveal
from scenes.kit.text import ledger_text, words

LECTURE_READOUTS = {
    "weights": "{bill.v3.weights_tib} TiB",
    "optimizer": "{bill.v3.optimizer_tib} TiB",
    "activation_peak": "{timeline.v3.activation_peak_gib} GiB",
    "forward_end": "{timeline.v3.activations_end_of_forward_gib} GiB",
    "gradient_peak": "{timeline.v3.gradient_peak_tib} TiB",
    "total_peak": "{timeline.v3.total_peak_tib} TiB",
    # The lecture's peak is near the end of backward (t = 0.95 of the step, backward ending at 0.99):
    # said in words, since t has no axis of its own; the drop line shows where on the time axis.
    "total_peak_when": "{timeline.v3.total_peak_phase}快结束时",
    "total_peak_t": "{timeline.v3.total_peak_t}",
}
CONFIGURED_READOUTS = {
    "weights": "{timeline.configured.weights}",
    "optimizer": "{timeline.configured.optimizer}",
    "activation_peak": "{timeline.configured.activation_peak}",
    "forward_end": "{timeline.configured.activations_end_of_forward}",
    "gradient_peak": "{timeline.configured.gradient_peak}",
    "total_peak": "{timeline.configured.total_peak}",
    "total_peak_when": "{timeline.configured.total_peak_phase}，t = {timeline.configured.total_peak_t}",
    "total_peak_t": "{timeline.configured.total_peak_t}",
}

RESIDENT, VARYING = ("weights", "optimizer"), ("gradients", "activations")
# The lecture's 激活 is the stored inputs (fig-act-bill, fig-recompute, fig-step): solid teal,
# peaking at the end of forward. In backward the layer being recomputed adds a working set on
# top of them: its own band, the same teal lighter, whose peak is 激活 + 重算临时, never 激活峰.
# Lighter but not pale (pale means gone): it is memory in use while the layer is recomputed.
WORKING = "working"
WORKING_OPACITY = 0.6
NAMES = {"weights": "权重", "optimizer": "优化器状态", "gradients": "梯度", "activations": "激活（存下的）",
         WORKING: "重算临时"}

COMPUTE_SECONDS = 6.0    # forward + backward sweep, proportional to step time
UPDATE_SECONDS = 1.0     # the update is 1 % of the step: slowed down so it can be seen
REVEAL_SECONDS = 0.5
MIN_SEGMENT_SECONDS = 0.05   # shorter stretches of the sweep are merged into the next one
# The finished picture holds this long: more than the whole build before it, so the total peak
# and the sentence are on screen for more than half of the clip (tests/test_memtime_scene.py).
HOLD_SECONDS = 8.5

TIME = TimeAxis(left=-5.0, right=2.6)
# The resident block (weights + optimizer state, 8.54 TiB) below the break is squeezed, but less
# than the 1.46 TiB above it is stretched: the optimizer band (7.32 TiB) stays taller than the
# gradients at their full 1.22 TiB, so the break never inverts the size order.
MAIN = dict(bottom=-0.35, squeezed=1.5, gap=0.2, top=2.35)
ZOOM = dict(bottom=-2.1, top=-1.1)
MAIN_TITLE_RISE = 0.35     # the memory axis' title clears its top tick label
ZOOM_TITLE_RISE = 0.27     # the zoom's title, high enough for the 激活峰 tag under it
PHASE_ROW, AXIS_NAME_ROW = 0.28, 0.62   # below the zoom strip's floor: phase names, then the time axis' title
TOTAL_ROLE = "ink"          # the total's peak: dot, guides, tag and readout
COLUMN_X = 2.98
LEGEND_TOP = 2.0
TOTAL_READOUT_Y = 2.5
TURN_TAG_RISE = 0.14       # the 存下的激活峰 tag (three short lines) ends above its dot, clear of the rising fill
AXIS_NAME_GAP = 0.3        # the time axis' title stands this far left of the 更新 name's column
UPDATE_NOTE_GAP = 0.8      # the update note's right end, left of the sliver it points at


class AnimMemtime(LectureScene):
    scene_id = "anim-memtime"
    title = "一步之内的显存"
    ledger_keys = (
        "bill.v3.weights_tib", "bill.v3.optimizer_tib", "timeline.v3.activation_peak_gib",
        "timeline.v3.activations_end_of_forward_gib", "timeline.v3.gradient_peak_tib",
        "timeline.v3.total_peak_tib", "timeline.v3.total_peak_t", "timeline.v3.total_peak_phase",
        "timeline.configured.weights", "timeline.configured.optimizer", "timeline.configured.activation_peak",
        "timeline.configured.activations_end_of_forward", "timeline.configured.gradient_peak",
        "timeline.configured.total_peak", "timeline.configured.total_peak_t", "timeline.configured.total_peak_phase",
        "memtime.axis.memory_ticks_tib", "memtime.axis.activation_ticks",
    )

    def construct(self) -> None:
        scenario = configured_scenario()
        self.readouts = LECTURE_READOUTS if is_lecture_case(scenario) else CONFIGURED_READOUTS
        tl = memory_timeline(scenario)
        self.tl = tl
        chart, zoom = self.build_charts(tl)
        self.add(self.heading(), chart, zoom, self.axis_labels(zoom), self.phase_strip(tl), self.legend())
        # Passed parts of the curves sit at the back and stay static; only the live edge,
        # the cursor and the marks on that edge are redrawn each frame.
        self.chart, self.zoom = chart, zoom
        # The weights are used by every layer, forward and backward: their band lights up behind the cursor.
        self.weights_lit = band("weights", 1.0)
        self.add(self.weights_lit)
        self.bring_to_back(*chart.settled.values(), zoom.settled, zoom.work_settled)
        self.cursor = marks.segment([TIME.left, ZOOM["bottom"]], [TIME.left, MAIN["top"]], "muted", weight="thin")
        self.growing = VGroup(*chart.live.values(), zoom.live, zoom.work_live, self.cursor, self.weights_lit)
        self.add(self.growing)
        # When each mark came on screen (renderer seconds): the test reads how long the finished picture holds.
        self.revealed_at: dict[str, float] = {}

        # The step runs; each mark appears as the step reaches it.
        marks_ = sorted([(tl.activation_peak[0], "activation_peak", *self.activation_marks(tl, zoom)),
                         (tl.total_peak[0], "total_peak", *self.total_peak_marks(tl, chart)),
                         (tl.gradient_peak[0], "gradient_peak", *self.gradient_marks(tl, chart))], key=lambda m: m[0])
        now, waiting = 0.0, []
        for when, name, group, on_edge in marks_:
            now, waiting = self.run_step(now, when, waiting)
            waiting.append((name, group, on_edge))
        now, waiting = self.run_step(now, tl.backward_end, waiting)

        # The update: gradients are consumed, every optimizer state is read and written.
        waiting.append(("update", self.update_marks(chart, tl), []))
        self.run_step(now, 1.0, waiting, seconds=UPDATE_SECONDS)
        # The sentence the speaker lands on (⭐ in the notes), once the step (and its peak) has been seen whole.
        sentence = takeaway_line("峰值出现在某一个特定时刻，而你要买的是那个峰值", level="star")
        sentence.to_edge(DOWN, buff=EDGE_BUFF)
        self.revealed_at["sentence"] = self.renderer.time
        self.play(FadeIn(sentence, shift=UP * 0.15), run_time=0.6)
        self.wait(HOLD_SECONDS)

    # --- building -------------------------------------------------------------------

    def build_charts(self, tl: Timeline) -> tuple[StackedMemoryChart, ZoomStrip]:
        floor, ceiling = main_scale(tl)
        scale = BrokenScale(floor=floor, ceiling=ceiling, **MAIN)
        working = tl.bytes["activations"] - tl.stored
        chart = SplitActivationsChart(tl.t, {**tl.bytes, "activations": tl.stored}, working, TIME, scale,
                                      unit_bytes=TIB, ticks_key=MAIN_TICKS.key)
        self.zoom_unit = zoom_unit(tl)
        zoom = SplitZoomStrip(tl.t, tl.stored, tl.bytes["activations"], TIME, unit_bytes=self.zoom_unit[1],
                              ceiling=zoom_ceiling(tl), ticks_key=ZOOM_TICKS.key, **ZOOM)
        return chart, zoom

    def heading(self):
        # A body-sized heading: the ⭐ sentence at the bottom stays clearly the largest text (1.2 ×).
        return words("一步之内的显存：前向、反向、更新", size="body").to_corner(UL, buff=EDGE_BUFF)

    def axis_labels(self, zoom: ZoomStrip) -> VGroup:
        # Both titles start at the safe margin: the zoom's stays left of the 存下的激活峰 tag.
        main = words("显存（TiB）", size="small", color="muted")
        main.next_to([TIME.left - 0.6, MAIN["top"], 0], UP, buff=MAIN_TITLE_RISE, aligned_edge=LEFT)
        main.to_edge(LEFT, buff=EDGE_BUFF)
        small = words(f"激活（{self.zoom_unit[0]}）", size="small", color="muted")   # its own axis, in its own unit
        small.next_to([TIME.left - 0.6, ZOOM["top"], 0], UP, buff=ZOOM_TITLE_RISE, aligned_edge=LEFT)
        small.to_edge(LEFT, buff=EDGE_BUFF)
        return VGroup(main, small)

    def phase_strip(self, tl: Timeline) -> VGroup:
        y = ZOOM["bottom"] - PHASE_ROW
        spans = {"前向": (0.0, tl.forward_end),
                 "反向（含重算）": (tl.forward_end, tl.backward_end)}
        labels = VGroup(*[words(name, size="small", color="muted").move_to([float(TIME.x((a + b) / 2)), y, 0])
                          for name, (a, b) in spans.items()])
        # The update is the axis' last sliver: its name ends where the axis ends, inside the chart.
        update = words("更新", size="small", color="muted").move_to([0, y, 0]).align_to([TIME.right, 0, 0], RIGHT)
        dividers = VGroup(*[guide([float(TIME.x(t)), ZOOM["bottom"] - 0.15, 0], [float(TIME.x(t)), MAIN["top"], 0],
                                  "muted").set_stroke(opacity=0.6) for t in (tl.forward_end, tl.backward_end)])
        axis_name = words("时间 →", size="small", color="muted")
        axis_name.move_to([0, ZOOM["bottom"] - AXIS_NAME_ROW, 0]).align_to([update.get_left()[0] - AXIS_NAME_GAP, 0, 0],
                                                                          RIGHT)
        return VGroup(dividers, labels, update, axis_name)

    def legend(self) -> VGroup:
        order = (WORKING, *reversed(VARYING), *reversed(RESIDENT))
        # Each swatch as its band reads for most of the step: the optimizer state idle (pale), the
        # weights in use (bright), the working set lighter than the stored activations.
        opacity = {"optimizer": RESIDENT_OPACITY, WORKING: WORKING_OPACITY}
        rows = legend([("activations" if name == WORKING else name,
                        NAMES[name] + (" " + self.readouts[name] if name in RESIDENT else ""))
                       for name in order], direction=DOWN, size="label", gap="small")
        for name, row in zip(order, rows):
            row[0].set_fill(opacity=opacity.get(name, 0.9))
        self.legend_rows = dict(zip(order, rows))
        # 7.32 TiB is the generic fp32 master + m + v recipe, not V3's own (BF16 m, v): say which.
        recipe_note = VGroup(words("优化器状态 =", size="small", color="muted"),
                             words("fp32 主权重 + m + v", size="small", color="muted"))
        recipe_note.arrange(DOWN, buff=0.06, aligned_edge=LEFT)
        column = VGroup(rows, recipe_note).arrange(DOWN, buff=0.12, aligned_edge=LEFT)
        # Hung from under the total peak's readout (above it), clear of the activation readouts below.
        return column.next_to([COLUMN_X, LEGEND_TOP, 0], DOWN, buff=0, aligned_edge=LEFT)

    # --- marks, revealed as the step reaches them -------------------------------------

    # Each returns the marks and those of them on the curve's growing edge (drawn above it).

    def activation_marks(self, tl: Timeline, zoom: ZoomStrip) -> tuple[VGroup, list]:
        peak = marker(zoom.point(*tl.activation_peak), "activations")
        turn_value = float(tl.bytes["activations"][list(tl.t).index(tl.forward_end)])
        turn = marker(zoom.point(tl.forward_end, turn_value), "ink")
        # Each number beside its own dot. The higher one is the stored inputs plus the layer being
        # recomputed, named as the sum it is (存下的 + 重算临时 = …): 「激活的峰在前向末尾」 stays
        # true of the solid band (激活（存下的） in the legend), whose peak is the one called 激活峰.
        peak_tag = on_plot("存下的 + 重算临时 = " + self.readouts["activation_peak"], size="small")
        peak_tag.next_to(peak, UP + RIGHT, buff=0.05)
        # The solid band's peak, named as the stored inputs' peak, stacked narrow so it stands left of
        # the forward/backward divider, above the rising fill and clear of the zoom's axis.
        turn_tag = VGroup(words("存下的", size="small"), words("激活峰", size="small"),
                          on_plot(self.readouts["forward_end"], size="small"))
        turn_tag.arrange(DOWN, buff=0.02, aligned_edge=RIGHT).next_to(turn, LEFT, buff=0.15)
        turn_tag.align_to(turn, DOWN).shift(UP * TURN_TAG_RISE)
        return VGroup(peak, turn, peak_tag, turn_tag), [peak]

    def total_peak_marks(self, tl: Timeline, chart: StackedMemoryChart) -> tuple[VGroup, list]:
        when, size = tl.total_peak
        # In ink, as fig-step draws the total's peak: red stays the gradients' colour.
        dot = marker(chart.point(when, size), TOTAL_ROLE)
        level = guide([TIME.left, dot.get_y(), 0], dot.get_center(), TOTAL_ROLE)
        # The drop line stops at the resident block's top: it says when, over the stretch that
        # varies, and crosses neither the update note's arrow nor the phase names under the zoom.
        drop = guide(dot.get_center(), [dot.get_x(), chart.resident_band_box("optimizer")[1], 0], TOTAL_ROLE)
        tag = words("总峰值", size="small", color=TOTAL_ROLE).next_to(level, UP, buff=0.08)
        readout = VGroup(ledger_text("总峰值 " + self.readouts["total_peak"], size="body", color=TOTAL_ROLE),
                         ledger_text(self.readouts["total_peak_when"], size="label", color=TOTAL_ROLE))
        readout.arrange(DOWN, buff=0.12, aligned_edge=LEFT).move_to([COLUMN_X, TOTAL_READOUT_Y, 0], aligned_edge=LEFT)
        return VGroup(level, drop, dot, tag, readout), [drop, dot]

    def gradient_marks(self, tl: Timeline, chart: StackedMemoryChart) -> tuple[VGroup, list]:
        """The gradients' full size, in their legend row, when the step reaches the end of backward
        (where the red band is highest). No mark on the chart: the stack's top there is beside the
        total's peak, and a second marker would read as a second peak of the total."""
        row = self.legend_rows["gradients"]
        readout = ledger_text(self.readouts["gradient_peak"], size="label").next_to(row, RIGHT, buff=0.12)
        return VGroup(readout), []

    def update_marks(self, chart: StackedMemoryChart, tl: Timeline) -> VGroup:
        """The update's sliver of the optimizer band, lit, with its note pointing at it: the
        state is read and written only there, at the very end of the step."""
        low, high = chart.resident_band_box("optimizer")
        x0, x1 = float(TIME.x(tl.backward_end)), float(TIME.x(1.0))
        sliver = marks.shade([x0, low], [x1, high], "optimizer", opacity=1.0)
        note = words("更新：全读写", size="small").move_to([0, (low + high) / 2, 0])
        note.align_to([x0 - UPDATE_NOTE_GAP, 0, 0], RIGHT)
        pointer = arrow(note.get_right() + RIGHT * 0.05, [x0, note.get_y(), 0], "ink", buff="hair")
        # The tip as a part of its own: Reveal hides a part with its family, so an arrow hidden
        # whole would remember its tip as already hidden and never show it (kit's reveal.hidden).
        tip = pointer.pop_tips()
        lit = VGroup(sliver, pointer, tip, note)
        lit.sliver, lit.note, lit.pointer = sliver, note, VGroup(pointer, tip)
        return lit

    # --- animating ------------------------------------------------------------------

    def run_step(self, start: float, end: float, reveals: list[tuple[str, VGroup, list]], seconds: float | None = None):
        """Grow the curves from step time ``start`` to ``end``; ``reveals`` (name, marks, and those
        of them on the growing edge) fade in over its first moments. Returns where the curves
        now end and the reveals still waiting (a segment too short to see passes them on)."""
        run_time = seconds if seconds is not None else (end - start) * COMPUTE_SECONDS
        if run_time < MIN_SEGMENT_SECONDS:
            return start, reveals
        if reveals:
            # A play of its own, so the marks are redrawn only while they fade in.
            share = min(1.0, REVEAL_SECONDS / run_time)
            middle = start + (end - start) * share
            parts = [part for _, group, _ in reveals for part in group]
            self.revealed_at.update({name: self.renderer.time for name, _, _ in reveals})
            self.play(self.sweep(start, middle, run_time * share), Reveal(parts, run_time=run_time * share))
            self.settle(middle, [part for _, _, on_edge in reveals for part in on_edge])
            start, run_time = middle, run_time * (1 - share)
        if run_time >= MIN_SEGMENT_SECONDS:
            self.play(self.sweep(start, end, run_time))
            self.settle(end, [])
        return end, []

    def settle(self, until: float, on_edge: list) -> None:
        """What the cursor passed becomes static; the live edge, with ``on_edge``, goes on top."""
        self.chart.settle(until)
        self.zoom.settle(until)
        self.chart.grow_to(until, since=until)
        self.zoom.grow_to(until, since=until)
        self.growing.add(*on_edge)
        self.bring_to_front(self.growing)

    def light_weights(self, now: float) -> None:
        """The weights band, bright from the step's start to the cursor, until backward ends."""
        until = min(now, self.tl.backward_end)
        if until <= 0:
            return
        low, high = self.chart.resident_band_box("weights")
        xs = TIME.x(np.array([0.0, until]))
        set_area(self.weights_lit, xs, np.full(2, low), np.full(2, high))

    def sweep(self, start: float, end: float, run_time: float) -> Driven:
        """The live edge and the cursor, from ``start`` to ``end`` at a steady pace."""
        chart, zoom, cursor = self.chart, self.zoom, self.cursor

        def grow(alpha: float) -> None:
            now = start + (end - start) * alpha
            chart.grow_to(now, since=start)
            zoom.grow_to(now, since=start)
            cursor.move_to([float(TIME.x(now)), cursor.get_y(), 0])
            self.light_weights(now)

        return Driven([self.growing], grow, run_time=run_time, rate_func=linear)


# --- the kit's memory widgets, with the recompute working set as a band of its own -----

class SplitActivationsChart(StackedMemoryChart):
    """The kit's stacked chart (one band per theme role) with one more band on top: the
    recompute working set, in the activations' teal, lighter."""

    def __init__(self, t: np.ndarray, series: dict[str, np.ndarray], working: np.ndarray, *args, **kwargs) -> None:
        super().__init__(t, series, RESIDENT, VARYING, *args, **kwargs)
        self.series = {**series, WORKING: working}
        self.varying = (*VARYING, WORKING)
        self.settled[WORKING] = band("activations", WORKING_OPACITY)
        self.live[WORKING] = band("activations", WORKING_OPACITY)


class SplitZoomStrip(ZoomStrip):
    """The kit's zoom strip drawing the stored inputs solid and, on top of them up to the
    total, the working set lighter (``work_settled`` / ``work_live``)."""

    def __init__(self, t: np.ndarray, stored: np.ndarray, total: np.ndarray, time: TimeAxis, **kwargs) -> None:
        super().__init__(t, stored, "activations", time, **kwargs)
        self.total = total
        self.work_settled, self.work_live = band("activations", WORKING_OPACITY), band("activations", WORKING_OPACITY)

    def _draw_work(self, piece, since: float, until: float) -> None:
        ts = window(self.t, since, until)
        xs = self.time.x(ts)
        if since > 0:
            xs[0] -= SEAM_OVERLAP
        set_area(piece, xs, self.y(np.interp(ts, self.t, self.values)), self.y(np.interp(ts, self.t, self.total)))

    def settle(self, until: float) -> None:
        super().settle(until)
        self._draw_work(self.work_settled, 0.0, until)

    def grow_to(self, now: float, since: float = 0.0) -> None:
        super().grow_to(now, since)
        self._draw_work(self.work_live, since, now)
