"""fig-stability: loss flew — what caused it, three kinds of cure, and the two-column test (第六节).

Shown in the speaker's order Ⓑ → Ⓐ → Ⓒ (the sections keep their panel letters):
Ⓑ The experiment: the same batches from an earlier checkpoint do not spike; the rollback goes round it.
Ⓐ Three kinds of cure, from the root (structure) to first aid (rollback).
Ⓒ ST-MoE's table read in both columns: stable, and did quality drop; the ghost row (学习率 = 零)
  is the punchline, drawn legibly (muted ink at full strength, in a dashed frame).
Each panel is cut into the beats its notes give: the question before its answer, 「……不飞」 on
its own, one card and one table row per sentence.
"""

from __future__ import annotations

import numpy as np
from manim import (DOWN, LEFT, RIGHT, UP, DashedVMobject, FadeIn, Line, Rectangle, ReplacementTransform,
                   RoundedRectangle, SurroundingRectangle, VGroup, VMobject)

from lecture_numerics.spike import rollback_sketch
from scenes.kit import theme
from scenes.kit.arrows import arrow, curved_arrow
from scenes.kit.base import LectureScene
from scenes.kit.text import ledger_text, line, words

# Geometry (scene units; the frame is 14.2 × 8).
ROW_Y = (2.05, 0.9)                 # row 1 low enough for the 「？」 above it
STRIP = (-5.8, 1.2, -2.9, -1.3)            # left, right, bottom, top of Ⓑ's loss strip
TABLE_X = (-6.6, 1.0, 4.6)                 # 方法 (left edge) · 稳没稳 · 质量掉没掉 (centres)
TABLE_TOP, TABLE_GAP = 1.7, 0.85          # high enough that the ghost row clears the takeaway and footnote
SPIKE_TAIL = 0.15                         # how far past the spike the first run is drawn (of the window)
REPLACED_OPACITY = 0.3                    # the first run after the restart, once the rerun goes over it
CARD_WIDTH, CARD_HEIGHT, CARD_INSET = 4.15, 3.2, 0.3   # Ⓐ's cards: wide and tall enough for three items
                                                        # with room on the right; text inset from the corner
GHOST_PAD = 0.25                          # the dashed frame's clearance around the ghost row's words
BOTH_RIGHT_PAD = 0.14                     # 「…缺一样都不飞」's last glyph needs room before its frame
SAME_GAP = 0.15                           # 「同一个点不再飞」 right of the rerun's end, clear of the grey band
STAMP_RISE = 0.35                         # the 「绕过去了」 stamp sits above the rerun's label
REWIND_ARC = 0.8                          # the rollback arrow bows over the strip from the spike back to the restart


def block(text: str, color: str = "ink", size: str = "label", right_pad: float = 0.0) -> VGroup:
    """Words in a rounded frame; ``right_pad`` widens the frame on the right only."""
    label = line(text, size=size, color=color)
    frame = RoundedRectangle(corner_radius=0.1, width=label.width + 0.4 + right_pad, height=label.height + 0.3,
                             stroke_width=2, stroke_color=theme.color(color))
    return VGroup(frame.move_to(label).shift(RIGHT * right_pad / 2), label)


