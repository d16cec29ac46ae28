"""fig-lineage: AdaGrad → RMSProp → Adam as a chain, shown by feeding one constant gradient.

Ⓐ four boxes fed the same gradient (a red arrow from the g strip into each), steps on one log
   axis, titled so in every box: only SGD and Adam give a flat line; AdaGrad sinks, RMSProp's first step leaves its box
   and it comes back down to the line; then arrows link the boxes: the names are one chain.
Ⓑ AdaGrad's illness is late: its denominator (the root of Σg²) only grows (the bar, from its first-step
   height), the step falls to 4 % by step 600 — while the gradient fed in (the strip under
   the axis) never changes.
Ⓒ RMSProp's illness is early: from a zero start its first step is 32×; Adam's bias
   correction makes it flat from step 1; without it the bump peaks at 6.6×, because the
   momentum's own bias (drawn beside, with the denominator's) partly cancels.
Ⓓ how the three were published, side by side — the contrast is the format: a 39-page JMLR
   paper, one Coursera slide and no paper at all (「没有论文」 then stands beside its lecture number),
   an arXiv paper with its footnote written in — and
   Adam's own proof that AdaGrad is a special case of it, drawn as an arrow from Adam to AdaGrad.
Every curve is a run of the update rules (lecture_numerics/lineage.py → optim.update_sizes).
Beats follow the notes' cues at L490 (Ⓐ), L509 (Ⓑ) and L516 (Ⓒ, then Ⓓ).

Colours: SGD is the control (muted); the optimizers under study are ink; Adam is the notes'
「绿线」, the one that is fine (good); what goes wrong is bad (the 32× spike, the unflat
verdicts); the gradient fed in is red (gradients); AdaGrad's denominator is optimizer state.
"""

from __future__ import annotations

import numpy as np
from manim import (DL, DOWN, DR, LEFT, RIGHT, UL, UP, UR, Create, FadeIn, FadeOut, GrowArrow, Indicate, LaggedStart,
                   Succession, UpdateFromAlphaFunc, VGroup, config, linear)

from lecture_numerics import lineage
from scenes.kit import marks, theme
from scenes.kit.annotate import callout, label_after, on_plot
from scenes.kit.arrows import arrow
from scenes.kit.bars import Segment, stacked_bar
from scenes.kit.base import LectureScene
from scenes.kit.layout import keep_inside
from scenes.kit.plots import Plot, curve, dashed, grow, grow_run, level
from scenes.kit.text import ledger_text, line, words

GRADIENT, STATE = "gradients", "optimizer"
SGD, ADAGRAD, RMSPROP, ADAM, ADAM_RAW = "muted", "ink", "ink", "good", "ink"
SPIKE, VERDICT_BAD, VERDICT_OK = "bad", "bad", "good"
GUIDE = "muted"                       # the dashed flat line: a guide, not a run

# Ⓐ: four columns, a thumbnail plot in each.
COLUMN_XS = (-5.25, -1.75, 1.75, 5.25)
THUMB_W, THUMB_H, THUMB_BOTTOM = 2.5, 1.3, -0.3
STRIP_Y, NAME_Y, VERDICT_Y = 2.55, 1.6, -1.3
FRAME_BELOW, FRAME_ABOVE = 0.6, 0.35           # box edge below the thumbnail (room for its axis title), above the name
BOXES = (("sgd", "SGD", SGD), ("adagrad", "AdaGrad {optimizers.year.adagrad}", ADAGRAD),
         ("rmsprop", "RMSProp {lineage.year_rmsprop}", RMSPROP), ("adam", "Adam {optimizers.year.adam}", ADAM))
FLAT = {"sgd", "adam"}
VERDICTS = {"adagrad": "✗ 越走越小", "rmsprop": "✗ 起步冲出框"}
FLAT_VERDICT = "平 ✓"
TILE_SIDE, TILE_TINT, TILE_COUNT, STRIP_W = 0.42, 0.12, 16, 12.4
NAME_CAP = 0.22      # a name's cap height (label size): names are levelled by their tops
FED_TILES = 2        # tiles per box that drop into it: 「喂…进去」
SPIKE_PAST = 0.3     # how far RMSProp's first-step arrow reaches past its thumbnail's top

