"""fig-lr-curve: the learning-rate schedule — warm up, hold, decay — with looked-up numbers only.

Ⓐ 三段，以及峰值从哪抄: the three segments (not to scale), what warmup is for, GPT-3's warmup
   share; GPT-3 Table 2.1 as a log-log scatter (size vs peak lr, batch beside each dot), its two
   ends ringed and the 500× → 5× bracket inside the plot.
Ⓑ 两个流派: GPT-3's cosine and DeepSeek-V3's hold-then-decay on one progress axis, the
   "truncate any time" branch, and the 10 % line — with V3's real end below it. Why the new
   school wins stays on screen to the end.
"""

from __future__ import annotations

import numpy as np
from manim import (DOWN, LEFT, RIGHT, UP, Create, DashedVMobject, Dot, FadeIn, Line,
                   SurroundingRectangle, VGroup, VMobject)

from lecture_numerics import lr_schedules as lr
from lecture_numerics.schedule import GPT3_LR, GPT3_PARAMS
from scenes.kit import theme
from scenes.kit.arrows import arrow
from scenes.kit.bars import StackedBar
from scenes.kit.base import LectureScene
from scenes.kit.annotate import on_plot
from scenes.kit.layout import safe_bounds
from scenes.kit.plots import Plot, curve, dashed, level, place
from scenes.kit.data_window import DataWindow
from scenes.kit.text import ledger_text, words

# GPT-3 orange as everywhere; DeepSeek-V3 its own purple (the `v3` role), as in fig-per-byte.
OLD, NEW = "warm", "v3"
SKETCH = DataWindow(((0.0, 1.0), (0.0, 1.0)), screen_center=(-3.7, 2.0), screen_size=(3.9, 1.1))
# Each panel keeps two takeaways along the bottom (up to y ≈ −2.55).
TABLE_CORNER, TABLE_SIZE = (0.75, -0.95), (5.75, 2.85)         # Table 2.1, log-log; its axis title clear of the takeaways
PROGRESS_CORNER, PROGRESS_SIZE = (-5.15, -1.13), (9.1, 3.18)   # the two schedules
STRIP_LENGTH, STRIP_THICKNESS, STRIP_BASE = 5.4, 0.32, (-6.75, -0.95)   # Ⓐ: GPT-3's whole run, to scale
CLAIM_Y, CLAIM_LINE_GAP = 0.5, 0.05    # Ⓐ's ✓ lines, between the sketch and the strip, clear of both
EDGE_MARGIN = 0.1          # extra room inside the safe area for a right-aligned line
HIGHLIGHT = ("medium", "175b")
BRACKET_LIFT = 0.07      # the 500× arrow passes this far above the dots between its ends
# The lr axis (in lr.axis.lr_unit, 10⁻⁴) reaches well below the smallest dot (0.6) so that the
# 175B label stands in empty plot above the x axis, and well above the largest dot (6) so that
# 350M's two-line label fits under the axis title.
LR_SHOWN = (0.11, 12.0)
LR_UNIT = lr.LR_UNIT.value
FLOOR_ON_TOP, FLOOR_LABEL_GAP = 2, 0.12   # the 10 % line over both curves; 8 px or more under its label
NOTE_LINE_GAP = 0.05
V3_NOTE_FROM = 0.28     # V3's label starts here on the progress axis, well right of the axis title


def from_peak(schedule: np.ndarray) -> np.ndarray:
    """A schedule from its first point at the peak on: both warmups are too short to draw at this
    scale (the notes say so), and drawn they are a vertical stroke over the y axis."""
    return schedule[int(np.argmax(schedule[:, 1])):]


