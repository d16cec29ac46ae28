"""fig-circuit: a circuit small enough to check by eye (第一节).

Ⓐ f = (a + b) × c: the forward pass in black, sentence by sentence; then the backward pass in
   red, gate by gate (its own line replaces the forward one), each question to the room on its
   own beat before its answer. The multiply gate's swap is drawn as two ink arrows (they carry
   forward values), which leave when the add gate is read; the add gate's copies are red arrows
   (b's bowed under b's lead), named 原样分 at the gate; the swap's ⭐ line moves onto the picture
   (换过来 at the × gate) and the add gate's own line stands alone at the bottom.
Ⓑ The three gate temperaments: add distributes, multiply swaps, max routes — one beat each,
   the temperament's name in bold ink (red stays 梯度).
Ⓒ The multiply gate needed q from the forward pass (the moving ball runs from q round to c's
   gradient), so q cannot be thrown away; the same gate,
   small, tiled many times over, is the activation bill.
"""

from __future__ import annotations

import numpy as np
from manim import (BOLD, DOWN, LEFT, RIGHT, UP, Circle, Circumscribe, Create, FadeIn, FadeOut, GrowArrow, Indicate,
                   LaggedStart, MoveAlongPath, ShowPassingFlash, TransformFromCopy, VGroup, Write, config)

from scenes.kit import marks, theme
from scenes.kit.arrows import arrow, curved_arrow
from scenes.kit.base import LectureScene
from scenes.kit.circuit_widgets import (GateCard, GateDiagram, Wire, forward_label, gate_card, gate_field,
                                        gate_node, gradient_label, toward, value_glyphs)
from scenes.kit.panels import EDGE_BUFF
from scenes.kit.text import formula, ledger_text, words

# Panel Ⓐ geometry (scene units; the frame is 14.2 × 8; content stays above the takeaways).
INPUT_X, RUN_END_X = -6.3, -3.8
ADD_AT, MUL_AT = np.array([-2.6, 1.55, 0]), np.array([2.0, 0.25, 0])
A_Y, B_Y, C_Y = 2.4, 0.7, -1.0    # high enough that three takeaway lines clear c's gradient
OUTPUT_END_X = 5.6
LEGEND_AT = np.array([5.0, -1.1, 0])
POP, LOSER_OPACITY = 1.3, 0.5          # a number that arrives grows from this scale; the unused branch dims
SWAP_ARC, CROSS_ARC, LOOP_ARC = 1.0, 1.2, 2.0   # arcs the copied numbers travel along
# Ⓐ's drawn swap: c's arrow bows a little to the left, q's wide to the right, so the two
# never cross and q's meets the wires well clear of the labels.
SWAP_UP_ARC, SWAP_DOWN_ARC = 0.5, 1.5
COPY_CLEAR = "tight"                   # the add gate's copy arrows stop this far from gate rim and numbers
B_COPY_ARC = 0.6                       # b's copy arrow bows down this much (radians), under b's lead
SPLIT_NAME_LIFT = 0.3                  # 「原样分」 / 「换过来」 stand this far above their gate
SWAP_NAME_RIGHT = "medium"             # 「换过来」 leans right of the × gate, clear of q's wire
BRANCH_BACK = 1.3                      # the gradient branches end this far left of the × gate
FLASH_WIDTH = 0.6
VERDICT_DROP = 0.6
PICTURE_LIFT = 0.45   # Ⓒ: the gate this much higher, clear of the two-line ⭐⭐⭐ takeaway
BILL_LIFT = 0.5       # Ⓒ: the bill's tiles above the frame's middle, its name clear of that takeaway
BILL_ROWS, BILL_COLS, BILL_GROW = 4, 5, 0.5
# Ⓒ's lone × gate
GATE_GAP, GATE_IN_RUN, GATE_BEND, GATE_OUT_RUN, GATE_RADIUS, GATE_LEFT = 2.4, 2.3, 0.6, 1.8, 0.55, 1.4


