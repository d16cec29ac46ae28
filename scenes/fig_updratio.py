"""fig-updratio: a ruler you can line up by eye — update ÷ parameter ≈ 1e-3.

Ⓐ three runs of a small MLP (太小 / 刚好 / 太大 learning rate): their update ÷ parameter ratio
   against the black 1e-3 line; the 刚好 learning rate was swept to sit on it.
Ⓑ the cliff, drawn: the final loss of the same toy against its learning rate. 太大 ends lower
   than 刚好 (the ⛔ line); its cost is elsewhere (⭐): its weights stretch (the right column's
   upper plot) and its loss keeps shaking while 刚好's hardly does (the lower plot: each run's
   last 100 steps minus its own trend, in two strips on one scale; no multiple is said, since it
   moves with how the trend is taken out); pushed a little further, the loss
   turns NaN: the curve runs into a wall half as far again as 太大's η (its first NaN run), while
   刚好 sits dozens of times away from it. The ratio says how far the cliff is.
Every curve is a run of lecture_numerics/updratio.py (the toy trained for real).
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, Create, FadeIn, Flash, LaggedStart, MoveAlongPath, VGroup

from lecture_numerics import quantity, updratio
from scenes.kit import marks, theme, widgets
from scenes.kit.annotate import on_plot
from scenes.kit.base import LectureScene
from scenes.kit.plots import Plot, curve, dashed, grow, level
from scenes.kit.text import line, words

# The runs by status: 刚好 is fine (good), 太大 goes wrong (bad), 太小 barely moves (muted).
RUNS = (("太小", "muted", "updratio.lr_small"), ("刚好", "good", "updratio.lr_ok"), ("太大", "bad", "updratio.lr_big"))
SMALL, OK, BIG = range(3)

# Ⓐ
RATIO_CORNER, RATIO_W, RATIO_H = np.array([-4.7, -1.65, 0]), 7.0, 3.7
LABEL_X = 2.65                    # run labels, right of the ratio plot
NOTE_Y = 2.1                      # what the ratio measures, right of the plot, over the run labels
OK_LABEL_LIFT = 0.6               # 刚好 rides the black line: its name goes well above the line's label

# Ⓑ: the cliff plot on the left, the two costs stacked on the right.
# Both columns end high enough that their x titles clear the two takeaways under them.
CLIFF_CORNER, CLIFF_W, CLIFF_H = np.array([-5.5, -1.15, 0]), 6.5, 3.3
# The lower chart stands low enough that 太大's shaking, written over its top, clears the upper
# chart's tick labels.
NORM_CORNER, LOSS_CORNER = np.array([2.2, 1.2, 0]), np.array([2.2, -1.55, 0])
SMALL_W, SMALL_H = 4.0, 1.4
# The shaking, drawn: each run's last 100 steps minus its own quadratic trend, 太大 in the upper
# strip and 刚好 in the lower, on one vertical scale (no numbers: only the size of the wobble
# matters, and 太大's RMS is written over it). A strip's half-height is 太大's largest swing.
SHAKE_H = 1.5
SHAKE_ROOM = 1.1                  # the strip's half-height over 太大's largest |residual|
# The two distances to the wall, as braces (data heights): 太大's short one inside the plot, its
# label to its left; 刚好's long one over the plot's top, its label above it.
BIG_SPAN_Y, OK_SPAN_Y = 0.88, 1.04
MARK_LABEL_GAP = theme.space("small")
SMALL_LABEL_LIFT = 0.2            # 太小's name, right of its dot and lifted over the curve leaving it


class FigUpdratio(LectureScene):
    scene_id = "fig-updratio"
    title = "一把能用眼睛对齐的尺子：更新量 ÷ 参数"
    loop = False
    ledger_keys = (
        "updratio.target_ratio", "updratio.ratio_ticks", "updratio.step_ticks", "updratio.lr_small",
        "updratio.lr_ok", "updratio.lr_big", "updratio.final_loss_big", "updratio.final_loss_ok",
        "updratio.norm_ticks", "updratio.weight_norm_growth", "updratio.last_steps_ticks",
        "updratio.loss_jitter_big", "updratio.nan_multiplier", "updratio.cliff_over_ok", "updratio.lr_ticks",
        "updratio.final_loss_ticks",
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
                    x_title="步数", y_title="‖更新量‖ ÷ ‖W₁‖", grid=True)
        plot.shift(RATIO_CORNER - plot.point(0, 1e-5))
        plot.y_title.align_to(plot.y_ticks, LEFT)     # wider than the axis: kept inside the frame
        self.play(FadeIn(plot), run_time=0.6)

        self.beat(says="量的是更新量除以参数本身 —— 注意是更新量，不是梯度")
        what = words("量的是更新量 ÷ 参数本身", size="label")
        not_grad = words("是更新量，不是梯度", size="label", weight="BOLD")
        VGroup(what, not_grad).arrange(DOWN, aligned_edge=LEFT, buff=theme.space("small"))
        VGroup(what, not_grad).move_to([LABEL_X, NOTE_Y, 0], aligned_edge=LEFT)
        self.play(FadeIn(what), run_time=0.5)
        self.play(FadeIn(not_grad, shift=UP * 0.1), run_time=0.5)

        self.beat(says="经验值是千分之一，图上那条黑线就是它")
        rule = widgets.limit_line(plot, "updratio.target_ratio", "{updratio.target_ratio} —— 经验值", "ink",
                                  weight="heavy")
        self.play(Create(rule.line), FadeIn(rule.label), run_time=0.8)

        self.beat(says="贴着线就大致合适", takeaway="贴着线 ＝ 大致合适")
        ratios = self.runs().ratios
        xs = np.arange(steps)
        curves = [curve(plot, xs, ratios[i], role) for i, (_, role, _) in enumerate(RUNS)]
        self.play(*[grow(c, run_time=2.5) for c in curves])
        labels = VGroup()
        for i, (name, role, key) in enumerate(RUNS):
            label = line(f"{name}　η {{{key}}}", size="label", color=role)
            labels.add(label.move_to([LABEL_X, plot.point(steps, ratios[i, -1])[1], 0], aligned_edge=LEFT))
        labels[OK].shift(UP * OK_LABEL_LIFT)
        # Each name and η whole, one after another at its own curve's end (a lag over the glyphs
        # would write the numbers in digit by digit).
        self.play(LaggedStart(*(FadeIn(label) for label in labels), lag_ratio=0.3), run_time=0.9)

    # ---- Ⓑ the lower loss, and what it costs ----

    def the_cost(self) -> None:
        self.start_panel("B", "太大那条的 loss 反而更低",
                         says="但 Ⓑ 那一格必须讲：太大那条的 loss 反而更低")
        runs = self.runs()
        plot, sweep = self.cliff_plot()
        big_at = self.lower_loss(plot, sweep)

        self.beat(says="代价在别处 —— 权重被撑到四倍多", takeaway="代价在别处")
        self.norm_plot(runs)

        self.beat(says="抖动大了近十倍")
        self.jitter_plot(runs)

        self.beat(says="而学习率再乘 2.1 就直接 NaN")
        wall_x = self.push_to_the_wall(plot, sweep, big_at)

        # The closing line takes the bottom alone: the costs it sums up are drawn above it.
        self.beat(says="所以这条比值不是让 loss 最低的指标，是看你离悬崖多远的指标",
                  takeaway="这条比值不是让 loss 最低的指标，是看你离悬崖多远的指标", replaces=True)
        self.distance(plot, wall_x, float(updratio.LR_OK.value), OK_SPAN_Y, "刚好：还差 {updratio.cliff_over_ok} 倍",
                      "good")

    def cliff_plot(self) -> tuple[Plot, tuple[np.ndarray, np.ndarray]]:
        """Final loss after 400 steps against η (log), and the sweep it draws."""
        plot = Plot(x_range=updratio.LR_RANGE, y_range=updratio.FINAL_LOSS_RANGE, x_log=True, width=CLIFF_W,
                    height=CLIFF_H, x_ticks_key="updratio.lr_ticks", y_ticks_key="updratio.final_loss_ticks",
                    x_title="学习率 η", y_title="最终 loss（玩具）")
        plot.shift(CLIFF_CORNER - plot.x_axis.get_start())
        plot.y_title.align_to(plot.y_ticks, LEFT)
        sweep = updratio.loss_by_learning_rate(updratio.LR_OK.value, updratio.SPREAD.value, updratio.CLIFF.value)
        return plot, sweep

    def lower_loss(self, plot: Plot, sweep) -> np.ndarray:
        """The curve up to 太大's η, and the three runs on it: 太大 lower than 刚好."""
        etas, losses = sweep
        big_eta = float(updratio.LR_BIG.value)
        upto = etas <= big_eta
        self.play(FadeIn(plot), run_time=0.5)
        self.play(grow(curve(plot, etas[upto], losses[upto], "ink"), run_time=1.6))
        final = self.runs().losses[:, -1]
        templates = ("太小", "刚好 {updratio.final_loss_ok}", "太大 {updratio.final_loss_big}")
        # Each label where the curve is not: 太小's up and right, between the axis title and the
        # curve (clear of the y axis); 刚好's down and left, under the curve's bend; 太大's up and
        # left, over the dip it ends.
        sides = (RIGHT, DOWN + LEFT, UP + LEFT)
        lifts = (SMALL_LABEL_LIFT, 0.0, 0.0)
        for i, (_, role, key) in enumerate(RUNS):
            at = plot.point(float(quantity(key).value), final[i])
            dot = marks.dot(at, role, size="large", halo=True)
            label = on_plot(templates[i], color=role).next_to(dot, sides[i], buff=MARK_LABEL_GAP)
            label.shift(UP * lifts[i])
            self.play(FadeIn(dot, scale=1.5), FadeIn(label), run_time=0.45)
        return plot.point(big_eta, final[BIG])

    def push_to_the_wall(self, plot: Plot, sweep, big_at) -> float:
        """From 太大, η pushed up along the curve until the first run that ends NaN: the wall."""
        etas, losses = sweep
        big_eta = float(updratio.LR_BIG.value)
        wall_eta = big_eta * float(updratio.CLIFF.value)
        beyond = etas >= big_eta
        ball = marks.dot(big_at, "accent", size="ball")
        rest = curve(plot, etas[beyond], losses[beyond], "ink")
        self.add(ball)
        self.play(grow(rest, run_time=1.2), MoveAlongPath(ball, rest.copy()), run_time=1.2)
        wall = widgets.axis_range(plot, wall_eta, updratio.LR_RANGE[1], role="bad")
        # Inside the band's foot, right of the wall's line: its top is where 太大's distance is written.
        wall.label = on_plot("NaN", color="bad", size="small")
        wall.label.next_to(wall.band.get_corner(DOWN + LEFT), UP + RIGHT, buff=theme.space("fine"))
        wall.add(wall.label)
        edge = marks.segment(plot.point(wall_eta, updratio.FINAL_LOSS_RANGE[0]),
                             plot.point(wall_eta, updratio.FINAL_LOSS_RANGE[1]), "bad", weight="bold")
        self.play(ball.animate.move_to(plot.point(wall_eta, float(losses[-1]))), run_time=0.4)
        self.play(Create(edge), FadeIn(wall), ball.animate.set_color(theme.color("bad")),
                  Flash(ball, color=theme.color("bad")), run_time=0.6)
        # The span from 太大 to the wall is too short for a brace: the words stand left of the wall.
        push = line("再乘约 {updratio.nan_multiplier} 倍 → NaN", size="label", color="bad")
        push.next_to(plot.point(wall_eta, BIG_SPAN_Y), LEFT, buff=theme.space("small"))
        self.play(FadeIn(push, shift=RIGHT * 0.1), run_time=0.6)
        return wall_eta

    def distance(self, plot: Plot, wall_eta: float, from_eta: float, height: float, template: str,
                 role: str) -> None:
        """A brace over the curve from a run's η to the wall, its label above it."""
        span = (plot.point(from_eta, height), plot.point(wall_eta, height))
        brace = marks.brace(span, UP, role)
        label = line(template, size="label", color=role).next_to(brace, UP, buff=theme.space("tight"))
        self.play(FadeIn(brace), FadeIn(label, shift=DOWN * 0.1), run_time=0.6)

    def norm_plot(self, runs: updratio.Runs) -> None:
        """‖W₁‖ over the 400 steps: 太大 stretches to 4.2×, the other two stay near 1."""
        steps = updratio.STEPS.value
        plot = Plot(x_range=(0, steps), y_range=(0, 5), width=SMALL_W, height=SMALL_H,
                    x_ticks_key="updratio.step_ticks", y_ticks_key="updratio.norm_ticks", y_title="‖W₁‖ ÷ 起点")
        plot.shift(NORM_CORNER - plot.point(0, 0))
        grown = runs.norms / runs.norms[:, :1]
        xs = np.arange(steps + 1)
        norms = [curve(plot, xs, grown[i], role) for i, (_, role, _) in enumerate(RUNS)]
        self.play(FadeIn(plot), run_time=0.5)
        self.play(*[grow(c, run_time=1.5) for c in norms])
        big = on_plot("太大：撑到 {updratio.weight_norm_growth}", color="bad")
        big.next_to(plot.point(steps, grown[BIG, -1]), LEFT, buff=theme.space("small")).shift(UP * 0.2)
        # Each name in its own run's colour, apart: the two lines nearly coincide, and a grey name
        # written next to a green one reads green from the back of the room.
        calm = VGroup(on_plot("太小", color="muted"), on_plot("刚好", color="good"))
        calm.arrange(RIGHT, buff=theme.space("wide"))
        calm.next_to(plot.point(steps, grown[OK, -1]), UP, buff=theme.space("tight")).align_to(plot.x_axis, RIGHT)
        self.play(FadeIn(big), FadeIn(calm), run_time=0.6)

    @staticmethod
    def shaking(losses: np.ndarray) -> np.ndarray:
        """The last steps' loss minus its least-squares trend: what updratio.loss_jitter_big is
        the RMS of (same window, same degree)."""
        tail = np.asarray(losses[-(updratio.TAIL.value + 1):], dtype=float)
        steps = np.arange(len(tail), dtype=float)
        return tail - np.polynomial.Polynomial.fit(steps, tail, updratio.DETREND.value)(steps)

    def jitter_plot(self, runs: updratio.Runs) -> None:
        """The last 100 steps' shaking about each run's own trend, on one scale: 太大's upper
        strip wobbles across its height, 刚好's lower one is a flat line. No multiple of the
        two: it moves with the trend's degree (updratio.jitter_ratio_by_degree)."""
        steps, tail = updratio.STEPS.value, updratio.TAIL.value
        big, ok = self.shaking(runs.losses[BIG]), self.shaking(runs.losses[OK])
        half = float(np.abs(big).max()) * SHAKE_ROOM
        plot = Plot(x_range=(steps - tail, steps), y_range=(-2 * half, 2 * half), width=SMALL_W, height=SHAKE_H,
                    x_ticks_key="updratio.last_steps_ticks", x_title="最后的步数")
        plot.shift(LOSS_CORNER - plot.point(steps - tail, -2 * half))
        xs = np.arange(steps - tail, steps + 1)
        centres = {BIG: half, OK: -half}
        trends = VGroup(*(dashed(level(plot, c, "muted", stroke_width=theme.stroke("thin"))) for c in centres.values()))
        traces = [curve(plot, xs, big + half, "bad", stroke_width=theme.stroke("regular")),
                  curve(plot, xs, ok - half, "good", stroke_width=theme.stroke("bold"))]
        # Each strip's name where a tick label would be; what it shows over its right end.
        names = VGroup(*(on_plot(RUNS[i][0], color=RUNS[i][1]).next_to(plot.point(steps - tail, c), LEFT,
                                                                       buff=theme.space("small"))
                         for i, c in centres.items()))
        shake = on_plot("一直抖 ±{updratio.loss_jitter_big}", color="bad")
        shake.next_to(plot.point(steps, 2 * half), UP, buff=theme.space("tight")).align_to(plot.x_axis, RIGHT)
        calm = on_plot("几乎不抖", color="good")
        calm.next_to(plot.point(steps, -half), UP, buff=theme.space("small")).align_to(plot.x_axis, RIGHT)
        self.play(FadeIn(plot), FadeIn(trends), FadeIn(names), run_time=0.5)
        self.play(*[grow(c, run_time=1.2) for c in traces])
        self.play(FadeIn(shake), run_time=0.4)
        self.play(FadeIn(calm), run_time=0.4)
