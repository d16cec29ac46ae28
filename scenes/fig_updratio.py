"""fig-updratio: a ruler you can line up by eye — update ÷ parameter ≈ 1e-3.

Ⓐ three runs of a small MLP (太小 / 刚好 / 太大 learning rate): their update ÷ parameter ratio
   against the black 1e-3 line; the 刚好 learning rate was swept to sit on it.
Ⓑ the 太大 run ends with the lower loss, but its weights stretch, its loss shakes, and a
   little more learning rate turns it into NaN: the ratio tells how far the cliff is.
Every curve is a run of lecture_numerics/updratio.py (the toy trained for real).
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, Create, DashedLine, FadeIn, FadeOut, Line, VGroup

from lecture_numerics import updratio
from scenes.kit import theme
from scenes.kit.base import LectureScene
from scenes.kit.panels import EDGE_BUFF
from scenes.kit.plots import Plot, curve, grow
from scenes.kit.text import line, words

RUNS = (("太小", "muted", "updratio.lr_small"), ("刚好", "good", "updratio.lr_ok"), ("太大", "backward", "updratio.lr_big"))
RATIO_CORNER, RATIO_W, RATIO_H = np.array([-4.7, -2.0, 0]), 7.0, 3.9
LABEL_X = 2.65                    # run labels, right of the ratio plot
NORM_CORNER, LOSS_CORNER = np.array([-5.6, -1.45, 0]), np.array([1.3, -1.45, 0])
SMALL_W, SMALL_H = 4.9, 2.9
TOP_ROW_Y, CAVEAT_Y = 2.6, -2.75


class FigUpdratio(LectureScene):
    scene_id = "fig-updratio"
    title = "一把能用眼睛对齐的尺子：更新量 ÷ 参数"
    loop = False
    ledger_keys = (
        "updratio.target_ratio", "updratio.ratio_ticks", "updratio.step_ticks", "updratio.lr_small",
        "updratio.lr_ok", "updratio.lr_big", "updratio.final_loss_big", "updratio.final_loss_ok",
        "updratio.norm_ticks", "updratio.weight_norm_growth", "updratio.last_steps_ticks", "updratio.loss_ticks",
        "updratio.loss_jitter_ratio", "updratio.nan_multiplier",
    )

    def construct(self) -> None:
        self.three_ratios()
        self.the_cost()

    def say(self, current, template: str, color: str = "ink"):
        new = line(template, size="body", color=color).to_edge(DOWN, buff=EDGE_BUFF)
        self.play(*([FadeOut(current)] if current is not None else []), FadeIn(new, shift=UP * 0.2), run_time=0.5)
        return new

    @staticmethod
    def runs() -> updratio.Runs:
        return updratio.three_runs(updratio.LR_OK.value, updratio.SPREAD.value)

    # ---- Ⓐ three ratio curves and the black line ----

    def three_ratios(self) -> None:
        self.start_panel("A", "量的是更新量 ÷ 参数本身 —— 是更新量，不是梯度")
        steps = updratio.STEPS.value
        plot = Plot(x_range=(0, steps), y_range=(1e-5, 1.0), y_log=True, width=RATIO_W, height=RATIO_H,
                    x_ticks_key="updratio.step_ticks", y_ticks_key="updratio.ratio_ticks",
                    x_title="步数", y_title="‖η·梯度‖ ÷ ‖W₁‖（第一层）", grid=True)
        plot.shift(RATIO_CORNER - plot.point(0, 1e-5))
        plot.y_title.align_to(plot.y_ticks, LEFT)     # wider than the axis: kept inside the frame
        self.play(FadeIn(plot), run_time=0.6)
        target = updratio.TARGET.value
        rule = Line(plot.point(0, target), plot.point(steps, target), color=theme.color("ink"), stroke_width=6)
        rule_label = line("{updratio.target_ratio} —— 经验值", size="label")
        rule_label.next_to(rule, RIGHT, buff=0.2)
        self.play(Create(rule), FadeIn(rule_label), run_time=0.8)

        ratios = self.runs().ratios
        xs = np.arange(steps)
        curves = [curve(plot, xs, ratios[i], colour) for i, (_, colour, _) in enumerate(RUNS)]
        self.play(*[grow(c, run_time=2.5) for c in curves])
        labels = VGroup()
        for i, (name, colour, key) in enumerate(RUNS):
            label = line(f"{name}　η {{{key}}}", size="label", color=colour)
            y = plot.point(steps, ratios[i, -1])[1]
            labels.add(label.move_to([LABEL_X, y, 0], aligned_edge=LEFT))
        labels[1].shift(UP * 0.45)               # 刚好 rides the black line: its name goes just above
        self.play(FadeIn(labels, lag_ratio=0.3), run_time=0.9)
        self.say(None, "贴着线 ＝ 大致合适", "good")
        self.wait(1.5)

    # ---- Ⓑ the lower loss, and what it costs ----

    def the_cost(self) -> None:
        self.start_panel("B", "太大那条的 loss 反而更低 —— 代价在别处")
        runs = self.runs()
        steps = updratio.STEPS.value
        losses = line("最终 loss：太大 {updratio.final_loss_big} ＜ 刚好 {updratio.final_loss_ok}", size="body")
        losses.move_to([-6.4, TOP_ROW_Y, 0], aligned_edge=LEFT)
        self.play(FadeIn(losses), run_time=0.6)
        caption = self.say(None, "loss 反而更低……", "backward")
        self.wait(0.6)

        norm_plot = Plot(x_range=(0, steps), y_range=(0, 5), width=SMALL_W, height=SMALL_H,
                         x_ticks_key="updratio.step_ticks", y_ticks_key="updratio.norm_ticks",
                         y_title="‖W₁‖ ÷ 起点")
        norm_plot.shift(NORM_CORNER - norm_plot.point(0, 0))
        grown = runs.norms / runs.norms[:, :1]
        xs = np.arange(steps + 1)
        norm_curves = [curve(norm_plot, xs, grown[i], colour) for i, (_, colour, _) in enumerate(RUNS)]
        self.play(FadeIn(norm_plot), run_time=0.5)
        self.play(*[grow(c, run_time=1.5) for c in norm_curves])
        big_label = line("太大：撑到 {updratio.weight_norm_growth}", size="small", color="backward")
        big_label.next_to(norm_plot.point(steps, grown[2, -1]), LEFT, buff=0.15).shift(UP * 0.3)
        calm_label = words("太小、刚好：几乎重合", size="small", color="muted")
        calm_label.next_to(norm_plot.point(steps, grown[1, -1]), UP, buff=0.15).align_to(norm_plot.x_axis, RIGHT)
        self.play(FadeIn(big_label), FadeIn(calm_label), run_time=0.6)
        caption = self.say(caption, "代价在别处：权重被撑大")

        last = slice(-101, None)
        loss_plot = Plot(x_range=(steps - 100, steps), y_range=updratio.LOSS_RANGE, width=SMALL_W, height=SMALL_H,
                         x_ticks_key="updratio.last_steps_ticks", y_ticks_key="updratio.loss_ticks",
                         y_title="最后那段的 loss")
        loss_plot.shift(LOSS_CORNER - loss_plot.point(steps - 100, updratio.LOSS_RANGE[0]))
        tail = [curve(loss_plot, xs[last], runs.losses[i, last], RUNS[i][1], stroke_width=3) for i in (1, 2)]
        self.play(FadeIn(loss_plot), run_time=0.5)
        self.play(*[grow(c, run_time=1.2) for c in tail])
        shake = line("太大：抖动大了 {updratio.loss_jitter_ratio}", size="small", color="backward")
        shake.next_to(loss_plot.point(steps, float(runs.losses[2, last].max())), UP, buff=0.25)
        shake.align_to(loss_plot.x_axis, RIGHT)
        calm = words("刚好", size="small", color="good")
        start = loss_plot.point(steps - 100, float(runs.losses[1, -101]))
        calm.next_to(start, DOWN, buff=0.15).align_to(start + RIGHT * 0.2, LEFT)
        self.play(FadeIn(shake), FadeIn(calm), run_time=0.5)
        caption = self.say(caption, "抖动也大了")

        cliff = line("学习率再乘 {updratio.nan_multiplier} → NaN", size="body", color="backward")
        cliff.move_to([6.5, TOP_ROW_Y, 0], aligned_edge=RIGHT)
        self.play(FadeIn(cliff, shift=LEFT * 0.3), run_time=0.6)
        self.wait(0.6)
        caveat = words("玩具问题：随机 X → 随机 Y，没有验证集 —— loss 低只是记住了噪声", size="small", color="muted")
        caveat.move_to([0, CAVEAT_Y, 0])
        self.play(FadeIn(caveat), run_time=0.5)
        self.say(caption, "这条比值不是让 loss 最低的指标，是看你离悬崖多远的指标")
        self.wait(2.0)
