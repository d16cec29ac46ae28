"""fig-vote: a gradient is a vote — every sample's request, averaged.

Ⓐ One sample's request: prediction bars against the one-hot answer; seed = 预测 − 答案;
   the push arrows run from each bar to its answer, longer where the gap is larger.
Ⓑ Three ways to raise 「的」: bias, thicker wire (the brighter upstream pays more:
   ∂L/∂w = 上游亮度 × 下游梯度), a brighter previous layer — which passes the request back.
Ⓒ Five samples vote; listening to 甲 alone teaches the net to always say 「的」; sample by
   sample the votes slide into the sum column, tip to tail on the running sum, and the sum
   shared out is the average: the gradient, drawn enlarged (放大) so it reads.
"""

from __future__ import annotations

import numpy as np
from manim import (DOWN, LEFT, OUT, RIGHT, UL, UP, Create, FadeIn, FadeOut, GrowArrow, GrowFromEdge, Indicate,
                   Line, Rectangle, ReplacementTransform, SurroundingRectangle, VGroup, Write)

from lecture_numerics import vote
from scenes.kit import theme
from scenes.kit.arrows import arrow
from scenes.kit.base import LectureScene
from scenes.kit.text import formula, ledger_text, number, words
from scenes.kit.vote_widgets import answer_outline, neuron, probability_bar, request_arrow, wire

TOKENS, KEYS = vote.TOKENS, vote.TOKEN_KEYS
VALUE, GRAD = "ink", "backward"          # forward numbers black, gradients red, as in the notes
SAMPLE_NAMES = ("甲", "乙", "丙", "丁", "戊")

