"""fig-lr-curve: the learning-rate schedule — warm up, hold, decay — with looked-up numbers only.

Ⓐ 三段，以及峰值从哪抄: the three segments (not to scale); what warmup buys, drawn on the sketch
   (a higher plateau than a run without it reaches); GPT-3's warmup share, on the whole run to
   scale and in its first 1 % magnified, where the warmup is seen; GPT-3 Table 2.1 as a log-log
   scatter (size vs peak lr, each dot as large as its batch, with a size key), its two counted ends
   ringed and the 500× (across) against 5× (up) as two brackets inside the plot.
Ⓑ 两个流派: GPT-3's cosine and DeepSeek-V3's hold-then-decay on one progress axis; a ghost cosine
   for a shorter run (its whole shape moves with its end); the "truncate any time" branch; and
   the 10 % line, through both cosines' ends — with V3's real end below it.
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, ORIGIN, RIGHT, UP, Create, FadeIn, FadeOut, FadeTransform, VGroup

from lecture_numerics import lr_schedules as lr
from lecture_numerics.schedule import GPT3_BATCH, GPT3_LR, GPT3_PARAMS
from scenes.kit import marks, theme
from scenes.kit.annotate import on_plot
from scenes.kit.arrows import arrow
from scenes.kit.bars import StackedBar
from scenes.kit.base import LectureScene
from scenes.kit.data_window import DataWindow
from scenes.kit.layout import safe_bounds
from scenes.kit.plots import Plot, curve, dashed, level, place
from scenes.kit.text import ledger_text, words

# GPT-3 is the smaller model of the two (model_small, orange); DeepSeek-V3 its own purple, as in
# fig-per-byte. The rings and brackets the speaker points at are highlights (accent); a schedule
# that is only imagined (a shorter run) is a ghost (muted, dashed).
OLD, NEW, POINTED, GHOST = "model_small", "v3", "accent", "muted"
SKETCH = DataWindow(((0.0, 1.0), (0.0, 1.0)), screen_center=(-3.4, 1.95), screen_size=(4.4, 1.4))
SKETCH_CORNERS = [(0, 0.05), (0.15, 1.0), (0.6, 1.0), (1.0, 0.15)]
NO_WARMUP_PEAK = 0.55          # the sketch's lower plateau: a run without warmup (schematic, not to scale)
LIFT_AT = 0.5                  # where the sketch's 「更大」 arrow rises from that plateau to the real one
# Each panel keeps two takeaways along the bottom (up to y ≈ −2.55).
# Table 2.1, log-log, as large as the room right of the sketch allows; its axis title clear of the takeaways.
TABLE_CORNER, TABLE_SIZE = (-0.1, -1.1), (6.6, 3.1)
PROGRESS_CORNER, PROGRESS_SIZE = (-5.15, -1.13), (9.1, 3.18)   # the two schedules
STRIP_LENGTH, STRIP_THICKNESS, STRIP_BASE = 5.4, 0.32, (-6.62, -0.95)   # Ⓐ: GPT-3's whole run, to scale
STRIP_FILL = 0.35          # the run's grey: the part that is not warmup
# Under the strip, its head (lr.gpt3.inset_share of the run) magnified: the warmup is an eighth of it.
INSET_SHARE = lr.INSET_SHARE.value
INSET_LENGTH, INSET_DROP = 2.7, 0.8
CLAIM_Y, CLAIM_LINE_GAP = 0.12, 0.08   # Ⓐ's warmup finding, between the sketch and the strip
EDGE_MARGIN = 0.1          # extra room inside the safe area for a right-aligned line
HIGHLIGHT = ("medium", "175b")
# Each dot's area is its batch: radius ∝ √batch, the smallest batch (0.5M) at DOT_R_SMALLEST.
DOT_R_SMALLEST = 0.06
KEY_DOT_GROWTH = 2.0       # the size key's large dot against its small one
KEY_LIFT = 0.05            # the size key's bottom over the plot's floor: left of the y axis, under its ticks
# The lr axis (in lr.axis.lr_unit, 10⁻⁴) reaches well below the smallest dot (0.6) so that the
# 500× bracket stands in empty plot under the dots, and well above the largest dot (6).
LR_SHOWN = (0.11, 12.0)
LR_UNIT = lr.LR_UNIT.value
UP_LABEL_DROP = 0.1        # 「学习率只差 5 倍」 just under the across bracket, clear of the 13B dot
LEADER_DROP, LEADER_SHIFT = 0.8, 0.15   # 350M's label under the dots' chain, its leader up to the ring
FLOOR_ON_TOP, FLOOR_LABEL_GAP = 2, 0.12   # the 10 % line over both curves; 8 px or more under its label
NOTE_LINE_GAP = 0.05
V3_NOTE_FROM = 0.28        # V3's label starts here on the progress axis, well right of the axis title
FLOOR_NOTE_AT = 0.03       # the 10 % line's label, at the plot's left: clear of the branch and the curves
# GPT-3's note: first in the pocket over its own curve and under V3's plateau, where the shorter
# run's ghost (B.4, always under GPT-3's curve) cannot reach it; when the ghost leaves and the
# truncation branch comes down through that pocket (B.5), it moves under its curve at the left.
GPT3_NOTE_POCKET = (0.355, 0.95)   # (progress, lr ÷ peak) of the note's top-left corner
GPT3_NOTE_LEFT = (0.02, 0.5)       # (progress, lr ÷ peak) of its left edge's middle
# V3's last-stretch callout: right of the plot (at most to the safe edge) and well up, so its
# pointer runs down to the step long enough to read as an arrow.
TAIL_GAP, TAIL_DROP = 0.5, -1.0


def from_peak(schedule: np.ndarray) -> np.ndarray:
    """A schedule from its first point at the peak on: both warmups are too short to draw at this
    scale (the notes say so), and drawn they are a vertical stroke over the y axis."""
    return schedule[int(np.argmax(schedule[:, 1])):]


class FigLrCurve(LectureScene):
    scene_id = "fig-lr-curve"
    title = "学习率曲线：升上去、稳住、降下来"
    ledger_keys = (
        "lr.segment_count", "lr.school_count", "lr.warmup_paper.year", "gpt3.warmup_tokens", "gpt3.train_tokens", "lr.gpt3.warmup_share",
        "lr.gpt3.inset_share", "lr.gpt3.inset_tokens",
        "lr.axis.param_ticks", "lr.axis.lr_ticks_e4", "lr.axis.lr_unit", "gpt3.medium.batch_tokens", "gpt3.175b.batch_tokens",
        "gpt3.medium.params", "lr.gpt3.medium_lr_e4", "gpt3.175b.params", "lr.gpt3.175b_lr_e4",
        "lr.gpt3.size_ratio_medium_175b", "lr.gpt3.lr_ratio_medium_175b", "lr.gpt3.rows_medium_to_175b",
        "lr.axis.progress_ticks", "lr.axis.fraction_ticks", "gpt3.decay_tokens", "lr.gpt3.final_over_peak",
        "v3.hold_until_tokens", "v3.warmup_steps", "lr.v3.final_tokens", "lr.v3.final_over_peak",
        "lr.v3.cosine_end_over_peak", "lr.decay_to_zero_over_peak",
    )

    def construct(self):
        self.three_segments_panel()
        self.two_schools_panel()

    # ---- Ⓐ ------------------------------------------------------------------------------------------

    def three_segments_panel(self):
        self.start_panel("A", "{lr.segment_count}段，以及峰值从哪抄", says="整条曲线只有三段：升上去、稳住、降下来")
        self.sketch()
        self.beat(says="真正的机制是：warmup 让网络能承受一个更大的目标学习率")
        self.warmup_lift()
        self.beat(says="实际用多长？GPT-3 是头三亿七千五百万个 token，占总量的千分之一点二五")
        self.warmup_strip()
        self.beat(says="峰值设多少？这个有现成的表可以抄，不用猜")
        table, dots = self.table_scatter()
        self.beat(says="GPT-3 论文表 2.1 把七个规模一起列了")
        rings = self.table_ends(table, dots)
        self.beat(says="规律肉眼可见：模型越大，学习率越小、batch 越大",
                  takeaway="模型越大，学习率越小、batch 越大")
        self.play(*(FadeIn(batch) for _, _, batch in rings), FadeIn(self.size_key(table)), run_time=0.5)
        self.beat(says="五百倍的规模差，学习率只差五倍")
        self.ratio_brackets(table)
        # The ⛔ line stands alone: it restates the rule before it, with the batch as its point.
        self.beat(says="注意那张表里 batch 和学习率是一起变的",
                  takeaway="batch 和学习率是一起变的：不能只调学习率不看 batch", replaces=True)

    def sketch(self):
        parts = VGroup(*(marks.segment(SKETCH.point(*a), SKETCH.point(*b), "ink", weight="bold")
                         for a, b in zip(SKETCH_CORNERS, SKETCH_CORNERS[1:])))
        names = VGroup(*(words(n, size="small") for n in lr.SEGMENT_NAMES.value))
        names[0].next_to(parts[0].get_start(), LEFT, buff=theme.space("tight"))   # low: the plateau's ghost is higher
        names[1].next_to(parts[1], UP, buff=theme.space("tight"))
        # Under the line's end, leaving the room to its right to Table 2.1's axis title.
        names[2].next_to(parts[2].get_end(), DOWN, buff=theme.space("tight"))
        # The whole sketch's caveat, under all of it from its left edge: it reads as the
        # sketch's, not as one segment's (under 「降下来」 alone it did).
        not_to_scale = words("（不按比例）", size="small", color="muted")
        not_to_scale.next_to(VGroup(parts, names), DOWN, buff=theme.space("tight"))
        not_to_scale.align_to(SKETCH.point(0.0, 0.0), LEFT)
        for part, name in zip(parts, names):
            self.play(Create(part), FadeIn(name), run_time=0.5)
        self.play(FadeIn(not_to_scale), run_time=0.3)

    def warmup_lift(self):
        """What warmup buys, on the sketch: without it the run holds a lower plateau; with it, a
        higher target (Kalra & Barkeshli's finding, the one claim the screen carries)."""
        low = marks.segment(SKETCH.point(0.0, NO_WARMUP_PEAK), SKETCH.point(SKETCH_CORNERS[2][0], NO_WARMUP_PEAK),
                            GHOST, weight="regular", dashed=True)
        low_name = words("没有 warmup", size="small", color=GHOST)
        low_name.next_to(low, DOWN, buff=theme.space("fine")).align_to(SKETCH.point(0.2, 0), LEFT)
        lift = arrow(SKETCH.point(LIFT_AT, NO_WARMUP_PEAK), SKETCH.point(LIFT_AT, 1.0), "ink", weight="regular",
                     buff="fine")
        self.claim = VGroup(words("warmup 让网络扛得住更大的目标学习率", size="small"),
                            ledger_text("出处：Kalra & Barkeshli, {lr.warmup_paper.year}", size="small", color="muted"))
        self.claim.arrange(DOWN, aligned_edge=LEFT, buff=CLAIM_LINE_GAP)
        self.claim.move_to([0, CLAIM_Y, 0]).align_to([STRIP_BASE[0], 0, 0], LEFT)
        self.play(Create(low), FadeIn(low_name), run_time=0.6)
        self.play(Create(lift), run_time=0.5)
        self.play(FadeIn(self.claim, shift=RIGHT * theme.space("small")), run_time=0.6)

    def warmup_strip(self):
        """GPT-3's whole run to scale, filled grey; its first INSET_SHARE magnified underneath, where
        the warmup is an orange sliver one can see (on the whole run it is under a pixel)."""
        # One kit bar: the whole run as its track, the warmup as its only (sub-pixel) segment.
        bar = StackedBar([("lr.gpt3.warmup_share", OLD)], scale=STRIP_LENGTH, thickness=STRIP_THICKNESS, opacity=1,
                         track=STRIP_LENGTH).start_at(STRIP_BASE)
        strip = bar.track.set_fill(theme.color(GHOST), opacity=STRIP_FILL)
        name = ledger_text("GPT-3 全程 {gpt3.train_tokens} token", size="small", color="muted")
        name.next_to(strip, UP, buff=theme.space("tight")).align_to(strip, RIGHT)
        inset_base = (STRIP_BASE[0], STRIP_BASE[1] - INSET_DROP)
        near = StackedBar([("lr.gpt3.warmup_share", OLD)], scale=INSET_LENGTH / INSET_SHARE,
                          thickness=STRIP_THICKNESS, opacity=1, track=INSET_LENGTH).start_at(inset_base)
        near.track.set_fill(theme.color(GHOST), opacity=STRIP_FILL)
        head = strip.get_corner(DOWN + LEFT) + RIGHT * STRIP_LENGTH * INSET_SHARE
        zoom = VGroup(marks.segment(strip.get_corner(DOWN + LEFT), near.track.get_corner(UP + LEFT), GHOST,
                                    weight="hairline"),
                      marks.segment(head, near.track.get_corner(UP + RIGHT), GHOST, weight="hairline"))
        note = ledger_text("warmup：头 {gpt3.warmup_tokens} = 总量的 {lr.gpt3.warmup_share}", size="small", color=OLD)
        note.next_to(near, DOWN, buff=theme.space("small")).align_to(near, LEFT)
        # The inset says what it is, so its orange eighth never reads as the warmup's share of the run.
        zoomed = ledger_text("← 放大：前 {lr.gpt3.inset_tokens} token（全程的 {lr.gpt3.inset_share}）", size="small",
                             color="muted").next_to(near, RIGHT, buff=theme.space("small"))
        self.warmup = VGroup(bar, name, zoom, near, note, zoomed)
        self.play(FadeIn(bar), FadeIn(name), run_time=0.5)
        self.play(Create(zoom), FadeIn(near.track), FadeIn(zoomed), run_time=0.5)
        self.play(FadeIn(near.blocks), FadeIn(note), run_time=0.6)

    def table_scatter(self):
        table = place(Plot(x_range=(10 ** 7.8, 10 ** 11.5), y_range=LR_SHOWN, width=TABLE_SIZE[0],
                            height=TABLE_SIZE[1], x_log=True, y_log=True, x_ticks_key="lr.axis.param_ticks",
                            y_ticks_key="lr.axis.lr_ticks_e4", x_title="参数量",
                            y_title="峰值学习率（{lr.axis.lr_unit}）"), TABLE_CORNER)
        source = words("出处：GPT-3 论文", size="small", color="muted")
        source.next_to(table.y_title, RIGHT, buff=theme.space("wide")).align_to(table.y_title, DOWN)
        # The warmup finding and its length have been said; the table takes the stage.
        self.play(FadeOut(self.claim), FadeOut(self.warmup), FadeIn(table), FadeIn(source), run_time=0.8)
        dots = {}
        smallest = min(b.value for b in GPT3_BATCH.values())
        for name in GPT3_LR:
            at = table.point(GPT3_PARAMS[name].value, GPT3_LR[name].value / LR_UNIT)
            radius = DOT_R_SMALLEST * np.sqrt(GPT3_BATCH[name].value / smallest)   # area ∝ batch
            dots[name] = marks.dot(at, OLD if name != "small" else "muted", radius=radius)
        self.play(FadeIn(VGroup(*dots.values())), run_time=0.8)
        return table, dots

    def table_ends(self, table, dots) -> list[tuple]:
        """The rows the speaker counts and their two ends, ringed: size → lr now, the batch
        beside it when the rule is said. The count's line names the uncounted (grey) row."""
        # The uncounted row is named here, not on its dot, where a label would run into 350M's.
        rows = ledger_text("{lr.gpt3.rows_medium_to_175b}个规模：{gpt3.medium.params} → {gpt3.175b.params}（灰点不算）",
                           size="small", color=OLD).move_to([table.x_axis.get_center()[0], 2.75, 0])
        rows.align_to([safe_bounds()[2] - EDGE_MARGIN, 0, 0], RIGHT)
        rings = []
        for name in HIGHLIGHT:
            ring = marks.frame_around(dots[name], POINTED, pad="hair", weight="bold")
            lr_label = ledger_text(f"{{gpt3.{name}.params}} → {{lr.gpt3.{name}_lr_e4}}{{lr.axis.lr_unit}}", size="small")
            batch = ledger_text(f"batch {{gpt3.{name}.batch_tokens}}", size="small")
            rings.append((ring, lr_label, batch))
        # 350M's label under its ring and the chain of dots, with a leader up to the ring: above
        # it stands the grey (uncounted) 125M dot, which the label must not seem to name. Its batch
        # goes above the ring, right of the grey dot. 175B's both go under its ring (the empty plot
        # above the x axis): the right angle between them is left to the two brackets.
        (ring, lr_label, batch), (end_ring, end_label, end_batch) = rings
        lr_label.next_to(ring, DOWN, buff=LEADER_DROP).align_to(ring, LEFT).shift(LEFT * LEADER_SHIFT)
        leader = marks.segment([ring.get_center()[0], lr_label.get_top()[1], 0], ring.get_bottom(), "ink",
                               weight="hairline")
        batch.next_to(ring, UP, buff=theme.space("small")).align_to(ring, LEFT)
        end_label.next_to(end_ring, DOWN, buff=theme.space("small")).align_to(end_ring, RIGHT)
        end_batch.next_to(end_label, DOWN, buff=0.06).align_to(end_label, RIGHT)
        self.play(FadeIn(rows), FadeIn(VGroup(ring, lr_label, leader)), FadeIn(VGroup(end_ring, end_label)),
                  run_time=0.6)
        return rings

    @staticmethod
    def size_key(table) -> VGroup:
        """What a dot's size says, outside the data: left of the y axis under its ticks, a small and
        a large ring (outlines, so they never read as two more rows), 「点越大，batch 越大」."""
        small, large = (marks.ring(ORIGIN, OLD, radius=DOT_R_SMALLEST * f, weight="thin") for f in (1.0, KEY_DOT_GROWTH))
        first = VGroup(small, large, words("点越大", size="small", color=OLD)).arrange(RIGHT, buff=theme.space("tight"))
        key = VGroup(first, words("batch 越大", size="small", color=OLD))
        key.arrange(DOWN, aligned_edge=RIGHT, buff=0.06)
        corner = table.point(table.x_scale.low, table.y_scale.low)
        return key.move_to(corner + np.array([-theme.space("small"), KEY_LIFT, 0.0]), aligned_edge=DOWN + RIGHT)

    def ratio_brackets(self, table):
        """「五百倍的规模差，学习率只差五倍」: a right angle over the dots' fall — across from Medium to
        175B at Medium's height (size, 2.7 decades), then down to 175B (lr, 0.7 decade). The two
        ratios are two lengths; the dots run along the third side."""
        (small_n, big_n), (small_lr, big_lr) = ((GPT3_PARAMS[n].value for n in HIGHLIGHT),
                                                (GPT3_LR[n].value / LR_UNIT for n in HIGHLIGHT))
        corner = table.point(big_n, small_lr)
        across = marks.bracket(table.point(small_n, small_lr), corner, DOWN, POINTED, weight="bold")
        across_label = VGroup(words("规模", size="small", color=POINTED),
                              ledger_text("差 {lr.gpt3.size_ratio_medium_175b} 倍", size="small", color=POINTED))
        # Over the across bracket at its corner end, in two short lines, well right of 350M's own
        # label; the up bracket's label inside the right angle, over the dots' fall.
        across_label.arrange(DOWN, aligned_edge=RIGHT, buff=0.06)
        across_label.next_to(across, UP, buff=theme.space("tight")).align_to(across, RIGHT)
        up = marks.bracket(corner, table.point(big_n, big_lr), LEFT, POINTED, weight="bold")
        up_label = VGroup(on_plot("学习率", size="small", color=POINTED),
                          on_plot("只差 {lr.gpt3.lr_ratio_medium_175b} 倍", size="small", color=POINTED))
        # Right against its bracket, just under the across bracket: clear of the 13B dot at its left.
        up_label.arrange(DOWN, aligned_edge=RIGHT, buff=0.06).next_to(up, LEFT, buff=theme.space("tight"))
        up_label.set_y(across.get_bottom()[1] - UP_LABEL_DROP - up_label.height / 2)
        self.play(Create(across), FadeIn(across_label), run_time=0.6)
        self.play(Create(up), FadeIn(up_label), run_time=0.6)

    # ---- Ⓑ ------------------------------------------------------------------------------------------

    def two_schools_panel(self):
        self.start_panel("B", "{lr.school_count}个流派", says="怎么降？两个流派")
        plot = place(Plot(x_range=(0.0, 1.0), y_range=(0.0, 1.08), width=PROGRESS_SIZE[0], height=PROGRESS_SIZE[1],
                           x_ticks_key="lr.axis.progress_ticks", y_ticks_key="lr.axis.fraction_ticks",
                           x_title="训练进度（各自总 token 的比例）", y_title="学习率 ÷ 峰值"), PROGRESS_CORNER)
        self.plot = plot
        self.play(FadeIn(plot), run_time=0.8)

        self.beat(says="老派是余弦：GPT-3 在两千六百亿 token 内降到峰值的百分之十，之后一直保持")
        self.old_school()
        self.beat(says="新派是先恒定、最后才降")
        self.new_school()
        self.beat(says="余弦要求你一开始就知道总共训多少步", takeaway="余弦：形状依赖终点，开局就得定训多久")
        ghost = self.shorter_cosine()
        # The reason grows into the whole contrast, which stays to the panel's end.
        self.beat(says="而恒定段可以随时截断，接一小段衰减就能出一个能用的 checkpoint",
                  takeaway="余弦开局就得定训多久；恒定段随时能截断，「训多久」推迟到随时", replaces=True)
        self.play(FadeOut(ghost), self.gpt3_note.animate.move_to(self.plot.point(*GPT3_NOTE_LEFT), aligned_edge=LEFT),
                  run_time=0.5)
        self.play(*self.truncation_branch(), run_time=1.0)

        # The line is the point now: its sentence takes the takeaway slot, the cosine-vs-constant line leaves.
        self.beat(says="最后指一下图上那条横贯全场的虚线",
                  takeaway="{lr.school_count}派余弦段的终点，都在峰值的 {lr.v3.cosine_end_over_peak} 线上", replaces=True)
        self.floor_line()
        # The ⚠ line leads alone: the contrast it replaces is drawn (the branch and its label stay).
        self.beat(says="两个样本不构成定律", takeaway="⚠ 样本太少，不构成定律 · 但「降到{lr.decay_to_zero_over_peak}」不是默认做法",
                  replaces=True)

    def old_school(self):
        gpt3 = curve(self.plot, *from_peak(lr.GPT3_CURVE.value).T, color=OLD, stroke_width=theme.stroke("bold"))
        # Over its own curve, under the plateau; 「之后一直保持」 is the flat tail itself.
        note = VGroup(on_plot("GPT-3 · 老派 · 余弦", size="small", color=OLD),
                      on_plot("{gpt3.decay_tokens} token 内降到 {lr.gpt3.final_over_peak}", size="small", color=OLD))
        note.arrange(DOWN, aligned_edge=LEFT, buff=NOTE_LINE_GAP)
        note.move_to(self.plot.point(*GPT3_NOTE_POCKET), aligned_edge=UP + LEFT)
        self.gpt3_note = note
        self.play(Create(gpt3), FadeIn(note), run_time=1.5)

    def new_school(self):
        v3 = curve(self.plot, *from_peak(lr.V3_CURVE.value).T, color=NEW, stroke_width=theme.stroke("bold"))
        note = ledger_text("DeepSeek-V3 · 新派 · 先恒定、到 {v3.hold_until_tokens} token 才开始降",
                           size="label", color=NEW).move_to([0, self.plot.y_title.get_center()[1], 0])
        note.align_to(self.plot.point(V3_NOTE_FROM, 0), LEFT).shift(UP * 0.12)
        # V3's second line, in smaller type: at this scale its warmup is too short to draw.
        warm = ledger_text("（warmup {v3.warmup_steps} 步：看不见）", size="small", color=NEW)
        warm.next_to(note, DOWN, buff=NOTE_LINE_GAP, aligned_edge=LEFT)
        self.v3_note, self.v3_warm = note, warm
        self.play(Create(v3), FadeIn(note), FadeIn(warm), run_time=1.5)

    def shorter_cosine(self) -> VGroup:
        """「形状依赖终点」: the same cosine planned for a shorter run. Its whole descent moves with
        its end, so the total has to be fixed before the first step."""
        share = lr.GHOST_RUN_SHARE.value
        end = share * lr.GPT3_DECAY_END.value
        p = np.linspace(0.0, 1.0, 80)
        xs = np.append(p * end, share)
        ys = np.append(lr.cosine(p, 1.0, lr.V3_COSINE_END.value), lr.V3_COSINE_END.value)
        ghost = dashed(curve(self.plot, xs, ys, GHOST, stroke_width=theme.stroke("regular")))
        stop = marks.dot(self.plot.point(share, lr.V3_COSINE_END.value), GHOST)
        # Up and left of the ghost's end, between the ghost and GPT-3's falling curve (which passes
        # right over the end itself): the one thing that changed is the end.
        name = on_plot("终点提前", color=GHOST, size="small").next_to(stop, UP + LEFT, buff=theme.space("small"))
        group = VGroup(ghost, stop, name)
        self.play(Create(ghost), FadeIn(stop), run_time=1.0)
        self.play(FadeIn(name), run_time=0.3)
        return group

    def floor_line(self):
        """The dashed 10 % line across the plot, a dot on each cosine's end where it meets it,
        and its label at the left, clear of the branch and both curves. The curves' notes shrink
        to their names first, so the line and its two dots are what the eye lands on; V3's last
        stretch, below the line, gets a callout of its own."""
        floor = lr.V3_COSINE_END.value
        short_old = on_plot("GPT-3 · 余弦", size="small", color=OLD).move_to(self.gpt3_note[0], aligned_edge=LEFT)
        short_new = words("DeepSeek-V3 · 先恒定", size="label", color=NEW).move_to(self.v3_note, aligned_edge=LEFT)
        self.play(FadeOut(self.v3_warm), FadeOut(self.gpt3_note[1]), FadeTransform(self.gpt3_note[0], short_old),
                  FadeTransform(self.v3_note, short_new), run_time=0.5)
        line = dashed(level(self.plot, floor, "ink", stroke_width=theme.stroke("bold"))).set_z_index(FLOOR_ON_TOP)
        ends = VGroup(marks.dot(self.plot.point(lr.GPT3_DECAY_END.value, floor), OLD, size="ball"),
                      marks.dot(self.plot.point(lr.V3_COSINE_END_PROGRESS.value, floor), NEW, size="ball"))
        ends.set_z_index(FLOOR_ON_TOP + 1)
        # What stands on the line (both cosine ends, the two dots, as the errata has the speaker
        # say) is the beat's takeaway; on the plot the line only names its height, the y axis's
        # own 10 % tick, short, so it ends well left of the truncation branch's fall.
        note = VGroup(ledger_text("峰值的 {lr.v3.cosine_end_over_peak}", size="small"))
        note.next_to(self.plot.point(FLOOR_NOTE_AT, floor), UP, buff=FLOOR_LABEL_GAP)
        note.align_to(self.plot.point(FLOOR_NOTE_AT, 0), LEFT)
        # V3's real end: its last stretch runs under the line, too narrow to see without a pointer.
        v3_end = from_peak(lr.V3_CURVE.value)[-1]
        step = self.plot.point(v3_end[0], v3_end[1])
        tail = VGroup(ledger_text("V3 最后 {lr.v3.final_tokens}", size="small", color=NEW),
                      ledger_text("只有峰值的 {lr.v3.final_over_peak}", size="small", color=NEW))
        tail.arrange(DOWN, aligned_edge=LEFT, buff=NOTE_LINE_GAP)
        tail.next_to(step, RIGHT, buff=TAIL_GAP).shift(DOWN * TAIL_DROP)
        # Its longer second line (the 3.3 %) is kept inside the safe area: right-aligned to its edge.
        tail.align_to([safe_bounds()[2] - EDGE_MARGIN, 0, 0], RIGHT)
        pointer = arrow(tail.get_corner(DOWN + LEFT), step, NEW, weight="thin", buff="fine")
        self.play(Create(line), run_time=0.6)
        self.play(FadeIn(ends, scale=1.5), FadeIn(note), run_time=0.6)
        self.play(FadeIn(tail), Create(pointer), run_time=0.5)

    def truncation_branch(self):
        """V3's flat segment cut early, then a short cosine down to its decayed value (illustration)."""
        cut, share = lr.CUT_AT.value, lr.CUT_DECAY.value
        length = share * (lr.V3_DECAY_TOKENS.value / lr.V3_TOTAL.value)
        p = np.linspace(0, 1, 60)
        xy = np.column_stack([cut + p * length, lr.cosine(p, 1.0, lr.V3_COSINE_END.value)])
        branch = marks.polyline(self.plot.point(xy[:, 0], xy[:, 1]), NEW, weight="regular", smooth=True, dashed=True)
        stop = marks.dot(self.plot.point(*xy[-1]), NEW)
        # Four short lines: the label fits between the branch and V3's own fall.
        label = VGroup(*(words(part, size="small", color=NEW) for part in ("随时截断", "+ 短短的衰减", "→ 能用的", "checkpoint")))
        label.arrange(DOWN, aligned_edge=LEFT, buff=NOTE_LINE_GAP)
        label.move_to(self.plot.point(cut + 0.08, 0.7), aligned_edge=LEFT)
        return Create(branch), FadeIn(stop), FadeIn(label)