class FigLrCurve(LectureScene):
    scene_id = "fig-lr-curve"
    title = "学习率曲线：升上去、稳住、降下来"
    ledger_keys = (
        "lr.segment_count", "lr.school_count", "lr.warmup_paper.year", "gpt3.warmup_tokens", "gpt3.train_tokens", "lr.gpt3.warmup_share",
        "lr.axis.param_ticks", "lr.axis.lr_ticks_e4", "lr.axis.lr_unit", "gpt3.medium.batch_tokens", "gpt3.175b.batch_tokens",
        "gpt3.medium.params", "lr.gpt3.medium_lr_e4", "gpt3.175b.params", "lr.gpt3.175b_lr_e4",
        "lr.gpt3.size_ratio_medium_175b", "lr.gpt3.lr_ratio_medium_175b", "lr.gpt3.rows_medium_to_175b",
        "lr.axis.progress_ticks", "lr.axis.fraction_ticks", "gpt3.decay_tokens", "lr.gpt3.final_over_peak",
        "v3.hold_until_tokens", "v3.warmup_steps", "lr.v3.cosine_end_over_peak", "lr.v3.final_tokens",
        "lr.v3.final_over_peak", "lr.decay_to_zero_over_peak",
    )

    def construct(self):
        self.three_segments_panel()
        self.two_schools_panel()

    # ---- Ⓐ ------------------------------------------------------------------------------------------

    def three_segments_panel(self):
        self.start_panel("A", "{lr.segment_count}段，以及峰值从哪抄", says="整条曲线只有三段：升上去、稳住、降下来")
        self.sketch()
        self.beat(says="真正的机制是：warmup 让网络能承受一个更大的目标学习率")
        self.warmup_callouts()
        self.beat(says="实际用多长？GPT-3 是头三亿七千五百万个 token，占总量的千分之一点二五")
        self.warmup_strip()
        self.beat(says="峰值设多少？这个有现成的表可以抄，不用猜")
        table, dots = self.table_scatter()
        self.beat(says="GPT-3 论文表 2.1 把七个规模一起列了")
        marks = self.table_ends(table, dots)
        self.beat(says="规律肉眼可见：模型越大，学习率越小、batch 越大",
                  takeaway="模型越大，学习率越小、batch 越大")
        self.play(*(FadeIn(mark[1][1]) for mark in marks), run_time=0.5)
        self.beat(says="五百倍的规模差，学习率只差五倍")
        self.ratio_bracket(marks)
        self.beat(says="注意那张表里 batch 和学习率是一起变的",
                  takeaway="batch 和学习率是一起变的：不能只调学习率不看 batch")

    def sketch(self):
        corners = [(0, 0.05), (0.15, 1.0), (0.6, 1.0), (1.0, 0.15)]
        parts = VGroup(*(Line(SKETCH.point(*a), SKETCH.point(*b), color=theme.color("ink"), stroke_width=4)
                         for a, b in zip(corners, corners[1:])))
        names = VGroup(*(words(n, size="small") for n in lr.SEGMENT_NAMES.value))
        names[0].next_to(parts[0], LEFT, buff=0.1)
        names[1].next_to(parts[1], UP, buff=0.1)
        # Under the line's end, leaving the room to its right to Table 2.1's axis title.
        names[2].next_to(parts[2].get_end(), DOWN, buff=0.1)
        not_to_scale = words("（不按比例）", size="small", color="muted").next_to(parts[1], DOWN, buff=0.15)
        for part, name in zip(parts, names):
            self.play(Create(part), FadeIn(name), run_time=0.5)
        self.play(FadeIn(not_to_scale), run_time=0.3)

    def warmup_callouts(self):
        # Only what the paper's abstract says is projected. The notes' two other claims (「开局二阶矩
        # 估不准」 is not the main reason; a longer warmup at a fixed peak brings little) were not
        # found in what was read of Kalra & Barkeshli: the speaker says them, the screen does not.
        lines = VGroup(
            ledger_text("✓ {lr.warmup_paper.year} 年的系统实验：", size="small", color="good"),
            words("   warmup 让网络扛得住更大的", size="small", color="good"),
            words("   目标学习率，把它推到", size="small", color="good"),
            words("   条件更好的区域", size="small", color="good"),
        ).arrange(DOWN, aligned_edge=LEFT, buff=CLAIM_LINE_GAP)
        lines.move_to([0, CLAIM_Y, 0]).align_to([STRIP_BASE[0], 0, 0], LEFT)
        self.play(FadeIn(lines, shift=RIGHT * 0.15), run_time=0.6)

    def warmup_strip(self):
        # One kit bar: the whole run as its track, the warmup as its only (sub-pixel) segment.
        bar = StackedBar([("lr.gpt3.warmup_share", OLD)], scale=STRIP_LENGTH, thickness=STRIP_THICKNESS, opacity=1,
                         track=STRIP_LENGTH).start_at(STRIP_BASE)
        strip = bar.track
        name = ledger_text("GPT-3 全程 {gpt3.train_tokens} token", size="small", color="muted")
        name.next_to(strip, UP, buff=0.1).align_to(strip, RIGHT)
        pointer = arrow(strip.get_corner(DOWN + LEFT) + DOWN * 0.45 + RIGHT * 0.5, strip.get_corner(DOWN + LEFT), OLD,
                        buff="hair")
        note = VGroup(ledger_text("warmup：头 {gpt3.warmup_tokens} = 总量的 {lr.gpt3.warmup_share}", size="small",
                                  color=OLD),
                      words("（细到看不见）", size="small", color=OLD)).arrange(DOWN, aligned_edge=LEFT, buff=0.06)
        note.next_to(pointer.get_start(), RIGHT, buff=0.1).align_to(pointer.get_start() + UP * 0.15, UP)
        self.play(FadeIn(bar), FadeIn(name), run_time=0.5)
        self.play(Create(pointer), FadeIn(note), run_time=0.6)

    def table_scatter(self):
        table = place(Plot(x_range=(10 ** 7.8, 10 ** 11.5), y_range=LR_SHOWN, width=TABLE_SIZE[0],
                            height=TABLE_SIZE[1], x_log=True, y_log=True, x_ticks_key="lr.axis.param_ticks",
                            y_ticks_key="lr.axis.lr_ticks_e4", x_title="参数量",
                            y_title="峰值学习率（{lr.axis.lr_unit}）"), TABLE_CORNER)
        source = words("出处：GPT-3 论文", size="small", color="muted")
        source.next_to(table.y_title, RIGHT, buff=theme.space("wide")).align_to(table.y_title, DOWN)
        self.play(FadeIn(table), FadeIn(source), run_time=0.8)
        dots = VGroup()
        for name in GPT3_LR:
            at = table.point(GPT3_PARAMS[name].value, GPT3_LR[name].value / LR_UNIT)
            dots.add(Dot(at, radius=0.08, color=theme.color(OLD if name != "small" else "muted")))
        self.play(FadeIn(dots), run_time=0.8)
        return table, dots

    def table_ends(self, table, dots) -> list[VGroup]:
        """The rows the speaker counts (灰点不算) and their two ends, ringed: size → lr now, the
        batch beside it when the rule is said."""
        rows = ledger_text("{lr.gpt3.rows_medium_to_175b}个规模：{gpt3.medium.params} → {gpt3.175b.params}（灰点不算）",
                           size="small", color=OLD).move_to([table.x_axis.get_center()[0], 2.75, 0])
        rows.align_to([safe_bounds()[2] - EDGE_MARGIN, 0, 0], RIGHT)
        marks = []
        for name in HIGHLIGHT:
            dot = dots[list(GPT3_LR).index(name)]
            ring = SurroundingRectangle(dot, buff=0.06, color=theme.color("backward"), corner_radius=0.1)
            label = VGroup(ledger_text(f"{{gpt3.{name}.params}} → {{lr.gpt3.{name}_lr_e4}}{{lr.axis.lr_unit}}", size="small",
                                       color="backward"),
                           ledger_text(f"batch {{gpt3.{name}.batch_tokens}}", size="small", color="backward"))
            label.arrange(DOWN, aligned_edge=LEFT, buff=0.06)
            marks.append(VGroup(ring, label))
        # 350M's label above its ring, left-aligned (the bracket leaves the ring's right side);
        # 175B's under its ring, in the empty plot above the x axis.
        marks[0][1].next_to(marks[0][0], UP, buff=theme.space("small")).align_to(marks[0][0], LEFT)
        marks[1][1].next_to(marks[1][0], DOWN, buff=theme.space("tight")).align_to(marks[1][0], RIGHT)
        self.play(FadeIn(rows), *(FadeIn(VGroup(mark[0], mark[1][0], *mark[2:])) for mark in marks), run_time=0.6)
        return marks

    def ratio_bracket(self, marks):
        """「五百倍的规模差，学习率只差五倍」 inside the plot: a double arrow from ring to ring,
        just above the dots (they sit on or under that chord), its label in the empty upper right."""
        first, last = marks[0][0], marks[1][0]
        span = arrow(first.get_right() + np.array([0.06, BRACKET_LIFT, 0]),
                     last.get_corner(UP + LEFT) + np.array([-0.04, 0.1 + BRACKET_LIFT, 0]), "backward", weight="thin",
                     buff="hair", both=True)
        ratio = VGroup(ledger_text("规模 {lr.gpt3.size_ratio_medium_175b} 倍", size="small", color="backward"),
                       ledger_text("→ 学习率只差 {lr.gpt3.lr_ratio_medium_175b} 倍", size="small", color="backward"))
        ratio.arrange(DOWN, aligned_edge=LEFT, buff=0.06)
        ratio.next_to(span.get_center() + DOWN * BRACKET_LIFT, UP + RIGHT, buff=theme.space("gap"))   # where it stood
        plot_right = TABLE_CORNER[0] + TABLE_SIZE[0]
        ratio.shift(LEFT * max(0.0, ratio.get_right()[0] - (plot_right - 0.1)))
        self.play(Create(span), FadeIn(ratio), run_time=0.6)

    # ---- Ⓑ ------------------------------------------------------------------------------------------

    def two_schools_panel(self):
        self.start_panel("B", "{lr.school_count}个流派", says="怎么降？两个流派")
        plot = place(Plot(x_range=(0.0, 1.0), y_range=(0.0, 1.08), width=PROGRESS_SIZE[0], height=PROGRESS_SIZE[1],
                           x_ticks_key="lr.axis.progress_ticks", y_ticks_key="lr.axis.fraction_ticks",
                           x_title="训练进度（各自总 token 的比例）", y_title="学习率 ÷ 峰值"), PROGRESS_CORNER)
        self.plot = plot
        self.play(FadeIn(plot), run_time=0.8)

        self.beat(says="老派是余弦：GPT-3 在两千六百亿 token 内降到峰值的百分之十，之后一直保持")
        gpt3 = curve(plot, *from_peak(lr.GPT3_CURVE.value).T, color=OLD, stroke_width=5)
        gpt3_note = VGroup(words("GPT-3 · 老派 · 余弦", size="small", color=OLD),
                           ledger_text("{gpt3.decay_tokens} token 内降到 {lr.gpt3.final_over_peak}", size="small", color=OLD),
                           words("之后一直保持", size="small", color=OLD)).arrange(DOWN, aligned_edge=LEFT, buff=NOTE_LINE_GAP)
        # Under its own curve, above the 10 % line's note.
        gpt3_note.move_to(self.plot.point(0.02, 0.455), aligned_edge=LEFT)
        self.play(Create(gpt3), FadeIn(gpt3_note), run_time=1.5)

        self.beat(says="新派是先恒定、最后才降")
        v3 = curve(plot, *from_peak(lr.V3_CURVE.value).T, color=NEW, stroke_width=5)
        v3_note = ledger_text("DeepSeek-V3 · 新派 · 先恒定、到 {v3.hold_until_tokens} token 才开始降",
                              size="label", color=NEW).move_to([0, plot.y_title.get_center()[1], 0])
        v3_note.align_to(self.plot.point(V3_NOTE_FROM, 0), LEFT).shift(UP * 0.12)
        # V3's second line, in smaller type: at this scale its warmup is too short to draw.
        warm = ledger_text("（升温 {v3.warmup_steps} 步：短到看不见）", size="small", color=NEW)
        warm.next_to(v3_note, DOWN, buff=NOTE_LINE_GAP, aligned_edge=LEFT)
        end = ledger_text("最后 {lr.v3.final_tokens}：{lr.v3.final_over_peak}", size="small", color=NEW)
        end.next_to(self.plot.point(1.0, 0.033), RIGHT, buff=0.15)
        self.play(Create(v3), FadeIn(v3_note), FadeIn(warm), run_time=1.5)
        self.play(FadeIn(end), run_time=0.4)

        self.beat(says="余弦要求你一开始就知道总共训多少步", takeaway="余弦：形状依赖终点，开局就得定训多久")
        # The reason grows into the whole contrast, which stays to the panel's end.
        self.beat(says="而恒定段可以随时截断，接一小段衰减就能出一个能用的 checkpoint",
                  takeaway="余弦开局就得定训多久；恒定段随时能截断，「训多久」推迟到随时", replaces=True)
        self.play(*self.truncation_branch(), run_time=1.0)

        self.beat(says="最后指一下图上那条横贯全场的虚线")
        floor = lr.V3_COSINE_END.value
        line = dashed(level(self.plot, floor, "ink", stroke_width=theme.stroke("bold"))).set_z_index(FLOOR_ON_TOP)
        floor_note = on_plot("峰值的 {lr.v3.cosine_end_over_peak}：{lr.school_count}派余弦段的终点", size="small")
        floor_note.next_to(self.plot.point(0.04, floor), UP, buff=FLOOR_LABEL_GAP).align_to(self.plot.point(0.04, 0), LEFT)
        self.play(Create(line), FadeIn(floor_note), run_time=0.8)

        self.beat(says="两个样本不构成定律", takeaway="⚠ 样本太少，不构成定律 · 但「降到{lr.decay_to_zero_over_peak}」不是默认做法")

    def truncation_branch(self):
        """V3's flat segment cut early, then a short cosine down to its decayed value (illustration)."""
        cut, share = lr.CUT_AT.value, lr.CUT_DECAY.value
        length = share * (lr.V3_DECAY_TOKENS.value / lr.V3_TOTAL.value)
        p = np.linspace(0, 1, 60)
        xy = np.column_stack([cut + p * length, lr.cosine(p, 1.0, lr.V3_COSINE_END.value)])
        branch = DashedVMobject(VMobject(stroke_color=theme.color(NEW), stroke_width=3).set_points_smoothly(
            self.plot.point(xy[:, 0], xy[:, 1])), num_dashes=14)
        stop = Dot(self.plot.point(*xy[-1]), radius=0.08, color=theme.color(NEW))
        # Four short lines: the label fits between the branch and V3's own fall.
        label = VGroup(*(words(part, size="small", color=NEW) for part in ("随时截断", "+ 短短的衰减", "→ 能用的", "checkpoint")))
        label.arrange(DOWN, aligned_edge=LEFT, buff=NOTE_LINE_GAP)
        label.move_to(self.plot.point(cut + 0.08, 0.7), aligned_edge=LEFT)
        return Create(branch), FadeIn(stop), FadeIn(label)
