"""fig-stability: loss flew — what caused it, three kinds of cure, and the two-column test (第六节).

Shown in the speaker's order Ⓑ → Ⓐ → Ⓒ (the sections keep their panel letters):
Ⓑ The experiment: the question alone, then 那批数据 → 飞 with the room's answer; then the
  state it met, and the same batches from an earlier checkpoint, which do not spike; the ⭐ 「不是坏
  数据」 as the beat's takeaway, the two causes joined (+ becomes ×); the rollback goes round it.
Ⓐ Three places (the network, the numbers in training, the run), a card hanging under each, named
  as the speaker names it and filled as he explains it, from the root (structure) to first aid
  (rollback); the order comes last, with its arrow.
Ⓒ The two columns' heads first; ST-MoE's table named over them when he names it, marked 待核
  there for every cell, read in both columns (each cell in the colour of its status, its runs
  counted out as dots, held then crashed; quality also as a solid bar, so the middle row's cost is
  a length); the ghost row (学习率 = 零) is the punchline,
  drawn legibly (muted ink at full strength, in a dashed frame).
Each panel is cut into the beats its notes give: the question before its answer, 「……不飞」 on
its own, one card and one table row per sentence.
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, Create, FadeIn, FadeOut, ReplacementTransform, VGroup

from lecture_numerics import quantity
from lecture_numerics.spike import rollback_sketch
from scenes.kit import marks, theme, widgets
from scenes.kit.arrows import arrow, curved_arrow
from scenes.kit.bars import StackedBar
from scenes.kit.base import LectureScene
from scenes.kit.text import ledger_text, line, words

# Ⓑ geometry (scene units; the frame is 14.2 × 8). The takeaways (a recap and two lines) stack
# along the bottom up to y ≈ −2.0, so the loss strip and its labels end above that.
ROW_Y = (2.15, 1.1)                       # row 1 low enough for the 「？」 above it; row 2 clear of the rollback
ROW_TEXT = "body"                         # the experiment is the picture: its blocks read larger than a label
ROW_PARTS = ("name", "state", "plus", "data", "arrow", "outcome")
STRIP = (-5.6, 1.4, -1.2, -0.1)           # left, right, bottom, top of Ⓑ's loss strip
SPIKE_TAIL = 0.15                         # how far past the spike the first run is drawn (of the window)
REPLACED_OPACITY = 0.3                    # the first run after the restart, once the rerun goes over it
SAME_GAP = 0.15                           # 「不再飞」 right of the rerun's end
REWIND_ARC = 0.8                          # the rollback arrow bows over the strip from the spike back to the restart
QUOTE_X = 2.8                             # the paper's words, right of the strip (past 「不再飞」), level with its top
# Roles: the run that spikes and its 飞 are 'bad' (a status), the run and 不飞 that hold are 'good';
# the rollback is an operation (ink); what the room suspects, and the two causes joined, are
# pointed at (accent). Skipped batches are gone (muted).
FLIES, HOLDS, OPERATION, POINTED = "bad", "good", "ink", "accent"

# Ⓐ: 「三个不同的位置」 drawn as a row of three places (the network's structure, the numbers during
# training, the run itself), each card hanging under its place; each card grows as the speaker fills it.
CARD_WIDTH, CARDS_TOP, CARD_GAP = 4.1, 1.05, 0.4
PLACES_Y = 2.45                           # the places' row, under the header
ICON_W, ICON_H = 0.9, 0.5                 # each place's pictogram
SPAN_RISE = 0.4                           # the 治本 ↔ 应急 arrow over the cards, under the places

# Ⓒ: the table. 方法 (left edge) · 稳没稳 · 质量掉没掉 (centres of the numbers); each row's quality
# also as a bar, drawn leftwards from a zero line at the right (the values are negative: the longer,
# the lower, the worse), so the middle row's cost is a length, not only a number.
TABLE_X = (-6.4, -0.1, 1.9)       # the fraction column set right: the longest method name clears its dots
QUALITY_ZERO, QUALITY_SCALE = 6.3, 0.62    # the bars' zero line; scene units per unit of −log perplexity
QUALITY_BAR_H = 0.3
HEAD_Y, TABLE_TOP, TABLE_GAP = 2.4, 1.35, 0.72
GHOST_PAD = 0.25                          # the dashed frame's clearance around the ghost row's words
RUN_DOT, RUN_DOT_GAP, RUN_DOTS_OFF = "regular", 0.06, 0.5   # one dot per run, left of the 稳没稳 fraction
STABLE_ROLES = (FLIES, HOLDS, HOLDS)      # 4/6 crashed twice; 3/3 and 3/3 held
QUALITY_ROLES = ("ink", FLIES, "ink")     # the baseline is the reference; clipping paid; z-loss is within
                                          # the error of the baseline (+0.014 inside ± 0.02): no better, in ink


def block(text: str, role: str = "ink") -> VGroup:
    """Words in a rounded frame (a block of the experiment)."""
    return widgets.badge(text, role, size=ROW_TEXT, weight="thin", pad="small")


class FigStability(LectureScene):
    scene_id = "fig-stability"
    title = "loss 飞了：原因、三类治法、两栏检验"
    ledger_keys = ("spike.rollback_steps", "spike.skipped_batches", "stability.runs", "stability.stable_runs",
                   "stability.quality", "stability.quality_err", "stability.update_clip", "stability.ghost_lr",
                   "stability.cure_kinds", "stability.table_source")

    def construct(self) -> None:
        # A neutral question: the room gives its own first answer (那批数据) before the screen does.
        self.start_panel("B", "loss 飞了：怪谁？", says="第一反应是什么？",
                         takeaway="最先的反应是什么？")   # 第一 reads as a count to the kit: said so
        self.data_times_state()
        self.rollback()
        self.start_panel("A", "{stability.cure_kinds}类治法", says="三类，治的是三个不同的位置")
        self.three_cures()
        self.start_panel("C", "稳与质量", says="难的是：稳住，而且不掉质量")
        self.two_columns()

    # ---- Ⓑ ----

    @staticmethod
    def rows() -> list[dict]:
        """The two rows' parts, placed in shared columns: each column left-aligned (names right-aligned)."""
        rows = [dict(name=words("当时", size=ROW_TEXT, color="muted"), state=block("参数状态：spike 前"),
                     plus=words("+", size=ROW_TEXT), data=block("那批数据"), arrow=words("→", size=ROW_TEXT),
                     outcome=words("飞", size="heading", color=FLIES)),
                dict(name=words("验证", size=ROW_TEXT, color="muted"), state=block("更早的 checkpoint"),
                     plus=words("+", size=ROW_TEXT), data=block("那批数据"), arrow=words("→", size=ROW_TEXT),
                     outcome=words("不飞", size="heading", color=HOLDS))]
        gap = theme.space("gap")
        widths = [max(r[k].width for r in rows) for k in ROW_PARTS]
        left = -(sum(widths) + gap * (len(widths) - 1)) / 2
        for k, width in zip(ROW_PARTS, widths):
            for r, y in zip(rows, ROW_Y):
                edge = RIGHT if k == "name" else LEFT
                r[k].move_to([left + (width if k == "name" else 0), y, 0], aligned_edge=edge)
            left += width + gap
        return rows

    def data_times_state(self) -> None:
        then, check = self.rows()
        # The question stands alone while the room answers; the hook is ⭐⭐⭐ line by line: each
        # beat's words are its takeaway, each replacing the one before (question, the room's answer,
        # the check, its result), so one key line stands at a time.
        self.beat(says="肯定是那批数据有问题", takeaway="「肯定是那批数据有问题」", replaces=True)
        # The room's first answer is the data: row 1 shows only 那批数据 → 飞 until the check comes.
        doubt = words("？", size="heading", color=POINTED).next_to(then["data"], UP, buff=theme.space("snug"))
        self.play(FadeIn(VGroup(then["data"], then["arrow"], then["outcome"])), run_time=0.6)
        self.play(FadeIn(doubt, scale=1.4), run_time=0.5)

        # The hook is ⭐⭐⭐, so its line stands as the takeaway; the rows, built as he says it, are
        # drawn large enough to carry the sentence too.
        self.beat(says="从另一个更早的 checkpoint 重新喂一遍", takeaway="从更早的 checkpoint 重新喂一遍",
                  replaces=True)
        # The state the batches met comes in beside the data in row 1, as row 2 builds with another
        # state. The data block is visibly the same object: a copy of it moves down, unchanged, into row 2.
        moved = then["data"].copy()
        self.play(FadeIn(VGroup(then["name"], then["state"], then["plus"], check["name"], check["state"], check["plus"])),
                  run_time=0.5)
        self.play(moved.animate.move_to(check["data"]), run_time=0.8)
        self.remove(moved)
        self.add(check["data"])
        self.play(FadeIn(check["arrow"]), run_time=0.3)

        self.beat(says="……不飞", takeaway="……不飞", replaces=True)
        self.play(FadeIn(check["outcome"], scale=1.3), run_time=0.5)

        # The data is cleared: its 「？」 leaves as the ⭐ sentence lands.
        # 「不飞」 stands in row 2 already: the ⭐ sentence takes the takeaway's place alone.
        self.beat(says="所以 spike 不是坏数据造成的", takeaway="spike 不是坏数据造成的", replaces=True)
        self.play(FadeOut(doubt), run_time=0.4)

        self.beat(says="是这批数据，和当时那个参数状态，两样撞在一起才出的事")
        # The two causes joined: row 1's + becomes ×, and one frame takes both.
        times = words("×", size=ROW_TEXT, color=POINTED).move_to(then["plus"])
        both = marks.frame_around(VGroup(then["state"], then["data"]), POINTED, pad="tight", weight="bold")
        self.play(ReplacementTransform(then["plus"], times), Create(both), run_time=0.7)

    def rollback(self) -> None:
        r = rollback_sketch()
        left, right, bottom, top = STRIP
        x = lambda t: left + np.asarray(t) * (right - left)
        lo, hi = float(r.first.min()), float(r.first.max())
        y = lambda v: bottom + (np.asarray(v) - lo) / (hi - lo) * (top - bottom)

        def path(mask, values, role):
            return marks.polyline(np.column_stack([x(r.t[mask]), y(values[mask])]), role, weight="regular")

        shown = r.t <= r.spike + SPIKE_TAIL
        before, replaced = shown & (r.t <= r.restart), shown & (r.t >= r.restart)
        first = VGroup(path(before, r.first, FLIES), path(replaced, r.first, FLIES))
        rerun = path(r.t >= r.restart, r.rerun, HOLDS)
        axis = marks.segment([left, bottom - theme.space("hair")], [right, bottom - theme.space("hair")], "muted",
                             weight="thin")
        skipped = marks.shade([x(r.skipped[0]), bottom], [x(r.skipped[1]), top], "muted", opacity=0.18)
        self.beat(says="回滚到 spike 之前大约一百步，跳掉那两三百批数据，接着跑")
        self.play(FadeIn(axis), FadeIn(first), run_time=0.6)
        rewind = curved_arrow([x(r.spike), top + 0.1, 0], [x(r.restart), top + 0.1, 0], OPERATION, arc=REWIND_ARC,
                              weight="bold")
        back = ledger_text("回滚 ~{spike.rollback_steps} 步", size="small", color=OPERATION).next_to(
            rewind, UP, buff=theme.space("hair"))
        skip = ledger_text("跳过 ~{spike.skipped_batches} 批", size="small", color="muted").next_to(
            skipped, DOWN, buff=theme.space("snug"))
        self.play(FadeIn(rewind), FadeIn(back), FadeIn(skipped), FadeIn(skip), run_time=0.7)

        self.beat(says="之后同一个点就不再飞了")
        again = words("不再飞", size="small", color=HOLDS).next_to([x(1.0), y(r.rerun[-1]), 0], RIGHT, buff=SAME_GAP)
        # The old run under the rerun dims, so two noisy lines never lie on top of each other.
        self.play(first[1].animate.set_stroke(opacity=REPLACED_OPACITY), FadeIn(rerun), run_time=0.6)
        self.play(FadeIn(again), run_time=0.3)

        self.beat(says="这不是修好了，是绕过去了", takeaway="这不是修好了，是绕过去了")
        paper = VGroup(words("论文：「训练成本太高，", size="small", color="muted"),
                       words("没能找到有原则的办法」", size="small", color="muted"))
        paper.arrange(DOWN, aligned_edge=LEFT, buff=theme.space("fine")).move_to([QUOTE_X, top, 0],
                                                                                 aligned_edge=UP + LEFT)
        self.show_takeaway()
        self.play(FadeIn(paper), run_time=0.5)

    # ---- Ⓐ ----

    def three_cures(self) -> None:
        columns = (("治结构", "改网络本身", ("归一化放进残差块里", "QK-norm", "初始化"), "治结构 —— 改网络本身"),
                   ("治数值", "不让某些量长太大", ("z-loss", "梯度裁剪"), "治数值 —— 不让某些量长太大"),
                   ("治现场", "已经飞了怎么救", ("回滚 + 跳数据",), "治现场 —— 已经飞了怎么救"))
        # 「三类，治的是三个不同的位置」: three named places first, each filled on its own sentence.
        cards = [widgets.card([words(title, size="heading")], "muted", width=CARD_WIDTH) for title, *_ in columns]
        VGroup(*cards).arrange(RIGHT, buff=CARD_GAP, aligned_edge=UP).move_to([0, CARDS_TOP, 0], aligned_edge=UP)
        places = self.places([card.get_x() for card in cards])
        # The places and empty cards now; each card's name comes with the sentence that names it.
        self.play(FadeIn(places, lag_ratio=0.2), *(FadeIn(card.box) for card in cards), run_time=0.8)
        for card, (_, what, items, says) in zip(cards, columns):
            self.beat(says=says)
            self.play(FadeIn(card.rows[0]), run_time=0.4)
            self.remove(card.box, card.rows[0])
            self.add(card)
            self.play(card.add_row(words(what, size="label")))
            rows = VGroup(*(words("· " + item, size="label") for item in items))
            rows.arrange(DOWN, aligned_edge=LEFT, buff=theme.space("small"))
            self.play(card.add_row(rows))

        self.beat(says="越左越治本，越右越应急", takeaway="越左越治本，越右越应急：「先动哪个」有顺序")
        top = max(card.get_top()[1] for card in cards) + SPAN_RISE
        span = arrow([cards[0].get_center()[0], top, 0], [cards[2].get_center()[0], top, 0], "ink", weight="bold",
                     buff=None, both=True)
        ends = VGroup(words("治本", size="label").next_to(span, LEFT, buff=theme.space("small")),
                      words("应急", size="label").next_to(span, RIGHT, buff=theme.space("small")))
        self.play(FadeIn(span), FadeIn(ends), run_time=0.6)

    @staticmethod
    def places(xs: list[float]) -> VGroup:
        """Three places, one over each card: the network (a stack of layers), the numbers in it as it
        trains (a value against its cap), the run (a loss curve with a spike); each named beside it."""
        w, h = ICON_W, ICON_H
        layers = VGroup(*(marks.box(w, h / 4, "ink", weight="thin") for _ in range(3)))
        layers.arrange(DOWN, buff=h / 8)
        cap = marks.segment([w * 0.7, -h / 2], [w * 0.7, h / 2], FLIES, weight="regular")
        value = marks.shade([0, -h / 6], [w * 0.55, h / 6], "ink", opacity=0.55)
        track = marks.segment([0, -h / 2], [w, -h / 2], "muted", weight="thin")
        gauge = VGroup(track, value, cap)
        run = marks.polyline([[0, h / 8], [w * 0.25, -h / 6], [w * 0.5, -h / 4], [w * 0.56, h / 2], [w * 0.64, -h / 3],
                              [w, -h / 2.5]], FLIES, weight="regular")
        out = VGroup()
        for x, icon, name in zip(xs, (layers, gauge, run), ("网络结构", "训练中的数值", "训练现场")):
            label = words(name, size="label")
            item = VGroup(icon, label).arrange(RIGHT, buff=theme.space("small"))
            out.add(item.move_to([x, PLACES_Y, 0]))
        return out

    # ---- Ⓒ ----

    def table_head(self) -> VGroup:
        """The source, marked 待核 for the whole table (its first unconfirmed text, so the mark
        stands here, over every cell); the three column heads; 质量's unit and direction."""
        source = ledger_text("{stability.table_source} 论文的表", size="label", color="muted")
        quality_x = (TABLE_X[2] + QUALITY_ZERO) / 2 - theme.space("gap")   # over the numbers and the bars
        heads = VGroup(*[words(h, size="label", color="muted").move_to([x, HEAD_Y, 0])
                         for h, x in zip(("方法", "稳没稳", "质量掉没掉"), (*TABLE_X[:2], quality_x))])
        heads[0].align_to([TABLE_X[0], 0, 0], LEFT)
        source.next_to(heads, UP, buff=theme.space("small")).align_to(heads[0], LEFT)
        unit = VGroup(words("−log 困惑度", size="small", color="muted"), words("越高越好", size="small", color="muted"))
        unit.arrange(RIGHT, buff=theme.space("small")).next_to(heads[2], DOWN, buff=theme.space("fine"))
        return VGroup(source, heads, unit)

    def two_columns(self) -> None:
        # 「难的是：稳住，而且不掉质量」: the two columns alone; the paper is named when he names it.
        source, heads, unit = self.table_head()
        self.play(FadeIn(heads), FadeIn(unit), run_time=0.5)
        first_row = True
        names = ("基线", "收紧 update clipping（{stability.update_clip}）", "router z-loss")
        quotes = ("基线，六次里崩两次，质量负一点七五五", "收紧 update clipping —— 三次全稳，质量负四点二零六",
                  "router z-loss —— 也是三次全稳，质量负一点七四一")
        rows = []
        for i, (name, says) in enumerate(zip(names, quotes)):
            self.beat(says=says)
            if first_row:
                self.play(FadeIn(source), run_time=0.4)
                first_row = False
            yy = TABLE_TOP - i * TABLE_GAP
            stable = ledger_text(f"{{stability.stable_runs[{i}]}}/{{stability.runs[{i}]}}", size="label",
                                 color=STABLE_ROLES[i]).move_to([TABLE_X[1], yy, 0])
            quality = ledger_text(f"{{stability.quality[{i}]}} {{stability.quality_err[{i}]}}", size="label",
                                  color=QUALITY_ROLES[i]).move_to([TABLE_X[2], yy, 0])
            label = line(name, size="label").move_to([0, yy, 0]).align_to([TABLE_X[0], 0, 0], LEFT)
            rows.append(VGroup(label, self.run_dots(i, stable), stable, quality, self.quality_bar(i, yy)))
            self.play(FadeIn(rows[-1]), run_time=0.5)

        self.beat(says="中间那一行是这张表的全部价值",
                  takeaway="「稳定 {stability.stable_runs[1]}/{stability.runs[1]}」看着完美，可它是拿质量换来的")
        box = marks.frame_around(rows[1], POINTED, pad="small", weight="bold")
        self.play(Create(box), run_time=0.6)

        self.beat(says="评价任何一个稳定性手段，都要同时看两栏：稳没稳，以及质量掉没掉",
                  takeaway="同时看：稳没稳，质量掉没掉", replaces=True)

        self.beat(says="只看前一栏的话，「把学习率设成零」是最优解")
        self.play(FadeIn(self.ghost_row(rows[-1])), run_time=0.5)

    @staticmethod
    def run_dots(i: int, stable: VGroup) -> VGroup:
        """Row i's runs counted out left of its fraction: one dot per run, those that held first
        (good), those that crashed after (bad), so 「六次里崩两次」 is seen, not subtracted."""
        runs = int(quantity("stability.runs").value[i])
        held = int(quantity("stability.stable_runs").value[i])
        dots = VGroup(*(marks.dot(role=HOLDS if k < held else FLIES, size=RUN_DOT) for k in range(runs)))
        # Set off from the fraction (a key's swatch would stand right against its words).
        dots.arrange(RIGHT, buff=RUN_DOT_GAP).next_to(stable, LEFT, buff=RUN_DOTS_OFF)
        return dots

    @staticmethod
    def quality_bar(i: int, y: float) -> VGroup:
        """Row i's quality as a bar from the zero line leftwards, as long as its −log perplexity is
        negative, in the row's quality colour; the zero line is drawn with each bar (they coincide)."""
        value = abs(float(quantity("stability.quality").value[i]))
        # Solid: this is the evidence, and pale means inactive.
        bar = StackedBar([(value, QUALITY_ROLES[i])],
                         scale=QUALITY_SCALE, thickness=QUALITY_BAR_H, opacity=1.0)
        bar.start_at((QUALITY_ZERO - value * QUALITY_SCALE, y))
        zero = marks.segment([QUALITY_ZERO, y - TABLE_GAP / 2], [QUALITY_ZERO, y + TABLE_GAP / 2], "muted",
                             weight="thin")
        return VGroup(bar, zero)

    def ghost_row(self, above) -> VGroup:
        """The punchline row nobody would run, under the table's last row: muted ink at full
        strength (legible, ≥ 4.5:1), set apart as hypothetical by a dashed frame rather than by fading it."""
        ghost = VGroup(line("学习率 = {stability.ghost_lr}", size="label", color="muted"),
                       words("永远稳", size="label", color="muted"),
                       words("什么也没学", size="label", color="muted"))
        for part, xx in zip(ghost, TABLE_X):
            part.move_to([xx, above.get_y() - TABLE_GAP - GHOST_PAD, 0])
        ghost[0].align_to([TABLE_X[0] + GHOST_PAD, 0, 0], LEFT)   # room inside the frame on the left
        frame = marks.frame_around(ghost, "muted", pad="medium", weight="thin", dashed=True)
        return VGroup(frame, ghost)
