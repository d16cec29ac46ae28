"""fig-3x: the three matrix multiplies of one linear layer — why training costs three inferences (第一节).

Ⓐ One linear layer, three cells read one at a time: ① forward Y = X·W; ② the weight gradient,
   which uses the input kept from forward (the section ends on ②); ③ the input gradient, handed back.
Ⓑ Why backward is two multiplies: two questions, two cells; then the three equal tiles as a tally,
   forward 1 + backward 2 = 3.
"""

from __future__ import annotations

from manim import (DOWN, LEFT, RIGHT, UP, ArcBetweenPoints, DashedVMobject, FadeIn, FadeOut,
                   GrowArrow, ReplacementTransform, SurroundingRectangle, VGroup, Write)

from lecture_numerics import quantity
from scenes.kit import theme
from scenes.kit.annotate import tally
from scenes.kit.arrows import arrow
from scenes.kit.base import LectureScene
from scenes.kit.panels import EDGE_BUFF, caption
from scenes.kit.matmul_widgets import MatmulCell, MatrixBlock, TallyRow, product_row
from scenes.kit.text import formula, ledger_text, line, words

# Panel Ⓐ: three cells across the frame (the frame is 14.2 × 8 units).
CELL_W, CELL_H, CELL_GAP = 4.35, 4.75, 0.15
CELLS_Y = -0.2
DIM = 0.75           # opacity of the cells not being read: stepped back, still 3:1 against the page
# Panel Ⓑ: the two question cards on the left, the two backward cells they answer on the right.
CARDS_X, TILES_X = -3.2, 3.4
TALLY_Y = -1.7

FORWARD, ACTIVATION, WEIGHT, GRADIENT = "ink", "activations", "weights", "gradients"
HANDED_LENGTH = 0.9              # the arrow that hands ∂L/∂X on to the layer below


