"""fig-vote: a gradient is a vote — every sample's request, averaged.

Ⓐ One sample's request: prediction bars (ink) against the dashed one-hot answer; the pushes run
   from each bar to its answer (推上去, 推下去), as long as the gap (差多远, braced); one key,
   红箭头 = 要求, names all four pushes at the head of the right-hand column; the seed row
   = 预测 − 答案, the pushes its opposite; only a wish, the pushes fade.
Ⓑ Three ways to raise 「的」, each a short path label beside the picture: the bias; thicker wires
   (the brighter upstream pays more: the ⭐⭐ line held three seconds, each wire's gradient on its
   outer side, ∂L/∂w = 亮度 × 种子, and the payoff drawn as two red bars 4 : 1, which leave with
   the path labels); a brighter previous layer — drawn as the upstream neurons in a dashed
   frame, tagged ③ ✗ — which cannot be changed either, so the request goes back a layer
   (⭐⭐⭐, in B.4's line's place: the labels leave, the picture moves to the middle, one red
   arrow along the outer side of each wire, onto the dashed layer). Knowing which wire pays needs
   the brightness, which forward computed (teal tags) → ⭐⭐⭐ backward must look at what forward left.
Ⓒ Five samples vote; listening to 甲 alone teaches the net to always say 「的」 (its 的 bar grows,
   the number cross-fades); sample by sample the votes slide into the sum column, tip to tail,
   and the sum shared out is the average (⭐⭐⭐, drawn enlarged, 放大); the gradient is that
   average turned round: each averaged arrow flips into 梯度's own column, its number beside it
   (= −平均 under the head, a 「× −1」 arc from 取平均's head to 梯度's); 跨卡汇总: two cards each sum their own samples, the sums are added
   and divided by the batch: the same average.
"""

from __future__ import annotations

import numpy as np
from manim import (DOWN, LEFT, OUT, RIGHT, UL, UP, UR, Create, FadeIn, FadeOut, GrowArrow, GrowFromEdge, Indicate,
                   LaggedStart, ReplacementTransform, VGroup, Write)

from lecture_numerics import vote
from scenes.kit import marks, theme
from scenes.kit.arrows import arrow, curved_arrow
from scenes.kit.bars import Segment, bar_group
from scenes.kit.base import LectureScene
from scenes.kit.text import formula, ledger_text, number, words
from scenes.kit.vote_widgets import answer_outline, neuron, probability_bar, request_arrow, wire
from scenes.kit.widgets import badge, labelled_brace

TOKENS, KEYS = vote.TOKENS, vote.TOKEN_KEYS
VALUE, GRAD, ACTIVATION = "ink", "backward", "activations"   # forward black, gradients red, activations teal
SAMPLE_NAMES = ("甲", "乙", "丙", "丁", "戊")

