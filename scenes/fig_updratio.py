"""fig-updratio: a ruler you can line up by eye — update ÷ parameter ≈ 1e-3.

Ⓐ three runs of a small MLP (太小 / 刚好 / 太大 learning rate): their update ÷ parameter ratio
   against the black 1e-3 line; the 刚好 learning rate was swept to sit on it.
Ⓑ the 太大 run ends with the lower loss, but its weights stretch, its loss shakes about its
   trend (the 刚好 run hardly does: the ratio of the two is said only as an order, 几千倍),
   and a little more learning rate turns it into NaN (a slider pushed from 太大's η to the first
   multiplier whose run ends non-finite): the ratio tells how far the cliff is. One beat per clause
   the speaker reads.
Every curve is a run of lecture_numerics/updratio.py (the toy trained for real).
"""

from __future__ import annotations

import numpy as np
from manim import BOLD, DOWN, LEFT, RIGHT, UP, Create, Dot, FadeIn, Line, VGroup

from lecture_numerics import updratio
from scenes.kit import theme
from scenes.kit.base import LectureScene
from scenes.kit.plots import Plot, curve, grow
from scenes.kit.text import line, words

RUNS = (("太小", "muted", "updratio.lr_small"), ("刚好", "good", "updratio.lr_ok"), ("太大", "backward", "updratio.lr_big"))
RATIO_CORNER, RATIO_W, RATIO_H = np.array([-4.7, -1.65, 0]), 7.0, 3.7
LABEL_X = 2.65                    # run labels, right of the ratio plot
NORM_CORNER, LOSS_CORNER = np.array([-5.2, -1.55, 0]), np.array([1.4, -1.55, 0])
SMALL_W, SMALL_H = 4.6, 2.55
TOP_ROW_Y, CLIFF_Y = 2.65, 2.15      # Ⓑ: the losses (and, last, their caveat) on top; the cliff its own row under them
CAVEAT_BUFF = 0.4                    # the caveat follows the losses on their row, as their aside
NOTE_Y = 2.1                         # Ⓐ: what the ratio measures, right of the plot, over the run labels
OK_LABEL_LIFT = 0.6                  # 刚好 rides the black line: its name goes well above the line's label
RULE_LABEL_BUFF = 0.3                # the line's label keeps clear of the curves' ends
SLIDER_W, KNOB_R = 1.4, 0.11         # Ⓑ's learning-rate slider: track length, knob radius
ROW_LEFT = -6.4                      # Ⓑ's text rows start here (inside the safe margin)