# Ⓑ: one big plot, lower-left corner here, and the denominator bar beside it.
PLOT_CORNER = np.array([-5.3, -0.75, 0])
BIG_W, BIG_H = 7.0, 3.0
BAR_X, BAR_W, BAR_H = 3.7, 0.7, 2.5
RUN_TIME = 2.5     # the curve and the bar run together: the same steps in the same seconds
STRIP_TILE, STRIP_TILES, STRIP_GAP_Y = 0.3, 12, 0.9    # Ⓑ.4's g strip: tile side, count, centre under the axis
# Ⓒ: the log-step plot, and on its right the 32×'s caveat and the two biases.
LOG_CORNER = np.array([-5.6, -0.75, 0])
LOG_W, LOG_H, SIDE_X = 6.3, 2.8, 1.05
# RMSProp's step-1 stub rises out of the plot's top edge past the axis title, so the 32× at its
# tip stands clear above it.
OUT_PAST = 0.75
Y_TITLE_SHIFT = 0.3   # Ⓒ's axis title, right of the step-1 stub
CAVEAT_TOP = 2.7
BIAS_CORNER, BIAS_W, BIAS_H = np.array([2.2, -0.75, 0]), 4.2, 1.6
RMS_LABEL_AT, ADAM_LABEL_AT = 64, 50      # steps where the two runs are named on the plot (Adam over its line)
PEAK_LABEL_AT = (11, 3.9)   # (step, gain): the uncorrected peak's label, inside its hump, clear of its rise
# Ⓓ: three columns side by side, a picture of each publication.
STORY_XS, STORY_NAME_Y, PICTURE_Y = (-4.7, 0.0, 4.7), 2.62, 0.9   # high: Ⓓ.11's arrow passes under them
PAGE_W, PAGE_H, PAGE_OFFSET, STACKED = 2.0, 2.4, 0.09, 6     # AdaGrad's paper: a stack of pages
SLIDE_W, SLIDE_H = 4.2, 2.36                                 # RMSProp's one slide (16:9)
ARXIV_W, ARXIV_H = 3.4, 2.4                                  # Adam's arXiv paper: its footnote's one line fits
CAPTION_GAP = theme.space("small")
SPECIAL_BEND = 1.2            # radians: Ⓓ.11's Adam → AdaGrad arrow dips under the middle link
SPECIAL_TAG_RISE = 0.12       # 「特例」 just over the arrow's lowest point, under the middle link


