"""fig-batch: "a bigger batch is faster" has a precondition (第二节).

Ⓐ Total time to train on the same tokens against batch (log–log, 示意, no ticks): falls on the
   left, flat on the right of the knee where the device's parallel units are all busy.
Ⓑ The two factors whose product is Ⓐ: steps fall as 1/B; step time is flat, then grows as B.
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, UR, Create, Dot, FadeIn, FadeOut, Rectangle, VGroup

from lecture_numerics import batch, quantity
from scenes.kit import theme
from scenes.kit.annotate import label_after
from scenes.kit.base import LectureScene
from scenes.kit.panels import EDGE_BUFF, caption
from scenes.kit.plots import Plot, curve, place
from scenes.kit.text import formula, words

# Geometry (scene units; the frame is 14.2 × 8). Both axes are log10.
PLOT_CORNER, PLOT_W, PLOT_H = (-5.2, -2.3), 9.4, 4.2
MARGIN = 4.0                         # the y range reaches this factor past the curves, on a log axis
TOTAL, STEPS, STEP_TIME = "accent", "ink", "warm"


class FigBatch(LectureScene):
    scene_id = "fig-batch"
    title = "「batch 开大就更快」—— 这句话有前提"
    ledger_keys = ("batch.doubling", "batch.steps_ratio", "batch.step_cost_ratio_above", "batch.total_ratio_above",
                   "batch.total_ratio_below")

    def construct(self) -> None:
        self.total_time()
        self.two_factors()

    def say(self, current, sentence: str, color: str = "ink"):
        new = caption(sentence, color=color)
        self.play(*([FadeOut(current)] if current is not None else []), FadeIn(new, shift=UP * theme.space("close")), run_time=0.4)
        return new

    def log_axes(self, series: dict[str, np.ndarray], names: tuple[str, ...]) -> tuple[Plot, VGroup]:
        """Log–log axes without ticks (示意), fitted to the named series."""
        low = min(series[name].min() for name in names) / MARGIN
        high = max(series[name].max() for name in names) * MARGIN
        axes = place(Plot(x_range=(series["batch"][0], series["batch"][-1]), y_range=(low, high), x_log=True,
                          y_log=True, width=PLOT_W, height=PLOT_H), PLOT_CORNER)
        x_title = words("batch（对数）", size="small", color="muted").next_to(axes.x_axis, DOWN, buff=theme.space("small"))
        x_title.align_to(axes.x_axis, RIGHT)
        sketch = words("示意 · 无刻度", size="small", color="muted").to_corner(UR, buff=EDGE_BUFF)
        return axes, VGroup(x_title, sketch)

    @staticmethod
    def series_line(axes: Plot, series, name: str, color: str, mask=None):
        x, y = series["batch"], series[name]
        if mask is not None:
            x, y = x[mask], y[mask]
        return curve(axes, x, y, color, stroke_width=6)

    # ---- Ⓐ the curve ----

    def total_time(self) -> None:
        self.start_panel("A", "「batch 开大就更快」—— 这句话有前提")
        series = batch.curves()
        axes, furniture = self.log_axes(series, ("total",))
        y_title = words("训完同样多 token 的总时间（对数）", size="small", color="muted")
        y_title.next_to(axes.y_axis, UP, buff=theme.space("tight")).align_to(axes.y_axis, LEFT)
        self.play(FadeIn(axes), FadeIn(furniture), FadeIn(y_title), run_time=0.5)
        self.play(Create(self.series_line(axes, series, "total", "muted")), run_time=1.0)

        saturation = quantity("batch.saturation").value
        knee = axes.point(saturation, batch.total_time(saturation, batch.TOKENS.value, batch.STEP_MIN.value, saturation))
        dot = Dot(knee, radius=0.11, color=theme.color("ink"))
        knee_label = words("并行度吃满", size="label").next_to(dot, UP + RIGHT, buff=theme.space("small"))
        self.play(FadeIn(dot), FadeIn(knee_label), run_time=0.5)

        left = series["batch"] <= saturation
        said = self.say(None, "batch {batch.doubling} → 步数 {batch.steps_ratio}，每步没变贵 → 真的快")
        self.play(Create(self.series_line(axes, series, "total", TOTAL, mask=left)), run_time=0.8)
        self.wait(0.8)
        said = self.say(said, "右边：每步变贵 {batch.step_cost_ratio_above}，步数 {batch.steps_ratio} → 正好抵消")
        self.play(Create(self.series_line(axes, series, "total", "backward", mask=~left)), run_time=0.8)
        self.wait(0.6)

        band_left, band_right = knee[0], axes.x_axis.get_end()[0]
        band = Rectangle(width=band_right - band_left, height=PLOT_H, stroke_width=0,
                         fill_color=theme.color("warm"), fill_opacity=0.12)
        band.move_to([(band_left + band_right) / 2, axes.y_axis.get_center()[1], 0])
        where = words("大模型、多卡训练：基本都在这段", size="label", color="warm")
        where.next_to(band.get_top(), DOWN, buff=theme.space("close")).align_to(band, RIGHT).shift(LEFT * theme.space("small"))
        self.play(FadeIn(band), FadeIn(where), run_time=0.6)
        self.wait(2.0)

    # ---- Ⓑ the two factors ----

    def two_factors(self) -> None:
        self.start_panel("B", "总时间 ＝ 步数 × 每步耗时")
        series = batch.curves()
        axes, furniture = self.log_axes(series, ("steps", "step_time", "total"))
        self.play(FadeIn(axes), FadeIn(furniture), run_time=0.5)
        lines = {}
        for name, color, label in (("steps", STEPS, "步数 ∝ 1/B"), ("step_time", STEP_TIME, "每步耗时"),
                                   ("total", TOTAL, "总时间")):
            lines[name] = self.series_line(axes, series, name, color)
            # "1/B" is notation; the other names are plain words
            tag = (formula if name == "steps" else words)(label, size="label", color=color)
            tag.next_to(lines[name].get_end(), RIGHT, buff=theme.space("small"))
            self.play(label_after(lines[name], tag, run_time=0.6, label_time=0.2))
        said = self.say(None, "左边：每步耗时不变，步数少了 → 总时间 {batch.total_ratio_below}")
        self.wait(0.8)
        self.say(said, "右边：一条降、一条升，乘起来 {batch.total_ratio_above} —— 正好抵掉")
        self.wait(2.0)