class FigCircuit(LectureScene):
    scene_id = "fig-circuit"
    title = "小电路：前向黑字，反向红字"
    ledger_keys = (
        "circuit.a", "circuit.b", "circuit.c", "circuit.q", "circuit.f",
        "circuit.grad_f", "circuit.grad_c", "circuit.grad_q", "circuit.grad_a", "circuit.grad_b",
        "circuit.gates.x", "circuit.gates.y",
        "circuit.add.upstream", "circuit.add.out", "circuit.add.grad_x", "circuit.add.grad_y",
        "circuit.mul.upstream", "circuit.mul.out", "circuit.mul.grad_x", "circuit.mul.grad_y",
        "circuit.max.upstream", "circuit.max.out", "circuit.max.grad_x", "circuit.max.grad_y",
        "circuit.gate_repeats", "circuit.temperaments",
    )

    def construct(self) -> None:
        self.walk_the_circuit()
        self.three_temperaments()
        self.why_q_stays()

    # ---- Ⓐ forward in black, backward in red ----

    def walk_the_circuit(self) -> None:
        self.start_panel("A", "一个能用眼睛验的小电路", says="看这个式子：f 等于 a 加 b，再乘 c")
        expression = formula("f = (a + b) × c", size="heading").to_corner(UP + RIGHT, buff=EDGE_BUFF)
        add, mul = gate_node("+").move_to(ADD_AT), gate_node("×").move_to(MUL_AT)
        wires = self.circuit_wires(add, mul)
        names = self.input_names()
        black_key, red_key = self.legend()
        self.play(FadeIn(expression), run_time=0.5)
        self.play(Create(VGroup(*wires.values())), FadeIn(add), FadeIn(mul), FadeIn(names), FadeIn(black_key),
                  run_time=0.9)

        # Forward: only the black numbers, left to right, a sentence at a time.
        black = {n: wires[n].above(forward_label(n, f"circuit.{n}", size="heading")) for n in "abcqf"}
        self.beat(says="a 是 2，b 是负 3，加起来 q 等于负 1")
        self.play(Write(black["a"]), Write(black["b"]), run_time=0.6)
        self.play(self.flow(wires["q"]), Write(black["q"]), run_time=0.8)
        self.beat(says="q 再乘 c 等于 4 —— f 等于负 4")
        self.play(Write(black["c"]), run_time=0.4)
        self.play(self.flow(wires["f"]), Write(black["f"]), run_time=0.8)
        self.beat(says="这就是前向，从左往右一遍走完", takeaway="前向：从左往右一遍走完")

        # Backward: from the far right, one gate at a time, in red; each question gets a beat
        # of its own so the room can think before the number comes.
        red = {n: wires[n].below(gradient_label(f"circuit.grad_{n}", size="heading")) for n in "abcqf"}
        # The backward walk has its own line: the forward one gives it its place.
        self.beat(says="反向从最右边起步，f 对自己的梯度是 1",
                  takeaway="反向：从最右边起步，一个门一个门往回走", replaces=True)
        self.play(FadeIn(red_key), FadeIn(red["f"], scale=POP), run_time=0.6)
        for asked, source, arc, question, answer in (
                ("c", "q", SWAP_ARC, "先看乘法门。c 的梯度是多少？", "是 q，也就是负 1"),
                ("q", "c", -SWAP_ARC, "q 的梯度是多少？", "是 c，也就是 4")):
            # The question holds a red ？ where the answer will stand, the answer replaces it.
            self.beat(says=question)
            pending = words("？", size="heading", color="backward").move_to(red[asked])
            self.play(self.spotlight(mul), FadeIn(pending), run_time=0.8)
            self.beat(says=answer)
            self.play(FadeOut(pending), TransformFromCopy(value_glyphs(black[source]), red[asked], path_arc=arc),
                      run_time=1.0)
        # ⭐ the swap: the walk's opening line steps back, so the new one leads.
        self.beat(says="看出来了吗 —— 它俩换过来了", takeaway="乘法门：它俩换过来了")
        swap = self.draw_swap(black, red)
        self.play(*self.dim_takeaways(), run_time=0.3)
        # The add gate: its copies drawn, named 原样分 at the gate, and its own line alone at the
        # bottom. The swap's arrows leave (nothing lands where the copies start) and its ⭐ line
        # goes onto the picture, 换过来 at the × gate, so each gate wears its rule and no ladder
        # of said lines stands over the add gate's.
        self.beat(says="再看加法门：上游给了 4，a 和 b 各拿走 4，原样分", takeaway="加法门：原样分给两边")
        swapped = words("换过来", size="heading", color="ink", weight=BOLD).next_to(mul, UP, buff=SPLIT_NAME_LIFT)
        swapped.shift(RIGHT * theme.space(SWAP_NAME_RIGHT))
        self.play(FadeOut(swap), *self.clear_takeaways(), run_time=0.4)
        self.play(FadeIn(swapped, shift=DOWN * theme.space("close")), run_time=0.5)
        self.play(self.spotlight(add), run_time=0.6)
        self.copy_through(add, red)
        as_is = words("原样分", size="heading", color="ink", weight=BOLD).next_to(add, UP, buff=SPLIT_NAME_LIFT)
        self.play(FadeIn(as_is, shift=DOWN * theme.space("close")), run_time=0.5)

    def draw_swap(self, black: dict, red: dict) -> VGroup:
        """The swap drawn as two arrows that never cross, each from a forward value to the other
        input's gradient: c's 4 up, from above 「c = 4」 and bowed left, to q's gradient; q's −1
        down, from the right end of 「q = −1」 and bowed wide to the right, round to c's gradient.
        They carry forward values, so they are ink (red is for gradients). The values already
        travelled (A.7, A.9); here only the arrows are drawn, so no copy flies across a label."""
        gap = theme.space("tight")
        up = curved_arrow(black["c"].get_top() + UP * gap, red["q"].get_bottom() + DOWN * gap,
                          "ink", arc=-SWAP_UP_ARC)
        down = curved_arrow(black["q"].get_right() + RIGHT * gap, red["c"].get_right() + RIGHT * gap,
                            "ink", arc=-SWAP_DOWN_ARC)
        self.play(Create(up), Create(down), run_time=1.2)
        self.play(Indicate(red["c"], color=theme.color("backward")),
                  Indicate(red["q"], color=theme.color("backward")), run_time=0.7)
        return VGroup(up, down)

    def copy_through(self, add, red: dict) -> None:
        """The add gate copies: q's 4 runs back into the gate, and one red arrow leaves it for
        each input, ending at the 4 it hands over (the copies fly along them)."""
        into = arrow(red["q"].get_left(), toward(add, red["q"].get_left()), "backward", weight="bold", buff=COPY_CLEAR)
        gap = theme.space(COPY_CLEAR)
        # a's 4 is reached in a straight line under a's lead; b's 4 sits under b's wire, so its
        # arrow leaves the gate's foot and bows down, under b's lead instead of across it.
        to_a = arrow(toward(add, red["a"].get_right()), red["a"].get_right(), "backward", weight="bold", buff=COPY_CLEAR)
        to_b = curved_arrow(add.get_bottom() + DOWN * gap, red["b"].get_right() + RIGHT * gap, "backward",
                            arc=-B_COPY_ARC, weight="bold")
        out = [to_a, to_b]
        self.play(GrowArrow(into), run_time=0.4)
        self.play(GrowArrow(to_a), Create(to_b), TransformFromCopy(red["q"], red["a"]),
                  TransformFromCopy(red["q"], red["b"]), run_time=1.0)

    def flow(self, wire: Wire):
        """A pulse running along a wire in the direction of the pass."""
        return ShowPassingFlash(wire.copy().set_color(theme.color("accent")), time_width=FLASH_WIDTH)

    def spotlight(self, node):
        """Ring the gate whose backward rule is being read."""
        return Circumscribe(node, shape=Circle, color=theme.color("accent"), buff=theme.space("fine"))

    def circuit_wires(self, add, mul) -> dict[str, Wire]:
        input_run = {n: (np.array([INPUT_X, y, 0]), np.array([RUN_END_X, y, 0])) for n, y in
                     (("a", A_Y), ("b", B_Y))}
        wires = {n: Wire(s, e, lead_to=toward(add, e)) for n, (s, e) in input_run.items()}
        q_end = np.array([MUL_AT[0] - BRANCH_BACK, ADD_AT[1], 0])
        wires["q"] = Wire(add.get_right(), q_end, lead_to=toward(mul, q_end))
        c_end = np.array([MUL_AT[0] - BRANCH_BACK, C_Y, 0])
        wires["c"] = Wire(np.array([INPUT_X, C_Y, 0]), c_end, lead_to=toward(mul, c_end))
        wires["f"] = Wire(mul.get_right(), np.array([OUTPUT_END_X, MUL_AT[1], 0]))
        return wires

    def input_names(self) -> VGroup:
        """a, b, c at the wires' left ends and f at the output, as on the whiteboard."""
        spots = {"a": (INPUT_X, A_Y), "b": (INPUT_X, B_Y), "c": (INPUT_X, C_Y)}
        names = [formula(n, size="heading").next_to(np.array([x, y, 0]), LEFT, buff=theme.space("small"))
                 for n, (x, y) in spots.items()]
        names.append(formula("f", size="heading").next_to(np.array([OUTPUT_END_X, MUL_AT[1], 0]), RIGHT, buff=theme.space("small")))
        return VGroup(*names)

    def legend(self) -> tuple[VGroup, VGroup]:
        """黑字 / 红字, each brought in when its numbers are: red is not mentioned on the way forward."""
        keys = VGroup(words("黑字：前向值", size="label"),
                      words("红字：梯度", size="label", color="backward")).arrange(DOWN, aligned_edge=LEFT)
        keys.move_to(LEGEND_AT)
        return keys[0], keys[1]

    # ---- Ⓑ three temperaments ----

    def three_temperaments(self) -> None:
        self.start_panel("B", "常见的门就{circuit.temperaments}种脾气", says="所以常见的门就三种脾气，记脾气比记公式管用")
        cards = {gate: gate_card(symbol, self.gate_keys(gate), title, temperament, rule)
                 for gate, symbol, title, temperament, rule in (
                     ("add", "+", "加法门", "分发器", ("上游给多少，", "两边原样各拿一份")),
                     ("mul", "×", "乘法门", "交换器", ("各自拿", "对方的前向值")),
                     ("max", "max", "max 门", "路由器", ("全给赢的那个，", "输的拿{circuit.max.grad_y}")))}
        row = VGroup(*[card.group for card in cards.values()]).arrange(RIGHT, buff=theme.space("wide"))
        top = config.frame_height / 2 - 1.1     # under the header
        row.move_to([0, (top - config.frame_height / 2) / 2, 0])
        self.play(*[FadeIn(VGroup(c.title, c.diagram, *c.black.values())) for c in cards.values()], run_time=1.0)
        temperaments = {"add": self.distribute, "mul": self.swap, "max": self.route}
        for (gate, card), says in zip(cards.items(), ("加法门是个分发器 —— 上游给多少，两边原样各拿一份",
                                                      "乘法门是个交换器 —— 各自拿对方的前向值",
                                                      "max 门是个路由器 —— 全给赢的那个，输的拿零")):
            self.beat(says=says)
            self.play(Write(card.temperament), FadeIn(card.upstream, scale=POP), run_time=0.6)
            self.play(*temperaments[gate](card), FadeIn(card.rule), run_time=1.0)

    @staticmethod
    def gate_keys(gate: str) -> dict[str, str]:
        return {"x": "circuit.gates.x", "y": "circuit.gates.y",
                **{part: f"circuit.{gate}.{part}" for part in ("out", "upstream", "grad_x", "grad_y")}}

    def distribute(self, card: GateCard):
        """Add gate: the upstream gradient is copied to both inputs."""
        sent = card.upstream[0]
        return [TransformFromCopy(sent, card.grads["x"]), TransformFromCopy(sent, card.grads["y"])]

    def swap(self, card: GateCard):
        """Multiply gate: each input's gradient is the other input's forward value."""
        return [TransformFromCopy(value_glyphs(card.black["y"]), card.grads["x"], path_arc=CROSS_ARC),
                TransformFromCopy(value_glyphs(card.black["x"]), card.grads["y"], path_arc=CROSS_ARC)]

    def route(self, card: GateCard):
        """Max gate: all of it to the winner (x here), zero to the loser."""
        winner, loser = card.diagram.wires["x"], card.diagram.wires["y"]
        return [TransformFromCopy(card.upstream[0], card.grads["x"]), FadeIn(card.grads["y"]),
                winner.animate.set_color(theme.color("backward")),
                loser.animate.set_color(theme.color("muted")).set_opacity(LOSER_OPACITY)]

    # ---- Ⓒ why q stays ----

    def why_q_stays(self) -> None:
        self.start_panel("C", "再看一眼乘法门", says="再看一眼乘法门。算 c 的梯度，我用到了 q")
        gate, black, red = self.mul_gate_again()
        self.play(FadeIn(gate), *[FadeIn(m) for m in (*black.values(), *red.values())], run_time=0.8)
        kept = marks.frame_around(black["q"], "activations", pad="snug", weight="heavy")
        # The arrow bends round the wires' left ends so it crosses no label.
        uses = curved_arrow(kept.get_left() + LEFT * theme.space("tight"), red["c"].get_left() + LEFT * theme.space("tight"),
                            "ink", arc=LOOP_ARC, weight="bold")
        # q is used here, a forward value carried (ink, like Ⓐ's swap arrows); it turns the
        # activations' colour only once it is called a value that must be kept (the next two sentences).
        # What travels is the moving ball, along the arrow itself (from beside the box, round the
        # wires' ends): no copy of 「−1」 passes over 「q = −1」 or lands on c's gradient.
        ride = marks.travel_path(uses.get_start(), uses.get_end(), angle=LOOP_ARC)
        rider = marks.dot(ride.get_start(), "accent", size="ball")
        self.play(Create(uses), MoveAlongPath(rider, ride), run_time=1.0)
        self.play(FadeOut(rider), Indicate(red["c"], color=theme.color("backward")), run_time=0.5)

        self.beat(says="而 q 是前向算出来的")
        origin = words("前向算出来的", size="label", color="activations").next_to(kept, RIGHT, buff=theme.space("close"))
        self.play(Create(kept), FadeIn(origin, shift=LEFT * theme.space("close")), run_time=0.6)

        self.beat(says="—— 所以 q 不能扔")
        # At heading size, under the ⭐⭐⭐ takeaway's: the panel's sentence stays its largest text.
        verdict = words("q 不能扔", size="heading", color="activations").next_to(gate, DOWN, buff=VERDICT_DROP)
        self.play(Write(verdict), run_time=0.7)

        self.beat(says="把这一个门乘以几百亿次，就是我们后面要算的那张「激活」账单")
        # The bill is this same gate, small, over and over: each tile keeps its own q.
        bill = gate_field(rows=BILL_ROWS, cols=BILL_COLS).to_edge(RIGHT, buff=theme.space("wide")).shift(UP * BILL_LIFT)
        times = ledger_text("× {circuit.gate_repeats}次", size="heading").next_to(bill, UP, buff=theme.space("gap"))
        bill_name = words("=「激活」账单", size="heading", color="activations").next_to(bill, DOWN, buff=theme.space("gap"))
        # The tiles first, then what they count and what they add up to.
        self.play(LaggedStart(*[FadeIn(g, scale=BILL_GROW) for g in bill], lag_ratio=0.03), run_time=1.3)
        self.play(FadeIn(times), run_time=0.5)
        self.play(Write(bill_name), run_time=0.5)

        self.beat(says="激活不是框架顺手缓存的东西。是反向的数学，要求它在场",
                  takeaway="激活不是框架顺手缓存的东西，是反向的数学要求它在场")

    def mul_gate_again(self):
        """Ⓐ's multiply gate on its own, all its black and red numbers in place."""
        diagram = GateDiagram("×", gap=GATE_GAP, in_run=GATE_IN_RUN, bend=GATE_BEND, out_run=GATE_OUT_RUN, radius=GATE_RADIUS)
        diagram.to_edge(LEFT, buff=GATE_LEFT).shift(UP * (theme.space("large") + PICTURE_LIFT))
        w = diagram.wires
        black = {n: w[wire].above(forward_label(n, f"circuit.{n}", size="heading")) for n, wire in
                 (("q", "x"), ("c", "y"), ("f", "out"))}
        red = {n: w[wire].below(gradient_label(f"circuit.grad_{n}", size="heading")) for n, wire in
               (("q", "x"), ("c", "y"), ("f", "out"))}
        return diagram, black, red