# Geometry (scene units; the frame is 14.2 × 8, the safe area 0.35 in from each edge).
BAR_COLUMNS_X = (-4.9, -3.3, -1.7, -0.1)      # Ⓐ: one column per token
BAR_BASE_Y, BAR_UNIT, BAR_WIDTH = -0.35, 2.9, 0.9
ROW_LABEL_X = -6.2                              # Ⓐ: 预测 / 答案 / 种子 row names
NUMBER_ROWS_Y = (-1.3, -1.85, -2.4)
PUSH_LABEL_Y = 1.55                             # Ⓐ: 推上去 / 别的推下去, level with the long pushes
RULE_AT = (3.6, 1.0, 0)                         # Ⓐ: 种子 = 预测 − 答案, and the sign under it (the 要求 key above)
WISH_OPACITY = 0.35                             # Ⓐ: the pushes as ghosts, once they are only a wish
UPSTREAM_X, TARGET_X = -5.7, -2.1               # Ⓑ: the two upstream neurons, and 「的」
BRIGHT_Y, DIM_Y, TARGET_Y = 1.79, -0.41, 0.69   # Ⓑ: high enough that three takeaway lines clear 暗 0.2
NEURON_RADIUS, TARGET_RADIUS = 0.6, 0.7
PATHS_AT = (0.4, 2.3, 0)                        # Ⓑ: top-left of the path labels
PATH_GAP = 0.3
BIAS_DROP = 0.9                                 # Ⓑ: the bias label under 「的」
KEY_SENTENCE_HOLD_S = 3.0                       # Ⓑ: 「上游越亮…」 held, as the notes say 停三秒
THICK, GLOW = "heaviest", 3.0                   # Ⓑ: a thickened wire; the glow is this many times as wide
GLOW_OPACITY = 0.3
BACK_ARROW_OFFSET = 0.3                         # Ⓑ: how far outside its wire a passed-back request runs (clear of the glow)
WIRE_LABEL_AT = 0.35                            # Ⓑ: a wire's ∂L/∂w, nearer its upstream end, on its outer side
GLOW_HALF, WIRE_LABEL_CLEAR = 0.17, 0.14        # Ⓑ: half the glow's width; a wire label's gap outside it
PAYOFF_UNIT, PAYOFF_HEIGHT, PAYOFF_GAP = 4.4, 0.26, 0.2  # Ⓑ: the payoff bars, scene units per 1.0 of |∂L/∂w|
DIAGRAM_SHIFT = 3.2                             # Ⓑ: once the path labels leave, the picture moves to the middle
REQUEST_LABEL_OFFSET = 0.35                     # Ⓑ: 「要求」 this far outside the upper passed-back arrow
GRID_LABEL_X = -6.3                             # Ⓒ: row names of the vote grid
FIRST_VOTE_X, VOTE_STEP_X = -5.2, 0.95
SUM_X, MEAN_X, GRADIENT_X = -0.25, 1.0, 2.0     # Ⓒ: 加起来 | 取平均 | 梯度 (its arrows, a gap after 取平均)
FLIP_ARC, FLIP_TIP = 1.6, 0.16                  # Ⓒ: the 「× −1」 arc from 取平均's head over to 梯度's
GRADIENT_NUMBER_GAP = 0.35                      # Ⓒ: a gradient's number starts this far right of its arrow
VOTE_UNIT, GRID_TOP = 0.75, 1.95                # one unit of request; the grid's top
ROW_GAP = 0.12                                  # Ⓒ: between the closest arrows of neighbouring rows
GRID_HEAD_Y = 2.8                               # Ⓒ: the 样本 row
ANSWER_ROW_Y = 2.3                              # Ⓒ: the 答案 row (under 取平均: how much it is enlarged)
GRID_FOOT = 0.12                                # Ⓒ: the grid's divider ends this far under the lowest arrow
CARD_PAD, CARD_TOP = 0.42, 3.12                 # Ⓒ: a card's band reaches this far round its columns
CARD_XS, CARDS_Y, MERGE_AT = (4.25, 6.03), 1.3, (5.14, -0.2, 0)   # Ⓒ: the 跨卡汇总 flow on the right
CARDS_NAME_Y = 2.55                             # Ⓒ: 「跨卡汇总」 over the two cards
ONLY_FIRST_BASE = (3.6, -0.6)                   # Ⓒ: the lone listener's chart
ONLY_FIRST_UNIT, ONLY_FIRST_WIDTH, ONLY_FIRST_STEP = 2.0, 0.55, 0.85


