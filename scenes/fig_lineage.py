"""fig-lineage: AdaGrad → RMSProp → Adam as a chain, shown by feeding one constant gradient.

Ⓐ four boxes fed the same gradient, steps on a log axis: only SGD and Adam give a flat line;
   AdaGrad sinks, RMSProp's first step leaves its box and it comes back down to the line.
Ⓑ AdaGrad's illness is late: its denominator √(Σg²) only grows (the bar, from its first-step
   height), the step falls to 4 % by step 600.
Ⓒ RMSProp's illness is early: from a zero start its first step is 32×; Adam's bias
   correction makes it flat from step 1; without it the bump peaks at 6.6×.
Ⓓ how the three were published: a 39-page JMLR paper, one Coursera slide, a coin flip —
   and Adam's own proof that AdaGrad is a special case of it.
Every curve is a run of the update rules (lecture_numerics/lineage.py → optim.update_sizes).
Beats follow the notes' cues at L490 (Ⓐ), L509 (Ⓑ) and L516 (Ⓒ, then Ⓓ).
"""

from __future__ import annotations

import numpy as np
from manim import (DOWN, LEFT, RIGHT, UP, Create, Dot, FadeIn, Indicate, Rectangle, RoundedRectangle, Square,
                   Succession, SurroundingRectangle, UpdateFromAlphaFunc, VGroup, linear)

from lecture_numerics import lineage
from scenes.kit import theme
from scenes.kit.annotate import callout, label_after, legend, on_plot
from scenes.kit.arrows import arrow
from scenes.kit.bars import Segment, stacked_bar
from scenes.kit.base import LectureScene
from scenes.kit.plots import Plot, curve, dashed, grow, grow_run, level
from scenes.kit.text import ledger_text, line, words

# Colours by role: the gradient fed in, the optimizer's state (AdaGrad's denominator), one
# series colour per optimizer.
GRADIENT, STATE = "gradients", "optimizer"
# Adam without its correction is a failure of Adam's, so it takes the "what goes wrong" role:
# neither grey (SGD's control, secondary text) nor a colour the other three lines use.
SGD, ADAGRAD, RMSPROP, ADAM, ADAM_RAW = "muted", "accent", "warm", "good", "bad"

# Ⓐ: four columns, a thumbnail plot in each.
COLUMN_XS = (-5.25, -1.75, 1.75, 5.25)
THUMB_W, THUMB_H, THUMB_BOTTOM = 2.5, 1.3, -0.3
STRIP_Y, NAME_Y, VERDICT_Y = 2.45, 1.6, -1.0
FRAME_BELOW, FRAME_ABOVE = 0.25, 0.35          # box edge below the thumbnail, above the name
BOXES = (("sgd", "SGD", SGD), ("adagrad", "AdaGrad {optimizers.year.adagrad}", ADAGRAD),
         ("rmsprop", "RMSProp {lineage.year_rmsprop}", RMSPROP), ("adam", "Adam {optimizers.year.adam}", ADAM))
FLAT = {"sgd", "adam"}
VERDICTS = {"adagrad": "不平：越走越小", "rmsprop": "不平：起步冲出框外"}
FLAT_VERDICT = "平 ✓"
TILE_SIDE, TILE_TINT, TILE_COUNT, STRIP_W = 0.42, 0.12, 16, 12.4
SPIKE_PAST = 0.3     # how far RMSProp's first-step arrow reaches past its thumbnail's top