class FigLineage(LectureScene):
    scene_id = "fig-lineage"
    title = "一条因果链：喂同一串恒定的梯度，看每家的有效学习率"
    loop = False
    ledger_keys = (
        "optimizers.year.adagrad", "optimizers.year.adam", "optim.adagrad_probe_step", "optim.adagrad_lr_at_600",
        "lineage.lin_step_ticks", "lineage.lin_gain_ticks", "lineage.adagrad_denominator_growth",
        "lineage.log_step_ticks", "lineage.gain_ticks", "optim.rmsprop_first_step_gain",
        "optim.adam_no_bias_correction_peak", "lineage.adam_no_bc_peak_step",
        "optim.adam.beta2", "lineage.rmsprop_rho_slides", "lineage.rmsprop_first_step_gain_slides",
        "lineage.year_rmsprop", "lineage.adagrad_pages", "lineage.rmsprop_lecture", "lineage.bias_ticks",
        "lineage.average_start",
    )

    def construct(self) -> None:
        self.four_boxes()
        self.adagrad_late()
        self.rmsprop_early()
        self.how_they_were_published()

    @staticmethod
    def gradient_strip(count: int, width: float, side: float = TILE_SIDE) -> VGroup:
        """A row of identical 「g」 tiles: the same gradient, step after step."""
        tiles = VGroup(*[VGroup(marks.box(side, side, GRADIENT, weight="thin", fill_opacity=TILE_TINT,
                                          corner="square"),
                                words("g", size="small", color=GRADIENT)) for _ in range(count)])
        return tiles.arrange(RIGHT, buff=(width - count * side) / max(count - 1, 1))

    # ---- Ⓐ the chain, four boxes ----

    def four_boxes(self) -> None:
        self.start_panel("A", "喂同一串恒定的梯度，看每家的有效学习率",
                         says="我做了一件很简单的事：喂同一串恒定的梯度进去，")
        steps = lineage.LOG_STEPS.value
        runs = lineage.thumbnails(steps)
        xs = lineage.log_sampled_steps(steps)
        strip = self.gradient_strip(TILE_COUNT, STRIP_W).move_to([0, STRIP_Y, 0])
        plots, frames, names = self.thumbnail_boxes(steps)
        self.frames_top = frames.get_top()[1]
        self.play(FadeIn(strip, lag_ratio=0.1), run_time=0.8)
        self.play(FadeIn(frames), FadeIn(VGroup(*plots)), FadeIn(names), run_time=0.8)
        self.feed(strip, plots)

        self.beat(says="梯度都不变了，那么一个健康的优化器应该给出一条平线。",
                  takeaway="梯度不变 → 健康的优化器给出一条平线")
        flats = VGroup(*[dashed(level(plot, 1, GUIDE, stroke_width=theme.stroke("thin"))) for plot in plots])
        self.play(Create(flats), run_time=0.7)

        self.beat(says="凡是不平的，那就是它自己的毛病，赖不到数据头上。", takeaway="不平，就是它自己的毛病")
        self.wait(0.3)

        self.beat(says="看这四个小框里的曲线 —— 只有第一个和最后一个是平的。",
                  takeaway="只有第一个和最后一个是平的")
        self.four_curves(plots, runs, xs)
        verdicts = VGroup(*[words(FLAT_VERDICT, size="small", color=VERDICT_OK) if key in FLAT
                            else words(VERDICTS[key], size="small", color=VERDICT_BAD) for key, _, _ in BOXES])
        for verdict, x in zip(verdicts, COLUMN_XS):
            verdict.move_to([x, VERDICT_Y, 0])
        lit = [Indicate(frames[i], color=theme.color(VERDICT_OK), scale_factor=1.0) for i in (0, 3)]
        self.play(*lit, FadeIn(verdicts), run_time=1.0)
        # 「这几个名字是一条链」: each box leads to the next, at the names' height.
        links = VGroup(*[arrow([a.get_right()[0] + theme.space("hair"), NAME_Y, 0],
                               [b.get_left()[0] - theme.space("hair"), NAME_Y, 0], "ink", weight="regular", buff=None)
                         for a, b in zip(frames, frames[1:])])
        self.play(LaggedStart(*[GrowArrow(a) for a in links], lag_ratio=0.3), run_time=0.9)
        self.wait(0.3)

    def feed(self, strip: VGroup, plots: list[Plot]) -> None:
        """「喂…进去」: one short red arrow from the strip into each box (no tile copies that
        drop over the strip: they read as a glitch)."""
        top = self.frames_top + theme.space("fine")
        arrows = [arrow([plot.get_x(), strip.get_bottom()[1] - theme.space("fine"), 0], [plot.get_x(), top, 0],
                        GRADIENT, weight="regular", buff=None) for plot in plots]
        self.play(LaggedStart(*[GrowArrow(a) for a in arrows], lag_ratio=0.2), run_time=1.0)

    def four_curves(self, plots: list[Plot], runs: dict, xs: np.ndarray) -> None:
        curves = [curve(plot, xs, runs[key][xs - 1], role, clip=True) for plot, (key, _, role) in zip(plots, BOXES)]
        rms_plot = plots[2]
        spike = arrow(rms_plot.point(1, 1), rms_plot.point(1, lineage.THUMB_TOP.value) + UP * SPIKE_PAST,
                      RMSPROP, weight="bold", buff=None)
        # Where RMSProp is above the box, the steps are shaded (as Ⓒ shades 从零起步), not drawn
        # as a run along the top: a flat dashed line there read as one more flat line.
        ceiling = lineage.THUMB_TOP.value
        back_in = int(np.argmax(runs["rmsprop"] <= ceiling)) + 1
        above = marks.shade(rms_plot.point(1, 0), rms_plot.point(back_in, ceiling), SPIKE)
        others = [grow(c, run_time=2.0) for i, c in enumerate(curves) if i != 2]
        # RMSProp in the order it runs: out of the box, off the picture, back down to the line.
        rms_run = Succession(Create(spike, run_time=0.4), FadeIn(above, run_time=0.8), grow(curves[2], run_time=0.8))
        self.play(*others, rms_run)

    def thumbnail_boxes(self, steps: int) -> tuple[list[Plot], VGroup, VGroup]:
        """Ⓐ's four framed thumbnails over steps 1 … ``steps`` (the same log axis, titled), each under its name."""
        plots, frames, names = [], VGroup(), VGroup()
        frame_bottom, frame_top = THUMB_BOTTOM - FRAME_BELOW, NAME_Y + FRAME_ABOVE
        for x, (_, name, _) in zip(COLUMN_XS, BOXES):
            # One step axis in all four, log and named so: RMSProp's first few hundred steps are
            # the left of its box (「起步」), not a long stretch of a linear axis.
            plot = Plot(x_range=(1, steps), y_range=(0, lineage.THUMB_TOP.value), x_log=True,
                        width=THUMB_W, height=THUMB_H, frame=True, x_title="步数（对数）")
            plot.shift(np.array([x - THUMB_W / 2, THUMB_BOTTOM, 0]) - plot.point(1, 0))
            plots.append(plot)
            frames.add(marks.box(THUMB_W + 0.5, frame_top - frame_bottom, "muted", weight="thin")
                       .move_to([x, (frame_top + frame_bottom) / 2, 0]))
            # Names level by their tops (all capitals): a descender ("p") must not lift RMSProp's.
            label = line(name, size="label")
            names.add(label.move_to([x, NAME_Y, 0]).align_to([0, NAME_Y + NAME_CAP / 2, 0], UP))
        return plots, frames, names

    # ---- Ⓑ AdaGrad's illness is late ----

    def adagrad_late(self) -> None:
        self.start_panel("B", "AdaGrad 的病在后期", says="先看 AdaGrad，它的病在后期。")
        steps = lineage.THUMB_STEPS.value
        plot = Plot(x_range=(0, steps), y_range=(0, 1.2), width=BIG_W, height=BIG_H,
                    x_ticks_key="lineage.lin_step_ticks", y_ticks_key="lineage.lin_gain_ticks",
                    y_title="有效学习率", grid=True)
        plot.shift(PLOT_CORNER - plot.point(0, 0))
        xs = np.arange(1, steps + 1)
        step, denominator = lineage.adagrad_run(steps)
        sgd = curve(plot, xs, np.ones_like(step), SGD)
        sgd_name = on_plot("SGD：稳态", color=SGD, size="small")
        sgd_name.next_to(plot.point(steps, 1), UP, buff=theme.space("snug")).align_to(plot.point(steps, 1), RIGHT)
        self.play(FadeIn(plot), run_time=0.6)
        self.play(label_after(sgd, sgd_name, run_time=0.6, label_time=0.2, draw=grow))

        self.beat(says="它的分母是「历史梯度平方的累加和」—— 只增不减。")
        bar, grow_bar, grown = self.show_denominator(denominator)

        self.beat(says="于是有效学习率一路往下掉，跑到第六百步只剩稳态的百分之四。")
        # The bar rises step for step with the falling curve: one run, two readings.
        _, animation = grow_run(plot, xs, step, ADAGRAD, run_time=RUN_TIME)
        self.play(animation, UpdateFromAlphaFunc(bar, grow_bar, run_time=RUN_TIME, rate_func=linear))
        self.play(FadeIn(grown), run_time=0.5)
        note = callout(plot.point(steps, step[-1]), "第 {optim.adagrad_probe_step} 步：只剩 {optim.adagrad_lr_at_600}",
                       UP + LEFT * theme.space("wide"), length=1.0, color=ADAGRAD, size="label")
        self.play(FadeIn(note), run_time=0.6)

        self.beat(says="再强调一次：喂进去的梯度自始至终是同一个数。",
                  takeaway="喂进去的梯度自始至终是同一个数")
        # The same g under every step of the axis: nothing in the data changes.
        strip = self.gradient_strip(STRIP_TILES, BIG_W, STRIP_TILE)
        strip.move_to(plot.point(steps / 2, 0) + DOWN * STRIP_GAP_Y)
        self.play(FadeIn(strip, lag_ratio=0.08), run_time=0.9)

        self.beat(says="不是数据变了，是那个只增不减的分母把它自己压死的。",
                  takeaway="是那个只增不减的分母把它自己压死的")
        # The bar is the culprit: it pulses in the highlight, its size unchanged.
        self.play(Indicate(bar, color=theme.color("accent"), scale_factor=1.0), run_time=0.9)

    def show_denominator(self, denominator: np.ndarray):
        """The bar of √(Σg²), in units of its first step: the grey base (the first step's
        height, 1×) is shown now; returns the bar, its updater that grows it step by step
        through the run, and the label of its final height (both for the next beat)."""
        base = np.array([BAR_X, PLOT_CORNER[1]])
        growth = float(denominator[-1] / denominator[0])
        scale = BAR_H / growth

        def bar_at(value: float):
            parts = [Segment(1.0, "muted"), Segment(max(value - 1.0, 1e-3), STATE)]
            return stacked_bar(parts, scale, "vertical", thickness=BAR_W).start_at(base)

        bar = bar_at(1.0)
        # The notes' own words, one clause a line: what is summed, then that it only grows.
        title = VGroup(words("分母 ＝ 历史梯度平方累加和的平方根", size="small", color=STATE),
                       words("只增不减", size="label", color=STATE, weight="BOLD"))
        title.arrange(DOWN, buff=theme.space("tight"))
        title.move_to([BAR_X, base[1] + BAR_H + theme.space("close"), 0], aligned_edge=DOWN)
        keep_inside(title)
        start = words("起点", size="small", color="muted").next_to(bar.blocks[0], LEFT, buff=theme.space("close"))
        self.play(FadeIn(title), FadeIn(bar), FadeIn(start), run_time=0.6)
        last = len(denominator) - 1

        def grow_bar(mob, alpha: float) -> None:
            mob.become(bar_at(float(denominator[int(round(alpha * last))] / denominator[0])))

        grown = VGroup(ledger_text("第 {optim.adagrad_probe_step} 步：", size="small", color=STATE),
                       ledger_text("起点的 {lineage.adagrad_denominator_growth}", size="small", color=STATE))
        grown.arrange(DOWN, aligned_edge=LEFT, buff=theme.space("tight"))
        # Placed against the bar's full height, where its top will be once it has grown.
        grown.next_to(bar_at(growth), RIGHT, buff=theme.space("small")).align_to(bar_at(growth), UP)
        return bar, grow_bar, grown

    # ---- Ⓒ RMSProp's illness is early, and Adam's fix ----

    def rmsprop_early(self) -> None:
        self.start_panel("C", "RMSProp 的病在初期",
                         says="RMSProp 把「累加」换成「滑动平均」—— 分母会遗忘了，后期的病治好了。")
        steps = lineage.LOG_STEPS.value
        top = lineage.CLIP_GAIN.value
        # The same quantity, under the same name, as Ⓑ's axis.
        plot = Plot(x_range=(1, steps), y_range=(0, top), x_log=True, width=LOG_W, height=LOG_H,
                    x_ticks_key="lineage.log_step_ticks", y_ticks_key="lineage.gain_ticks",
                    x_title="步数（对数）", y_title="有效学习率", grid=True)
        plot.shift(LOG_CORNER - plot.point(1, 0))
        # The axis title right of the axis top: step 1's stub rises out of the plot through where
        # it would stand.
        plot.y_title.move_to(plot.y_axis.get_top() + RIGHT * Y_TITLE_SHIFT + UP * theme.space("fine"), aligned_edge=DL)
        # The x title right under its tick labels: the takeaways that pile up below stay clear of it.
        plot.x_title.next_to(plot.x_ticks, DOWN, buff=theme.space("fine"))
        xs = lineage.log_sampled_steps(steps)
        runs = {name: run[xs - 1] for name, run in lineage.late_runs(steps).items()}
        self.play(FadeIn(plot), run_time=0.6)
        rms = curve(plot, xs, runs["rmsprop"], RMSPROP, clip=True).set_z_index(1)   # above the others' lines
        rms_name = on_plot("RMSProp", color=RMSPROP, size="small")
        rms_name.next_to(plot.point(RMS_LABEL_AT, float(runs["rmsprop"][np.searchsorted(xs, RMS_LABEL_AT)])),
                         UR, buff=theme.space("tight"))
        self.play(label_after(rms, rms_name, run_time=1.5, draw=grow))

        self.beat(says="可它落下了新的：滑动平均是从零起步的。", takeaway="滑动平均是从{lineage.average_start}起步的")
        back_in = int(xs[np.argmax(runs["rmsprop"] <= top)])   # first drawn step under the top
        self.play(FadeIn(self.warmup_shade(plot, back_in)), run_time=0.6)

        self.beat(says="第一步的更新被放大了三十二倍，直接冲出画面。")
        self.out_of_the_picture(plot, back_in)

        self.beat(says="Adam 的偏差校正就是来修这一下的。你看绿线 —— 从第一步起就是平的。",
                  takeaway="偏差校正：从第一步起就是平的")
        adam = curve(plot, xs, runs["adam"], ADAM, stroke_width=theme.stroke("heavy"))
        adam_name = on_plot("Adam", color=ADAM, size="small").next_to(plot.point(ADAM_LABEL_AT, 1), UP,
                                                                       buff=theme.space("snug"))
        self.play(label_after(adam, adam_name, run_time=1.2, draw=grow))

        # The ⭐⭐ line leads alone: the two above it are drawn (the 从零起步 shade, the flat green line).
        self.beat(says="如果 Adam 只加动量、不做校正， 峰值只有六点六倍，不是三十二倍 ——",
                  takeaway="不校正：峰值 {optim.adam_no_bias_correction_peak}，不是 {optim.rmsprop_first_step_gain}")
        raw = dashed(curve(plot, xs, runs["adam_raw"], ADAM_RAW))
        self.play(*self.clear_takeaways(), run_time=0.4)
        self.play(Create(raw, run_time=1.5, rate_func=linear))
        self.play(FadeIn(self.peak_mark(plot, lineage.late_runs(steps)["adam_raw"])), run_time=0.5)

        self.beat(says="因为动量那一项自己也有偏差，两个偏差部分抵消了。",
                  takeaway="动量的偏差和分母的偏差部分抵消")
        self.two_biases(steps)

    def out_of_the_picture(self, plot: Plot, back_in: int) -> None:
        """At step 1 the run is off the picture: a stub out of the top edge, a dashed run along
        the top to where the curve comes back in, the 32× — and the β₂ it depends on."""
        top = lineage.CLIP_GAIN.value
        out = arrow(plot.point(1, top), plot.point(1, top) + UP * OUT_PAST, SPIKE, weight="bold", buff=None)
        above = dashed(curve(plot, [1, back_in], [top, top], RMSPROP, stroke_width=theme.stroke("regular")))
        label = ledger_text("第一步 {optim.rmsprop_first_step_gain}", size="label", color=SPIKE)
        label.next_to(out.get_end(), RIGHT, buff=theme.space("close"))
        self.play(Succession(Create(out, run_time=0.4), Create(above.set_z_index(1), run_time=0.5),
                             FadeIn(label, run_time=0.4)))
        # What the 32× rests on, beside it: the same β₂ for every line; the slide's own ρ gives less.
        caveat = VGroup(line("各线同用 β₂ ＝ {optim.adam.beta2}（Adam 默认）", size="small", color="muted"),
                        line("Hinton slide 的 ρ ＝ {lineage.rmsprop_rho_slides}：第一步 {lineage.rmsprop_first_step_gain_slides}",
                             size="small", color="muted"))
        caveat.arrange(DOWN, aligned_edge=LEFT, buff=theme.space("tight"))
        caveat.move_to([SIDE_X, CAVEAT_TOP, 0], aligned_edge=UP + LEFT)
        self.play(FadeIn(caveat), run_time=0.5)

    @staticmethod
    def warmup_shade(plot: Plot, back_in: int) -> VGroup:
        """Steps 1 … ``back_in`` shaded and named: the average started from zero and is still
        close to it, so the denominator is too small and the step too big."""
        shade = marks.shade(plot.point(1, 0), plot.point(back_in, plot.y_scale.high), SPIKE)
        name = on_plot("从{lineage.average_start}起步", color=SPIKE, size="small")
        name.move_to(plot.point(1, 1.5), aligned_edge=DOWN).set_x(shade.get_x())
        return VGroup(shade, name)

    @staticmethod
    def peak_mark(plot: Plot, raw_run: np.ndarray) -> VGroup:
        """A dot on the uncorrected curve at its peak, with the peak's ledger value."""
        peak_step = int(lineage.ADAM_RAW_PEAK_STEP.value)
        spot = plot.point(peak_step, float(raw_run[peak_step - 1]))
        dot = marks.dot(spot, ADAM_RAW, size="regular").set_z_index(2)
        label = VGroup(on_plot("不校正", color=ADAM_RAW, size="small"),
                       on_plot("峰值 {optim.adam_no_bias_correction_peak}", color=ADAM_RAW, size="small"))
        # Inside the hump, under the peak: clear of RMSProp (off the top there) and of the top edge.
        label.arrange(DOWN, buff=theme.space("fine")).move_to(plot.point(*PEAK_LABEL_AT))
        return VGroup(dot, label)

    def two_biases(self, steps: int) -> None:
        """Beside the plot, the two biases the uncorrected step divides: the momentum's
        (1 − β₁ᵗ, up in tens of steps) over the denominator's (√(1 − β₂ᵗ), up in thousands).
        Both start near zero, so their ratio — the dashed bump — stays far under 32."""
        plot = Plot(x_range=(1, steps), y_range=(0, 1.0), x_log=True, width=BIAS_W, height=BIAS_H,
                    x_ticks_key="lineage.log_step_ticks", y_ticks_key="lineage.bias_ticks", y_title="平均 ÷ 真值",
                    x_title="步数（对数）")
        plot.shift(BIAS_CORNER - plot.point(1, 0))
        plot.x_title.next_to(plot.x_ticks, DOWN, buff=theme.space("fine"))     # level with the main plot's
        xs = lineage.log_sampled_steps(steps)
        momentum, denominator = (b[xs - 1] for b in lineage.bias_factors(steps))
        m_curve = curve(plot, xs, momentum, STATE)
        v_curve = dashed(curve(plot, xs, denominator, STATE))
        m_name = on_plot("动量", color=STATE, size="small").next_to(
            plot.point(10, float(momentum[np.searchsorted(xs, 10)])), RIGHT, buff=theme.space("small"))
        v_name = on_plot("分母", color=STATE, size="small").next_to(
            plot.point(300, float(denominator[np.searchsorted(xs, 300)])), DR, buff=theme.space("tight"))
        self.play(FadeIn(plot), run_time=0.4)
        self.play(grow(m_curve, run_time=1.0), grow(v_curve, run_time=1.0))
        self.play(FadeIn(m_name), FadeIn(v_name), run_time=0.4)

    # ---- Ⓓ how the three were published ----

    def how_they_were_published(self) -> None:
        self.start_panel("D", "怎么发表的", says="顺便说说这三个东西是怎么发表的，对比很有意思。",
                         takeaway="怎么发表的，对比很有意思")
        names = VGroup(*[line(name, size="heading").move_to([x, STORY_NAME_Y, 0])
                         for name, x in zip(("AdaGrad {optimizers.year.adagrad}", "RMSProp {lineage.year_rmsprop}",
                                             "Adam {optimizers.year.adam}"), STORY_XS)])
        for name in names[1:]:          # level by their tops (all capitals): RMSProp's 「p」 must not lift it
            name.align_to(names[0], UP)
        self.play(FadeIn(names, lag_ratio=0.3), run_time=0.9)
        self.adagrad_paper()
        self.rmsprop_slide()
        self.adam_paper()

        # The same point as 「没有论文」, now about the chain: it takes that line's place and leads.
        self.beat(says="一条改变了整个领域的技术链，中间那一环连篇论文都没有。",
                  takeaway="中间那环，连篇论文都没有", replaces=True)
        middle = marks.frame_around(VGroup(names[1], self.slide, self.lecture, self.no_paper), "accent", pad="medium",
                                    weight="bold")
        self.play(Create(middle), run_time=0.8)

        self.beat(says="而它成立的最硬的证据，是 Adam 论文自己证的： AdaGrad 就是 Adam 的一个特例。",
                  takeaway="Adam 论文自己证明：AdaGrad 是 Adam 的特例")
        self.special_case(names)

    def special_case(self, names: VGroup) -> None:
        """「AdaGrad 就是 Adam 的一个特例」, drawn: an arrow from Adam's paper under the middle link
        to AdaGrad's stack, 「特例」 in its dip; the line before steps back so this one leads."""
        start = self.adam_bottom + DOWN * theme.space("fine")
        end = self.pages.get_bottom() + DOWN * theme.space("fine")
        link = marks.arc_arrow(start, end, "ink", angle=-SPECIAL_BEND, weight="bold")
        tag = words("特例", size="label").move_to([link.get_x(), link.get_bottom()[1], 0], aligned_edge=DOWN)
        tag.shift(UP * SPECIAL_TAG_RISE)
        self.play(*self.dim_takeaways(), run_time=0.3)
        self.play(Create(link), run_time=1.0)
        self.play(FadeIn(tag), run_time=0.4)

    def adagrad_paper(self) -> None:
        """A JMLR paper of 39 pages: a stack of pages; its title says what it was written for."""
        # The opening line only announced the three: the first fact takes its place.
        self.beat(says="AdaGrad：正经的 JMLR 长文，整整三十九页。", takeaway="JMLR 长文，整整 {lineage.adagrad_pages} 页",
                  replaces=True)
        x = STORY_XS[0]
        pages = VGroup(*[marks.box(PAGE_W, PAGE_H, "ink", weight="thin", fill="background", fill_opacity=1,
                                   corner="square").shift([i * PAGE_OFFSET, -i * PAGE_OFFSET, 0])
                         for i in reversed(range(STACKED))])
        pages.move_to([x, PICTURE_Y, 0])
        self.pages = pages
        journal = words("JMLR", size="label").move_to(pages[-1].get_top() + DOWN * 0.35)
        count = ledger_text("{lineage.adagrad_pages} 页", size="heading").move_to(pages[-1])
        self.play(LaggedStart(*[FadeIn(p, shift=DOWN * 0.1) for p in pages], lag_ratio=0.1), run_time=0.9)
        self.play(FadeIn(journal), FadeIn(count), run_time=0.5)

        # The ⭐ line leads: the JMLR fact it replaces stays drawn on the stack (JMLR, 39 页).
        self.beat(says="它根本不是为深度学习写的。", takeaway="不是为深度学习写的", replaces=True)
        # The title under the stack, in ink: it is the ⭐ line's evidence, read out, not a footnote.
        self.title_lines = VGroup(words("《面向在线学习与随机优化的", size="small"),
                                  words("自适应次梯度方法》", size="small"))
        self.title_lines.arrange(DOWN, buff=theme.space("tight")).next_to(pages, DOWN, buff=CAPTION_GAP * 2)
        # Well inside the left edge, not just on the margin.
        left_room = -config.frame_width / 2 + theme.space("safe") + theme.space("small")
        self.title_lines.shift(RIGHT * max(left_room - self.title_lines.get_left()[0], 0.0))
        self.play(FadeIn(self.title_lines), run_time=0.6)

    def rmsprop_slide(self) -> None:
        """No paper: an empty, struck-out page; then its one slide, the lecture number, and the
        subtitle that is the whole algorithm."""
        # The ⭐⭐⭐ line stands alone: AdaGrad's title (its evidence) leaves with this beat too.
        self.beat(says="它没有论文。", takeaway="没有论文", replaces=True)
        x = STORY_XS[1]
        page = marks.box(PAGE_W, PAGE_H, "muted", weight="regular", corner="square", dashed=True)
        page.move_to([x, PICTURE_Y, 0])
        paper = words("论文", size="body", color="muted").move_to(page)
        struck = marks.strike(paper, "bad", weight="bold")
        # The AdaGrad title has been read: it makes room for the next story.
        self.play(Create(page), FadeIn(paper), FadeOut(self.title_lines), run_time=0.6)
        self.play(Create(struck), run_time=0.4)

        self.beat(says="它唯一的「出版物」，是 Hinton 那门 Coursera 网课里的一页 slide。")
        self.slide = marks.box(SLIDE_W, SLIDE_H, "ink", weight="regular", corner="square").move_to([x, PICTURE_Y, 0])
        course = words("Hinton · Coursera 网课", size="small").move_to(self.slide.get_top() + DOWN * 0.3)
        self.play(FadeOut(VGroup(page, paper, struck)), run_time=0.4)
        self.play(FadeIn(self.slide), FadeIn(course), run_time=0.6)

        self.beat(says="今天所有引用它的论文，引的都是「第 6.5 讲」。")
        self.lecture = line("第 {lineage.rmsprop_lecture} 讲", size="body").next_to(self.slide, DOWN, buff=CAPTION_GAP)
        self.play(FadeIn(self.lecture), run_time=0.6)

        self.beat(says="而那页 slide 的副标题，本身就是这个算法的完整定义：")
        subtitle = VGroup(words("「把梯度，除以", size="label"), words("它近期幅度的滑动平均」", size="label"))
        subtitle.arrange(DOWN, buff=theme.space("tight")).move_to(self.slide).shift(DOWN * 0.15)
        self.play(FadeIn(subtitle, lag_ratio=0.3), run_time=0.8)

    def adam_paper(self) -> None:
        """An arXiv paper: its first-page footnote (the coin) and its acknowledgement (the name)."""
        self.beat(says="首页有个脚注：「作者顺序，由 Google Hangout 上掷硬币决定。」")
        # 「没有论文」 is RMSProp's: it leaves the bottom and stands small beside 「第 6.5 讲」, so the
        # biggest words under Adam's column are not 「没有论文」.
        no_paper = VGroup(words("·", size="body", color="muted"), words("没有论文", size="body", color="muted"))
        row = VGroup(self.lecture.copy(), *no_paper).arrange(RIGHT, buff=theme.space("small"))
        row.move_to(self.lecture, aligned_edge=UP).set_x(STORY_XS[1])
        self.play(*self.clear_takeaways(), self.lecture.animate.move_to(row[0]), FadeIn(no_paper), run_time=0.6)
        self.no_paper = no_paper
        x = STORY_XS[2]
        page = marks.box(ARXIV_W, ARXIV_H, "ink", weight="thin", corner="square").move_to([x, PICTURE_Y, 0])
        label = words("arXiv", size="label").move_to(page.get_top() + DOWN * 0.35)
        rule = marks.segment(page.get_corner(DOWN + LEFT) + np.array([0.15, 0.5, 0]),
                             page.get_corner(DOWN + LEFT) + np.array([0.75, 0.5, 0]), "ink", weight="thin")
        footnote = words("* 掷硬币定作者顺序", size="small").next_to(rule, DOWN, buff=theme.space("hair"),
                                                              aligned_edge=LEFT)
        self.play(FadeIn(page), FadeIn(label), run_time=0.5)
        self.play(Create(rule), FadeIn(footnote), run_time=0.4)
        self.play(Indicate(footnote, color=theme.color("accent"), scale_factor=1.1), run_time=0.6)
        self.adam_bottom = page.get_bottom()

        # The ⭐ line is drawn, not captioned: the acknowledgement written into the page, the
        # namers in bold, above the footnote.
        self.beat(says="致谢里还有一句：「特别感谢 Ivo Danihelka 和 Tom Schaul 起了 Adam 这个名字。」")
        named = VGroup(words("致谢 · 起名：", size="small"), words("Ivo Danihelka", size="small", weight="BOLD"),
                       words("Tom Schaul", size="small", weight="BOLD"))
        named.arrange(DOWN, buff=theme.space("fine")).move_to(page)
        self.play(FadeIn(named), run_time=0.5)
