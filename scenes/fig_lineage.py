"""fig-lineage: AdaGrad → RMSProp → Adam as a chain, shown by feeding one constant gradient.

Ⓐ four boxes fed the same gradient: only SGD and Adam give a flat line; under each link,
   what it fixed (green) and what it left (red).
Ⓑ AdaGrad's illness is late: its denominator only grows, the step falls to 4 % by step 600.
Ⓒ RMSProp's illness is early: from a zero start its first step is 32×; Adam's bias
   correction makes it flat from step 1; without it the bump peaks at 6.6×.
Ⓓ how the three were published: a 39-page JMLR paper, one Coursera slide, a coin flip —
   and Adam's own proof that AdaGrad is a special case of it.
Every curve is a run of the update rules (lecture_numerics/lineage.py → optim.update_sizes).
"""

from __future__ import annotations

import numpy as np
from manim import (DOWN, LEFT, RIGHT, UP, Create, DashedLine, FadeIn, FadeOut, GrowFromEdge, Indicate,
                   Rectangle, RoundedRectangle, Square, UpdateFromAlphaFunc, VGroup, linear)

from lecture_numerics import lineage
from scenes.kit import theme
from scenes.kit.annotate import label_after, callout, legend
from scenes.kit.arrows import arrow
from scenes.kit.base import LectureScene
from scenes.kit.layout import keep_inside
from scenes.kit.panels import EDGE_BUFF
from scenes.kit.plots import Plot, curve, grow, grow_run
from scenes.kit.text import ledger_text, line, words

# Ⓐ: four columns, a thumbnail plot in each.
COLUMN_XS = (-5.25, -1.75, 1.75, 5.25)
THUMB_W, THUMB_H, THUMB_BOTTOM = 2.5, 1.45, -0.35
STRIP_Y, NAME_Y, VERDICT_Y = 2.45, 1.7, -0.95
BOXES = (("sgd", "SGD", "muted"), ("adagrad", "AdaGrad {optimizers.year.adagrad}", "backward"),
         ("rmsprop", "RMSProp {lineage.year_rmsprop}", "warm"), ("adam", "Adam {optimizers.year.adam}", "good"))
FLAT = {"sgd", "adam"}
KEY_Y, NOTE_GAP = 1.3, 0.45      # Ⓒ's legend column: its top row, and the gap to each note under it
ROW_YS, SOURCE_Y = (2.0, 0.6, -0.8), -2.2   # Ⓓ's three rows and the source line
TILE_SIDE, TILE_TINT = 0.42, 0.12           # Ⓐ's strip of gradient tiles
OUT_AT, OUT_FROM, OUT_PAST = 1.15, 0.6, 0.45    # the RMSProp run leaving the plot: step, share of top, overshoot
LINKS = {"adagrad": ("每个参数一个尺度", "分母只增不减"),
         "rmsprop": ("累加 → 滑动平均", "起步时分母太小"),
         "adam": ("＋偏差校正", "从第一步起就是平的")}

