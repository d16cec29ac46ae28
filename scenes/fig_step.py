"""fig-step: the whole ledger of one step (第五节).

whole  Projected whole first (先整张停三秒): Ⓐ's four strips on one time axis beside Ⓑ's crossing.
Ⓐ      The four items on one time axis, from anim-memtime's simulator: two peaks, at different moments.
Ⓑ      Who is biggest depends on the batch: the resident block is flat, activations rise and cross it.
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, Create, FadeIn, Triangle, VGroup, Write

from lecture_numerics.models import TIB
from lecture_numerics.onestep import MAX_BATCH, BATCH_TICKS, TIB_TICKS, batch_sweep, step_timeline
from scenes.kit import theme
from scenes.kit.base import LectureScene
from scenes.kit.charts import TimeAxis, guide
from scenes.kit.panels import caption
from scenes.kit.plots import Plot, curve
from scenes.kit.strips import Strip, phase_bands
from scenes.kit.text import ledger_text, words

# The four items, top to bottom: name, theme colour, size template, when it is used.
ITEMS = (
    ("优化器状态", "optimizer", "{bill.v3.optimizer_tib} TiB", "update"),
    ("权重", "weights", "{bill.v3.weights_tib} TiB", "forward+backward"),
    ("梯度", "gradients", "{timeline.v3.gradient_peak_tib} TiB", "all"),
    ("激活", "activations", "{timeline.v3.activations_end_of_forward_gib} GiB", "all"),
)
# Ⓐ geometry (scene units; the frame is 14.2 × 8).
A_TIME = TimeAxis(-4.3, 3.0)
A_TOP_BASELINE, A_STRIP_H, A_STRIP_GAP = 0.75, 0.62, 0.88
# the whole view: Ⓐ on the left ~60 %, Ⓑ on the right.
W_TIME = TimeAxis(-4.6, 0.9)
W_TOP_BASELINE, W_STRIP_H, W_STRIP_GAP = 1.75, 0.7, 1.4
# Ⓑ's chart: (lower-left corner, width, height); the whole view's is the same chart, smaller.
W_CHART = (np.array([2.2, -2.9, 0]), 4.4, 4.8)
B_CHART = (np.array([-4.6, -2.0, 0]), 9.0, 4.2)
SWEEP_POINTS = 2   # activations are linear in the batch: the simulator at both ends draws the line


class FigStep(LectureScene):
    scene_id = "fig-step"
    title = "一步的总账：四项在同一条时间轴上"
    ledger_keys = (
        "bill.v3.optimizer_tib", "bill.v3.weights_tib", "bill.v3.total_tib", "bill.v3.gpus_80gib",
        "hardware.gpu_memory_gib", "model.v3.total_params", "bytes.per_param_total", "onestep.seq_len_k",
        "timeline.v3.gradient_peak_tib", "timeline.v3.activations_end_of_forward_gib",
        "timeline.v3.total_peak_tib", "timeline.v3.total_peak_phase",
        "flops.six_nd_coefficient", "flops.v3.six_nd_pflop_128k", "onestep.v3.attention_share_round",
        "flops.v3.real_over_6nd_128k", "onestep.item_count", "onestep.model_name",
        "act.v3.full_recompute_gib", "onestep.sweep.crossing_batch", "onestep.sweep.batch_ticks",
        "onestep.sweep.tib_ticks",
    )

    def construct(self) -> None:
        self.tl = step_timeline()
        self.sweep = batch_sweep(np.linspace(1, MAX_BATCH.value, SWEEP_POINTS))
        self.panel("whole")
        self.whole_frame()
        self.start_panel("A", "一步之内：{onestep.item_count}项在同一条时间轴上")
        self.four_items_one_axis()
        self.start_panel("B", "激活大，还是优化器状态大？")
        self.who_is_biggest()

    # ---- shared drawing ----

    def lit_span(self, when: str) -> tuple[float, float]:
        tl = self.tl
        return {"update": (tl.backward_end, 1.0), "forward+backward": (0.0, tl.backward_end),
                "all": (0.0, 1.0)}[when]

    def strips(self, time: TimeAxis, top_baseline: float, height: float, gap: float) -> list[Strip]:
        return [Strip(self.tl.t, self.series(color), color, time, top_baseline - k * gap, height,
                      lit=self.lit_span(when))
                for k, (_, color, _, when) in enumerate(ITEMS)]

    def series(self, item: str):
        """A strip's bytes over the step. The activations row is the stored inputs (激活, whose
        size it is labelled with), not the stored inputs plus the layer being recomputed."""
        return self.tl.stored if item == "activations" else self.tl.bytes[item]

    def phase_names(self, time: TimeAxis, y: float, size: str) -> VGroup:
        tl = self.tl
        spans = (("前向", 0.0, tl.forward_end), ("反向", tl.forward_end, tl.backward_end))
        names = VGroup(*[words(n, size=size, color="muted").move_to([float(time.x((a + b) / 2)), y, 0])
                         for n, a, b in spans])
        update = words("更新", size=size, color="optimizer").move_to([float(time.x(1.0)), y, 0])
        update.align_to([float(time.x(tl.backward_end)), 0, 0], LEFT)
        return VGroup(*names, update)

    def bands(self, time: TimeAxis, bottom: float, top: float) -> VGroup:
        tl = self.tl
        return phase_bands(time, [0.0, tl.forward_end, tl.backward_end, 1.0], bottom, top)

    def sweep_lines(self, chart: Plot) -> tuple:
        b = np.concatenate([[0.0], self.sweep["batch"]])
        resident = np.full_like(b, self.sweep["resident"][0]) / TIB
        activations = np.concatenate([[0.0], self.sweep["activations"]]) / TIB
        return curve(chart, b, resident, "optimizer"), curve(chart, b, activations, "activations")

    def sweep_chart(self, where: tuple, ticks: bool = True, **titles) -> Plot:
        corner, width, height = where
        chart = Plot(x_range=(0, MAX_BATCH.value), y_range=(0, float(self.sweep["activations"][-1]) / TIB),
                     width=width, height=height, x_ticks_key=BATCH_TICKS.key if ticks else None,
                     y_ticks_key=TIB_TICKS.key if ticks else None, **titles)
        chart.shift(corner - chart.x_axis.get_start())
        chart.y_max = chart.y_scale.high
        chart.x_max = chart.x_scale.high
        return chart

    def crossing_line(self, chart: Plot, x: float):
        return guide(chart.point(x, 0), chart.point(x, chart.y_max))

    def crossing_x(self) -> float:
        from lecture_numerics import quantity

        return float(quantity("onestep.sweep.crossing_batch").value)

    # ---- whole: the one picture that must land ----

    def whole_frame(self) -> None:
        self.clear()
        strips = self.strips(W_TIME, W_TOP_BASELINE, W_STRIP_H, W_STRIP_GAP)
        bottom = strips[-1].baseline
        names = VGroup(*[VGroup(words(n, size="small", color=c), ledger_text(t, size="small", color=c))
                         .arrange(DOWN, buff=0.06, aligned_edge=RIGHT)
                         .next_to([W_TIME.left, s.baseline + W_STRIP_H / 2, 0], LEFT, buff=0.2)
                         for (n, c, t, _), s in zip(ITEMS, strips)])
        left_title = ledger_text("Ⓐ 一步之内：{onestep.item_count}项在同一条时间轴上", size="label").to_corner(UP + LEFT, buff=0.35)
        phases = self.phase_names(W_TIME, W_TOP_BASELINE + W_STRIP_H + 0.3, "small")
        bands = self.bands(W_TIME, bottom, W_TOP_BASELINE + W_STRIP_H)

        chart = self.sweep_chart(W_CHART, ticks=False)
        resident, activations = self.sweep_lines(chart)
        cross = self.crossing_line(chart, self.crossing_x())
        right_title = words("Ⓑ 激活大，还是优化器状态大？", size="small").next_to(
            [W_CHART[0][0] - 0.4, left_title.get_center()[1], 0], RIGHT, buff=0)
        flat = words("常驻块", size="small", color="optimizer").next_to(resident, UP, buff=0.1).align_to(
            resident, LEFT).shift(RIGHT * 0.15)
        rising = words("激活", size="small", color="activations").next_to(
            chart.point(MAX_BATCH.value * 0.55, 0), UP, buff=0.15)
        rising.move_to(chart.point(MAX_BATCH.value * 0.55, float(self.sweep["activations"][-1]) / TIB * 0.55)
                       + RIGHT * 0.55 + DOWN * 0.15)
        at = ledger_text("≈ {onestep.sweep.crossing_batch} 条", size="small").next_to(cross, DOWN, buff=0.12)
        self.add(bands, *strips, names, phases, left_title, chart, resident, activations, cross,
                 right_title, flat, rising, at)
        self.wait(3.0)

    # ---- Ⓐ the ledger and the two peaks ----

    def four_items_one_axis(self) -> None:
        scenario = ledger_text("{onestep.model_name} {model.v3.total_params} · 一条 {onestep.seq_len_k} 序列 · "
                               "{bytes.per_param_total} 字节/参数 · 开重算", size="small", color="muted")
        scenario.to_edge(RIGHT, buff=0.35).shift(UP * 2.75)
        strips = self.strips(A_TIME, A_TOP_BASELINE, A_STRIP_H, A_STRIP_GAP)
        top, bottom = A_TOP_BASELINE + A_STRIP_H, strips[-1].baseline
        names = VGroup(*[words(n, size="label", color=c).next_to([A_TIME.left, s.baseline + A_STRIP_H / 2, 0],
                                                                 LEFT, buff=0.25)
                         for (n, c, _, _), s in zip(ITEMS, strips)])
        sizes = VGroup(*[ledger_text(t, size="label", color=c).next_to([A_TIME.right, s.baseline + A_STRIP_H / 2, 0],
                                                                       RIGHT, buff=0.3)
                         for (_, c, t, _), s in zip(ITEMS, strips)])
        phases = self.phase_names(A_TIME, top + 0.28, "small")
        scaled = words("各行纵轴各自缩放", size="small", color="muted").next_to(phases, RIGHT, buff=0.3)
        scaled.to_edge(RIGHT, buff=0.35)
        self.play(FadeIn(scenario), FadeIn(self.bands(A_TIME, bottom, top)), FadeIn(phases), FadeIn(scaled),
                  run_time=0.6)
        self.play(*[FadeIn(VGroup(n, s, z)) for n, s, z in zip(names, strips, sizes)], run_time=1.2)

        total = ledger_text("{model.v3.total_params} × {bytes.per_param_total} 字节 = {bill.v3.total_tib} TiB"
                            " · 按每张卡 {hardware.gpu_memory_gib} GiB 算 ≈ {bill.v3.gpus_80gib} 张（还没算激活）",
                            size="small").next_to(scenario, DOWN, buff=0.2).to_edge(RIGHT, buff=0.35)
        self.play(Write(total), run_time=1.0)

        # Two peaks, two moments: each ▲ sits where the simulator puts the strip's maximum. The
        # activations row is the stored inputs, which peak when the forward pass ends.
        act, grad = strips[3], strips[2]
        marks = VGroup()
        labels = []
        for strip, (t_peak, v_peak), text in ((act, self.tl.stored_peak, "激活峰：前向末尾"),
                                               (grad, self.tl.gradient_peak, "梯度峰：反向末尾")):
            x = float(A_TIME.x(t_peak))
            tri = Triangle(color=theme.color("backward"), fill_opacity=1).scale(0.1).move_to(
                strip.point(t_peak, v_peak) + UP * 0.1)
            marks.add(tri, guide([x, bottom - 0.05, 0], [x, top, 0], "backward"))
            labels.append(words(text, size="small", color="backward").move_to([x, bottom - 0.38, 0]))
        labels[1].align_to([A_TIME.right + 0.05, 0, 0], LEFT)
        apart = words("这俩峰不同时", size="small", color="backward").next_to(labels[0], DOWN, buff=0.15)
        self.play(Create(marks), FadeIn(labels[0]), FadeIn(labels[1]), run_time=0.8)
        self.play(FadeIn(apart), run_time=0.4)

        # The total's peak, where the simulator finds it (not on either single peak).
        t_total = self.tl.total_peak[0]
        x_total = float(A_TIME.x(t_total))
        tick = guide([x_total, bottom - 0.9, 0], [x_total, top, 0], "ink", dash=0.04)
        total_peak = ledger_text("合计峰：{timeline.v3.total_peak_phase}末段 {timeline.v3.total_peak_tib} TiB",
                                 size="small").move_to([x_total, bottom - 0.9, 0])
        total_peak.align_to([x_total + 0.1, 0, 0], LEFT)
        self.play(Create(tick), FadeIn(total_peak), run_time=0.6)

        compute = ledger_text("{flops.six_nd_coefficient}ND ≈ {flops.v3.six_nd_pflop_128k} PFLOP ✗ · attention 占一层"
                              "前向 {onestep.v3.attention_share_round}，不在 {flops.six_nd_coefficient}ND 的账里"
                              " · 实际 ≈ {flops.v3.real_over_6nd_128k} {flops.six_nd_coefficient}ND",
                              size="small", color="muted").to_edge(DOWN, buff=theme.space("safe"))
        self.play(FadeIn(compute), run_time=0.5)
        self.wait(1.5)

    # ---- Ⓑ who is biggest depends on the batch ----

    def who_is_biggest(self) -> None:
        chart = self.sweep_chart(B_CHART, x_title="同时在算的序列条数（不做梯度累积时）", y_title="TiB")
        resident, activations = self.sweep_lines(chart)
        self.play(FadeIn(chart), run_time=0.6)
        flat = ledger_text("常驻 {bill.v3.total_tib} TiB（权重 + 梯度 + 优化器状态）", size="small",
                           color="optimizer").next_to(resident, UP, buff=0.12).align_to(resident, LEFT).shift(RIGHT * 0.2)
        self.play(Create(resident), FadeIn(flat), run_time=0.8)
        slope = ledger_text("每条 {act.v3.full_recompute_gib} GiB（开重算）", size="small", color="activations")
        slope.move_to(chart.point(MAX_BATCH.value * 0.46, chart.y_max * 0.12))
        self.play(Create(activations), FadeIn(slope), run_time=0.8)
        x = self.crossing_x()
        cross = self.crossing_line(chart, x)
        at = ledger_text("≈ {onestep.sweep.crossing_batch} 条", size="label").next_to(
            chart.point(x, chart.y_max), UP, buff=0.1)
        left = words("常驻块更大", size="label", color="optimizer").move_to(chart.point(x * 0.4, chart.y_max * 0.62))
        right = words("激活更大", size="label", color="activations").move_to(
            chart.point((x + chart.x_max) / 2, chart.y_max * 0.45))
        self.play(Create(cross), FadeIn(at), run_time=0.6)
        self.play(FadeIn(left), FadeIn(right), run_time=0.5)
        self.play(FadeIn(caption("「谁最大」不是模型的属性，是这次训练配置的属性")), run_time=0.5)
        self.wait(1.5)
