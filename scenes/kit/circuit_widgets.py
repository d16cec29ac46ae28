"""Circuit pieces for the gate walkthroughs: gate nodes, labelled wires, a one-gate diagram.

Convention (the notes' 黑字/红字): a wire's forward value sits above its straight run in
ink, its gradient below in the backward colour. Widgets only place what they are handed;
the numbers come from the ledger through scenes.kit.text.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import BOLD, DOWN, LEFT, ORIGIN, RIGHT, UP, Mobject, Text, VGroup

from scenes.kit import marks
from scenes.kit.text import formula, ledger_text, line, number, words

WIRE_WEIGHT = "bold"
TILE_WEIGHT = "thin"     # a thumbnail gate: strokes light enough to read as texture
LABEL_BUFF = 0.16


def gate_node(symbol: str, radius: float = 0.45, *, size: str = "heading") -> VGroup:
    """A round gate with its operation written inside (+, ×, max)."""
    ring = marks.ring(ORIGIN, "ink", radius=radius, weight=WIRE_WEIGHT, fill="panel", fill_opacity=1)
    mark = formula(symbol, size=size)
    if len(symbol) == 1:
        mark.scale_to_fit_width(0.8 * radius)   # + and × otherwise draw at different sizes
    elif mark.width > 1.5 * radius:
        mark.scale_to_fit_width(1.5 * radius)
    return VGroup(ring, mark.move_to(ring))


def toward(node: Mobject, point) -> np.ndarray:
    """The point on a round node's rim facing ``point``."""
    center = node.get_center()
    direction = np.asarray(point, dtype=float) - center
    return center + direction / np.linalg.norm(direction) * (node.width / 2)


class Wire(VGroup):
    """A straight labelled run plus optional leads into/out of gates."""

    def __init__(self, run_start, run_end, *, lead_to=None, lead_from=None) -> None:
        self.run = marks.segment(run_start, run_end, "ink", weight=WIRE_WEIGHT)
        parts = [self.run]
        if lead_from is not None:
            parts.insert(0, marks.segment(lead_from, run_start, "ink", weight=WIRE_WEIGHT))
        if lead_to is not None:
            parts.append(marks.segment(run_end, lead_to, "ink", weight=WIRE_WEIGHT))
        super().__init__(*parts)

    def above(self, label: Mobject) -> Mobject:
        """Put ``label`` (a forward value) above the run."""
        return label.next_to(self.run, UP, buff=LABEL_BUFF)

    def below(self, label: Mobject) -> Mobject:
        """Put ``label`` (a gradient) below the run."""
        return label.next_to(self.run, DOWN, buff=LABEL_BUFF)


def forward_label(name: str, key: str, *, size: str = "body") -> Text:
    """``name = value`` in ink, e.g. ``q = −1``."""
    return ledger_text(f"{name} = {{{key}}}", size=size, color="ink")


def forward_value(key: str, *, size: str = "body") -> Text:
    """A forward value without a name (a gate's output), in ink."""
    return number(key, size=size, color="ink")


def gradient_label(key: str, *, size: str = "body") -> Text:
    """A gradient: the bare number in the backward colour."""
    return number(key, size=size, color="backward")


def value_glyphs(label: Text) -> VGroup:
    """The glyphs of the number at the end of a ``name = value`` label (to fly them)."""
    shown = label.text.split("=")[-1]
    count = len([ch for ch in shown if not ch.isspace()])
    return VGroup(*label.submobjects[-count:])


class GateDiagram(VGroup):
    """One gate: inputs ``x`` (upper) and ``y`` (lower) from the left, output to the right.

    ``wires["x" | "y" | "out"]`` are :class:`Wire` objects, ``node`` the gate.
    """

    def __init__(self, symbol: str, *, gap: float = 1.7, in_run: float = 1.5, bend: float = 0.5,
                 out_run: float = 1.5, radius: float = 0.42, symbol_size: str = "heading") -> None:
        self.node = gate_node(symbol, radius, size=symbol_size)
        run_end_x = -(radius + bend)
        self.wires: dict[str, Wire] = {}
        for name, sign in (("x", 1), ("y", -1)):
            end = np.array([run_end_x, sign * gap / 2, 0.0])
            start = end + LEFT * in_run
            self.wires[name] = Wire(start, end, lead_to=toward(self.node, end))
        out_start = self.node.get_right()
        self.wires["out"] = Wire(out_start, out_start + RIGHT * out_run)
        super().__init__(*self.wires.values(), self.node)