class Fig3x(LectureScene):
    scene_id = "fig-3x"
    title = "三次矩阵乘：训练为什么是推理的三倍"
    ledger_keys = ("threex.forward_matmuls", "threex.forward_matmuls_zh", "threex.backward_matmuls", "threex.backward_matmuls_zh",
                   "threex.train_over_inference", "threex.train_over_inference_zh")

    def construct(self) -> None:
        self.three_multiplies()
        self.why_two()

    def say(self, current, sentence: str):
        """Swap the bottom caption for the speaker's next line."""
        new = caption(sentence)
        if current is None:
            self.play(FadeIn(new, shift=UP * theme.space("close")), run_time=0.4)
        else:
            self.play(FadeOut(current), FadeIn(new, shift=UP * theme.space("close")), run_time=0.4)
        return new

    # ---- Ⓐ one linear layer, three cells ----

    def three_multiplies(self) -> None:
        self.start_panel("A", "一层线性层，训练时做{threex.train_over_inference_zh}次矩阵乘")
        cells = VGroup(self.forward_cell(), self.weight_grad_cell(), self.input_grad_cell())
        cells.arrange(RIGHT, buff=CELL_GAP).move_to(UP * CELLS_Y)
        forward, weight_grad, input_grad = cells
        self.play(FadeIn(cells), run_time=0.6)
        self.play(*[c.animate.shade(DIM) for c in cells], run_time=0.4)

        said = self.say(None, "① 前向：推理也只做这{threex.forward_matmuls_zh}次")
        self.light(forward)
        self.wait(1.5)

        said = self.say(said, "② 权重梯度：用前向存下来的输入")
        kept = self.kept_arrow(forward.product[0], weight_grad.product[0])
        self.light(weight_grad, dim=forward)
        self.play(FadeIn(kept), run_time=0.6)
        self.wait(1.5)

        said = self.say(said, "③ 输入梯度：往回交给前一层")
        handed = arrow(input_grad.product[-1].get_left() + RIGHT * theme.space("hair"),
                       input_grad.product[-1].get_left() + LEFT * HANDED_LENGTH, GRADIENT, weight="bold", buff=None)
        handed.next_to(input_grad.product, DOWN, buff=theme.space("fine")).align_to(input_grad.product, LEFT)
        self.light(input_grad, dim=weight_grad)
        self.play(GrowArrow(handed), run_time=0.5)
        self.wait(1.2)

        # The speaker holds a finger on ② for three seconds: end on it, lit and framed.
        self.say(said, "第②格：用前向存下来的输入")
        ring = SurroundingRectangle(weight_grad.frame, color=theme.color("accent"), buff=0.04, stroke_width=6)
        self.play(input_grad.animate.shade(DIM), weight_grad.animate.shade(1),
                  FadeIn(ring), run_time=0.6)
        self.wait(3.0)

    def light(self, cell: MatmulCell, dim: MatmulCell | None = None) -> None:
        anims = [cell.animate.shade(1)]
        if dim is not None:
            anims.append(dim.animate.shade(DIM))
        self.play(*anims, run_time=0.5)

    def kept_arrow(self, source, target) -> DashedVMobject:
        """The dotted "kept from forward" path from X in cell ① to Xᵀ in cell ②, under the blocks."""
        start, end = source.get_bottom() + DOWN * theme.space("hair"), target.get_bottom() + DOWN * theme.space("hair")
        arc = ArcBetweenPoints(start, end, angle=0.35, color=theme.color(ACTIVATION), stroke_width=4)
        return DashedVMobject(arc, num_dashes=18)

    @staticmethod
    def cell(title: str, color: str, product: VGroup, expression: str, note) -> MatmulCell:
        return MatmulCell(words(title, size="label", color=color), product, formula(expression, size="label"),
                          note, width=CELL_W, height=CELL_H)

    def forward_cell(self) -> MatmulCell:
        product = product_row(MatrixBlock("X", "s", "d_in", ACTIVATION), MatrixBlock("W", "d_in", "d_out", WEIGHT),
                              MatrixBlock("Y", "s", "d_out", FORWARD))
        note = VGroup(line("推理也只做这{threex.forward_matmuls_zh}次", size="label"),
                      formula("2·s·d_in·d_out FLOPs", size="small", color="muted")).arrange(DOWN, buff=theme.space("snug"))
        return self.cell("① 前向", FORWARD, product, "Y = X · W", note)

    def weight_grad_cell(self) -> MatmulCell:
        product = product_row(MatrixBlock("Xᵀ", "d_in", "s", ACTIVATION),
                              MatrixBlock("∂Y", "s", "d_out", GRADIENT), MatrixBlock("∂W", "d_in", "d_out", GRADIENT))
        note = VGroup(words("用前向存下来的输入", size="body", color=ACTIVATION),
                      words("X 是激活（前向存下来的）", size="small", color=ACTIVATION),
                      formula("2·s·d_in·d_out FLOPs", size="small", color="muted")).arrange(DOWN, buff=theme.space("snug"))
        return self.cell("② 反向 · 权重梯度", GRADIENT, product, "∂L/∂W = Xᵀ · ∂L/∂Y", note)

    def input_grad_cell(self) -> MatmulCell:
        product = product_row(MatrixBlock("∂Y", "s", "d_out", GRADIENT), MatrixBlock("Wᵀ", "d_out", "d_in", WEIGHT),
                              MatrixBlock("∂X", "s", "d_in", GRADIENT))
        note = VGroup(words("结果往左", size="label", color=GRADIENT), words("交给前一层", size="label", color=GRADIENT),
                      formula("2·s·d_in·d_out FLOPs", size="small", color="muted")).arrange(DOWN, buff=theme.space("snug"))
        return self.cell("③ 反向 · 输入梯度", GRADIENT, product, "∂L/∂X = ∂L/∂Y · Wᵀ", note)

    # ---- Ⓑ two questions, two multiplies; one plus two ----

    def why_two(self) -> None:
        self.start_panel("B", "为什么反向是{threex.backward_matmuls_zh}次乘法？")
        questions = VGroup(words("我这块权重该怎么改？", size="body"),
                           words("我前面那一层该收到什么？", size="body")).arrange(DOWN, buff=0.7, aligned_edge=LEFT)
        questions.move_to([CARDS_X, 1.1, 0])
        answers = VGroup(formula("② ∂L/∂W = Xᵀ · ∂L/∂Y", size="body", color=GRADIENT),
                         formula("③ ∂L/∂X = ∂L/∂Y · Wᵀ", size="body", color=GRADIENT))
        for answer, question in zip(answers, questions):
            answer.move_to([TILES_X, question.get_y(), 0])
        arrows = VGroup(*[arrow(q.get_right(), a.get_left(), "muted", weight="bold", buff="medium")
                          for q, a in zip(questions, answers)])

        said = self.say(None, "不是因为它「比较慢」，是它要回答{threex.backward_matmuls_zh}个不同的问题")
        for question, link, answer in zip(questions, arrows, answers):
            self.play(FadeIn(question, shift=RIGHT * theme.space("close")), run_time=0.5)
            self.play(GrowArrow(link), FadeIn(answer), run_time=0.6)
            self.wait(0.5)

        forward_n = round(quantity("threex.forward_matmuls").value)
        backward_n = round(quantity("threex.backward_matmuls").value)
        tiles = TallyRow([("前向", forward_n, FORWARD), ("反向", backward_n, GRADIENT)]).move_to(UP * TALLY_Y)
        equation = tally([("前向", "threex.forward_matmuls"), ("反向", "threex.backward_matmuls", GRADIENT)],
                         total=("", "threex.train_over_inference"), size="heading")
        equation.next_to(tiles, DOWN, buff=theme.space("gap"))
        said = self.say(said, "{threex.backward_matmuls_zh}个问题，{threex.backward_matmuls_zh}次乘法 —— 每次都一样贵")
        self.play(ReplacementTransform(answers.copy(), tiles.groups[1]), FadeIn(tiles.groups[0]), run_time=0.9)
        self.play(Write(equation), run_time=0.7)
        self.wait(0.5)
        self.play(FadeOut(said), run_time=0.3)
        verdict = ledger_text("训练比推理贵{threex.train_over_inference_zh}倍 —— 数出来的，不是估的",
                              size="body", color="accent").to_edge(DOWN, buff=EDGE_BUFF)
        self.play(FadeIn(verdict, shift=UP * theme.space("close")), run_time=0.5)
        self.wait(2.0)
