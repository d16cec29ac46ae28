"""fig-step: the whole ledger of one step (第五节).

whole  Projected whole first (先整张投三秒): Ⓐ's four strips on one time axis beside Ⓑ's crossing.
Ⓐ      「再放大 Ⓐ」: the whole view's strips move into Ⓐ's layout. The bill (9.76 TiB, 125 cards),
       6ND and why it is wrong here, then the two peaks at different moments and the total's peak.
Ⓑ      Who is biggest depends on the batch: the resident block is flat, activations rise and cross it.
"""

from __future__ import annotations

import numpy as np
from manim import (DOWN, LEFT, RIGHT, UP, Create, FadeIn, FadeOut, Line, ReplacementTransform, Triangle,
                   VGroup, Write)

from lecture_numerics import quantity
from lecture_numerics.models import TIB
from lecture_numerics.onestep import MAX_BATCH, BATCH_TICKS, TIB_TICKS, batch_sweep, step_timeline
from scenes.kit import theme
from scenes.kit.annotate import label_after
from scenes.kit.arrows import arrow
from scenes.kit.base import LectureScene
from scenes.kit.charts import TimeAxis, guide
from scenes.kit.panels import panel_header
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
A_HEADING = "一步之内：{onestep.item_count}项在同一条时间轴上"
# The chart answers against the whole resident block (weights + gradients + optimizer state), so
# the question on screen names that block; the speaker's 「优化器状态」 is the block's largest part.
B_HEADING = "激活大，还是常驻块大？"
# Ⓐ geometry (scene units; the frame is 14.2 × 8). Two takeaways (at the takeaway size) stack
# along the bottom up to y ≈ −2.4, so the total-peak label ends above that.
A_TIME = TimeAxis(-4.3, 3.0)
A_TOP_BASELINE, A_STRIP_H, A_STRIP_GAP = 0.38, 0.42, 0.5
# The text block above the strips: scenario, bill, 6ND, why — one left edge, one row pitch.
A_TEXT_TOP_Y, A_TEXT_PITCH = 2.78, 0.4
A_ARROW_GAP, A_PEAK_ROW, A_TOTAL_ROW = 0.18, 0.38, 0.86  # below the bottom strip's baseline; the total
                                                         # peak has its own row under the two peaks
TOTAL_LABEL_GAP = 0.15       # the total's label ends this far left of its line's x
TOTAL_PEAK_STROKE = 4        # the total's marker: solid and heavier than the two dashed peak guides
SCALE_NOTE_X = 5.25          # the 「各行纵轴各自缩放」 bracket, right of the sizes column
# the whole view: Ⓐ on the left ~60 %, Ⓑ on the right.
W_TIME = TimeAxis(-4.6, 0.9)
W_TOP_BASELINE, W_STRIP_H, W_STRIP_GAP = 1.75, 0.7, 1.4
# Ⓑ's chart: (lower-left corner, width, height); the whole view's is the same chart, smaller.
W_CHART = (np.array([2.2, -2.9, 0]), 4.4, 4.8)
B_CHART = (np.array([-4.6, -1.75, 0]), 9.0, 4.0)
SWEEP_POINTS = 2   # activations are linear in the batch: the simulator at both ends draws the line


