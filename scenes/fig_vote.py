"""fig-vote: a gradient is a vote — every sample's request, averaged.

Ⓐ One sample's request: prediction bars against the one-hot answer; seed = 预测 − 答案;
   the push arrows run from each bar to its answer, longer where the gap is larger.
Ⓑ Three ways to raise 「的」: bias, thicker wire (the brighter upstream pays more:
   ∂L/∂w = 上游亮度 × 下游梯度), a brighter previous layer — which passes the request back.
Ⓒ Five samples vote; listening to 甲 alone teaches the net to always say 「的」; sample by
   sample the votes land tip to tail on a running sum, and the sum shared out is the
   average: the gradient.
"""

from __future__ import annotations

import numpy as np
from manim import (DOWN, LEFT, RIGHT, UP, Arrow, FadeIn, FadeOut, GrowArrow, GrowFromEdge, Indicate, Line,
                   ReplacementTransform, VGroup, Write)

from lecture_numerics import vote
from scenes.kit import theme
from scenes.kit.base import LectureScene
from scenes.kit.panels import caption
from scenes.kit.text import formula, ledger_text, number, words
from scenes.kit.vote_widgets import answer_outline, neuron, probability_bar, request_arrow, wire

TOKENS, KEYS = vote.TOKENS, vote.TOKEN_KEYS
VALUE, GRAD = "ink", "backward"          # forward numbers black, gradients red, as in the notes
SAMPLE_NAMES = ("甲", "乙", "丙", "丁", "戊")


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
    )

    def construct(self):
        self.request_panel()
        self.wire_panel()
        self.average_panel()

    # ---- Ⓐ one sample's request --------------------------------------------------------------

    def request_panel(self):
        self.start_panel("A", "一条样本，只提一个要求")
        columns = [np.array([x, -0.35, 0]) for x in (-5.0, -3.4, -1.8, -0.2)]
        unit, width = 2.9, 0.9
        probs = vote.predicted_probs()
        bars = VGroup(*(probability_bar(p, base, unit_height=unit, width=width) for p, base in zip(probs, columns)))
        tokens = VGroup(*(words(t, size="heading").next_to(base, DOWN, buff=0.15) for t, base in zip(TOKENS, columns)))
        rows = self.number_rows(columns)
        self.play(FadeIn(tokens), *(GrowFromEdge(b, DOWN) for b in bars), FadeIn(rows["预测"]), run_time=1.2)

        answer_at = columns[TOKENS.index(vote.ANSWER.value)]
        outline = answer_outline(answer_at, unit_height=unit, width=width + 0.2)
        self.play(FadeIn(outline), FadeIn(rows["答案"]), run_time=0.8)
        talk = self.request_sentences()
        self.play(FadeIn(talk[0]), run_time=0.6)

        self.play(Write(talk[1]), FadeIn(rows["种子"], shift=DOWN * 0.15), run_time=1.0)
        self.play(FadeIn(talk[2]), run_time=0.6)

        # The request runs from each bar's top to its answer: the longer, the stronger.
        requests = vote.one_hot(vote.ANSWER.value) - probs
        arrows = VGroup(*(request_arrow(bar.get_top(), r, unit_height=unit) for bar, r in zip(bars, requests)))
        arrow_name = words("要求", size="body", color=GRAD).next_to(outline, RIGHT, buff=0.15)
        arrow_name.set_y(arrows[0].get_center()[1])
        self.play(*(GrowArrow(a) for a in arrows), FadeIn(arrow_name), FadeIn(talk[3]), run_time=1.2)
        self.play(FadeIn(caption("但它只是希望：没有人能直接改输出", color="accent")), run_time=0.6)
        self.wait(2.0)

    @staticmethod
    def request_sentences() -> VGroup:
        """The right-hand column of panel Ⓐ: the wish, the seed's rule, the push strength."""
        wish = VGroup(words("该是「的」：", size="body"), words("把「的」推上去，别的推下去", size="body"))
        rule = VGroup(formula("种子 = 预测 − 答案", size="heading", color=GRAD),
                      words("猜高了为正，该高没高为负", size="body", color=GRAD))
        push = VGroup(words("推多少，看差多远：", size="body"), words("差得越离谱，要求越强烈", size="body"))
        blocks = VGroup(wish, rule[0], rule[1], push)
        for block in (wish, push):
            block.arrange(DOWN, aligned_edge=LEFT, buff=0.22)
        blocks.arrange(DOWN, aligned_edge=LEFT, buff=0.5).move_to([3.75, 0.55, 0])
        rule[1].shift(UP * 0.3)
        return blocks

    @staticmethod
    def number_rows(columns) -> dict[str, VGroup]:
        """预测 / 答案 / 种子 under the bars: one ledger number per token, one row each."""
        rows = {}
        for name, prefix, y, color in (("预测", "vote.p", -1.35, VALUE), ("答案", "vote.onehot", -1.95, "good"),
                                       ("种子", "vote.seed", -2.55, GRAD)):
            label = words(name, size="body", color=color).move_to([-6.45, y, 0])
            cells = [number(f"{prefix}.{k}", size="body", color=color).move_to([c[0], y, 0])
                     for k, c in zip(KEYS, columns)]
            rows[name] = VGroup(label, *cells)
        return rows

    # ---- Ⓑ which wire pays ------------------------------------------------------------------

    def wire_panel(self):
        self.start_panel("B", "输出改不了：想让「的」变大，只有{vote.ways_to_raise}条路")
        bright = neuron(vote.BRIGHT.value, radius=0.6).move_to([-5.9, 1.35, 0])
        dim = neuron(vote.DIM.value, radius=0.6).move_to([-5.9, -1.35, 0])
        target = neuron(0.0, radius=0.7).move_to([-2.1, 0.0, 0])
        target_name = words("的", size="heading").move_to(target)
        target_grad = ledger_text("梯度 {vote.seed.de}", size="body", color=GRAD).next_to(target, UP, buff=0.25)
        bright_label = ledger_text("亮 {vote.bright_activation}", size="body").next_to(bright, UP, buff=0.15)
        dim_label = ledger_text("暗 {vote.dim_activation}", size="body").next_to(dim, DOWN, buff=0.15)
        wires = VGroup(wire(bright, target), wire(dim, target))
        self.play(FadeIn(VGroup(bright, dim, target, target_name, bright_label, dim_label)),
                  FadeIn(wires), FadeIn(target_grad), run_time=1.0)

        ways = self.three_ways()
        bias = words("偏置", size="body", color="muted").next_to(target, DOWN, buff=0.9)
        bias_link = Line(bias.get_top(), target.get_bottom(), color=theme.color("muted"), stroke_width=3)
        self.play(FadeIn(ways[0]), FadeIn(bias), FadeIn(bias_link), run_time=0.8)

        # Thicken both wires by the same amount: the bright one moves 「的」 more.
        self.play(FadeIn(ways[1]), *(w.animate.set_stroke(width=14) for w in wires), run_time=1.0)
        key_line = ways[2]
        self.play(FadeIn(key_line), Indicate(bright, color=theme.color("activations")), run_time=1.0)
        self.play(Write(ways[3]), run_time=0.8)
        grad_bright = self.wire_label(number("vote.wire_grad.bright", size="body", color=GRAD), wires[0], UP)
        grad_dim = self.wire_label(number("vote.wire_grad.dim", size="body", color=GRAD), wires[1], DOWN)
        self.play(FadeIn(ways[4]), FadeIn(ways[5]), FadeIn(grad_bright), FadeIn(grad_dim), run_time=1.0)
        self.play(FadeIn(ways[6]), Indicate(grad_bright, color=theme.color(GRAD)),
                  Indicate(wires[0], color=theme.color("accent"), scale_factor=1.0), run_time=0.8)
        self.wait(1.0)

        # The third way cannot be done directly either: the request goes back one layer.
        upstream_mid = (bright.get_center() + dim.get_center()) / 2
        back = Arrow(target.get_left() + LEFT * 0.15, upstream_mid + RIGHT * 0.2, buff=0,
                     color=theme.color(GRAD), stroke_width=8)
        self.play(FadeIn(ways[7]), run_time=0.6)
        self.play(GrowArrow(back), FadeIn(ways[8]), run_time=1.0)
        self.play(FadeIn(caption("亮度是前向算的 → 反向必须回头看前向留下的东西", color=GRAD)),
                  Indicate(bright_label), Indicate(dim_label), run_time=1.2)
        self.wait(2.5)

    @staticmethod
    def wire_label(label, wire_line, side):
        """Put a wire's gradient beside the wire, nearer its upstream end, on ``side``."""
        spot = wire_line.point_from_proportion(0.4)
        return label.move_to(spot).shift(side * 0.42)

    @staticmethod
    def three_ways() -> VGroup:
        """The right-hand column of panel Ⓑ, one line per sentence the speaker says."""
        lines = VGroup(
            words("① 改偏置：直接加一点，余地很小", size="body", color="muted"),
            words("② 改权重：把连过来的线加粗", size="body"),
            words("上游越亮的那根线，加粗越划算", size="heading", color="accent"),
            formula("∂L/∂w = 上游亮度 × 下游梯度", size="body", color=GRAD),
            ledger_text("亮：{vote.bright_activation} × ({vote.seed.de}) = {vote.wire_grad.bright}", size="body", color=GRAD),
            ledger_text("暗：{vote.dim_activation} × ({vote.seed.de}) = {vote.wire_grad.dim}", size="body", color=GRAD),
            ledger_text("同样加粗，亮线回报是暗线的 {vote.bright_payoff_ratio} 倍", size="body"),
            words("③ 让上一层更亮：可上一层也改不了", size="body"),
            words("→ 要求往回递一层 = 反向传播", size="body", color=GRAD),
        )
        lines.arrange(DOWN, aligned_edge=LEFT, buff=0.24).move_to([3.2, -0.15, 0])
        return lines

    # ---- Ⓒ many samples vote ----------------------------------------------------------------

    def average_panel(self):
        self.start_panel("C", "不能只听一个人的")
        unit = 0.95
        requests = vote.batch_requests()
        columns_x = [-5.4 + 0.95 * j for j in range(len(SAMPLE_NAMES))]
        sum_x, mean_x = -0.45, 0.75
        mids = self.row_midlines(requests, unit, top=1.8)
        # the two heads sit over their columns: 加起来 over sum + landing votes, 取平均 over arrow + number
        grid = self.vote_grid(columns_x, (sum_x + 0.15, mean_x + 0.4), mids)
        votes = [VGroup(*(request_arrow(np.array([x, y, 0]), r, unit_height=unit, stroke_width=7)
                          for y, r in zip(mids, column)))
                 for x, column in zip(columns_x, requests)]
        self.play(FadeIn(grid["frame"]), FadeIn(grid["samples"][0]), *(GrowArrow(a) for a in votes[0]), run_time=1.0)

        # Listening to 甲 alone: 「的」 climbs until the net answers 「的」 to everything.
        lonely = self.only_first_chart()
        self.play(FadeIn(lonely["before"]), run_time=0.8)
        self.play(ReplacementTransform(lonely["bars"], lonely["bars_after"]),
                  ReplacementTransform(lonely["value"], lonely["value_after"]), run_time=1.5)
        self.play(FadeIn(lonely["verdict"]), run_time=0.6)
        self.wait(1.0)

        self.play(*(FadeIn(s) for s in grid["samples"][1:]),
                  *(GrowArrow(a) for v in votes[1:] for a in v), run_time=1.2)

        # The votes, sample after sample, laid tip to tail onto the running sum.
        self.play(FadeIn(grid["sum_head"]), run_time=0.4)
        sums = self.add_votes(votes, requests, mids, unit, sum_x)

        # Divided by the number of voters, the sum becomes the average: the gradient. At the
        # votes' scale the averages would be specks, so each sum turns into its number.
        mean_numbers = VGroup(*(number(f"vote.mean_seed.{k}", size="body", color=GRAD)
                                .next_to([mean_x + 0.4, y, 0], RIGHT, buff=0.12) for k, y in zip(KEYS, mids)))
        self.play(FadeIn(grid["mean_head"]), ReplacementTransform(sums.copy(), mean_numbers), run_time=1.2)
        self.play(FadeIn(caption("所有人的要求加起来取个平均 —— 那个平均，就是梯度", color=GRAD)), run_time=0.8)
        self.wait(2.5)

    def add_votes(self, votes, requests, mids, unit, sum_x) -> VGroup:
        """Each sample's arrows land tip to tail on the running sum, which then absorbs them."""
        running = np.zeros(requests.shape[1])
        sums = None
        for vote_column, request in zip(votes, requests):
            pieces = VGroup(*(request_arrow(np.array([sum_x + 0.3, y + total * unit, 0]), r, unit_height=unit,
                                            stroke_width=7)
                              for y, total, r in zip(mids, running, request)))
            self.play(*(ReplacementTransform(a.copy(), p) for a, p in zip(vote_column, pieces)), run_time=0.55)
            running = running + request
            merged = VGroup(*(request_arrow(np.array([sum_x, y, 0]), total, unit_height=unit, stroke_width=10)
                              for y, total in zip(mids, running)))
            if sums is None:
                self.play(ReplacementTransform(pieces, merged), run_time=0.3)
            else:
                self.play(ReplacementTransform(sums, merged), FadeOut(pieces), run_time=0.3)
            sums = merged
        return sums

    @staticmethod
    def row_midlines(requests: np.ndarray, unit: float, *, top: float, gap: float = 0.22) -> list[float]:
        """Each token's row is as tall as its votes and their running sum reach, stacked from ``top``."""
        mids, y = [], top
        for column in requests.T:
            # a vote lands on the running sum before merging: its tip reaches sum-so-far + vote
            reach = np.concatenate([column, np.cumsum(column), [0.0]])
            up, down = reach.max() * unit, -reach.min() * unit
            mids.append(y - up)
            y -= up + down + gap
        return mids

    @staticmethod
    def vote_grid(columns_x, heads_x, mids) -> dict:
        """Row labels, zero lines, sample names with their answers, the 加起来 and 取平均 heads."""
        sum_x, mean_x = heads_x
        head_y, answer_y = 2.65, 2.15
        muted = theme.color("muted")
        left, right = columns_x[0] - 0.45, mean_x - 0.2
        frame = VGroup(words("样本", size="body", color="muted").move_to([-6.55, head_y, 0]),
                       words("答案", size="body", color="good").move_to([-6.55, answer_y, 0]))
        for token, y in zip(TOKENS, mids):
            frame.add(words(token, size="heading").move_to([-6.55, y, 0]),
                      Line([left, y, 0], [right, y, 0], color=muted, stroke_width=2))
        divider_x = columns_x[-1] + 0.55
        frame.add(Line([divider_x, head_y + 0.3, 0], [divider_x, mids[-1] - 0.3, 0], color=muted, stroke_width=2))
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
        verdict = words("不管问什么，都答「的」", size="body", color="accent").move_to([4.75, -1.75, 0])
        return {"before": VGroup(title, labels, bars, value), "bars": bars, "bars_after": bars_after,
                "value": value, "value_after": value_after, "verdict": verdict}