# Ⓑ: one big plot, lower-left corner here, and the denominator bar beside it.
PLOT_CORNER = np.array([-4.9, -0.95, 0])
BIG_W, BIG_H = 6.2, 3.2
BAR_X, BAR_W, BAR_H = 3.0, 0.7, 2.7
RUN_TIME = 2.5     # the curve and the bar run together: the same steps in the same seconds
# Ⓒ: the log-step plot and the column of notes on its right.
LOG_CORNER = np.array([-5.6, -0.95, 0])
LOG_W, LOG_H, SIDE_X, KEY_Y = 6.3, 3.0, 1.35, 2.65
OUT_PAST = 0.4      # how far RMSProp's step-1 stub rises out of the plot's top edge
NOTE_GAP = 0.3
WARMUP_TINT = 0.12       # the shade over the steps where RMSProp's average is still near its zero start
WARMUP_LABEL_AT = 1.25   # data height of the shade's label: just over the flat line at 1×
PEAK_DOT = 0.08          # radius of the dot on the uncorrected curve's peak
# Ⓓ: three rows of publication stories.
ROW_TOPS, SOURCE_Y = (2.75, 1.05, -1.1), -2.5   # top of each row's first line (rows grow downwards)
STORY_LEFT, STORY_TEXT_X = -6.3, -3.3