# Geometry (scene units; the frame is 14.2 × 8, the safe area 0.35 in from each edge).
BAR_COLUMNS_X = (-4.9, -3.3, -1.7, -0.1)      # Ⓐ: one column per token
BAR_BASE_Y, BAR_UNIT, BAR_WIDTH = -0.35, 2.9, 0.9
ROW_LABEL_X = -6.2                              # Ⓐ: 预测 / 答案 / 种子 row names
NUMBER_ROWS_Y = (-1.35, -1.95, -2.55)
REQUEST_TEXT_AT = (3.6, 0.55, 0)                # Ⓐ: the right-hand column's centre
UPSTREAM_X, TARGET_X = -5.7, -2.1               # Ⓑ: the two upstream neurons, and 「的」
UPSTREAM_Y = 1.35
WAYS_TEXT_AT = (3.1, 0.15, 0)                   # Ⓑ: the three ways
KEY_LINE_GAP = 0.2                              # Ⓑ: extra room above the backprop line
KEY_SENTENCE_HOLD_S = 3.0                       # Ⓑ: 「上游越亮…」 held, as the notes say 停三秒
GRID_LABEL_X = -6.3                             # Ⓒ: row names of the vote grid
FIRST_VOTE_X, VOTE_STEP_X = -5.2, 0.95
SUM_X, MEAN_X = -0.05, 0.95                    # 加起来 clear of the divider to its left
VOTE_UNIT, GRID_TOP = 0.75, 1.8               # one unit of request; the grid's top
ROW_GAP = 0.16                                  # Ⓒ: between the closest arrows of neighbouring rows
ARROW_KEY_AT = (2.6, 2.6, 0)                    # Ⓒ: top-left corner of the key, where 只听甲 stood
ACROSS_CARDS_AT = (2.6, 0.9, 0)                 # Ⓒ: the 跨卡汇总 aside, under the key
GRID_HEAD_Y = 2.65                              # Ⓒ: the 样本 row
ANSWER_ROW_Y = 2.15                             # Ⓒ: the 答案 row (under 取平均: how much it is enlarged)
GRID_FOOT = 0.12                                # Ⓒ: the grid's frame ends this far under the lowest arrow
CARD_SPLIT = 3                                  # Ⓒ: samples 甲乙丙 on one card, 丁戊 on the other (示意)
CARD_FILL_OPACITY = 0.10
WISH_OPACITY = 0.35                             # Ⓐ: the pushes as ghosts, once they are only a wish
BACK_ARROW_OFFSET = 0.3                         # Ⓑ: how far beside its wire a passed-back request runs
WIRE_LABEL_OFFSET = 0.55                        # Ⓑ: a wire's ∂L/∂w, this far off the wire (clear of the back arrows)


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
        "vote.mean_zoom",
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
        tokens = VGroup(*(words(t, size="heading").next_to(base, DOWN, buff=0.15) for t, base in zip(TOKENS, columns)))
        rows = self.number_rows(columns)
        self.play(FadeIn(tokens), *(GrowFromEdge(b, DOWN) for b in bars), FadeIn(rows["预测"]), run_time=1.2)
        talk = self.request_sentences()

        self.beat(says="该是「的」，那就把「的」推上去，别的推下去")
        answer_at = columns[TOKENS.index(vote.ANSWER.value)]
        outline = answer_outline(answer_at, unit_height=BAR_UNIT, width=BAR_WIDTH + 0.2)
        self.play(FadeIn(outline), FadeIn(rows["答案"]), FadeIn(talk[0]), run_time=0.8)

        self.beat(says="推多少，看差多远。差得越离谱，要求越强烈")
        # The request runs from each bar's top to its answer: the longer, the stronger.
        requests = vote.one_hot(vote.ANSWER.value) - probs
        arrows = VGroup(*(request_arrow(bar.get_top(), r, unit_height=BAR_UNIT) for bar, r in zip(bars, requests)))
        arrow_name = words("要求", size="body", color=GRAD).next_to(outline, RIGHT, buff=0.15)
        arrow_name.set_y(arrows[0].get_center()[1])
        self.play(*(GrowArrow(a) for a in arrows), run_time=1.0)
        self.play(FadeIn(arrow_name), FadeIn(talk[1]), run_time=0.6)

        self.beat(says="这就是刚才那颗种子，「预测减真值」，换成人话就是这一句")
        self.play(Write(talk[2]), FadeIn(rows["种子"], shift=DOWN * 0.15), run_time=1.0)
        self.play(FadeIn(talk[3]), run_time=0.6)
        self.play(FadeIn(talk[4]), run_time=0.6)

        self.beat(says="但注意：它只是希望。没有人能直接去改输出", takeaway="但它只是希望：没有人能直接改输出")
        # Only a wish: the pushes fade to ghosts, nothing moves the bars.
        self.play(arrows.animate.set_opacity(WISH_OPACITY), run_time=0.6)

    @staticmethod
    def request_sentences() -> VGroup:
        """The right-hand column of panel Ⓐ, in the order said: the wish, the push strength,
        the seed's rule."""
        wish = VGroup(words("该是「的」：", size="body"), words("把「的」推上去，别的推下去", size="body"))
        rule = VGroup(formula("种子 = 预测 − 答案", size="heading", color=GRAD),
                      words("猜高了为正，该高没高为负", size="body", color=GRAD))
        push = VGroup(words("推多少，看差多远：", size="body"), words("差得越离谱，要求越强烈", size="body"))
        sign = words("箭头是要求，和种子正好反号", size="body", color=GRAD)
        blocks = VGroup(wish, push, rule[0], rule[1], sign)
        for block in (wish, push):
            block.arrange(DOWN, aligned_edge=LEFT, buff=0.22)
        blocks.arrange(DOWN, aligned_edge=LEFT, buff=0.5).move_to(REQUEST_TEXT_AT)
        rule[1].shift(UP * 0.3)   # the rule's gloss sits under its formula, not a block apart
        sign.next_to(rule[1], DOWN, buff=0.22, aligned_edge=LEFT)
        return blocks

    @staticmethod
    def number_rows(columns) -> dict[str, VGroup]:
        """预测 / 答案 / 种子 under the bars: one ledger number per token, one row each."""
        rows = {}
        for (name, prefix, color), y in zip((("预测", "vote.p", VALUE), ("答案", "vote.onehot", "good"),
                                             ("种子", "vote.seed", GRAD)), NUMBER_ROWS_Y):
            label = words(name, size="body", color=color).move_to([ROW_LABEL_X, y, 0])
            cells = [number(f"{prefix}.{k}", size="body", color=color).move_to([c[0], y, 0])
                     for k, c in zip(KEYS, columns)]
            rows[name] = VGroup(label, *cells)
        return rows

    # ---- Ⓑ which wire pays ------------------------------------------------------------------

    def wire_panel(self):
        self.start_panel("B", "输出改不了：想让「的」变大，只有{vote.ways_to_raise}条路",
                         says="输出改不了，那怎么办？想让一个数变大，其实只有三条路")
        bright = neuron(vote.BRIGHT.value, radius=0.6).move_to([UPSTREAM_X, UPSTREAM_Y, 0])
        dim = neuron(vote.DIM.value, radius=0.6).move_to([UPSTREAM_X, -UPSTREAM_Y, 0])
        target = neuron(0.0, radius=0.7).move_to([TARGET_X, 0.0, 0])
        target_name = words("的", size="heading").move_to(target)
        target_grad = ledger_text("种子 {vote.seed.de}", size="body", color=GRAD).next_to(target, UP, buff=0.25)
        bright_label = ledger_text("亮 {vote.bright_activation}", size="body").next_to(bright, UP, buff=0.15)
        dim_label = ledger_text("暗 {vote.dim_activation}", size="body").next_to(dim, DOWN, buff=0.15)
        wires = VGroup(wire(bright, target), wire(dim, target))
        self.play(FadeIn(VGroup(bright, dim, target, target_name, bright_label, dim_label)),
                  FadeIn(wires), FadeIn(target_grad), run_time=1.0)
        ways = self.three_ways()

        self.beat(says="一，改偏置，直接给它加一点 —— 省事，但能调的余地很小")
        bias = words("偏置", size="body", color="muted").next_to(target, DOWN, buff=0.9)
        bias_link = Line(bias.get_top(), target.get_bottom(), color=theme.color("muted"), stroke_width=3)
        self.play(FadeIn(ways[0]), FadeIn(bias), FadeIn(bias_link), run_time=0.8)

        self.beat(says="二，改权重，把连过来的线加粗")
        # Thicken both wires by the same amount: the bright one moves 「的」 more.
        self.play(FadeIn(ways[1]), *(w.animate.set_stroke(width=14) for w in wires), run_time=1.0)

        self.beat(says="这里有一句最值钱的：上游越亮的那根线，加粗越划算")
        # The bright wire glows (something to point at), then the frame holds: the notes' 停三秒.
        glow = wires[0].copy().set_stroke(color=theme.color("accent"), width=30, opacity=0.3)
        self.play(FadeIn(ways[2]), FadeIn(glow), Indicate(bright, color=theme.color("activations")), run_time=1.0)
        self.bring_to_back(glow)
        self.wait(KEY_SENTENCE_HOLD_S)

        self.beat(says="花同样的力气，接在一个很亮的输入上，回报大得多")
        # The wires carry their own gradients, so the column states the rule and the ratio only.
        # Each wire's ∂L/∂w on its outer side (the formula in the column names it).
        grad_bright = self.wire_label(number("vote.wire_grad.bright", size="body", color=GRAD), wires[0], UP)
        grad_dim = self.wire_label(number("vote.wire_grad.dim", size="body", color=GRAD), wires[1], DOWN)
        self.play(Write(ways[3]), run_time=0.8)
        self.play(FadeIn(grad_bright), FadeIn(grad_dim), run_time=0.8)
        self.play(FadeIn(ways[4]), Indicate(grad_bright, color=theme.color(GRAD)),
                  Indicate(wires[0], color=theme.color("accent"), scale_factor=1.0), run_time=0.8)

        self.beat(says="三，让上一层更亮 —— 可上一层也改不了啊")
        # The second way is said and done: its working lines step back, the key line stays.
        self.play(FadeIn(ways[5]), *(ways[i].animate.set_color(theme.color("muted")) for i in (1, 3, 4)),
                  run_time=0.6)

        self.beat(says="所以这条要求就往回递了一层")
        # The request goes back one layer: beside each wire, from 「的」 onto each upstream neuron.
        # Between the wires, so each wire's own label stays readable on its outer side.
        backs = VGroup(*(self.back_arrow(target, source, side) for source, side in ((bright, DOWN), (dim, UP))))
        request = words("要求", size="body", color=GRAD).move_to([(UPSTREAM_X + TARGET_X) / 2 - 0.3, 0, 0])
        self.play(*(GrowArrow(b) for b in backs), FadeIn(request), FadeIn(ways[6]), run_time=1.0)

        self.beat(says="要知道改哪根线回报最大，你得先知道那根线的上游当时有多亮")
        marks = VGroup(*(SurroundingRectangle(label, color=theme.color("accent"), buff=0.08, stroke_width=4)
                         for label in (bright_label, dim_label)))
        self.play(Create(marks), Indicate(ways[2]), run_time=1.0)

        self.beat(says="所以反向必须回头看前向留下的东西",
                  takeaway="亮度是前向算的 → 反向必须回头看前向留下的东西")
        left_behind = VGroup(*(words("前向留下的", size="body", color="accent").next_to(mark, RIGHT, buff=0.15)
                               for mark in marks))
        self.play(FadeIn(left_behind), run_time=0.6)

    @staticmethod
    def back_arrow(target, source, side):
        """The request passed back: beside the wire (on ``side``), from 「的」's rim to the
        upstream neuron's rim, so the wire and its thickness stay visible."""
        along = source.get_center() - target.get_center()
        along = along / np.linalg.norm(along)
        beside = np.cross(along, OUT)
        beside = beside if np.dot(beside, side) > 0 else -beside
        start = target.get_center() + along * target.radius + beside * BACK_ARROW_OFFSET
        end = source.get_center() - along * source.radius + beside * BACK_ARROW_OFFSET
        return arrow(start, end, GRAD, weight="heavy", buff=None)

    @staticmethod
    def wire_label(label, wire_line, side):
        """Put a wire's gradient beside the wire, nearer its upstream end, on ``side``."""
        spot = wire_line.point_from_proportion(0.4)
        return label.move_to(spot).shift(side * WIRE_LABEL_OFFSET)

    @staticmethod
    def three_ways() -> VGroup:
        """The right-hand column of panel Ⓑ, one line per sentence the speaker says."""
        lines = VGroup(
            words("① 改偏置：直接加一点，余地很小", size="body", color="muted"),
            words("② 改权重：把连过来的线加粗", size="body"),
            words("上游越亮的那根线，加粗越划算", size="heading", color="accent"),
            formula("∂L/∂w = 上游亮度 × 下游的种子", size="body", color=GRAD),
            ledger_text("同样加粗，亮线回报是暗线的 {vote.bright_payoff_ratio} 倍", size="body"),
            words("③ 让上一层更亮：可上一层也改不了", size="body"),
            words("→ 要求往回递一层 = 反向传播", size="takeaway", color=GRAD),
        )
        lines.arrange(DOWN, aligned_edge=LEFT, buff=0.3).move_to(WAYS_TEXT_AT)
        # ⭐⭐⭐ 「往回递了一层」: the biggest line of its beat, set apart from the list above it
        lines[-1].shift(DOWN * KEY_LINE_GAP)
        return lines

    # ---- Ⓒ many samples vote ----------------------------------------------------------------

    def average_panel(self):
        self.start_panel("C", "不能只听一个人的", says="但是 —— 不能只听一个人的")
        requests = vote.batch_requests()
        columns_x = [FIRST_VOTE_X + VOTE_STEP_X * j for j in range(len(SAMPLE_NAMES))]
        mids, lowest = self.row_midlines(requests, VOTE_UNIT, top=GRID_TOP)
        bottom = lowest - GRID_FOOT       # the frame reaches past the longest downward arrow (在's sum)
        # the two heads sit over their columns: 加起来 over the sum, 取平均 over arrow + number
        grid = self.vote_grid(columns_x, (SUM_X, MEAN_X + 0.4), mids, bottom)
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
        self.play(ReplacementTransform(lonely["bars"], lonely["bars_after"]),
                  ReplacementTransform(lonely["value"], lonely["value_after"]), run_time=1.5)
        self.play(FadeIn(lonely["verdict"]), run_time=0.6)

        self.beat(says="所以只能把所有人的要求加起来，取个平均")
        # The lone listener's chart has made its point: the room goes to the votes.
        self.play(FadeOut(VGroup(lonely["before"][0], lonely["before"][1], lonely["bars_after"],
                                 lonely["value_after"], lonely["verdict"])), run_time=0.5)
        self.play(*(FadeIn(s) for s in grid["samples"][2:]),
                  *(GrowArrow(a) for v in votes[2:] for a in v), run_time=1.2)
        # The votes, sample after sample, laid tip to tail onto the running sum.
        self.play(FadeIn(grid["sum_head"]), run_time=0.4)
        sums = self.add_votes(votes, requests, mids, VOTE_UNIT, SUM_X)

        self.beat(says="那个平均，就是梯度", takeaway="所有人的要求加起来取个平均 —— 那个平均，就是梯度")
        # Shared out among the voters, each sum shrinks to the average request: the gradient,
        # beside it its number (the opposite sign). At the votes' own scale the averages would
        # be specks, so the column is drawn enlarged, and says by how much.
        zoom = vote.MEAN_ZOOM.value
        means = VGroup(*(request_arrow(np.array([MEAN_X, y, 0]), request, unit_height=VOTE_UNIT * zoom,
                                       weight="heaviest")
                         for y, request in zip(mids, vote.mean_request())))
        mean_numbers = VGroup(*(number(f"vote.mean_seed.{k}", size="body", color=GRAD)
                                .next_to([MEAN_X + 0.2, y, 0], RIGHT, buff=0.12) for k, y in zip(KEYS, mids)))
        enlarged = ledger_text("放大 {vote.mean_zoom} 倍", size="small", color="muted")
        enlarged.move_to([grid["mean_head"].get_x(), ANSWER_ROW_Y, 0])
        self.play(FadeIn(grid["mean_head"]), ReplacementTransform(sums.copy(), means), run_time=1.2)
        self.play(FadeIn(mean_numbers), FadeIn(enlarged), FadeIn(self.arrow_key()), run_time=0.6)

        self.beat(says="它干的就是这个平均 —— 每张卡先收自己那批人的意见，再凑到一起")
        cards = self.card_groups(columns_x, bottom)
        self.play(FadeIn(cards), FadeIn(self.across_cards()), run_time=0.8)

    @staticmethod
    def card_groups(columns_x, bottom: float) -> VGroup:
        """The batch split over two cards: a light band behind each card's samples, down to
        the grid's foot."""
        top = GRID_HEAD_Y + 0.35
        bands = VGroup()
        for first, last in ((0, CARD_SPLIT - 1), (CARD_SPLIT, len(SAMPLE_NAMES) - 1)):
            left, right = columns_x[first] - 0.42, columns_x[last] + 0.42
            band = Rectangle(width=right - left, height=top - bottom, stroke_width=0)
            band.set_fill(theme.color("accent"), opacity=CARD_FILL_OPACITY).move_to([(left + right) / 2, (top + bottom) / 2, 0])
            bands.add(band)
        return bands

    @staticmethod
    def across_cards() -> VGroup:
        """The aside the notes insist on: 跨卡汇总 is this same average."""
        text = VGroup(words("甲乙丙：这张卡", size="body", color="accent"),
                      words("丁戊：那张卡", size="body", color="accent"),
                      words("各收自己那批人的意见", size="body"),
                      words("再凑到一起：跨卡汇总", size="body"),
                      words("还是这同一个平均", size="body"))
        return text.arrange(DOWN, aligned_edge=LEFT, buff=0.14).move_to(ACROSS_CARDS_AT, aligned_edge=UL)

    @staticmethod
    def arrow_key() -> VGroup:
        """What Ⓒ's two encodings mean: arrows are requests, numbers are the gradient, and
        the two have opposite signs (梯度 = 预测 − 答案, the request is 答案 − 预测)."""
        key = VGroup(words("箭头：要求", size="body", color=GRAD),
                     words("数字：梯度", size="body", color=GRAD),
                     words("梯度和要求正好反号", size="body", color=GRAD))
        key.arrange(DOWN, aligned_edge=LEFT, buff=0.14)
        return key.move_to(ARROW_KEY_AT, aligned_edge=UL)

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
    def vote_grid(columns_x, heads_x, mids, bottom: float) -> dict:
        """Row labels, zero lines, sample names with their answers, the 加起来 and 取平均 heads;
        the divider runs down to ``bottom``."""
        sum_x, mean_x = heads_x
        head_y, answer_y = GRID_HEAD_Y, ANSWER_ROW_Y
        muted = theme.color("muted")
        left, right = columns_x[0] - 0.45, mean_x - 0.2
        frame = VGroup(words("样本", size="body", color="muted").move_to([GRID_LABEL_X, head_y, 0]),
                       words("答案", size="body", color="good").move_to([GRID_LABEL_X, answer_y, 0]))
        for token, y in zip(TOKENS, mids):
            frame.add(words(token, size="heading").move_to([GRID_LABEL_X, y, 0]),
                      Line([left, y, 0], [right, y, 0], color=muted, stroke_width=2))
        divider_x = columns_x[-1] + 0.55
        frame.add(Line([divider_x, head_y + 0.3, 0], [divider_x, bottom, 0], color=muted, stroke_width=2))
        samples = [VGroup(words(name, size="body").move_to([x, head_y, 0]),
                          words(answer, size="body", color="good").move_to([x, answer_y, 0]))
                   for name, answer, x in zip(SAMPLE_NAMES, vote.BATCH_ANSWERS.value, columns_x)]
        sum_head = words("加起来", size="body", color=GRAD).move_to([sum_x, head_y, 0])
        mean_head = words("取平均", size="body", color=GRAD).move_to([mean_x, head_y, 0])
        return {"frame": frame, "samples": samples, "sum_head": sum_head, "mean_head": mean_head}

    @staticmethod
    def only_first_chart() -> dict:
        """A small distribution on the right: before, and after listening to 甲 only."""
        base_x, base_y, unit, width = 3.6, -0.6, 2.0, 0.55
        bases = [np.array([base_x + 0.85 * i, base_y, 0]) for i in range(len(TOKENS))]
        title = words("只听甲一个人的：", size="body").move_to([4.85, 2.4, 0])
        labels = VGroup(*(words(t, size="body").next_to(b, DOWN, buff=0.12) for t, b in zip(TOKENS, bases)))
        bars = VGroup(*(probability_bar(p, b, unit_height=unit, width=width) for p, b in zip(vote.predicted_probs(), bases)))
        bars_after = VGroup(*(probability_bar(p, b, unit_height=unit, width=width)
                              for p, b in zip(vote.only_first_probs(), bases)))
        value = number("vote.p.de", size="body").next_to(bars[0], UP, buff=0.1)
        value_after = number("vote.only_first.p_de", size="body").next_to(bars_after[0], UP, buff=0.1)
        verdict = words("不管问什么，都答「的」", size="body", color="accent").move_to([4.45, -1.45, 0])
        return {"before": VGroup(title, labels, bars, value), "bars": bars, "bars_after": bars_after,
                "value": value, "value_after": value_after, "verdict": verdict}
