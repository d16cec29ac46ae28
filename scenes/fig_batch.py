"""fig-batch: "a bigger batch is faster" has a precondition (第二节).

Ⓐ Total time to train on the same tokens against batch (log–log, 示意, no ticks): falls on the
   left, flat on the right of the knee where the device's parallel units are all busy. The
   beats follow the notes: the claim; the curve with its two halves; the left half (×2 → ÷2,
   每步没变贵); the right half (每步变贵 cancels 步数少); the band where big training lives.
Ⓑ The two factors whose product is Ⓐ: steps fall as 1/B; step time is flat, then grows as B.
   Not cued in the notes (the storyboard's inferred panel), so it is one beat without a quote.
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, UR, Create, Dot, FadeIn, Rectangle, VGroup

from lecture_numerics import batch, quantity
from scenes.kit import theme
from scenes.kit.annotate import on_plot
from scenes.kit.base import LectureScene
from scenes.kit.panels import EDGE_BUFF
from scenes.kit.plots import Plot, curve, place
from scenes.kit.text import formula, words

# Geometry (scene units; the frame is 14.2 × 8). Both axes are log10; content stays above the
# takeaway line (y ≈ -2.9).
PLOT_CORNER, PLOT_W, PLOT_H = (-5.2, -2.0), 9.4, 4.1
MARGIN = 3.0                         # the y range reaches this factor past the curves, on a log axis
# 总时间 keeps Ⓐ's blue; its two factors are neutral, black and grey (warm is 通信 in fig-gradlife).
TOTAL, STEPS, STEP_TIME = "accent", "ink", "muted"
NO_GAIN = "warm"                     # Ⓐ's flat half, in the band's orange: no gain, not an error; black is Ⓑ's 步数
# Ⓑ puts three quantities with three units (a count, a time per step, a time) on one un-ticked
# log axis, where a unit is only a vertical shift; the shifts pack the lines so that both panels
# share one scale and 总时间 has the same slope in Ⓑ as in Ⓐ. In t_min units the total equals
# the step count below the knee (the black line would hide under the blue one), so Ⓑ draws it
# TOTAL_UNIT_SHIFT above the steps; the step time is drawn in units that put its flat part level
# with the steps' right end, so the three right-hand ends (the labels) stay apart.
TOTAL_UNIT_SHIFT = 4.0


class FigBatch(LectureScene):
    scene_id = "fig-batch"
    title = "「batch 开大就更快」—— 这句话有前提"
    ledger_keys = ("batch.doubling", "batch.steps_ratio", "batch.step_cost_ratio_above", "batch.total_ratio_above",
                   "batch.total_ratio_below")

    def construct(self) -> None:
        self.total_time()
        self.two_factors()

    @staticmethod
    def factor_series(series: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """Ⓑ's three lines, each in the unit that packs them (see TOTAL_UNIT_SHIFT)."""
        steps = series["steps"]
        return {"steps": steps, "step_time": series["step_time"] * steps[-1] / series["step_time"][0],
                "total": series["total"] * TOTAL_UNIT_SHIFT}

    @staticmethod
    def y_span(drawn: dict[str, np.ndarray]) -> float:
        """high / low of Ⓑ's y axis: both panels use it, so a slope means the same in each."""
        return max(d.max() for d in drawn.values()) / min(d.min() for d in drawn.values()) * MARGIN ** 2

    def log_axes(self, series: dict[str, np.ndarray], names: tuple[str, ...], y_title: str,
                 span: float) -> tuple[Plot, VGroup]:
        """Log–log axes without ticks (示意), ``span`` (high / low) tall and centred on the named
        series, with both titles."""
        centre = np.sqrt(min(series[name].min() for name in names) * max(series[name].max() for name in names))
        low, high = centre / np.sqrt(span), centre * np.sqrt(span)
        axes = place(Plot(x_range=(series["batch"][0], series["batch"][-1]), y_range=(low, high), x_log=True,
                          y_log=True, width=PLOT_W, height=PLOT_H), PLOT_CORNER)
        x_title = words("batch（对数）", size="small", color="muted").next_to(axes.x_axis, DOWN, buff=theme.space("small"))
        x_title.align_to(axes.x_axis, RIGHT)
        y_name = words(y_title, size="small", color="muted")
        y_name.next_to(axes.y_axis, UP, buff=theme.space("tight")).align_to(axes.y_axis, LEFT)
        sketch = words("示意 · 无刻度", size="small", color="muted").to_corner(UR, buff=EDGE_BUFF)
        return axes, VGroup(x_title, y_name, sketch)

    @staticmethod
    def series_line(axes: Plot, x, y, color: str, mask=None):
        if mask is not None:
            x, y = x[mask], y[mask]
        return curve(axes, x, y, color, stroke_width=6)

    def draw_then_name(self, line, name, run_time: float) -> None:
        """The line first; its name only once the line has reached it."""
        self.play(Create(line), run_time=run_time)
        self.play(FadeIn(name), run_time=0.25)

    # ---- Ⓐ the curve ----

    def total_time(self) -> None:
        self.start_panel("A", "「batch 开大就更快」—— 这句话有前提", says="『batch 开大就更快』—— 这句话有前提")
        series = batch.curves()
        b, total = series["batch"], series["total"]
        axes, furniture = self.log_axes(series, ("total",), "训完同样多 token 的总时间（对数）",
                                        self.y_span(self.factor_series(series)))
        self.play(FadeIn(axes), FadeIn(furniture), run_time=0.5)

        self.beat(says="看 Ⓐ 这条曲线：左半段成立，右半段不成立")
        saturation = quantity("batch.saturation").value
        knee = axes.point(saturation, batch.total_time(saturation, batch.TOKENS.value, batch.STEP_MIN.value, saturation))
        self.play(Create(self.series_line(axes, b, total, "muted")), run_time=1.0)
        dot = Dot(knee, radius=0.11, color=theme.color("ink"))
        self.play(FadeIn(dot, scale=1.5), run_time=0.3)

        self.beat(says="左边并行度还没吃满，batch 大了步数少、每步没变贵，所以真的快")
        left = b <= saturation
        self.play(Create(self.series_line(axes, b, total, TOTAL, mask=left)), run_time=0.8)
        # Below-left of the dot: the band over the right half (the last beat) never reaches it.
        knee_label = words("并行度吃满", size="label").next_to(dot, DOWN + LEFT, buff=theme.space("tight"))
        # Above the middle of the falling half (the corner under it is too small): two short lines.
        said_left = VGroup(on_plot("batch {batch.doubling} → 步数 {batch.steps_ratio}", color=TOTAL),
                       on_plot("每步没变贵 → 真的快", color=TOTAL)).arrange(DOWN, aligned_edge=LEFT,
                                                                              buff=theme.space("tight"))
        # Left of the knee, clear above the falling line (straight on log–log) at the label's left end.
        start = axes.point(b[0], total[0])
        right = knee[0] - theme.space("medium")
        left_end = right - said_left.width
        line_y = start[1] + (knee[1] - start[1]) * (left_end - start[0]) / (knee[0] - start[0])
        said_left.move_to([right, line_y + theme.space("medium"), 0], aligned_edge=DOWN + RIGHT)
        self.play(FadeIn(knee_label), FadeIn(said_left), run_time=0.4)

        self.beat(says="右边并行度吃满了，每步变贵的倍数，正好抵掉步数少的倍数")
        self.play(Create(self.series_line(axes, b, total, NO_GAIN, mask=~left)), run_time=0.8)
        # Two short lines over the flat half, wholly inside the band the next beat lays there.
        said_right = VGroup(on_plot("每步变贵 {batch.step_cost_ratio_above}，步数 {batch.steps_ratio}", color=NO_GAIN),
                            on_plot("→ 正好抵消", color=NO_GAIN)).arrange(DOWN, aligned_edge=LEFT,
                                                                         buff=theme.space("tight"))
        said_right.move_to([knee[0] + theme.space("medium"), knee[1] + theme.space("medium"), 0],
                           aligned_edge=DOWN + LEFT)
        self.play(FadeIn(said_right), run_time=0.4)

        self.beat(says="而几百亿参数、几百张卡的训练，基本都在右边这一段",
                  takeaway="大模型、多卡训练：基本都在右边这段")
        band_left = knee[0]          # the right half starts at the knee
        band_right = axes.x_axis.get_end()[0]
        band = Rectangle(width=band_right - band_left, height=PLOT_H, stroke_width=0,
                         fill_color=theme.color("warm"), fill_opacity=0.12)
        band.move_to([(band_left + band_right) / 2, axes.y_axis.get_center()[1], 0])
        self.play(FadeIn(band), run_time=0.6)
        self.bring_to_back(band)

    # ---- Ⓑ the two factors ----

    def two_factors(self) -> None:
        self.start_panel("B", "总时间 ＝ 步数 × 每步耗时",
                         takeaway="右边：一条降、一条升，乘起来 {batch.total_ratio_above} —— 正好抵掉")
        series = batch.curves()
        drawn = self.factor_series(series)
        axes, furniture = self.log_axes({"batch": series["batch"], **drawn}, ("steps", "step_time", "total"),
                                        "各量按自己的单位（对数）", self.y_span(drawn))
        self.play(FadeIn(axes), FadeIn(furniture), run_time=0.5)
        for name, color, label in (("steps", STEPS, "步数 ∝ 1/B"), ("step_time", STEP_TIME, "每步耗时"),
                                   ("total", TOTAL, "总时间")):
            line = self.series_line(axes, series["batch"], drawn[name], color)
            # "1/B" is notation; the other names are plain words
            tag = (formula if name == "steps" else words)(label, size="label", color=color)
            tag.next_to(line.get_end(), RIGHT, buff=theme.space("small"))
            self.draw_then_name(line, tag, run_time=0.7)
        self.wait(0.8)