# Ⓑ and Ⓒ: one big plot, lower-left corner here.
PLOT_CORNER = np.array([-4.9, -1.9, 0])
BIG_W, BIG_H = 7.0, 3.9
BAR_X, BAR_W, BAR_H = 4.6, 0.7, 3.3
LOG_CORNER = np.array([-5.6, -1.8, 0])
LOG_W, LOG_H, SIDE_X = 6.3, 3.6, 1.35
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

    def say(self, current, template: str, color: str = "ink"):
        new = line(template, size="body", color=color).to_edge(DOWN, buff=EDGE_BUFF)
        self.play(*([FadeOut(current)] if current is not None else []), FadeIn(new, shift=UP * theme.space("close")), run_time=0.5)
        return new

    @staticmethod
    def gradient_strip(count: int, width: float) -> VGroup:
        """A row of identical 「g」 tiles: the same gradient, step after step."""
        tiles = VGroup(*[VGroup(Square(TILE_SIDE, stroke_width=2, stroke_color=theme.color("backward"),
                                       fill_color=theme.color("backward"), fill_opacity=TILE_TINT),
                                words("g", size="small", color="backward")) for _ in range(count)])
        return tiles.arrange(RIGHT, buff=(width - count * TILE_SIDE) / max(count - 1, 1))

    # ---- Ⓐ the chain, four boxes ----

    def four_boxes(self) -> None:
        self.start_panel("A", "喂同一串恒定的梯度，看每家的有效学习率")
        steps = lineage.THUMB_STEPS.value
        runs = lineage.thumbnails(steps)
        xs = np.arange(1, steps + 1)
        strip = self.gradient_strip(16, 12.4).move_to([0, STRIP_Y, 0])
        self.play(FadeIn(strip, lag_ratio=0.1), run_time=0.8)

        plots, frames, names, flats, curves = [], VGroup(), VGroup(), VGroup(), []
        for x, (key, name, colour) in zip(COLUMN_XS, BOXES):
            plot = Plot(x_range=(0, steps), y_range=(0, lineage.THUMB_TOP.value), width=THUMB_W, height=THUMB_H)
            plot.shift(np.array([x - THUMB_W / 2, THUMB_BOTTOM, 0]) - plot.point(0, 0))
            plots.append(plot)
            frame_bottom, frame_top = THUMB_BOTTOM - 0.25, NAME_Y + 0.35
            frames.add(RoundedRectangle(width=THUMB_W + 0.5, height=frame_top - frame_bottom, corner_radius=0.12,
                                        stroke_color=theme.color("muted"), stroke_width=2)
                       .move_to([x, (frame_top + frame_bottom) / 2, 0]))
            names.add(line(name, size="label", color=colour).move_to([x, NAME_Y, 0]))
            flats.add(DashedLine(plot.point(0, 1), plot.point(steps, 1), color=theme.color("ink"), stroke_width=2))
            curves.append(curve(plot, xs, runs[key], colour, clip=True))
        self.play(FadeIn(frames), FadeIn(VGroup(*plots)), FadeIn(names), run_time=0.8)
        healthy = words("健康的 → 一条平线", size="small").next_to(frames, DOWN, buff=theme.space("small")).set_x(COLUMN_XS[0])
        self.play(Create(flats), FadeIn(healthy), run_time=0.7)
        self.play(*[grow(c, run_time=2.0) for c in curves])

        verdicts = VGroup()
        for x, (key, _, _) in zip(COLUMN_XS, BOXES):
            if key in FLAT:
                continue
            verdicts.add(words("不平 → 它自己的毛病", size="small", color="backward").move_to([x, VERDICT_Y - 0.5, 0]))
        lit = [Indicate(frames[i], color=theme.color("good"), scale_factor=1.05) for i in (0, 3)]
        caption = self.say(None, "只有第一个和最后一个是平的")
        self.play(*lit, FadeIn(verdicts), run_time=1.0)
        self.wait(0.6)

        links = VGroup()
        for x, (key, _, _) in zip(COLUMN_XS, BOXES):
            if key not in LINKS:
                continue
            fixed, left = LINKS[key]
            still_ill = key != "adam"     # Adam's second line is what it achieves, not what it leaves
            links.add(VGroup(words("✔ " + fixed, size="small", color="good"),
                             words(("✘ " if still_ill else "✔ ") + left, size="small",
                                   color="backward" if still_ill else "good"))
                      .arrange(DOWN, buff=theme.space("snug")).move_to([x, VERDICT_Y - 1.4, 0]))
            keep_inside(links[-1])
        self.play(FadeIn(links, lag_ratio=0.4), run_time=1.4)
        self.say(caption, "每一个都在补上一个留下的洞")
        self.wait(1.5)

    # ---- Ⓑ AdaGrad's illness is late ----

    def adagrad_late(self) -> None:
        self.start_panel("B", "AdaGrad 的病在后期")
        steps = lineage.THUMB_STEPS.value
        plot = Plot(x_range=(0, steps), y_range=(0, 1.2), width=BIG_W, height=BIG_H,
                    x_ticks_key="lineage.lin_step_ticks", y_ticks_key="lineage.lin_gain_ticks",
                    x_title="步数", y_title="有效学习率（÷ 稳态）", grid=True)
        plot.shift(PLOT_CORNER - plot.point(0, 0))
        xs = np.arange(1, steps + 1)
        step, denominator = lineage.adagrad_run(steps)
        sgd = curve(plot, xs, np.ones_like(step), "muted")
        sgd_name = words("SGD（对照）", size="small", color="muted").next_to(plot.point(steps, 1), UP, buff=theme.space("snug"))
        sgd_name.align_to(plot.point(steps, 1), RIGHT)
        self.play(FadeIn(plot), run_time=0.6)
        self.play(label_after(sgd, sgd_name, run_time=0.6, label_time=0.2, draw=grow))

        # The denominator bar grows as √Σg² while the red curve falls: one alpha drives both.
        bar_base = np.array([BAR_X, PLOT_CORNER[1], 0])
        bar = Rectangle(width=BAR_W, height=BAR_H, fill_color=theme.color("backward"), fill_opacity=0.5,
                        stroke_width=0).move_to(bar_base + UP * BAR_H / 2)
        bar_title = VGroup(*[words(text, size="small", color="backward")
                             for text in ("分母：", "历史梯度平方的累加和", "只增不减")]).arrange(DOWN, buff=theme.space("tight"))
        bar_title.next_to(bar, UP, buff=theme.space("close")).set_x(BAR_X)
        run, animation = grow_run(plot, xs, step, "backward", run_time=3.0)
        top = float(denominator[-1])

        def grow_bar(mob, alpha: float) -> None:
            i = int(round(alpha * (steps - 1)))
            h = max(BAR_H * float(denominator[i]) / top, 0.02)
            mob.stretch_to_fit_height(h).move_to(bar_base + UP * h / 2)

        self.add(bar_title)
        bar.stretch_to_fit_height(0.02).move_to(bar_base + UP * 0.01)
        self.play(animation, UpdateFromAlphaFunc(bar, grow_bar, run_time=3.0, rate_func=linear), FadeIn(bar_title))
        growth = ledger_text("涨到 {lineage.adagrad_denominator_growth}", size="small", color="backward")
        growth.next_to(bar, RIGHT, buff=theme.space("small")).align_to(bar, UP)
        note = callout(plot.point(steps, step[-1]),
                       "第 {optim.adagrad_probe_step} 步：只剩稳态的 {optim.adagrad_lr_at_600}",
                       UP + LEFT * theme.space("wide"), length=1.1, color="backward", size="label")
        self.play(FadeIn(note), FadeIn(growth), run_time=0.7)
        caption = self.say(None, "喂进去的梯度自始至终是同一个数")
        self.wait(0.8)
        self.say(caption, "是那个只增不减的分母把它自己压死的", "backward")
        self.wait(1.5)

    # ---- Ⓒ RMSProp's illness is early, and Adam's fix ----

    def rmsprop_early(self) -> None:
        self.start_panel("C", "RMSProp 的病在初期，Adam 的偏差校正")
        steps = lineage.LOG_STEPS.value
        top = lineage.CLIP_GAIN.value
        plot = Plot(x_range=(1, steps), y_range=(0, top), x_log=True, width=LOG_W, height=LOG_H,
                    x_ticks_key="lineage.log_step_ticks", y_ticks_key="lineage.gain_ticks",
                    x_title="步数（对数）", grid=True)
        plot.shift(LOG_CORNER - plot.point(1, 0))
        xs = lineage.log_sampled_steps(steps)
        runs = {name: run[xs - 1] for name, run in lineage.late_runs(steps).items()}
        key = VGroup(words("纵轴：每步走的 ÷ 学习率", size="small", color="muted"),
                     legend([("warm", "RMSProp"), ("good", "Adam"), ("optimizer", "Adam 不校正")], direction=DOWN))
        key.arrange(DOWN, aligned_edge=LEFT, buff=theme.space("medium")).move_to([SIDE_X, KEY_Y, 0], aligned_edge=LEFT)
        self.play(FadeIn(plot), FadeIn(key), run_time=0.6)

        rms = curve(plot, xs, runs["rmsprop"], "warm", clip=True)
        out = arrow(plot.point(OUT_AT, top * OUT_FROM), plot.point(OUT_AT, top) + UP * OUT_PAST, "warm", weight="bold",
                    buff=None)
        out_label = ledger_text("第一步被放大 {optim.rmsprop_first_step_gain} —— 冲出画面", size="label",
                                color="warm").next_to(out.get_end(), RIGHT, buff=theme.space("close"))
        self.play(label_after(rms, VGroup(out, out_label), run_time=1.1, label_time=0.4, draw=grow))
        caption = self.say(None, "滑动平均从空的开始，开头分母被严重低估", "warm")
        self.wait(0.6)

        adam = curve(plot, xs, runs["adam"], "good", stroke_width=7)
        self.play(grow(adam, run_time=1.2))
        caption = self.say(caption, "偏差校正就是来修这一下的：从第一步起就是平的", "good")
        self.wait(0.6)

        raw = curve(plot, xs, runs["adam_raw"], "optimizer")
        bump = VGroup(line("不校正：从 {lineage.adam_no_bc_first_step} 升到峰值 {optim.adam_no_bias_correction_peak}",
                           size="small", color="optimizer"),
                      line("（第 {lineage.adam_no_bc_peak_step} 步），再并入 RMSProp", size="small", color="optimizer"))
        bump.arrange(DOWN, aligned_edge=LEFT, buff=theme.space("tight")).next_to(key, DOWN, buff=NOTE_GAP, aligned_edge=LEFT)
        self.play(grow(raw, run_time=1.5), FadeIn(bump))
        caption = self.say(caption, "动量项自己也有偏差，和分母的偏差部分抵消了", "optimizer")
        self.wait(0.8)
        caveat = VGroup(*[line(t, size="small", color="muted") for t in (
            "各线同用 β₂ ＝ {optim.adam.beta2}（Adam 默认）", "为的是只比有没有校正；",
            "课件里 RMSProp 的 {lineage.rmsprop_rho_slides} 会给出 {lineage.rmsprop_first_step_gain_slides}")])
        caveat.arrange(DOWN, aligned_edge=LEFT, buff=theme.space("tight")).next_to(bump, DOWN, buff=NOTE_GAP, aligned_edge=LEFT)
        self.play(FadeIn(caveat), run_time=0.5)
        self.wait(1.5)

    # ---- Ⓓ how the three were published ----

    def how_they_were_published(self) -> None:
        self.start_panel("D", "这条链是怎么发表的")
        stories = [
            ("AdaGrad", "backward", "正经的 JMLR 长文，整整 {lineage.adagrad_pages} 页", "题目根本不是为深度学习写的"),
            ("RMSProp", "warm", "没有论文 —— 只有 Coursera 网课里的 slide", "今天引它，引的都是「第 {lineage.rmsprop_lecture} 讲」"),
            ("Adam", "good", "首页脚注：作者顺序由掷硬币决定", "致谢：名字是 Ivo Danihelka 和 Tom Schaul 起的"),
        ]
        rows = VGroup()
        for name, colour, first, second in stories:
            head = words(name, size="heading", color=colour)
            body = VGroup(line(first, size="body"), line(second, size="label", color="muted"))
            body.arrange(DOWN, aligned_edge=LEFT, buff=theme.space("snug"))
            rows.add(VGroup(head, body))
        for row, y in zip(rows, ROW_YS):
            row[0].move_to([STORY_LEFT, y, 0], aligned_edge=LEFT)
            row[1].move_to([STORY_TEXT_X, y, 0], aligned_edge=LEFT)
        for row in rows:
            self.play(FadeIn(row, shift=RIGHT * theme.space("close")), run_time=0.6)
            self.wait(0.7)
        source = words("出处：JMLR 原文；Adam 论文的首页脚注、致谢与相关工作那节", size="small", color="muted")
        source.move_to([0, SOURCE_Y, 0])
        self.play(FadeIn(source), run_time=0.4)
        self.say(None, "Adam 论文自己证明：AdaGrad 是 Adam 的特例 —— 这才叫链", "good")
        self.wait(2.0)