class FigVote(LectureScene):
    scene_id = "fig-vote"
    title = "梯度是一场投票：所有人的要求取平均"
    ledger_keys = (
        "vote.ways_to_raise",
        "vote.p.de", "vote.p.le", "vote.p.shi", "vote.p.zai",
        "vote.onehot.de", "vote.onehot.le", "vote.onehot.shi", "vote.onehot.zai",
        "vote.seed.de", "vote.seed.le", "vote.seed.shi", "vote.seed.zai",
        "vote.bright_activation", "vote.dim_activation",
        "vote.wire_grad.bright", "vote.wire_grad.dim", "vote.bright_payoff_ratio",
        "vote.only_first.p_de",
        "vote.mean_seed.de", "vote.mean_seed.le", "vote.mean_seed.shi", "vote.mean_seed.zai",
        "vote.mean_zoom", "vote.batch_size",
    )

    def construct(self):
        self.request_panel()
        self.wire_panel()
        self.average_panel()

    # ---- Ⓐ one sample's request --------------------------------------------------------------

    def request_panel(self):
        self.start_panel("A", "一条样本，只提一个要求", says="一条训练样本看完网络的输出，其实只会提一个要求")
        columns = [np.array([x, BAR_BASE_Y, 0]) for x in BAR_COLUMNS_X]
        probs = vote.predicted_probs()
        bars = VGroup(*(probability_bar(p, base, unit_height=BAR_UNIT, width=BAR_WIDTH)
                        for p, base in zip(probs, columns)))
        tokens = VGroup(*(words(t, size="heading").next_to(base, DOWN, buff=theme.space("small"))
                          for t, base in zip(TOKENS, columns)))
        rows = self.number_rows(columns)
        self.play(FadeIn(tokens), *(GrowFromEdge(b, DOWN) for b in bars), FadeIn(rows["预测"]), run_time=1.2)

        self.beat(says="该是「的」，那就把「的」推上去，别的推下去")
        answer_at = columns[TOKENS.index(vote.ANSWER.value)]
        outline = answer_outline(answer_at, unit_height=BAR_UNIT, width=BAR_WIDTH + 0.2)
        requests = vote.one_hot(vote.ANSWER.value) - probs
        arrows = VGroup(*(request_arrow(bar.get_top(), r, unit_height=BAR_UNIT) for bar, r in zip(bars, requests)))
        up = words("推上去", size="body", color=GRAD).next_to(outline, RIGHT, buff=theme.space("small")).set_y(PUSH_LABEL_Y)
        down = words("别的推下去", size="body", color=GRAD).move_to([BAR_COLUMNS_X[2], PUSH_LABEL_Y, 0])
        self.play(FadeIn(outline), FadeIn(rows["答案"]), run_time=0.6)
        self.play(*(GrowArrow(a) for a in arrows), run_time=1.0)
        self.play(FadeIn(up), FadeIn(down), run_time=0.5)

        self.beat(says="推多少，看差多远。差得越离谱，要求越强烈")
        # The push is exactly the gap: the brace on 的's gap is as long as its arrow.
        x = outline.get_right()[0]
        gap = labelled_brace(([x, bars[0].get_top()[1], 0], [x, outline.get_top()[1], 0]), "差多远", RIGHT, GRAD,
                             size="body")
        # The pushes keep one name, for all four: a key at the head of the right-hand column
        # (where the seed's rule comes next), not a label beside any one arrow.
        rule = formula("种子 = 预测 − 答案", size="heading", color=GRAD).move_to(RULE_AT)
        name = words("红箭头 = 要求", size="body", color=GRAD).next_to(rule, UP, buff=theme.space("large"))
        self.play(FadeOut(up), FadeOut(down), run_time=0.3)
        self.play(FadeIn(name), FadeIn(gap), run_time=0.6)

        self.beat(says="这就是刚才那颗种子，「预测减真值」，换成人话就是这一句")
        sign = words("要求 = −种子", size="body", color=GRAD).next_to(rule, DOWN, buff=theme.space("medium"))
        self.play(Write(rule), FadeIn(rows["种子"], shift=DOWN * theme.space("small")), run_time=1.0)
        self.play(FadeIn(sign), run_time=0.6)

        self.beat(says="但注意：它只是希望。没有人能直接去改输出", takeaway="但它只是希望：没有人能直接改输出")
        # Only a wish: the pushes fade to ghosts, nothing moves the bars.
        self.play(arrows.animate.set_opacity(WISH_OPACITY), run_time=0.6)

    @staticmethod
    def number_rows(columns) -> dict[str, VGroup]:
        """预测 / 答案 / 种子 under the bars: one ledger number per token, one row each."""
        rows = {}
        for (name, prefix, color), y in zip((("预测", "vote.p", VALUE), ("答案", "vote.onehot", VALUE),
                                             ("种子", "vote.seed", GRAD)), NUMBER_ROWS_Y):
            label = words(name, size="body", color=color).move_to([ROW_LABEL_X, y, 0])
            cells = [number(f"{prefix}.{k}", size="body", color=color).move_to([c[0], y, 0])
                     for k, c in zip(KEYS, columns)]
            rows[name] = VGroup(label, *cells)
        return rows

    # ---- Ⓑ which wire pays ------------------------------------------------------------------

    def wire_panel(self):
        self.start_panel("B", "输出改不了：只有{vote.ways_to_raise}条路",
                         says="输出改不了，那怎么办？想让一个数变大，其实只有三条路")
        bright = neuron(vote.BRIGHT.value, radius=NEURON_RADIUS).move_to([UPSTREAM_X, BRIGHT_Y, 0])
        dim = neuron(vote.DIM.value, radius=NEURON_RADIUS).move_to([UPSTREAM_X, DIM_Y, 0])
        target = neuron(0.0, radius=TARGET_RADIUS).move_to([TARGET_X, TARGET_Y, 0])
        target_name = words("的", size="heading").move_to(target)
        target_grad = ledger_text("种子 {vote.seed.de}", size="body", color=GRAD).next_to(target, UP, buff=theme.space("medium"))
        # The labels stand clear of the rims: ③'s dashed frame (B.6) passes between.
        bright_label = ledger_text("亮 {vote.bright_activation}", size="body").next_to(bright, UP, buff=theme.space("close"))
        dim_label = ledger_text("暗 {vote.dim_activation}", size="body").next_to(dim, DOWN, buff=theme.space("close"))
        wires = VGroup(wire(bright, target), wire(dim, target))
        self.play(FadeIn(VGroup(bright, dim, target, target_name, bright_label, dim_label)),
                  FadeIn(wires), FadeIn(target_grad), run_time=1.0)
        paths = self.path_labels()

        self.beat(says="一，改偏置，直接给它加一点 —— 省事，但能调的余地很小")
        bias = words("偏置", size="body").next_to(target, DOWN, buff=BIAS_DROP)
        bias_link = marks.segment(bias.get_top(), target.get_bottom(), "ink", weight="regular")
        self.play(FadeIn(paths["bias"]), FadeIn(bias), FadeIn(bias_link), run_time=0.8)

        self.beat(says="二，改权重，把连过来的线加粗")
        # Said and done: ① steps back. Both wires thicken by the same amount.
        self.play(FadeIn(paths["weight"]), self.step_back(paths["bias"]),
                  bias.animate.set_color(theme.text_color("muted")), bias_link.animate.set_color(theme.color("muted")),
                  *(w.animate.set_stroke(width=theme.stroke(THICK)) for w in wires), run_time=1.0)

        self.beat(says="这里有一句最值钱的：上游越亮的那根线，加粗越划算", takeaway="上游越亮的那根线，加粗越划算")
        # The bright wire glows (something to point at), the line lands, then the frame holds: 停三秒.
        glow = wires[0].copy().set_stroke(color=theme.color("accent"), width=GLOW * theme.stroke(THICK),
                                          opacity=GLOW_OPACITY)
        self.play(FadeIn(glow), Indicate(bright, color=theme.color(ACTIVATION)), run_time=1.0)
        self.bring_to_back(glow)
        self.show_takeaway()
        self.wait(KEY_SENTENCE_HOLD_S)

        self.beat(says="花同样的力气，接在一个很亮的输入上，回报大得多")
        # Each wire's ∂L/∂w on its outer side; the rule and the ratio under ②.
        # Inside the wedge between the wires: the outer sides are where the request runs back (B.7).
        # Each wire's ∂L/∂w on its own outer side (the bright wire's above it, the dim one's under
        # it), clear of the glow, so no number floats between the two wires.
        grad_bright = self.wire_label(number("vote.wire_grad.bright", size="body", color=GRAD), wires[0], UP,
                                      target, bright)
        grad_dim = self.wire_label(number("vote.wire_grad.dim", size="body", color=GRAD), wires[1], DOWN,
                                   target, dim)
        self.play(FadeIn(grad_bright), FadeIn(grad_dim), run_time=0.8)
        self.play(Write(paths["rule"]), run_time=0.8)
        self.play(FadeIn(paths["ratio"]), run_time=0.5)

        self.beat(says="三，让上一层更亮 —— 可上一层也改不了啊")
        # ③ on the picture: the upstream layer in a dashed frame, tagged ③ and crossed out (it
        # cannot be changed either) in the gap between its two neurons.
        layer = marks.frame_around(VGroup(bright, dim), "muted", pad="hair", weight="bold", dashed=True)
        cannot = VGroup(words("③", size="heading"), words("✗", size="heading", color="muted"))
        cannot.arrange(RIGHT, buff=theme.space("tight")).move_to(layer)
        self.play(FadeIn(paths["upstream"]), self.step_back(VGroup(paths["weight"], paths["rule"], paths["ratio"])),
                  Create(layer), run_time=0.6)
        self.play(FadeIn(cannot), run_time=0.4)
        diagram = VGroup(glow, wires, bright, dim, target, target_name, bright_label, dim_label, target_grad,
                         bias, bias_link, layer)
        self.passed_back(paths, diagram, target, (bright, dim), (bright_label, dim_label), (layer, cannot),
                         VGroup(grad_bright, grad_dim))

    def passed_back(self, paths: dict, diagram: VGroup, target, sources: tuple, labels: tuple, upstream: tuple,
                    wire_grads: VGroup) -> None:
        """Ⓑ's two ⭐⭐⭐ lines: the request passed back a layer (onto ③'s dashed layer), and why
        backward needs forward's values."""
        bright, dim = sources
        layer, cannot = upstream
        # ⭐⭐⭐ the request goes back one layer: the path labels have been said, they leave; along
        # the outer side of each wire, from 「的」's rim onto each upstream neuron's (the two never
        # meet), named once beside the upper one. The ⭐⭐ line of B.4 has been said: this one takes
        # its place, so the panel ends on two lines, not three.
        self.beat(says="所以这条要求就往回递了一层", takeaway="要求往回递一层 = 反向传播", replaces=True)
        # The path labels and ③'s tag leave the right half: the picture moves to the middle of the
        # frame, the upstream layer's dashed frame with it, where the request now lands.
        # ②'s payoff has been said: the wires' gradients leave with its lines, so the outer side of
        # each wire is free for the request running back.
        self.play(FadeOut(VGroup(*paths.values())), FadeOut(cannot), FadeOut(wire_grads),
                  diagram.animate.shift(RIGHT * DIAGRAM_SHIFT), run_time=0.6)
        backs = VGroup(*(self.back_arrow(target, source, side) for source, side in ((bright, UP), (dim, DOWN))))
        request = words("要求", size="body", color=GRAD).move_to(
            backs[0].get_center() + self.outward(target, bright, UP) * REQUEST_LABEL_OFFSET)
        self.play(*(GrowArrow(b) for b in backs), FadeIn(request), run_time=1.0)

        # ⛔ which wire pays needs the brightness: marked, and (as the speaker goes on) tagged as
        # computed by the forward pass, in the activations' colour.
        self.beat(says="要知道改哪根线回报最大，你得先知道那根线的上游当时有多亮")
        frames = VGroup(*(marks.frame_around(label, "accent", pad="fine", weight="bold") for label in labels))
        from_forward = VGroup(*(words("前向算的", size="body", color=ACTIVATION)
                                .next_to(frame, RIGHT, buff=theme.space("small")) for frame in frames))
        self.play(FadeOut(layer), FadeIn(frames), run_time=0.6)     # the brightness is the subject now
        self.play(FadeIn(from_forward, shift=LEFT * theme.space("close")), run_time=0.6)

        self.beat(says="所以反向必须回头看前向留下的东西", takeaway="反向必须回头看前向留下的东西")
        # What forward computed is what backward looks back at: the tags now say so.
        left_behind = VGroup(*(words("前向留下的", size="body", color=ACTIVATION).move_to(tag, aligned_edge=LEFT)
                               for tag in from_forward))
        self.play(FadeOut(from_forward), run_time=0.3)
        self.play(FadeIn(left_behind, shift=LEFT * theme.space("close")), run_time=0.5)

    @staticmethod
    def payoff_bars() -> VGroup:
        """The payoff drawn: one bar per wire as long as its |∂L/∂w| (亮线 four times 暗线), the
        ratio only as the long bar's label."""
        values = (abs(vote.WIRE_GRAD_BRIGHT.value), abs(vote.WIRE_GRAD_DIM.value))
        bars = bar_group([[Segment(v, GRAD)] for v in values], PAYOFF_UNIT, names=("亮线", "暗线"),
                         gap=PAYOFF_GAP, thickness=PAYOFF_HEIGHT, opacity=1.0)
        ratio = ledger_text("回报 ×{vote.bright_payoff_ratio}", size="body").next_to(
            bars.bars[0], RIGHT, buff=theme.space("small"))
        return VGroup(bars, ratio)

    def path_labels(self) -> dict[str, VGroup]:
        """Ⓑ's three paths as short labels on the right (the speech is not transcribed), with
        ②'s rule and ratio under it."""
        labels = {
            "bias": words("① 偏置：余地小", size="body"),
            "weight": words("② 权重：线加粗", size="body"),
            "rule": formula("∂L/∂w = 亮度 × 种子", size="body", color=GRAD),
            "ratio": self.payoff_bars(),
            "upstream": words("③ 上一层：✗", size="body"),
        }
        column = VGroup(*labels.values()).arrange(DOWN, aligned_edge=LEFT, buff=PATH_GAP)
        column.move_to(PATHS_AT, aligned_edge=UL)
        for key in ("rule", "ratio"):
            labels[key].shift(RIGHT * theme.space("large"))   # ②'s own lines, indented under it
        return labels

    @staticmethod
    def step_back(mob):
        """A path already said: its words go to muted's text colour (readable, no longer the subject)."""
        return mob.animate.set_color(theme.text_color("muted"))

    @staticmethod
    def outward(target, source, side):
        """The unit vector across the wire from ``target`` to ``source``, on ``side``."""
        along = source.get_center() - target.get_center()
        beside = np.cross(along / np.linalg.norm(along), OUT)
        return beside if np.dot(beside, side) > 0 else -beside

    @classmethod
    def back_arrow(cls, target, source, side):
        """The request passed back: beside the wire (on ``side``), from 「的」's rim to the
        upstream neuron's rim, so the wire and its thickness stay visible."""
        along = source.get_center() - target.get_center()
        along = along / np.linalg.norm(along)
        beside = cls.outward(target, source, side)
        start = target.get_center() + along * target.radius + beside * BACK_ARROW_OFFSET
        end = source.get_center() - along * source.radius + beside * BACK_ARROW_OFFSET
        return arrow(start, end, GRAD, weight="heavy", buff=None)

    @classmethod
    def wire_label(cls, label, wire_line, side, target, source):
        """Put a wire's gradient beside the wire, near its upstream end, on ``side``: its nearest
        corner WIRE_LABEL_CLEAR outside the glow."""
        spot = wire_line.point_from_proportion(WIRE_LABEL_AT)
        normal = cls.outward(target, source, side)
        reach = abs(normal[0]) * label.width / 2 + abs(normal[1]) * label.height / 2
        return label.move_to(spot).shift(normal * (GLOW_HALF + WIRE_LABEL_CLEAR + reach))

    # ---- Ⓒ many samples vote ----------------------------------------------------------------

    def average_panel(self):
        self.start_panel("C", "不能只听一个人的", says="但是 —— 不能只听一个人的")
        requests = vote.batch_requests()
        columns_x = [FIRST_VOTE_X + VOTE_STEP_X * j for j in range(len(SAMPLE_NAMES))]
        mids, lowest = self.row_midlines(requests, VOTE_UNIT, top=GRID_TOP)
        bottom = lowest - GRID_FOOT       # the divider reaches past the longest downward arrow (在's sum)
        grid = self.vote_grid(columns_x, mids, bottom)
        votes = [VGroup(*(request_arrow(np.array([x, y, 0]), r, unit_height=VOTE_UNIT)
                          for y, r in zip(mids, column)))
                 for x, column in zip(columns_x, requests)]
        self.play(FadeIn(grid["frame"]), FadeIn(grid["samples"][0]), *(GrowArrow(a) for a in votes[0]), run_time=1.0)

        self.beat(says="再来一条，它说「把『了』推上去」")
        self.play(FadeIn(grid["samples"][1]), *(GrowArrow(a) for a in votes[1]), run_time=0.8)

        # Listening to 甲 alone: the question first, the answer on the next key press.
        self.beat(says="要是从头到尾只听第一个人的，这个网络最后会学会什么？")
        lonely = self.only_first_chart()
        self.play(FadeIn(lonely["before"]), run_time=0.8)

        self.beat(says="不管你问什么，它都答「的」")
        # The bars grow and shrink; the number cross-fades (a morph of its digits would garble them).
        self.play(ReplacementTransform(lonely["bars"], lonely["bars_after"]),
                  FadeOut(lonely["value"], rate_func=lambda t: min(1.0, 3 * t)),
                  FadeIn(lonely["value_after"], rate_func=lambda t: max(0.0, 3 * t - 2)), run_time=1.5)
        self.play(FadeIn(lonely["verdict"]), run_time=0.6)

        # ⭐⭐⭐ everyone's requests added up, then shared out: the sum and the average in one held frame.
        self.beat(says="所以只能把所有人的要求加起来，取个平均", takeaway="所有人的要求加起来，取个平均")
        self.play(FadeOut(VGroup(lonely["before"][0], lonely["before"][1], lonely["bars_after"],
                                 lonely["value_after"], lonely["verdict"])), run_time=0.5)
        self.play(*(FadeIn(s) for s in grid["samples"][2:]),
                  *(GrowArrow(a) for v in votes[2:] for a in v), run_time=1.2)
        self.play(FadeIn(grid["totals"]), FadeIn(grid["sum_head"]), run_time=0.4)
        sums = self.add_votes(votes, requests, mids, VOTE_UNIT, SUM_X)
        means = self.share_out(sums, mids, grid)
        zoom_of_means = vote.MEAN_ZOOM.value

        # The average is the gradient, turned round (梯度 = 预测 − 答案, a request is 答案 − 预测):
        # each averaged arrow is copied into 梯度's own column and flips there, so every number
        # stands beside an arrow of its own sign. 「梯度」 heads the column, and the line under it,
        # level with 放大, says how it is read off the average.
        self.beat(says="那个平均，就是梯度")
        gradients = VGroup(*(request_arrow(np.array([GRADIENT_X, y, 0]), -request,
                                           unit_height=VOTE_UNIT * zoom_of_means, weight="heaviest")
                             for y, request in zip(mids, vote.mean_request())))
        # The average's zero lines run on under the gradient's arrows, stopping short of the numbers.
        reach = GRADIENT_NUMBER_GAP - theme.space("tight")
        zero_lines = VGroup(*(marks.segment([MEAN_X + GRADIENT_NUMBER_GAP, y, 0], [GRADIENT_X + reach, y, 0], "muted",
                                            weight="thin") for y in mids))
        mean_numbers = VGroup(*(number(f"vote.mean_seed.{k}", size="body", color=GRAD)
                                .move_to([GRADIENT_X + GRADIENT_NUMBER_GAP, y, 0], aligned_edge=LEFT)
                                for k, y in zip(KEYS, mids)))
        column = VGroup(gradients, mean_numbers)
        gradient_head = VGroup(words("梯度", size="label", color=GRAD).move_to([0, GRID_HEAD_Y, 0]),
                               words("= −平均", size="small", color=GRAD).move_to([0, ANSWER_ROW_Y, 0]))
        gradient_head.set_x(column.get_x())
        # The flip named once, over the two heads: 取平均 ↷ 梯度, × −1.
        mean_head = grid["mean_head"]
        flip = curved_arrow(mean_head.get_corner(UR) + RIGHT * theme.space("hair"),
                            gradient_head[0].get_corner(UL) + LEFT * theme.space("hair"), GRAD,
                            arc=-FLIP_ARC, weight="bold", max_tip=FLIP_TIP)
        flip_name = formula("× −1", size="small", color=GRAD).next_to(flip, UP, buff=theme.space("hair"))
        self.play(FadeIn(gradient_head), FadeIn(zero_lines), ReplacementTransform(means.copy(), gradients),
                  Create(flip), FadeIn(flip_name), run_time=1.0)
        self.play(FadeIn(mean_numbers), run_time=0.5)

        # ⭐⭐ 跨卡汇总: each card sums its own samples, the two sums are added and divided by
        # the batch — the same average, however the batch is split.
        self.beat(says="它干的就是这个平均 —— 每张卡先收自己那批人的意见，再凑到一起")
        bands, flow = self.cards(columns_x, bottom)
        self.play(FadeIn(bands), FadeIn(flow[0]), run_time=0.5)
        self.play(LaggedStart(*(FadeIn(part) for part in flow[1:]), lag_ratio=0.5), run_time=1.6)

    def share_out(self, sums, mids, grid) -> VGroup:
        """Each sum, shared out among the voters, shrinks to the average request. At the votes'
        own scale the averages would be specks, so the column is drawn enlarged, and says so.
        Returns the averaged arrows."""
        zoom = vote.MEAN_ZOOM.value
        means = VGroup(*(request_arrow(np.array([MEAN_X, y, 0]), request, unit_height=VOTE_UNIT * zoom,
                                       weight="heaviest")
                         for y, request in zip(mids, vote.mean_request())))
        enlarged = ledger_text("放大 {vote.mean_zoom} 倍", size="small", color="muted")
        enlarged.move_to([MEAN_X, ANSWER_ROW_Y, 0])
        self.play(FadeIn(grid["mean_head"]), ReplacementTransform(sums.copy(), means), run_time=1.2)
        self.play(FadeIn(enlarged), run_time=0.4)
        return means

    def cards(self, columns_x, bottom: float) -> tuple[VGroup, list]:
        """The batch on two cards (甲乙丙 | 丁戊, 示意): a light band behind each card's samples,
        and on the right, under the name 跨卡汇总 (the notes plant it here for the later sections),
        each card's sum, the two added, ÷ the batch size = the same average."""
        split = vote.CARD_SPLIT.value
        groups = ((0, split - 1), (split, len(SAMPLE_NAMES) - 1))
        bands = VGroup(*(marks.shade([columns_x[a] - CARD_PAD, CARD_TOP], [columns_x[b] + CARD_PAD, bottom], "muted")
                         for a, b in groups))
        sums = [badge([card, "Σ " + "".join(SAMPLE_NAMES[a:b + 1])], "ink", size="label").move_to([x, CARDS_Y, 0])
                for card, (a, b), x in zip(("这张卡", "那张卡"), groups, CARD_XS)]
        merge = badge("相加 ÷ {vote.batch_size}", "ink", size="label").move_to(MERGE_AT)
        joins = VGroup(*(arrow(s.get_bottom(), merge.get_top(), "muted", weight="bold") for s in sums))
        same = words("= 同一个平均", size="body").next_to(merge, DOWN, buff=theme.space("medium"))
        name = words("跨卡汇总", size="heading").move_to([np.mean(CARD_XS), CARDS_NAME_Y, 0])
        return bands, [name, VGroup(*sums), VGroup(joins, merge), same]

    def add_votes(self, votes, requests, mids, unit, sum_x) -> VGroup:
        """Each sample's arrows slide into the sum column, tip to tail on the running sum (the
        same x: one column, never a second pile beside it), which then absorbs them."""
        running = np.zeros(requests.shape[1])
        sums = None
        for vote_column, request in zip(votes, requests):
            pieces = VGroup(*(request_arrow(np.array([sum_x, y + total * unit, 0]), r, unit_height=unit)
                              for y, total, r in zip(mids, running, request)))
            self.play(*(ReplacementTransform(a.copy(), p) for a, p in zip(vote_column, pieces)), run_time=0.55)
            running = running + request
            merged = VGroup(*(request_arrow(np.array([sum_x, y, 0]), total, unit_height=unit, weight="heaviest")
                              for y, total in zip(mids, running)))
            if sums is None:
                self.play(ReplacementTransform(pieces, merged), run_time=0.3)
            else:
                self.play(ReplacementTransform(sums, merged), FadeOut(pieces), run_time=0.3)
            sums = merged
        return sums

    @staticmethod
    def row_midlines(requests: np.ndarray, unit: float, *, top: float,
                     gap: float = ROW_GAP) -> tuple[list[float], float]:
        """The tokens' zero lines, one pitch apart (an uneven pitch would read as meaning), the
        pitch set by the tightest pair of neighbouring rows; the first row hangs from ``top``.
        Returns the zero lines and the lowest point any arrow reaches."""
        ups, downs = [], []
        for column in requests.T:
            # a vote lands on the running sum before merging: its tip reaches sum-so-far + vote
            reach = np.concatenate([column, np.cumsum(column), [0.0]])
            ups.append(reach.max() * unit)
            downs.append(-reach.min() * unit)
        pitch = max(down + up for down, up in zip(downs, ups[1:])) + gap
        mids = [top - ups[0] - i * pitch for i in range(len(ups))]
        return mids, mids[-1] - downs[-1]

    @staticmethod
    def vote_grid(columns_x, mids, bottom: float) -> dict:
        """Row labels, zero lines, sample names with their answers, the heads of the sum, the
        average and the gradient; the divider runs down to ``bottom``."""
        head_y, answer_y = GRID_HEAD_Y, ANSWER_ROW_Y
        # The votes' zero lines first; the divider and the lines under the sum and the average
        # come with the 加起来 head (C.5), so nothing announces the sum column before it is said.
        left, divider_x, right = columns_x[0] - 0.45, columns_x[-1] + 0.55, MEAN_X + 0.4
        frame = VGroup(words("样本", size="body", color="muted").move_to([GRID_LABEL_X, head_y, 0]),
                       words("答案", size="body").move_to([GRID_LABEL_X, answer_y, 0]))
        totals = VGroup(marks.segment([divider_x, head_y + 0.3, 0], [divider_x, bottom, 0], "muted", weight="thin"))
        for token, y in zip(TOKENS, mids):
            frame.add(words(token, size="heading").move_to([GRID_LABEL_X, y, 0]),
                      marks.segment([left, y, 0], [divider_x, y, 0], "muted", weight="thin"))
            totals.add(marks.segment([divider_x, y, 0], [right, y, 0], "muted", weight="thin"))
        samples = [VGroup(words(name, size="body").move_to([x, head_y, 0]),
                          words(answer, size="body").move_to([x, answer_y, 0]))
                   for name, answer, x in zip(SAMPLE_NAMES, vote.BATCH_ANSWERS.value, columns_x)]
        sum_head = words("加起来", size="label", color=GRAD).move_to([SUM_X, head_y, 0])
        mean_head = words("取平均", size="label", color=GRAD).move_to([MEAN_X, head_y, 0])
        return {"frame": frame, "totals": totals, "samples": samples, "sum_head": sum_head, "mean_head": mean_head}

    @staticmethod
    def only_first_chart() -> dict:
        """A small distribution on the right: before, and after listening to 甲 only."""
        base_x, base_y = ONLY_FIRST_BASE
        bases = [np.array([base_x + ONLY_FIRST_STEP * i, base_y, 0]) for i in range(len(TOKENS))]
        title = words("只听甲一个人的：", size="body").move_to([4.85, 2.4, 0])
        labels = VGroup(*(words(t, size="body").next_to(b, DOWN, buff=theme.space("tight")) for t, b in zip(TOKENS, bases)))
        bars = VGroup(*(probability_bar(p, b, unit_height=ONLY_FIRST_UNIT, width=ONLY_FIRST_WIDTH)
                        for p, b in zip(vote.predicted_probs(), bases)))
        bars_after = VGroup(*(probability_bar(p, b, unit_height=ONLY_FIRST_UNIT, width=ONLY_FIRST_WIDTH)
                              for p, b in zip(vote.only_first_probs(), bases)))
        value = number("vote.p.de", size="body").next_to(bars[0], UP, buff=theme.space("tight"))
        value_after = number("vote.only_first.p_de", size="body").next_to(bars_after[0], UP, buff=theme.space("tight"))
        # The speaker's answer, under the chart that shows it, in ink like the bars.
        verdict = words("不管问什么，都答「的」", size="body").move_to([4.45, -1.45, 0])
        return {"before": VGroup(title, labels, bars, value), "bars": bars, "bars_after": bars_after,
                "value": value, "value_after": value_after, "verdict": verdict}
