"""fig-3x: the three matrix multiplies of one linear layer — why training costs three inferences (第一节).

Ⓐ One linear layer, three cells read one at a time (② and ③ wait as frames with gray titles):
   ① forward Y = X·W; ② the weight gradient, which uses the input kept from forward —
   「用前向存下来的输入」, the panel's largest words; ③ the input gradient, handed back; then the
   ⛔ hold: ② lit and framed, ③ stepped back, a still frame for three seconds.
Ⓑ Why backward is two multiplies: the question to the room, then each question brings Ⓐ's
   product that answers it (② with its teal Xᵀ, ③), each with its cost tag; each shrinks where it
   stands into a tile that keeps its tag; the tiles drop into a row and ① joins as the third,
   equal (the questions, answered, leave; the row rises to the middle): forward 1 + backward 2 = 3,
   bold, its 3 the largest text.
"""

from __future__ import annotations

from manim import (BOLD, DOWN, RIGHT, UP, AnimationGroup, FadeIn, FadeOut, FadeTransform, GrowArrow, MoveToTarget, VGroup,
                   VMobject, Write)

from lecture_numerics import quantity
from scenes.kit import marks, theme
from scenes.kit.arrows import arrow
from scenes.kit.base import LectureScene
from scenes.kit.matmul_widgets import MatmulCell, MatrixBlock, product_row
from scenes.kit.text import formula, line, words

# Panel Ⓐ: three cells across the frame (the frame is 14.2 × 8 units).
CELL_W, CELL_H, CELL_GAP = 4.35, 5.35, 0.15
CELLS_Y = -0.2
DIM = 0.85           # opacity of the cells not being read: stepped back, its coloured text still 4.5:1 on the fill
TITLE_INSET = 0.2    # the three titles on one baseline, this far under their frames' tops
WAITING = "muted"    # the titles of cells not yet read: gray at 4.5:1 or more on the panel fill
KEY_SCALE = 0.9      # the key phrase a little under title size: room above and below it in ②
NOTE_LIFT = 0.2      # how far ②'s note rises back toward its blocks
KEY_GAP = 0.22       # between the key phrase and the line that glosses it
# Panel Ⓑ: the two questions on the left, Ⓐ's two backward products they call for on the right;
# under them the tally, one tile per product, each keeping the product's cost tag.
QUESTIONS_X, PRODUCTS_X = -3.4, 3.1
ANSWER_ROWS_Y = (2.05, 0.45)
PRODUCT_SCALE = 0.8              # Ⓐ's blocks at this scale: a product row and its tag fit one row
TALLY_X, TALLY_Y = 0.0, -0.95
TALLY_RISE_TO = 0.15             # Ⓑ: once the questions leave, the tiles and the count rise to here (their centre)
PAYOFF_SIZE, PAYOFF_TOTAL_SIZE = "title", "key"   # 前向 1 ＋ 反向 2 ＝ 3, and its 3
TILE_W, TILE_H, TILE_FILL = 3.8, 0.95, 0.15   # wide enough for the cost tag, at Ⓐ's size
TILE_GAP, TILE_GROUP_GAP = 0.1, 0.35
TILE_NAME_LIFT, TILE_TAG_INSET = 0.2, 0.1

FORWARD, ACTIVATION, WEIGHT, GRADIENT = "ink", "activations", "weights", "gradients"
HANDED_DROP = 0.22               # how far under ③'s blocks the arrow handing ∂L/∂X back runs
KEPT_DROP = 0.2                  # how far under the lowest block the kept-input path runs
KEPT_TIP = 0.16                  # the kept path's arrowhead at Xᵀ: it arrives there, it does not leave
# 「用前向存下来的输入」 is the panel's largest text (storyboard): two lines at title size fit the cell.
KEY_PHRASE = ("用前向", "存下来的输入")
COST = "2·s·d_in·d_out FLOPs"    # one product's count: the same in all three cells