class FigLineage(LectureScene):
    scene_id = "fig-lineage"
    title = "一条因果链：喂同一串恒定的梯度，看每家的有效学习率"
    loop = False
    ledger_keys = (
        "optimizers.year.adagrad", "optimizers.year.adam", "optim.adagrad_probe_step", "optim.adagrad_lr_at_600",
        "lineage.lin_step_ticks", "lineage.lin_gain_ticks", "lineage.adagrad_denominator_growth",
        "lineage.log_step_ticks", "lineage.gain_ticks", "optim.rmsprop_first_step_gain",
        "optim.adam_no_bias_correction_peak", "lineage.adam_no_bc_first_step", "lineage.adam_no_bc_peak_step",
        "optim.adam.beta2", "lineage.rmsprop_rho_slides", "lineage.rmsprop_first_step_gain_slides",
        "lineage.year_rmsprop", "lineage.adagrad_pages", "lineage.rmsprop_lecture",
    )

    def construct(self) -> None:
        self.four_boxes()
        self.adagrad_late()
        self.rmsprop_early()
        self.how_they_were_published()

    @staticmethod
    def gradient_strip(count: int, width: float) -> VGroup:
        """A row of identical 「g」 tiles: the same gradient, step after step."""
        tiles = VGroup(*[VGroup(Square(TILE_SIDE, stroke_width=2, stroke_color=theme.color(GRADIENT),
                                       fill_color=theme.color(GRADIENT), fill_opacity=TILE_TINT),
                                words("g", size="small", color=GRADIENT)) for _ in range(count)])
        return tiles.arrange(RIGHT, buff=(width - count * TILE_SIDE) / max(count - 1, 1))

    # ---- Ⓐ the chain, four boxes ----

    def four_boxes(self) -> None:
        self.start_panel("A", "喂同一串恒定的梯度，看每家的有效学习率",
                         says="我做了一件很简单的事：喂同一串恒定的梯度进去，")
        steps = lineage.LOG_STEPS.value
        runs = lineage.thumbnails(steps)
        xs = lineage.log_sampled_steps(steps)
        strip = self.gradient_strip(TILE_COUNT, STRIP_W).move_to([0, STRIP_Y, 0])
        plots, frames, names = self.thumbnail_boxes(steps)
        self.play(FadeIn(strip, lag_ratio=0.1), run_time=0.8)
        self.play(FadeIn(frames), FadeIn(VGroup(*plots)), FadeIn(names), run_time=0.8)

        self.beat(says="梯度都不变了，那么一个健康的优化器应该给出一条平线。",
                  takeaway="梯度不变 → 健康的优化器给出一条平线")
        flats = VGroup(*[dashed(level(plot, 1, "ink", stroke_width=2)) for plot in plots])
        self.play(Create(flats), run_time=0.7)

        self.beat(says="凡是不平的，那就是它自己的毛病，赖不到数据头上。",
                  takeaway="平线才健康；不平，就是它自己的毛病")
        self.wait(0.3)

        self.beat(says="看这四个小框里的曲线 —— 只有第一个和最后一个是平的。",
                  takeaway="只有第一个和最后一个是平的")
        curves = [curve(plot, xs, runs[key][xs - 1], colour, clip=True)
                  for plot, (key, _, colour) in zip(plots, BOXES)]
        rms_plot = plots[2]
        spike = arrow(rms_plot.point(1, 1), rms_plot.point(1, lineage.THUMB_TOP.value) + UP * SPIKE_PAST,
                      RMSPROP, weight="bold", buff=None)
        # Where RMSProp is above the box, a dashed run along its top: the line is off the
        # picture there, not missing, and joins the curve where it comes back in.
        ceiling = lineage.THUMB_TOP.value
        back_in = int(np.argmax(runs["rmsprop"] <= ceiling)) + 1
        above = dashed(curve(rms_plot, [1, back_in], [ceiling, ceiling], RMSPROP, stroke_width=3))
        others = [grow(c, run_time=2.0) for i, c in enumerate(curves) if i != 2]
        # RMSProp in the order it runs: out of the box, along above it, back down to the line.
        rms_run = Succession(Create(spike, run_time=0.4), Create(above, run_time=0.8), grow(curves[2], run_time=0.8))
        self.play(*others, rms_run)
        verdicts = VGroup(*[words(FLAT_VERDICT, size="small", color="good") if key in FLAT
                            else words(VERDICTS[key], size="small", color="bad") for key, _, _ in BOXES])
        for verdict, x in zip(verdicts, COLUMN_XS):
            verdict.move_to([x, VERDICT_Y, 0])
        lit = [Indicate(frames[i], color=theme.color("good"), scale_factor=1.05) for i in (0, 3)]
        self.play(*lit, FadeIn(verdicts), run_time=1.0)
        self.wait(0.6)

    def thumbnail_boxes(self, steps: int) -> tuple[list[Plot], VGroup, VGroup]:
        """Ⓐ's four framed thumbnails over steps 1 … ``steps`` (log axis), each under its name."""
        plots, frames, names = [], VGroup(), VGroup()
        frame_bottom, frame_top = THUMB_BOTTOM - FRAME_BELOW, NAME_Y + FRAME_ABOVE
        for x, (_, name, colour) in zip(COLUMN_XS, BOXES):
            plot = Plot(x_range=(1, steps), y_range=(0, lineage.THUMB_TOP.value), x_log=True,
                        width=THUMB_W, height=THUMB_H, frame=True)
            plot.shift(np.array([x - THUMB_W / 2, THUMB_BOTTOM, 0]) - plot.point(1, 0))
            plots.append(plot)
            frames.add(RoundedRectangle(width=THUMB_W + 0.5, height=frame_top - frame_bottom, corner_radius=0.12,
                                        stroke_color=theme.color("muted"), stroke_width=2)
                       .move_to([x, (frame_top + frame_bottom) / 2, 0]))
            names.add(line(name, size="label", color=colour).move_to([x, NAME_Y, 0]))
        return plots, frames, names

    # ---- Ⓑ AdaGrad's illness is late ----

    def adagrad_late(self) -> None:
        self.start_panel("B", "AdaGrad 的病在后期", says="先看 AdaGrad，它的病在后期。")
        steps = lineage.THUMB_STEPS.value
        plot = Plot(x_range=(0, steps), y_range=(0, 1.2), width=BIG_W, height=BIG_H,
                    x_ticks_key="lineage.lin_step_ticks", y_ticks_key="lineage.lin_gain_ticks",
                    x_title="步数", y_title="有效学习率（÷ 稳态）", grid=True)
        plot.shift(PLOT_CORNER - plot.point(0, 0))
        xs = np.arange(1, steps + 1)
        step, denominator = lineage.adagrad_run(steps)
        sgd = curve(plot, xs, np.ones_like(step), SGD)
        sgd_name = words("SGD（对照）", size="small", color=SGD).next_to(plot.point(steps, 1), UP, buff=theme.space("snug"))
        sgd_name.align_to(plot.point(steps, 1), RIGHT)
        self.play(FadeIn(plot), run_time=0.6)
        self.play(label_after(sgd, sgd_name, run_time=0.6, label_time=0.2, draw=grow))

        self.beat(says="它的分母是「历史梯度平方的累加和」—— 只增不减。")
        bar, grow_bar, grown = self.show_denominator(denominator)

        self.beat(says="于是有效学习率一路往下掉，跑到第六百步只剩稳态的百分之四。")
        # The bar rises step for step with the falling curve: one run, two readings.
        _, animation = grow_run(plot, xs, step, ADAGRAD, run_time=RUN_TIME)
        self.play(animation, UpdateFromAlphaFunc(bar, grow_bar, run_time=RUN_TIME, rate_func=linear))
        self.play(FadeIn(grown), run_time=0.5)
        note = callout(plot.point(steps, step[-1]),
                       "第 {optim.adagrad_probe_step} 步：只剩稳态的 {optim.adagrad_lr_at_600}",
                       UP + LEFT * theme.space("wide"), length=1.0, color=ADAGRAD, size="label")
        self.play(FadeIn(note), run_time=0.6)

        self.beat(says="再强调一次：喂进去的梯度自始至终是同一个数。",
                  takeaway="喂进去的梯度自始至终是同一个数")
        self.wait(0.3)
        self.beat(says="不是数据变了，是那个只增不减的分母把它自己压死的。",
                  takeaway="是那个只增不减的分母把它自己压死的")
        self.wait(0.3)

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
        title = VGroup(words("分母 ＝ 累加和的平方根", size="small", color=STATE),
                       words("累加和：历史梯度的平方", size="small", color="muted"),
                       words("只增不减", size="small", color=STATE)).arrange(DOWN, buff=theme.space("tight"))
        title.move_to([BAR_X, base[1] + BAR_H + theme.space("close"), 0], aligned_edge=DOWN)
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
        self.start_panel("C", "RMSProp 的病在初期，Adam 的偏差校正",
                         says="RMSProp 把「累加」换成「滑动平均」—— 分母会遗忘了，后期的病治好了。")
        steps = lineage.LOG_STEPS.value
        top = lineage.CLIP_GAIN.value
        plot = Plot(x_range=(1, steps), y_range=(0, top), x_log=True, width=LOG_W, height=LOG_H,
                    x_ticks_key="lineage.log_step_ticks", y_ticks_key="lineage.gain_ticks",
                    x_title="步数（对数）", grid=True)
        plot.shift(LOG_CORNER - plot.point(1, 0))
        xs = lineage.log_sampled_steps(steps)
        runs = {name: run[xs - 1] for name, run in lineage.late_runs(steps).items()}
        # The legend is laid out whole, so nothing moves, but each row comes with its line.
        entries = legend([(RMSPROP, "RMSProp", "line"), (ADAM, "Adam", "line"), (ADAM_RAW, "Adam 不校正", "dashed")],
                         direction=DOWN)
        key = VGroup(words("纵轴：每步走的 ÷ 学习率", size="small", color="muted"), entries)
        key.arrange(DOWN, aligned_edge=LEFT, buff=theme.space("medium")).move_to([SIDE_X, KEY_Y, 0], aligned_edge=UP + LEFT)
        rms_entry, adam_entry, raw_entry = entries
        self.play(FadeIn(plot), FadeIn(key[0]), run_time=0.6)
        rms = curve(plot, xs, runs["rmsprop"], RMSPROP, clip=True).set_z_index(1)   # above the others' lines
        self.play(grow(rms, run_time=1.5), FadeIn(rms_entry, run_time=0.5))

        self.beat(says="可它落下了新的：滑动平均是从零起步的。")
        back_in = int(xs[np.argmax(runs["rmsprop"] <= top)])   # first drawn step under the top
        self.play(FadeIn(self.warmup_shade(plot, back_in)), run_time=0.6)

        self.beat(says="第一步的更新被放大了三十二倍，直接冲出画面。")
        # At step 1 the run is off the picture: a stub out of the top edge, and a dashed run
        # along the top to where the curve comes back in.
        out = arrow(plot.point(1, top), plot.point(1, top) + UP * OUT_PAST, RMSPROP, weight="bold", buff=None)
        above = dashed(curve(plot, [1, back_in], [top, top], RMSPROP, stroke_width=3)).set_z_index(1)
        out_label = ledger_text("第一步被放大 {optim.rmsprop_first_step_gain} —— 冲出画面", size="label",
                                color=RMSPROP).next_to(out.get_end(), RIGHT, buff=theme.space("close"))
        self.play(Succession(Create(out, run_time=0.4), Create(above, run_time=0.5), FadeIn(out_label, run_time=0.4)))
        caveat = VGroup(*[line(t, size="small", color="muted") for t in (
            "各线同用 β₂ ＝ {optim.adam.beta2}（Adam 默认）",
            "Hinton 网课 slide 上的原版取 {lineage.rmsprop_rho_slides}，",
            "第一步会是 {lineage.rmsprop_first_step_gain_slides}")])
        caveat.arrange(DOWN, aligned_edge=LEFT, buff=theme.space("tight"))
        caveat.next_to(key, DOWN, buff=NOTE_GAP, aligned_edge=LEFT)
        self.play(FadeIn(caveat), run_time=0.5)

        self.beat(says="Adam 的偏差校正就是来修这一下的。你看绿线 —— 从第一步起就是平的。",
                  takeaway="偏差校正：从第一步起就是平的")
        adam = curve(plot, xs, runs["adam"], ADAM, stroke_width=7)
        self.play(grow(adam, run_time=1.2), FadeIn(adam_entry, run_time=0.5))

        self.beat(says="如果 Adam 只加动量、不做校正， 峰值只有六点六倍，不是三十二倍 ——")
        raw = dashed(curve(plot, xs, runs["adam_raw"], ADAM_RAW))
        bump = VGroup(line("不校正：从 {lineage.adam_no_bc_first_step} 起，", size="small", color=ADAM_RAW),
                      line("第 {lineage.adam_no_bc_peak_step} 步升到峰值 {optim.adam_no_bias_correction_peak}",
                           size="small", color=ADAM_RAW))
        bump.arrange(DOWN, aligned_edge=LEFT, buff=theme.space("tight")).next_to(caveat, DOWN, buff=NOTE_GAP,
                                                                                   aligned_edge=LEFT)
        self.play(Create(raw, run_time=1.5, rate_func=linear), FadeIn(raw_entry, run_time=0.5))
        self.play(FadeIn(self.peak_mark(plot, lineage.late_runs(steps)["adam_raw"])), FadeIn(bump), run_time=0.5)

        self.beat(says="因为动量那一项自己也有偏差，两个偏差部分抵消了。",
                  takeaway="动量的偏差和分母的偏差部分抵消")
        self.wait(0.3)

    @staticmethod
    def warmup_shade(plot: Plot, back_in: int) -> VGroup:
        """Steps 1 … ``back_in`` shaded lightly and named: the average is still close to the
        zero it started from, so the denominator is too small and the step too big."""
        low, high = plot.point(1, 0), plot.point(back_in, plot.y_scale.high)
        shade = Rectangle(width=high[0] - low[0], height=high[1] - low[1], stroke_width=0,
                          fill_color=theme.color(RMSPROP), fill_opacity=WARMUP_TINT)
        shade.move_to((low + high) / 2)
        name = VGroup(on_plot("滑动平均", color=RMSPROP, size="small"), on_plot("刚起步", color=RMSPROP, size="small"))
        # Inside the shade, just over the flat line: below where Adam's uncorrected bump runs.
        name.arrange(DOWN, buff=theme.space("tight")).move_to(plot.point(1, WARMUP_LABEL_AT), aligned_edge=DOWN)
        name.set_x(shade.get_x())
        return VGroup(shade, name)

    @staticmethod
    def peak_mark(plot: Plot, raw_run: np.ndarray) -> VGroup:
        """A dot on the uncorrected curve at its peak, with the peak's ledger value."""
        peak_step = int(lineage.ADAM_RAW_PEAK_STEP.value)
        spot = plot.point(peak_step, float(raw_run[peak_step - 1]))
        dot = Dot(spot, radius=PEAK_DOT, color=theme.color(ADAM_RAW)).set_z_index(2)
        label = on_plot("峰值 {optim.adam_no_bias_correction_peak}", color=ADAM_RAW, size="small")
        # Up and to the left of the dot: clear of RMSProp, which comes down just right of the peak.
        label.next_to(dot, UP, buff=theme.space("tight")).align_to(dot, RIGHT)
        return VGroup(dot, label)

    # ---- Ⓓ how the three were published ----

    def how_they_were_published(self) -> None:
        self.start_panel("D", "这条链是怎么发表的", says="顺便说说这三个东西是怎么发表的，对比很有意思。")
        names = VGroup(*[words(name, size="heading", color=colour).move_to([STORY_LEFT, top, 0], aligned_edge=UP + LEFT)
                         for (name, colour), top in zip((("AdaGrad", ADAGRAD), ("RMSProp", RMSPROP), ("Adam", ADAM)),
                                                        ROW_TOPS)])
        self.play(FadeIn(names, lag_ratio=0.3), run_time=0.9)
        rows = [VGroup() for _ in ROW_TOPS]

        def tell(row: int, template: str, size: str = "body", color: str = "ink") -> None:
            text = line(template, size=size, color=color)
            below = rows[row][-1] if len(rows[row]) else None
            if below is None:
                text.move_to([STORY_TEXT_X, names[row].get_center()[1], 0], aligned_edge=LEFT)
            else:
                text.next_to(below, DOWN, buff=theme.space("snug"), aligned_edge=LEFT)
            rows[row].add(text)
            self.play(FadeIn(text, shift=RIGHT * theme.space("close")), run_time=0.6)

        self.beat(says="AdaGrad：正经的 JMLR 长文，整整三十九页。")
        tell(0, "正经的 JMLR 长文，整整 {lineage.adagrad_pages} 页")
        self.beat(says="它根本不是为深度学习写的。")
        tell(0, "题目：《面向在线学习与随机优化的自适应次梯度方法》", size="label", color="muted")
        tell(0, "—— 根本不是为深度学习写的", size="label", color="muted")
        self.beat(says="它没有论文。")
        tell(1, "没有论文", color=RMSPROP)
        self.beat(says="它唯一的「出版物」，是 Hinton 那门 Coursera 网课里的一页 slide。")
        tell(1, "唯一的「出版物」：Hinton 的 Coursera 网课里的 slide", size="label", color="muted")
        self.beat(says="今天所有引用它的论文，引的都是「第 6.5 讲」。")
        tell(1, "今天引它，引的都是「第 {lineage.rmsprop_lecture} 讲」", size="label", color="muted")
        self.beat(says="而那页 slide 的副标题，本身就是这个算法的完整定义：")
        tell(1, "slide 副标题：「把梯度除以它近期幅度的滑动平均」", size="label", color="muted")
        self.beat(says="首页有个脚注：「作者顺序，由 Google Hangout 上掷硬币决定。」")
        tell(2, "首页脚注：作者顺序由掷硬币决定")
        self.beat(says="致谢里还有一句：「特别感谢 Ivo Danihelka 和 Tom Schaul 起了 Adam 这个名字。」")
        tell(2, "致谢：名字是 Ivo Danihelka 和 Tom Schaul 起的", size="label", color="muted")
        source = line("出处：JMLR 原文；Coursera 第 {lineage.rmsprop_lecture} 讲；Adam 论文的脚注、致谢与相关工作",
                      size="small", color="muted")
        source.move_to([0, SOURCE_Y, 0])
        self.play(FadeIn(source), run_time=0.4)

        self.beat(says="一条改变了整个领域的技术链，中间那一环连篇论文都没有。")
        middle = SurroundingRectangle(VGroup(names[1], rows[1]), color=theme.color(RMSPROP),
                                      buff=theme.space("snug"), corner_radius=0.1)
        self.play(Create(middle), run_time=0.8)
        self.beat(says="而它成立的最硬的证据，是 Adam 论文自己证的： AdaGrad 就是 Adam 的一个特例。",
                  takeaway="Adam 论文自己证明：AdaGrad 是 Adam 的特例")
        self.wait(0.3)