class FigStep(LectureScene):
    scene_id = "fig-step"
    title = "一步的总账：四项在同一条时间轴上"
    ledger_keys = (
        "bill.v3.optimizer_tib", "bill.v3.weights_tib", "bill.v3.total_tib", "bill.v3.gpus_80gib",
        "hardware.gpu_memory_gib", "model.v3.total_params", "bytes.per_param_total", "onestep.seq_len_k",
        "timeline.v3.gradient_peak_tib", "timeline.v3.activations_end_of_forward_gib",
        "timeline.v3.total_peak_tib", "timeline.v3.total_peak_phase",
        "flops.six_nd_coefficient", "flops.v3.six_nd_pflop_128k", "model.v3.active_params",
        "onestep.bytes_per_tib", "onestep.v3.attention_share_round", "flops.gpt3.attention_share_2k",
        "flops.v3.real_over_6nd_128k", "onestep.item_count", "onestep.model_name",
        "act.v3.full_recompute_gib", "onestep.sweep.crossing_batch", "onestep.sweep.batch_ticks",
        "onestep.sweep.tib_ticks", "model.gpt3.context_tokens",
    )

    def construct(self) -> None:
        self.tl = step_timeline()
        self.sweep = batch_sweep(np.linspace(1, MAX_BATCH.value, SWEEP_POINTS))
        self.panel("whole")
        self.whole_frame()
        self.ledger_and_peaks()
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
        return float(quantity("onestep.sweep.crossing_batch").value)

    # ---- whole: the one picture that must land ----

    def whole_frame(self) -> None:
        self.clear()
        strips = self.strips(W_TIME, W_TOP_BASELINE, W_STRIP_H, W_STRIP_GAP)
        bottom = strips[-1].baseline
        names = [VGroup(words(n, size="small", color=c), ledger_text(t, size="small", color=c))
                 .arrange(DOWN, buff=0.06, aligned_edge=RIGHT)
                 .next_to([W_TIME.left, s.baseline + W_STRIP_H / 2, 0], LEFT, buff=0.2)
                 for (n, c, t, _), s in zip(ITEMS, strips)]
        left_title = ledger_text("Ⓐ " + A_HEADING, size="label").to_corner(UP + LEFT, buff=0.35)
        phases = self.phase_names(W_TIME, W_TOP_BASELINE + W_STRIP_H + 0.3, "small")
        bands = self.bands(W_TIME, bottom, W_TOP_BASELINE + W_STRIP_H)

        chart = self.sweep_chart(W_CHART, ticks=False)
        resident, activations = self.sweep_lines(chart)
        cross = self.crossing_line(chart, self.crossing_x())
        right_title = words("Ⓑ " + B_HEADING, size="small").next_to(
            [W_CHART[0][0] - 0.4, left_title.get_center()[1], 0], RIGHT, buff=0)
        flat = words("常驻块", size="small", color="optimizer").next_to(resident, UP, buff=0.1).align_to(
            resident, LEFT).shift(RIGHT * 0.15)
        rising = words("激活", size="small", color="activations")
        rising.move_to(chart.point(MAX_BATCH.value * 0.55, float(self.sweep["activations"][-1]) / TIB * 0.55)
                       + RIGHT * 0.55 + DOWN * 0.15)
        # No crossing number here: Ⓑ says 「约九十四条」 when it gets there.
        self.add(bands, *strips, *names, phases, left_title, chart, resident, activations, cross,
                 right_title, flat, rising)
        self.wait(3.0)
        # Ⓐ takes these over and moves them; the rest leaves with the whole view.
        self.whole = dict(strips=strips, names=names, phases=phases, bands=bands, title=left_title,
                          right=VGroup(chart, resident, activations, cross, right_title, flat, rising))

    # ---- Ⓐ the ledger and the two peaks ----

    def ledger_and_peaks(self) -> None:
        self.panel("A", says="先把显存的总账封口")
        strips = self.strips(A_TIME, A_TOP_BASELINE, A_STRIP_H, A_STRIP_GAP)
        self.a_strips = strips
        self.a_top, self.a_bottom = A_TOP_BASELINE + A_STRIP_H, strips[-1].baseline
        self.zoom_into_a(strips)

        self.beat(says="六千七百一十亿参数 × 十六字节 ÷ 1024 的四次方 ＝ 9.76 TiB")
        bill = ledger_text("{model.v3.total_params} × {bytes.per_param_total} 字节 ÷ {onestep.bytes_per_tib} "
                           "= {bill.v3.total_tib} TiB", size="small")
        cards = ledger_text(" · 按每张卡 {hardware.gpu_memory_gib} GiB 算 ≈ {bill.v3.gpus_80gib} 张（还没算激活）",
                            size="small")
        VGroup(bill, cards).arrange(RIGHT, buff=0.2)
        self.text_row(bill, 1)
        cards.next_to(bill, RIGHT, buff=0.2)
        self.play(Write(bill), run_time=1.0)

        self.beat(says="按每张卡 80 GiB 算，光这一块就要 125 张")
        self.play(FadeIn(cards, shift=LEFT * 0.1), run_time=0.6)

        compute = self.compute_rows()
        self.beat(says="算力这边有个人人都在用的估法，叫 6ND")
        self.play(FadeIn(compute[0]), run_time=0.6)
        self.beat(says="……但这个数在这儿是错的，而且错得很多")
        self.play(FadeIn(compute[1], scale=1.6), run_time=0.5)
        self.beat(says="在这个长度上，attention 占一层前向算力的 82%")
        self.play(FadeIn(compute[2], shift=LEFT * 0.1), run_time=0.6)
        self.beat(says="反推一下：真实算力大约是 6ND 的五到六倍")
        self.play(FadeIn(compute[3], shift=LEFT * 0.1), run_time=0.6)
        self.beat(says="GPT-3 那个两千零四十八，attention 只占百分之一点几，漏掉完全无所谓")
        self.play(FadeIn(compute[4], shift=LEFT * 0.1), run_time=0.6)

        self.two_peaks()

    def zoom_into_a(self, strips: list[Strip]) -> None:
        """「再放大 Ⓐ」: the whole view's strips, bands and phase names move into Ⓐ's layout;
        each name keeps its place at the left, each size goes to the strip's right end."""
        whole = self.whole
        bands = self.bands(A_TIME, self.a_bottom, self.a_top)
        phases = self.phase_names(A_TIME, self.a_top + 0.25, "small")
        names = [words(n, size="label", color=c).next_to([A_TIME.left, s.baseline + A_STRIP_H / 2, 0], LEFT, buff=0.25)
                 for (n, c, _, _), s in zip(ITEMS, strips)]
        sizes = [ledger_text(t, size="label", color=c).next_to([A_TIME.right, s.baseline + A_STRIP_H / 2, 0],
                                                                 RIGHT, buff=0.3)
                 for (_, c, t, _), s in zip(ITEMS, strips)]
        self.text_left = min(name.get_left()[0] for name in names)
        scenario = ledger_text("{onestep.model_name} {model.v3.total_params} · 一条 {onestep.seq_len_k} 序列 · "
                               "{bytes.per_param_total} 字节/参数 · 开重算", size="small", color="muted")
        self.text_row(scenario, 0)
        moves = [ReplacementTransform(whole["bands"], bands), ReplacementTransform(whole["phases"], phases)]
        for old, new in zip(whole["strips"], strips):
            moves.append(ReplacementTransform(old, new))
        for old, name in zip(whole["names"], names):
            moves.append(ReplacementTransform(old[0], name))
        # Ⓑ, the small Ⓐ title and the sizes leave first, so nothing moves across the strips while
        # they grow; the sizes come back at the strips' right ends once the strips have settled.
        self.play(FadeOut(whole["right"], shift=RIGHT * 0.6), FadeOut(whole["title"]),
                  *(FadeOut(old[1]) for old in whole["names"]), run_time=0.5)
        self.play(*moves, FadeIn(panel_header("A", A_HEADING)), run_time=1.2)
        self.play(*(FadeIn(size) for size in sizes), FadeIn(scenario), FadeIn(self.scale_note()), run_time=0.6)

    def text_row(self, mob, row: int):
        """Put ``mob`` on row ``row`` of Ⓐ's text block (left edge: the strip names')."""
        return mob.move_to([0, A_TEXT_TOP_Y - row * A_TEXT_PITCH, 0]).align_to([self.text_left, 0, 0], LEFT)

    def scale_note(self) -> VGroup:
        """「各行纵轴各自缩放」 as a bracket beside the sizes column, apart from the phase names."""
        x = SCALE_NOTE_X
        bracket = VGroup(Line([x, self.a_top, 0], [x, self.a_bottom, 0]),
                         Line([x - 0.1, self.a_top, 0], [x, self.a_top, 0]),
                         Line([x - 0.1, self.a_bottom, 0], [x, self.a_bottom, 0]))
        bracket.set_stroke(theme.color("muted"), width=theme.stroke("thin"))
        note = VGroup(words("各行纵轴", size="small", color="muted"), words("各自缩放", size="small", color="muted"))
        note.arrange(DOWN, buff=0.08, aligned_edge=LEFT).next_to(bracket, RIGHT, buff=0.15)
        return VGroup(bracket, note)

    def compute_rows(self) -> VGroup:
        """6ND with its inputs (N the activated parameters, D one sequence) and its red ✗, why (attention
        is not in it), the real multiple, and GPT-3's short context where 6ND still holds: said in turn."""
        estimate = VGroup(
            ledger_text("{flops.six_nd_coefficient}ND = {flops.six_nd_coefficient} × {model.v3.active_params}"
                        "（每 token 激活的参数）× {onestep.seq_len_k} ≈ {flops.v3.six_nd_pflop_128k} PFLOP",
                        size="small"),
            words("✗", size="body", color="bad")).arrange(RIGHT, buff=0.2)   # 「错得很多」: larger than its row
        # The real multiple corrects the estimate, so it ends the estimate's row; attention's share
        # (the beat's point, in ink) opens the row below, and GPT-3's short context closes it.
        real = ledger_text("· 实际 ≈ {flops.v3.real_over_6nd_128k} {flops.six_nd_coefficient}ND", size="small")
        why = ledger_text("attention 占一层前向 {onestep.v3.attention_share_round}，不在 {flops.six_nd_coefficient}ND "
                          "的账里", size="small")
        short = ledger_text("· GPT-3，{model.gpt3.context_tokens}：attention 只占 {flops.gpt3.attention_share_2k}", size="small", color="muted")
        self.text_row(estimate, 2)
        real.next_to(estimate, RIGHT, buff=0.2)
        self.text_row(why, 3)
        short.next_to(why, RIGHT, buff=0.2)
        return VGroup(*estimate, why, real, short)

    def two_peaks(self) -> None:
        # Two peaks, two moments: each ▲ sits where the simulator puts the strip's maximum. The
        # activations row is the stored inputs, which peak when the forward pass ends.
        act, grad = self.a_strips[3], self.a_strips[2]
        top, bottom = self.a_top, self.a_bottom
        peak_row = bottom - A_PEAK_ROW
        peaks = []
        # Each ▲, its line and its label in the colour of the item that peaks.
        for strip, (t_peak, v_peak), text, role in (
                (act, self.tl.stored_peak, "激活峰：前向末尾", "activations"),
                (grad, self.tl.gradient_peak, "梯度峰：反向末尾", "gradients")):
            x = float(A_TIME.x(t_peak))
            tri = Triangle(color=theme.color(role), fill_opacity=1).scale(0.1).move_to(
                strip.point(t_peak, v_peak) + UP * 0.1)
            mark = VGroup(tri, guide([x, bottom - A_ARROW_GAP, 0], [x, top, 0], role))
            label = words(text, size="small", color=role).move_to([x, peak_row, 0])
            peaks.append((x, mark, label))
        # Each label stands outside its line, so 「这俩峰不同时」 sits alone between the two.
        peaks[0][2].align_to([peaks[0][0] - 0.05, 0, 0], RIGHT)
        peaks[1][2].align_to([peaks[1][0] + 0.05, 0, 0], LEFT)

        self.beat(says="第一节我给过一个答案：峰值在前向末尾")
        self.play(Create(peaks[0][1]), FadeIn(peaks[0][2]), run_time=0.8)

        self.beat(says="梯度的峰在反向末尾 —— 两个峰根本不在同一时刻")
        (x_act, _, _), (x_grad, _, _) = peaks
        y = bottom - A_ARROW_GAP
        apart_arrow = arrow([x_act, y, 0], [x_grad, y, 0], "ink", weight="thin", buff=None, both=True)
        apart = words("这俩峰不同时", size="small", color="ink").move_to([(x_act + x_grad) / 2, peak_row, 0])
        self.play(Create(peaks[1][1]), FadeIn(peaks[1][2]), run_time=0.8)
        self.play(Create(apart_arrow), FadeIn(apart), run_time=0.6)

        # The total's peak, where the simulator finds it (not on either single peak).
        self.beat(says="把几条形状不同的曲线叠起来之后，总和的峰未必落在任何一条单独的峰上",
                  takeaway="曲线叠起来之后，总和的峰未必落在任何一条单独的峰上")
        t_total = self.tl.total_peak[0]
        x_total = float(A_TIME.x(t_total))
        row = bottom - A_TOTAL_ROW
        # The line spans the strips only, so it crosses neither 「这俩峰不同时」's arrow nor its own label.
        tick = Line([x_total, bottom, 0], [x_total, top, 0], color=theme.color("ink"), stroke_width=TOTAL_PEAK_STROKE)
        # Its label, on a row of its own under the arrow, ends just left of the line's x (the gradient
        # peak's dashed line is just right of it) and says so: at this scale the two are a few pixels apart.
        total_peak = ledger_text("合计峰：{timeline.v3.total_peak_phase}末段 {timeline.v3.total_peak_tib} TiB，"
                                 "在梯度峰之前", size="small").move_to([x_total, row, 0])
        total_peak.align_to([x_total - TOTAL_LABEL_GAP, 0, 0], RIGHT)
        self.play(Create(tick), FadeIn(total_peak), run_time=0.6)

        self.beat(says="要知道那一刻是哪一项最大，才知道该动哪个开关",
                  takeaway="查 OOM：要知道最挤的那刻，是哪项最大")

    # ---- Ⓑ who is biggest depends on the batch ----

    def who_is_biggest(self) -> None:
        self.start_panel("B", B_HEADING, says="最后一个问题：激活大，还是优化器状态大？")
        chart = self.sweep_chart(B_CHART, x_title="同时在算的序列条数（不做梯度累积时）", y_title="TiB")
        resident, activations = self.sweep_lines(chart)
        self.play(FadeIn(chart), run_time=0.6)

        self.beat(says="常驻那一块不随 batch 变，而激活线性地随 batch 涨")
        flat = ledger_text("常驻 {bill.v3.total_tib} TiB（权重 + 梯度 + 优化器状态）", size="small",
                           color="optimizer").next_to(resident, UP, buff=0.12).align_to(resident, LEFT).shift(RIGHT * 0.2)
        self.play(label_after(resident, flat, run_time=0.8, label_time=0.3))
        slope = ledger_text("每条 {act.v3.full_recompute_gib} GiB（开重算）", size="small", color="activations")
        slope.move_to(chart.point(MAX_BATCH.value * 0.46, chart.y_max * 0.12))
        self.play(label_after(activations, slope, run_time=0.8, label_time=0.3))

        self.beat(says="要约九十四条十二万八千的序列，激活才追平常驻块")
        x = self.crossing_x()
        cross = self.crossing_line(chart, x)
        at = ledger_text("≈ {onestep.sweep.crossing_batch} 条", size="label").next_to(
            chart.point(x, chart.y_max), UP, buff=0.1)
        left = words("常驻块更大", size="label", color="optimizer").move_to(chart.point(x * 0.4, chart.y_max * 0.62))
        right = words("激活更大", size="label", color="activations").move_to(
            chart.point((x + chart.x_max) / 2, chart.y_max * 0.45))
        self.play(label_after(cross, at, run_time=0.5, label_time=0.3))
        self.play(FadeIn(left), FadeIn(right), run_time=0.5)

        self.beat(says="所以「谁最大」不是模型的属性，是这次训练配置的属性",
                  takeaway="「谁最大」不是模型的属性，是这次训练配置的属性")