@dataclass
class GateCard:
    """One gate's worked example for a side-by-side comparison of gate temperaments.

    Handed the ledger keys of its numbers; ``black`` holds x, y and the output (forward),
    ``upstream`` the gradient arriving at the output, ``grads`` what x and y get back.
    """

    title: Text
    temperament: Text
    diagram: GateDiagram
    black: dict[str, Text]
    upstream: VGroup          # the red number and the word 上游 under it
    grads: dict[str, Text]
    rule: VGroup

    @property
    def group(self) -> VGroup:
        return VGroup(self.title, self.temperament, self.diagram, *self.black.values(), self.upstream,
                      *self.grads.values(), self.rule)


def gate_card(symbol: str, keys: dict[str, str], title: str, temperament: str, rule: tuple[str, ...]) -> GateCard:
    """Title and temperament on top, the gate with its numbers, the rule in words below.

    ``keys`` maps ``x``, ``y``, ``out``, ``upstream``, ``grad_x``, ``grad_y`` to ledger keys.
    """
    diagram = GateDiagram(symbol, gap=1.9, in_run=1.3, bend=0.35, out_run=1.1, radius=0.45,
                          symbol_size="label" if len(symbol) > 1 else "heading")
    w = diagram.wires
    black = {"x": w["x"].above(forward_label("x", keys["x"])),
             "y": w["y"].above(forward_label("y", keys["y"])),
             "out": w["out"].above(forward_value(keys["out"]))}
    upstream_value = w["out"].below(gradient_label(keys["upstream"]))
    upstream = VGroup(upstream_value, words("上游", size="small", color="backward").next_to(upstream_value, DOWN, buff=0.1))
    grads = {n: w[n].below(gradient_label(keys[f"grad_{n}"])) for n in "xy"}
    title_mob = words(title, size="body")
    # A temperament is a name, not a gradient: ink, set bold (red means 梯度 in panel Ⓐ's legend).
    temperament_mob = words(temperament, size="heading", weight=BOLD)
    VGroup(title_mob, temperament_mob).arrange(DOWN, buff=0.2).next_to(diagram, UP, buff=0.9)
    rule_mob = VGroup(*[line(part, size="body") for part in rule]).arrange(DOWN, buff=0.15)
    rule_mob.next_to(diagram, DOWN, buff=0.9)
    return GateCard(title_mob, temperament_mob, diagram, black, upstream, grads, rule_mob)


def mini_gate(radius: float = 0.13) -> VGroup:
    """A thumbnail of the one-gate diagram: two input runs bending into a × gate, one output,
    and the forward value the upper input keeps (a filled tag over its run, where the big
    gate's boxed q sits). Lines only, no text: at this size it is a texture, read as "that
    gate again"."""
    ring = marks.ring(ORIGIN, "ink", radius=radius, weight=TILE_WEIGHT)
    arm = radius * 0.5
    cross = VGroup(marks.segment([-arm, -arm, 0], [arm, arm, 0], weight=TILE_WEIGHT),
                   marks.segment([-arm, arm, 0], [arm, -arm, 0], weight=TILE_WEIGHT))
    run_start, run_end, rise = -4.2 * radius, -1.9 * radius, 1.5 * radius
    inputs = VGroup()
    for sign in (1, -1):
        end = [run_end, sign * rise, 0]
        inputs.add(marks.segment([run_start, sign * rise, 0], end, weight=TILE_WEIGHT),
                   marks.segment(end, toward(ring, end), weight=TILE_WEIGHT))
    output = marks.segment(ring.get_right(), ring.get_right() + RIGHT * 1.8 * radius, weight=TILE_WEIGHT)
    kept = marks.box(1.6 * radius, 0.75 * radius, "activations", weight=None, fill_opacity=1, corner="square")
    kept.move_to([(run_start + run_end) / 2, rise + 0.6 * radius, 0])
    return VGroup(inputs, output, ring, cross, kept)


def gate_field(rows: int, cols: int) -> VGroup:
    """Many copies of the small × gate, each with the forward value it keeps."""
    return VGroup(*(mini_gate() for _ in range(rows * cols))).arrange_in_grid(rows=rows, cols=cols, buff=(0.3, 0.28))