class FigUpdratio(LectureScene):
    scene_id = "fig-updratio"
    title = "一把能用眼睛对齐的尺子：更新量 ÷ 参数"
    loop = False
    ledger_keys = (
        "updratio.target_ratio", "updratio.ratio_ticks", "updratio.step_ticks", "updratio.lr_small",
        "updratio.lr_ok", "updratio.lr_big", "updratio.final_loss_big", "updratio.final_loss_ok",
        "updratio.norm_ticks", "updratio.weight_norm_growth", "updratio.last_steps_ticks", "updratio.loss_ticks",
        "updratio.loss_jitter_big", "updratio.loss_jitter_ok", "updratio.loss_jitter_trend_ratio",
        "updratio.nan_multiplier",
    )

    def construct(self) -> None:
        self.three_ratios()
        self.the_cost()

    @staticmethod
    def runs() -> updratio.Runs:
        return updratio.three_runs(updratio.LR_OK.value, updratio.SPREAD.value)

    # ---- Ⓐ three ratio curves and the black line ----

    def three_ratios(self) -> None:
        self.start_panel("A", "能用眼睛对齐的尺子：学习率设对没有", says="怎么知道学习率设对没有？有一条能用眼睛对齐的线")
        steps = updratio.STEPS.value
        plot = Plot(x_range=(0, steps), y_range=(1e-5, 1.0), y_log=True, width=RATIO_W, height=RATIO_H,
                    x_ticks_key="updratio.step_ticks", y_ticks_key="updratio.ratio_ticks",
                    x_title="步数", y_title="‖更新量‖ ÷ ‖W₁‖（第一层）", grid=True)
        plot.shift(RATIO_CORNER - plot.point(0, 1e-5))
        plot.y_title.align_to(plot.y_ticks, LEFT)     # wider than the axis: kept inside the frame
        self.play(FadeIn(plot), run_time=0.6)

        self.beat(says="量的是更新量除以参数本身 —— 注意是更新量，不是梯度")
        measured = VGroup(words("量的是更新量 ÷ 参数本身", size="label"),
                          words("是更新量，不是梯度", size="label", weight=BOLD))
        # Ink, not red: red names the 太大 run in this figure, and these two lines head the column.
        measured.arrange(DOWN, aligned_edge=LEFT, buff=0.15).move_to([LABEL_X, NOTE_Y, 0], aligned_edge=LEFT)
        self.play(FadeIn(measured[0]), run_time=0.5)
        self.play(FadeIn(measured[1], shift=UP * 0.1), run_time=0.5)

        self.beat(says="经验值是千分之一，图上那条黑线就是它")
        target = updratio.TARGET.value
        rule = Line(plot.point(0, target), plot.point(steps, target), color=theme.color("ink"), stroke_width=6)
        rule_label = line("{updratio.target_ratio} —— 经验值", size="label")
        rule_label.next_to(rule, RIGHT, buff=RULE_LABEL_BUFF)
        self.play(Create(rule), FadeIn(rule_label), run_time=0.8)

        self.beat(says="贴着线就大致合适", takeaway="贴着线 ＝ 大致合适")
        ratios = self.runs().ratios
        xs = np.arange(steps)
        curves = [curve(plot, xs, ratios[i], colour) for i, (_, colour, _) in enumerate(RUNS)]
        self.play(*[grow(c, run_time=2.5) for c in curves])
        labels = VGroup()
        for i, (name, colour, key) in enumerate(RUNS):
            label = line(f"{name}　η {{{key}}}", size="label", color=colour)
            y = plot.point(steps, ratios[i, -1])[1]
            labels.add(label.move_to([LABEL_X, y, 0], aligned_edge=LEFT))
        labels[1].shift(UP * OK_LABEL_LIFT)
        self.play(FadeIn(labels, lag_ratio=0.3), run_time=0.9)

    # ---- Ⓑ the lower loss, and what it costs ----

    def the_cost(self) -> None:
        self.start_panel("B", "太大那条的 loss 反而更低",
                         says="但 Ⓑ 那一格必须讲：太大那条的 loss 反而更低")
        runs = self.runs()
        steps = updratio.STEPS.value
        losses = line("最终 loss：太大 {updratio.final_loss_big} ＜ 刚好 {updratio.final_loss_ok}", size="body")
        losses.move_to([ROW_LEFT, TOP_ROW_Y, 0], aligned_edge=LEFT)
        self.play(FadeIn(losses), run_time=0.6)

        self.beat(says="代价在别处 —— 权重被撑到四倍多")
        norm_plot = Plot(x_range=(0, steps), y_range=(0, 5), width=SMALL_W, height=SMALL_H,
                         x_ticks_key="updratio.step_ticks", y_ticks_key="updratio.norm_ticks",
                         x_title="步数", y_title="‖W₁‖ ÷ 起点")
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

        self.beat(says="抖动大了近十倍")
        self.jitter_plot(runs)

        self.beat(says="而学习率再乘 2.1 就直接 NaN")
        self.cliff_slider()

        self.beat(says="所以这条比值不是让 loss 最低的指标，是看你离悬崖多远的指标",
                  takeaway="这条比值不是让 loss 最低的指标，是看你离悬崖多远的指标")
        # The notes never read the caveat out: it comes last, a muted aside to the lower loss.
        self.show_takeaway()
        caveat = words("（玩具问题：loss 低只是记住了噪声）", size="small", color="muted")
        caveat.next_to(losses, RIGHT, buff=CAVEAT_BUFF).align_to(losses, DOWN)
        self.play(FadeIn(caveat), run_time=0.5)

    def cliff_slider(self) -> None:
        """A learning-rate slider pushed up from 太大's η: where it stops, the run ends in NaN."""
        what = words("学习率", size="label", color="muted")
        track = Line(LEFT * SLIDER_W / 2, RIGHT * SLIDER_W / 2, color=theme.color("muted"),
                     stroke_width=theme.stroke("bold"))
        verdict = line("再乘约 {updratio.nan_multiplier} 倍 → NaN", size="label", color="backward")
        row = VGroup(what, track, verdict).arrange(RIGHT, buff=0.3)
        row.move_to([ROW_LEFT, CLIFF_Y, 0], aligned_edge=LEFT)
        knob = Dot(track.get_start(), radius=KNOB_R, color=theme.color("accent"))
        pushed = Line(track.get_start(), track.get_end(), color=theme.color("backward"),
                      stroke_width=theme.stroke("bold"))
        self.play(FadeIn(what), FadeIn(track), FadeIn(knob), run_time=0.5)
        self.play(knob.animate.move_to(track.get_end()), Create(pushed), run_time=1.4)
        self.play(knob.animate.set_color(theme.color("backward")), FadeIn(verdict, shift=LEFT * 0.2), run_time=0.5)

    def jitter_plot(self, runs: updratio.Runs) -> None:
        """The last steps' loss: 太大 shakes about its trend, 刚好 is a smooth line (the jitter is
        the RMS about a quadratic trend, lecture_numerics/updratio.py)."""
        steps, tail = updratio.STEPS.value, updratio.TAIL.value
        last = slice(-(tail + 1), None)
        xs = np.arange(steps + 1)
        loss_plot = Plot(x_range=(steps - tail, steps), y_range=updratio.LOSS_RANGE, width=SMALL_W, height=SMALL_H,
                         x_ticks_key="updratio.last_steps_ticks", y_ticks_key="updratio.loss_ticks",
                         x_title="步数（最后那段）", y_title="loss")
        loss_plot.shift(LOSS_CORNER - loss_plot.point(steps - tail, updratio.LOSS_RANGE[0]))
        traces = [curve(loss_plot, xs[last], runs.losses[i, last], RUNS[i][1], stroke_width=3) for i in (1, 2)]
        self.play(FadeIn(loss_plot), run_time=0.5)
        self.play(*[grow(c, run_time=1.2) for c in traces])
        shake = line("太大：绕着趋势抖 ±{updratio.loss_jitter_big}", size="small", color="backward")
        # 太大's label under its trace, 刚好's over its line: the axis leaves room for both.
        shake.next_to(loss_plot.point(steps, float(runs.losses[2, last].min())), DOWN, buff=0.12)
        shake.align_to(loss_plot.x_axis, RIGHT)
        calm = line("刚好：几乎不抖 ±{updratio.loss_jitter_ok}", size="small", color="good")
        calm.next_to(loss_plot.point(steps, float(runs.losses[1, last].max())), UP, buff=0.12)
        calm.align_to(loss_plot.x_axis, RIGHT)
        self.play(FadeIn(shake), FadeIn(calm), run_time=0.5)
        # The two numbers read as a ratio, so the ratio is said, as an order only: 刚好's residual
        # is fit error, and the ratio moves with the trend's degree (lecture_numerics/updratio.py).
        ratio = line("太大抖得至少是刚好的{updratio.loss_jitter_trend_ratio}倍", size="small", color="ink")
        ratio.move_to(loss_plot.point(steps, 0.6), aligned_edge=RIGHT)
        self.play(FadeIn(ratio, shift=UP * 0.1), run_time=0.5)