def cost_tag():
    """The FLOP count every cell shares, in ink at label size: at 4.5:1 or more on the panel
    fill even when its cell is dimmed, and its subscripts large enough to read."""
    return formula(COST, size="label", color="ink")


class Fig3x(LectureScene):
    scene_id = "fig-3x"
    title = "三次矩阵乘：训练为什么是推理的三倍"
    ledger_keys = ("threex.forward_matmuls", "threex.forward_matmuls_zh", "threex.backward_matmuls", "threex.backward_matmuls_zh",
                   "threex.train_over_inference", "threex.train_over_inference_zh")

    def construct(self) -> None:
        self.three_multiplies()
        self.why_two()

    # ---- Ⓐ one linear layer, three cells ----

    def three_multiplies(self) -> None:
        # Ⓐ has no speech of its own: its beats follow the cue's stage directions (a cell at a
        # time, a finger on ② for three seconds).
        self.start_panel("A", "一层线性层，训练时做{threex.train_over_inference_zh}次矩阵乘", says="放大 Ⓐ")
        cells = VGroup(self.forward_cell(), self.weight_grad_cell(), self.input_grad_cell())
        cells.arrange(RIGHT, buff=CELL_GAP).move_to(UP * CELLS_Y)
        forward, weight_grad, input_grad = cells
        # ② and ③ come in as frames with their headings only (dim): their products, and ②'s key
        # phrase, appear when each cell is read, so nothing is on screen before it is said.
        for cell in cells:
            self.top_align(cell)
        # ②'s note is the tallest: it takes back the room the kit leaves under the blocks (the
        # kept path runs there only as far as Xᵀ, left of the key phrase), to clear the frame's foot.
        weight_grad.note.shift(UP * NOTE_LIFT)
        for cell in (weight_grad, input_grad):
            cell.shade(0)
            cell.title.set_opacity(1).set_color(theme.text_color(WAITING))
        self.play(FadeIn(cells), run_time=0.6)
        self.wait(1.5)

        # The cells are read one at a time: ② with the input kept from forward, then ③.
        self.beat(says="一格一格念")
        kept = self.kept_arrow(forward.product, weight_grad.product)
        self.light(weight_grad, dim=forward)
        self.play(FadeIn(kept), run_time=0.6)
        self.wait(1.0)

        self.beat(says="那三次矩阵乘")
        handed = self.handed_arrow(input_grad.product)
        self.light(input_grad, dim=weight_grad)
        self.play(GrowArrow(handed), run_time=0.5)
        self.wait(1.0)

        # ⛔ The finger goes back to ② for three seconds: ② lit and framed, ③ stepped back; a
        # held frame, nothing moves.
        self.beat(says="第②格那句「用前向存下来的输入」—— 用手指着它多停三秒")
        ring = self.ring(weight_grad, "accent")
        self.play(FadeIn(ring), weight_grad.animate.shade(1), input_grad.animate.shade(DIM), run_time=0.6)
        self.wait(3.0)

    @staticmethod
    def ring(cell: MatmulCell, color: str) -> VMobject:
        return marks.frame_around(cell.frame, color, pad="hair", weight="heavy")

    @staticmethod
    def top_align(cell: MatmulCell) -> None:
        """Move the cell's contents up so its title stands TITLE_INSET under the frame's top:
        the three titles share one baseline whatever each cell holds."""
        contents = VGroup(cell.title, cell.expression, cell.product, cell.note)
        contents.shift(UP * (cell.frame.get_top()[1] - TITLE_INSET - cell.title.get_top()[1]))

    def light(self, cell: MatmulCell, dim: MatmulCell | None = None) -> None:
        cell.generate_target()
        cell.target.shade(1)
        cell.target.title.set_color(theme.text_color(GRADIENT))
        anims = [MoveToTarget(cell)]
        if dim is not None:
            anims.append(dim.animate.shade(DIM))
        self.play(*anims, run_time=0.5)
        cell.title.set_color(theme.text_color(GRADIENT))   # the transform colours glyphs; the title itself too

    @staticmethod
    def handed_arrow(row: VGroup) -> VMobject:
        """∂L/∂X handed on to the layer before: out of ∂X's left edge and leftwards, under the
        row's blocks (never over ∂Y or Wᵀ)."""
        result = row[-1]
        y = row.get_bottom()[1] - HANDED_DROP
        return arrow([result.get_left()[0], y, 0], [row.get_left()[0], y, 0], GRADIENT, weight="bold", buff=None)

    def kept_arrow(self, source_row: VGroup, target_row: VGroup) -> VMobject:
        """The dotted "kept from forward" path from X in cell ① to Xᵀ in cell ②: down from X,
        under every block of both rows (never through Y), and up into Xᵀ."""
        floor = min(source_row.get_bottom()[1], target_row.get_bottom()[1]) - KEPT_DROP
        start = source_row[0].get_bottom() + DOWN * theme.space("hair")
        end = target_row[0].get_bottom() + DOWN * theme.space("hair")
        path = marks.polyline([start, [start[0], floor, 0], [end[0], floor, 0]], ACTIVATION, weight="bold", dashed=True)
        tip = arrow([end[0], floor, 0], end, ACTIVATION, weight="bold", buff=None, max_tip=KEPT_TIP)
        return VGroup(path, tip)

    @staticmethod
    def cell(title: str, color: str, product: VGroup, expression: str, note) -> MatmulCell:
        return MatmulCell(words(title, size="label", color=color), product, formula(expression, size="label"),
                          note, width=CELL_W, height=CELL_H)

    def forward_cell(self) -> MatmulCell:
        product = product_row(MatrixBlock("X", "s", "d_in", ACTIVATION), MatrixBlock("W", "d_in", "d_out", WEIGHT),
                              MatrixBlock("Y", "s", "d_out", FORWARD))
        note = VGroup(line("推理也只做这{threex.forward_matmuls_zh}次", size="label"),
                      cost_tag()).arrange(DOWN, buff=theme.space("snug"))
        return self.cell("① 前向", FORWARD, product, "Y = X · W", note)

    def weight_grad_cell(self) -> MatmulCell:
        product = product_row(MatrixBlock("Xᵀ", "d_in", "s", ACTIVATION),
                              MatrixBlock("∂Y", "s", "d_out", GRADIENT), MatrixBlock("∂W", "d_in", "d_out", GRADIENT))
        key = VGroup(*(words(part, size="title", color=ACTIVATION) for part in KEY_PHRASE))
        key.arrange(DOWN, buff=theme.space("fine")).scale(KEY_SCALE)
        gloss = words("X 是激活", size="small", color=ACTIVATION)
        note = VGroup(key, gloss, cost_tag()).arrange(DOWN, buff=theme.space("snug"))
        key.shift(UP * (KEY_GAP - theme.space("snug")))
        return self.cell("② 权重梯度", GRADIENT, product, "∂L/∂W = Xᵀ · ∂L/∂Y", note)

    def input_grad_cell(self) -> MatmulCell:
        product = product_row(MatrixBlock("∂Y", "s", "d_out", GRADIENT), MatrixBlock("Wᵀ", "d_out", "d_in", WEIGHT),
                              MatrixBlock("∂X", "s", "d_in", GRADIENT))
        note = VGroup(words("结果往左", size="label", color=GRADIENT), words("交给前一层", size="label", color=GRADIENT),
                      cost_tag()).arrange(DOWN, buff=theme.space("snug"))
        return self.cell("③ 输入梯度", GRADIENT, product, "∂L/∂X = ∂L/∂Y · Wᵀ", note)

    # ---- Ⓑ two questions, two multiplies; one plus two ----

    def why_two(self) -> None:
        # The question is put to the room alone; each later question brings Ⓐ's cell that answers it.
        self.start_panel("B", "为什么反向是{threex.backward_matmuls_zh}次，不是{threex.forward_matmuls_zh}次？",
                         says="为什么反向是两次，不是一次？")
        questions = VGroup(words("我这块权重该怎么改？", size="body"),
                           words("我前面那一层该收到什么？", size="body"))
        answers = VGroup(self.weight_grad_product(), self.input_grad_product())
        for question, answer, y in zip(questions, answers, ANSWER_ROWS_Y):
            question.move_to([QUESTIONS_X, y, 0])
            answer.move_to([PRODUCTS_X, y, 0])
        links = VGroup(*[arrow(q.get_right(), a.get_left(), "muted", weight="bold", buff="medium")
                         for q, a in zip(questions, answers)])

        self.beat(says="不是因为它「比较慢」。是因为它要回答两个不同的问题",
                  takeaway="不是因为它「比较慢」：它要回答{threex.backward_matmuls_zh}个不同的问题")

        # Each question brings its own product, as Ⓐ drew it (② with the teal X kept from forward).
        for question, link, answer, says in zip(questions, links, answers,
                                                ("一，我这块权重该怎么改", "二，我前面那一层该收到什么")):
            self.beat(says=says)
            self.play(FadeIn(question, shift=RIGHT * theme.space("close")), run_time=0.5)
            self.play(GrowArrow(link), run_time=0.5)
            self.play(FadeIn(answer), run_time=0.5)

        forward_tile, backward_tiles = self.tally_tiles()
        in_place = [tile.copy().move_to(answer) for tile, answer in zip(backward_tiles, answers)]
        self.beat(says="两个问题，两次乘法")
        # Each product shrinks, where it stands, into a tile that keeps its cost tag: two equal tiles.
        self.play(*(self.into_tile(answer, tile) for answer, tile in zip(answers, in_place)), run_time=1.2)

        self.beat(says="所以一加二等于三")
        # The two tiles drop into the tally row (the questions, answered, leave: each tile now
        # stands for its answer); Ⓐ's ① joins them as the third, its tag the same.
        # One at a time, so they never overlap on the way: the lower (③) straight to its slot, then
        # the upper (②) across above it to over its slot, and down into it.
        (upper, upper_slot), (lower, lower_slot) = ((VGroup(moved, answer.tag), tile) for moved, answer, tile
                                                    in zip(in_place, answers, backward_tiles))
        self.play(FadeOut(links), FadeOut(questions),
                  lower.animate.shift(lower_slot.get_center() - lower[0].get_center()), run_time=0.6)
        self.play(upper.animate.shift(RIGHT * (upper_slot.get_x() - upper[0].get_x())), run_time=0.4)
        self.play(upper.animate.shift(UP * (upper_slot.get_y() - upper[0].get_y())), run_time=0.4)
        forward = self.forward_product().move_to(forward_tile)
        self.play(FadeIn(forward), run_time=0.5)
        self.play(self.into_tile(forward, forward_tile), run_time=0.9)
        # The count is the payoff: bold, larger than the line under it, its 3 the largest of all;
        # the row and the count rise to the middle of the room the questions left.
        row = VGroup(forward_tile, *(VGroup(moved, answer.tag) for moved, answer in zip(in_place, answers)), forward.tag)
        equation = self.payoff()
        equation.next_to(row, DOWN, buff=theme.space("wide"))
        tally_block = VGroup(row, equation)
        self.play(tally_block.animate.move_to([TALLY_X, TALLY_RISE_TO, 0]), run_time=0.6)
        self.play(Write(equation), run_time=0.8)

        # ⭐⭐ the figure's key line takes the place of B.2's, in the figure's own wording (训练是推理的三倍).
        self.beat(says="训练比推理贵三倍，就是这么数出来的，不是估的",
                  takeaway="训练是推理的{threex.train_over_inference_zh}倍 —— 数出来的，不是估的", replaces=True)

    @staticmethod
    def payoff() -> VGroup:
        """前向 1 ＋ 反向 2 ＝ 3 in bold, the 3 set larger still: the line the panel adds up to."""
        def term(template: str, role: str = FORWARD, size: str = PAYOFF_SIZE):
            return line(template, size=size, color=role, weight=BOLD)

        row = VGroup(term("前向 {threex.forward_matmuls}"), term("＋", "muted"),
                     term("反向 {threex.backward_matmuls}", GRADIENT), term("＝", "muted"),
                     term("{threex.train_over_inference}", size=PAYOFF_TOTAL_SIZE))
        return row.arrange(RIGHT, buff=theme.space("medium"))

    @staticmethod
    def tagged(number: str, product: VGroup) -> VGroup:
        """A product as Ⓐ drew it, with its cell number before it and its cost tag under it."""
        mark = words(number, size="body", color="muted")
        row = VGroup(mark, product.scale(PRODUCT_SCALE)).arrange(RIGHT, buff=theme.space("small"))
        body = VGroup(row, cost_tag()).arrange(DOWN, buff=theme.space("snug"))
        body.mark, body.blocks, body.tag = mark, product, body[1]
        return body

    def forward_product(self) -> VGroup:
        return self.tagged("①", product_row(MatrixBlock("X", "s", "d_in", ACTIVATION),
                                            MatrixBlock("W", "d_in", "d_out", WEIGHT),
                                            MatrixBlock("Y", "s", "d_out", FORWARD)))

    def weight_grad_product(self) -> VGroup:
        return self.tagged("②", product_row(MatrixBlock("Xᵀ", "d_in", "s", ACTIVATION),
                                            MatrixBlock("∂Y", "s", "d_out", GRADIENT),
                                            MatrixBlock("∂W", "d_in", "d_out", GRADIENT)))

    def input_grad_product(self) -> VGroup:
        return self.tagged("③", product_row(MatrixBlock("∂Y", "s", "d_out", GRADIENT),
                                            MatrixBlock("Wᵀ", "d_out", "d_in", WEIGHT),
                                            MatrixBlock("∂X", "s", "d_in", GRADIENT)))

    @staticmethod
    def tally_tiles() -> tuple[VGroup, list[VGroup]]:
        """One tile per product, as many as the ledger counts: 前向 (ink), then 反向 (red).
        Each tile holds its name; the product's cost tag comes in with the product."""
        forward_n = round(quantity("threex.forward_matmuls").value)
        backward_n = round(quantity("threex.backward_matmuls").value)

        def tile(name: str, role: str) -> VGroup:
            box = marks.box(TILE_W, TILE_H, role, weight="regular", fill_opacity=TILE_FILL)
            label = words(name, size="label", color=role).move_to(box).shift(UP * TILE_NAME_LIFT)
            group = VGroup(box, label)
            group.box, group.name = box, label
            return group

        forwards = [tile("前向", FORWARD) for _ in range(forward_n)]
        backwards = [tile("反向", GRADIENT) for _ in range(backward_n)]
        row = VGroup(VGroup(*forwards).arrange(RIGHT, buff=TILE_GAP),
                     VGroup(*backwards).arrange(RIGHT, buff=TILE_GAP)).arrange(RIGHT, buff=TILE_GROUP_GAP)
        row.move_to([TALLY_X, TALLY_Y, 0])
        return forwards[0], backwards

    @staticmethod
    def into_tile(product: VGroup, tile: VGroup):
        """The product's blocks shrink into the tile (a cross-fade while they move: no glyph is
        morphed into another); its cost tag settles inside, under the name."""
        tag_at = tile.box.get_bottom() + UP * (TILE_TAG_INSET + product.tag.height / 2)
        return AnimationGroup(FadeOut(product.mark), FadeTransform(product.blocks, tile.box), FadeIn(tile.name),
                              product.tag.animate.move_to(tag_at))