class FigStability(LectureScene):
    scene_id = "fig-stability"
    title = "loss 飞了：原因、三类治法、两栏检验"
    ledger_keys = ("spike.rollback_steps", "spike.skipped_batches", "stability.runs", "stability.stable_runs",
                   "stability.quality", "stability.quality_err", "stability.update_clip", "stability.ghost_lr",
                   "stability.cure_kinds")

    def construct(self) -> None:
        # A neutral question: the room gives its own first answer (那批数据) before the screen does.
        self.start_panel("B", "loss 飞了：怪谁？", says="第一反应是什么？")
        self.data_times_state()
        self.start_panel("A", "{stability.cure_kinds}类治法，有先后", says="三类，治的是三个不同的位置")
        self.three_cures()
        self.start_panel("C", "稳没稳，质量掉没掉", says="难的是：稳住，而且不掉质量")
        self.two_columns()

    # ---- Ⓑ ----

    def row(self, y: float, name: str, state: str, data: str, outcome: str, color: str) -> VGroup:
        parts = VGroup(words(name, size="label", color="muted"), block(state), words("+", size="label"),
                       block(data), words("→", size="label"), words(outcome, size="heading", color=color))
        return parts.arrange(RIGHT, buff=0.3).move_to([-0.8, y, 0]).to_edge(LEFT, buff=0.5)

    def data_times_state(self) -> None:
        then = self.row(ROW_Y[0], "当时", "参数状态：spike 前", "那批数据", "飞", "backward")
        self.play(FadeIn(then), run_time=0.6)

        self.beat(says="肯定是那批数据有问题")
        doubt = words("？", size="heading", color="warm").next_to(then[3], UP, buff=0.12)
        self.play(FadeIn(doubt, scale=1.4), run_time=0.5)

        self.beat(says="从另一个更早的 checkpoint 重新喂一遍")
        check = self.row(ROW_Y[1], "验证", "更早的 checkpoint", "同样那批数据", "不飞", "good")
        check[3].align_to(then[3], LEFT)
        check[4].next_to(check[3], RIGHT, buff=0.3)
        check[5].next_to(check[4], RIGHT, buff=0.3)
        # The data block is visibly the same object: a copy moves down unchanged onto the 「那批数据」
        # of 「同样那批数据」, then its frame widens and 「同样」 fades in (no glyph ever morphs).
        moved = then[3].copy()
        frame, label = check[3]
        same = label[:len("同样")]
        target = label[len("同样"):].get_center() - moved[1].get_center()
        self.play(FadeIn(check[:3]), moved.animate.shift(target), run_time=0.7)
        self.play(ReplacementTransform(moved[0], frame), FadeIn(same), run_time=0.4)
        self.remove(moved[1], same, frame)      # the moved words lie exactly on the block's own: swap them
        self.add(check[3])
        self.play(FadeIn(check[4]), run_time=0.3)

        self.beat(says="……不飞")
        self.play(FadeIn(check[5], scale=1.3), run_time=0.5)

        self.beat(says="是这批数据，和当时那个参数状态，两样撞在一起才出的事")
        both = block("这批数据 × 当时的参数状态：撞在一起才飞，缺一样都不飞", "accent", "small", right_pad=BOTH_RIGHT_PAD)
        both.next_to(check, DOWN, buff=0.35).to_edge(LEFT, buff=0.5)
        self.play(FadeIn(both), run_time=0.5)
        self.rollback()

    def rollback(self) -> None:
        r = rollback_sketch()
        left, right, bottom, top = STRIP
        x = lambda t: left + np.asarray(t) * (right - left)
        lo, hi = float(r.first.min()), float(r.first.max())
        y = lambda v: bottom + (np.asarray(v) - lo) / (hi - lo) * (top - bottom)

        def path(ts, vs, color, opacity=1.0):
            p = VMobject(stroke_width=3, stroke_color=theme.color(color), stroke_opacity=opacity)
            p.set_points_as_corners(np.column_stack([x(ts), y(vs), np.zeros(len(ts))]))
            return p

        shown = r.t <= r.spike + SPIKE_TAIL
        before = shown & (r.t <= r.restart)
        replaced = shown & (r.t >= r.restart)         # the stretch the rerun goes over again
        first = VGroup(path(r.t[before], r.first[before], "backward"),
                       path(r.t[replaced], r.first[replaced], "backward"))
        later = r.t >= r.restart
        rerun = path(r.t[later], r.rerun[later] - 0.0, "good")
        axis = Line([left, bottom - 0.05, 0], [right, bottom - 0.05, 0], stroke_width=2, color=theme.color("muted"))
        skipped = Rectangle(width=x(r.skipped[1]) - x(r.skipped[0]), height=top - bottom, stroke_width=0,
                            fill_color=theme.color("muted"), fill_opacity=0.18)
        skipped.move_to([(x(r.skipped[0]) + x(r.skipped[1])) / 2, (top + bottom) / 2, 0])
        self.beat(says="回滚到 spike 之前大约一百步，跳掉那两三百批数据，接着跑")
        self.play(FadeIn(axis), FadeIn(first), run_time=0.6)
        rewind = curved_arrow([x(r.spike), top + 0.1, 0], [x(r.restart), top + 0.1, 0], "accent", arc=REWIND_ARC,
                              weight="bold")
        back = ledger_text("回滚 ~{spike.rollback_steps} 步", size="small", color="accent").next_to(rewind, UP, buff=0.05)
        skip = ledger_text("跳过 ~{spike.skipped_batches} 批", size="small", color="muted").next_to(
            skipped, DOWN, buff=0.12)
        self.play(FadeIn(rewind), FadeIn(back), FadeIn(skipped), FadeIn(skip), run_time=0.7)
        self.beat(says="之后同一个点就不再飞了")
        # Right of the rerun's end, after the line it names: off the grey band and the curve.
        same = words("同一个点不再飞", size="small", color="good").next_to([x(1.0), y(r.rerun[-1]), 0], RIGHT,
                                                                      buff=SAME_GAP)
        # The old run under the rerun dims, so two noisy lines never lie on top of each other.
        self.play(first[1].animate.set_stroke(opacity=REPLACED_OPACITY), FadeIn(rerun), run_time=0.6)
        self.play(FadeIn(same), run_time=0.3)
        stamp = VGroup(words("绕过去了，不是修好了", size="heading", color="backward"),
                       words("论文：训练成本太高，", size="small", color="muted"),
                       words("没能找到有原则的办法", size="small", color="muted"))
        stamp.arrange(DOWN, aligned_edge=LEFT, buff=0.15).next_to([right + 0.6, (top + bottom) / 2 + STAMP_RISE, 0], RIGHT,
                                                                           buff=0)
        self.beat(says="这不是修好了，是绕过去了")
        self.play(FadeIn(stamp[0], scale=1.2), run_time=0.5)
        self.play(FadeIn(stamp[1:]), run_time=0.5)

    # ---- Ⓐ ----

    def three_cures(self) -> None:
        columns = (("治结构", "改网络本身", ("归一化放进残差块里", "QK-norm", "初始化"),
                    "治结构 —— 改网络本身"),
                   ("治数值", "不让某些量长太大", ("z-loss", "梯度裁剪"), "治数值 —— 不让某些量长太大"),
                   ("治现场", "已经飞了怎么救", ("回滚 + 跳数据",), "治现场 —— 已经飞了怎么救"))
        frames, texts = VGroup(), []
        for title, what, items, _ in columns:
            text = VGroup(words(title, size="heading", color="accent"), words(what, size="label"),
                          *[words("· " + item, size="label", color="muted") for item in items])
            text.arrange(DOWN, aligned_edge=LEFT, buff=0.2)
            frames.add(RoundedRectangle(corner_radius=0.15, width=CARD_WIDTH, height=CARD_HEIGHT, stroke_width=2,
                                        stroke_color=theme.color("muted")))
            texts.append(text)
        frames.arrange(RIGHT, buff=0.4).move_to([0, -0.2, 0])
        for frame, text in zip(frames, texts):      # one inset for all three columns
            text.align_to(frame, UP).align_to(frame, LEFT).shift(DOWN * CARD_INSET + RIGHT * CARD_INSET)
        # 「三类，治的是三个不同的位置」: three empty places first, filled one sentence each.
        self.play(*(FadeIn(frame) for frame in frames), run_time=0.6)
        for text, (*_, says) in zip(texts, columns):
            self.beat(says=says)
            self.play(FadeIn(text, shift=UP * 0.1), run_time=0.6)

        self.beat(says="越左越治本，越右越应急", takeaway="越左越治本，越右越应急：「先动哪个」有顺序")
        top = frames.get_top()[1] + 0.5
        span = arrow([frames[0].get_center()[0], top, 0], [frames[2].get_center()[0], top, 0], "ink", weight="bold",
                     buff=None, both=True)
        ends = VGroup(words("治本", size="label").next_to(span, LEFT, buff=0.15),
                      words("应急", size="label").next_to(span, RIGHT, buff=0.15))
        self.play(FadeIn(span), FadeIn(ends), run_time=0.6)

    # ---- Ⓒ ----

    def two_columns(self) -> None:
        heads = VGroup(*[words(h, size="label", color="muted").move_to([x, TABLE_TOP + 0.9, 0])
                         for h, x in zip(("方法", "稳没稳", "质量掉没掉"), TABLE_X)])
        heads[0].align_to([TABLE_X[0], 0, 0], LEFT)
        sub = words("（−log 困惑度，越高越好）", size="small", color="muted").next_to(heads[2], DOWN, buff=0.08)
        self.play(FadeIn(heads), FadeIn(sub), run_time=0.5)
        names = ("基线", "收紧 update clipping（{stability.update_clip}）", "router z-loss")
        quotes = ("基线，六次里崩两次，质量负一点七五五", "收紧 update clipping —— 三次全稳，质量负四点二零六",
                  "router z-loss —— 也是三次全稳，质量负一点七四一")
        rows = []
        for i, (name, says) in enumerate(zip(names, quotes)):
            self.beat(says=says)
            yy = TABLE_TOP - i * TABLE_GAP - 0.35
            stable = ledger_text(f"{{stability.stable_runs[{i}]}}/{{stability.runs[{i}]}}", size="label",
                                 color="good" if i > 0 else "ink").move_to([TABLE_X[1], yy, 0])   # both 3/3 rows green
            quality = ledger_text(f"{{stability.quality[{i}]}} {{stability.quality_err[{i}]}}", size="label",
                                  color="backward" if i == 1 else "ink").move_to([TABLE_X[2], yy, 0])
            label = line(name, size="label").move_to([0, yy, 0]).align_to([TABLE_X[0], 0, 0], LEFT)
            rows.append(VGroup(label, stable, quality))
            self.play(FadeIn(rows[-1]), run_time=0.5)

        self.beat(says="中间那一行是这张表的全部价值")
        box = SurroundingRectangle(rows[1], color=theme.color("warm"), buff=0.15, stroke_width=4)
        note = line("「稳定 {stability.stable_runs[1]}/{stability.runs[1]}」看着完美，可它是拿质量换来的", size="label",
                    color="warm")
        note.next_to(rows[2], DOWN, buff=0.3)
        self.play(FadeIn(box), FadeIn(note), run_time=0.6)

        self.beat(says="评价任何一个稳定性手段，都要同时看两栏：稳没稳，以及质量掉没掉",
                  takeaway="同时看：稳没稳，质量掉没掉")   # short enough to clear the ※ footnote

        self.beat(says="只看前一栏的话，「把学习率设成零」是最优解")
        self.play(FadeIn(self.ghost_row(note)), run_time=0.5)

    def ghost_row(self, above) -> VGroup:
        """The punchline row nobody would run: muted ink at full strength (legible, ≥ 4.5:1), set
        apart as hypothetical by a dashed frame rather than by fading it."""
        ghost = VGroup(line("学习率 = {stability.ghost_lr}", size="label", color="muted"),
                       words("永远稳", size="label", color="muted"),
                       words("什么也没学", size="label", color="muted"))
        for part, xx in zip(ghost, TABLE_X):
            part.move_to([xx, above.get_bottom()[1] - 0.6, 0])
        ghost[0].align_to([TABLE_X[0] + GHOST_PAD, 0, 0], LEFT)   # room inside the frame on the left
        frame = DashedVMobject(SurroundingRectangle(ghost, buff=GHOST_PAD, corner_radius=0.1, stroke_width=2,
                                                    color=theme.color("muted")), num_dashes=70)
        return VGroup(frame, ghost)
