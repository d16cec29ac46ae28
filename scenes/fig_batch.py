"""fig-batch: "a bigger batch is faster" has a precondition (第二节).

Ⓐ (the only panel) Total time to train on the same tokens against batch (log–log, 示意, no
   ticks): falls on the left, flat on the right of the knee where the device's parallel units
   are all busy. The beats follow the notes: the claim; the curve, 成立 on the left and 不成立 on
   the right; each half's product picture, where the speaker says it — total time is a
   rectangle, 步数 wide and 每步耗时 tall: doubling the batch halves its width, and on the right
   doubles its height too, so the area (the total) is the same (正好抵掉); last, the band where
   big training lives. The storyboard's separate Ⓑ (the two factors as lines) was never cued
   in the notes: its point now stands inside Ⓐ, where 「正好抵掉」 is said.
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, UR, Create, FadeIn, Transform, VGroup

from lecture_numerics import batch, quantity
from scenes.kit import marks, theme
from scenes.kit.annotate import on_plot
from scenes.kit.base import LectureScene
from scenes.kit.panels import EDGE_BUFF
from scenes.kit.plots import Plot, curve, place
from scenes.kit.text import line, words

# Geometry (scene units; the frame is 14.2 × 8). Both axes are log10; the plot takes the left
# half, the product pictures a column on the right; content stays above the takeaway (y ≈ −2.9).
PLOT_CORNER, PLOT_W, PLOT_H = (-5.9, -2.0), 6.4, 4.1
# The y range reaches this far past the curve, below its floor and above its top.
FLOOR_ROOM, TOP_ROOM = 3.0, 1.6
CURVE = "ink"
HOLDS, FAILS = "good", "bad"          # the claim's status on each half: ✓ and ✗
BAND = "accent"                       # a highlight: where big training lives
# The product pictures: total time as a rectangle, 步数 wide and 每步耗时 tall, before ×2 (dashed,
# muted: the baseline) and after (ink), sharing the bottom-left corner. Sizes in scene units.
RECT_W, RECT_H = 1.6, 0.6
COLUMN_LEFT = 1.2                     # the pictures' column: its left edge (headings, height labels)
COLUMN_TOP = 2.35                     # the column's title, level with the plot's y title
LEFT_HALF_TOP, RIGHT_HALF_TOP = 1.75, -0.15   # each picture's heading top, one above the other
AFTER_TINT = 0.12


class FigBatch(LectureScene):
    scene_id = "fig-batch"
    title = "「batch 开大就更快」—— 这句话有前提"
    ledger_keys = ("batch.doubling", "batch.steps_ratio", "batch.step_cost_ratio_above", "batch.total_ratio_above",
                   "batch.total_ratio_below")

    def construct(self) -> None:
        self.start_panel("A", "「batch 开大就更快」—— 这句话有前提", says="『batch 开大就更快』—— 这句话有前提")
        series = batch.curves()
        axes = self.log_axes(series)

        self.beat(says="看 Ⓐ 这条曲线：左半段成立，右半段不成立")
        knee = self.curve_and_status(axes, series)

        self.beat(says="左边并行度还没吃满，batch 大了步数少、每步没变贵，所以真的快")
        self.play(FadeIn(words("并行度吃满", size="label").next_to(knee, DOWN + LEFT, buff=theme.space("tight"))),
                  run_time=0.4)
        rule = words("总时间 ＝ 步数 × 每步耗时", size="label").move_to([COLUMN_LEFT, COLUMN_TOP, 0],
                                                                    aligned_edge=UP + LEFT)
        self.play(FadeIn(rule), run_time=0.4)
        self.product("左半段", LEFT_HALF_TOP, "batch.step_cost_ratio_below", "每步没变贵", "batch.total_ratio_below")

        self.beat(says="右边并行度吃满了，每步变贵的倍数，正好抵掉步数少的倍数")
        self.product("右半段", RIGHT_HALF_TOP, "batch.step_cost_ratio_above", "每步 {batch.step_cost_ratio_above}",
                     "batch.total_ratio_above")

        self.beat(says="而几百亿参数、几百张卡的训练，基本都在右边这一段",
                  takeaway="大模型、多卡训练：基本都在右边这段")
        band = marks.shade(knee * np.array([1, 0, 0]) + axes.x_axis.get_start() * np.array([0, 1, 0]),
                           axes.point(series["batch"][-1], axes.y_scale.high), BAND)
        self.play(FadeIn(band), run_time=0.6)
        self.bring_to_back(band)

    # ---- the curve ----

    def log_axes(self, series: dict[str, np.ndarray]) -> Plot:
        """Log–log axes without ticks (示意), with both titles."""
        total = series["total"]
        axes = place(Plot(x_range=(series["batch"][0], series["batch"][-1]),
                          y_range=(total.min() / FLOOR_ROOM, total.max() * TOP_ROOM), x_log=True, y_log=True,
                          width=PLOT_W, height=PLOT_H), PLOT_CORNER)
        x_title = words("batch（对数）", size="small", color="muted").next_to(axes.x_axis, DOWN, buff=theme.space("small"))
        x_title.align_to(axes.x_axis, RIGHT)
        y_name = words("训完同样多 token 的总时间（对数）", size="small", color="muted")
        y_name.next_to(axes.y_axis, UP, buff=theme.space("tight")).align_to(axes.y_axis, LEFT)
        sketch = words("示意 · 无刻度", size="small", color="muted").to_corner(UR, buff=EDGE_BUFF)
        self.play(FadeIn(axes), FadeIn(VGroup(x_title, y_name, sketch)), run_time=0.5)
        return axes

    def curve_and_status(self, axes: Plot, series: dict[str, np.ndarray]) -> np.ndarray:
        """The curve, its knee, and the claim's status on each half (the speaker's 成立 / 不成立)."""
        b, total = series["batch"], series["total"]
        saturation = quantity("batch.saturation").value
        knee = axes.point(saturation, total[np.searchsorted(b, saturation)])
        self.play(Create(curve(axes, b, total, CURVE)), run_time=1.0)
        self.play(FadeIn(marks.dot(knee, "ink", size="ball")), run_time=0.3)
        holds = on_plot("成立 ✓", color=HOLDS)
        holds.next_to(axes.point(b[len(b) // 8], total[len(b) // 8]), UP + RIGHT, buff=theme.space("small"))
        fails = on_plot("不成立 ✗", color=FAILS)
        fails.next_to(axes.point(b[-1], total[-1]), UP, buff=theme.space("small")).align_to(axes.x_axis, RIGHT)
        self.play(FadeIn(holds), FadeIn(fails), run_time=0.5)
        return knee

    # ---- the product: 总时间 = 步数 × 每步耗时 ----

    def product(self, half: str, top: float, step_cost_key: str, step_cost: str, total_key: str) -> None:
        """Before ×2 (dashed, muted) and after (ink) share their bottom-left corner: the width
        halves (步数), the height keeps or doubles (每步耗时, labelled ``step_cost`` as the speaker
        says it), and the area is the total."""
        steps, cost = quantity("batch.steps_ratio").value, quantity(step_cost_key).value
        heading = line(half + "：batch {batch.doubling}", size="label").move_to([COLUMN_LEFT, top, 0],
                                                                               aligned_edge=UP + LEFT)
        # The rectangles start right of their height label (「每步没变贵」 is the widest).
        left = COLUMN_LEFT + words("每步没变贵", size="small").width + theme.space("small")
        corner = np.array([left, heading.get_bottom()[1] - theme.space("medium") - RECT_H * max(cost, 1), 0])
        before = self.rectangle(1, 1, "muted", corner, dashed=True)
        now = self.rectangle(1, 1, CURVE, corner)
        self.play(FadeIn(heading), FadeIn(now), run_time=0.4)
        self.add(before)
        self.bring_to_back(before)     # the dashed "before" under the solid "after", never across it
        after = self.rectangle(steps, cost, CURVE, corner)
        self.play(Transform(now, after), run_time=1.0)
        self.factor_labels(after, before, step_cost, total_key)

    @staticmethod
    def rectangle(width_factor: float, height_factor: float, role: str, corner: np.ndarray, *,
                  dashed: bool = False):
        box = marks.box(RECT_W * width_factor, RECT_H * height_factor, role, weight="regular" if dashed else "bold",
                        fill=None if dashed else role, fill_opacity=0 if dashed else AFTER_TINT, corner="square",
                        dashed=dashed)
        return box.move_to(corner, aligned_edge=DOWN + LEFT)

    def factor_labels(self, after, before, step_cost: str, total_key: str) -> None:
        width = line("步数 {batch.steps_ratio}", size="small").next_to(after, DOWN, buff=theme.space("tight"))
        width.align_to(after, LEFT)
        height = line(step_cost, size="small").next_to(after, LEFT, buff=theme.space("small"))
        # Right of the dashed "before": the area, which the column's title names 总时间.
        total = line("总时间 {" + total_key + "}", size="label")
        total.next_to(before, RIGHT, buff=theme.space("medium")).align_to(before, DOWN)
        self.play(FadeIn(width), FadeIn(height), run_time=0.4)
        self.play(FadeIn(total, shift=RIGHT * theme.space("tight")), run_time=0.5)
