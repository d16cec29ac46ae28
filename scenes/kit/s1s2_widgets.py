"""Widgets of 第一节 and 第二节: matrix blocks, a matmul cell, a tally of equal tiles, linear axes.

Each is handed its data (shapes as symbols, counts from numerics) and only draws it.
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, DashedVMobject, Line, Rectangle, RoundedRectangle, VGroup, VMobject

from lecture_numerics import quantity
from scenes.kit import theme
from scenes.kit.text import formula, ledger_text, words

TICK_LENGTH = 0.1
DASH_PERIOD = 0.22   # scene units per dash and gap
BLOCK_FILL = 0.18   # light enough for the symbol inside to read
# Drawn widths of the symbolic sizes s, d_in, d_out (scene units): different, so a transpose shows.
MATRIX_SIDE = {"s": 1.2, "d_in": 0.95, "d_out": 0.7}


class MatrixBlock(VGroup):
    """A matrix drawn as a filled block of shape (rows × cols) with its symbol inside."""

    def __init__(self, symbol: str, rows: str, cols: str, color: str, *, size: str = "label") -> None:
        super().__init__()
        self.rect = Rectangle(width=MATRIX_SIDE[cols], height=MATRIX_SIDE[rows], stroke_width=3,
                              stroke_color=theme.color(color), fill_color=theme.color(color),
                              fill_opacity=BLOCK_FILL)
        self.symbol = formula(symbol, size=size, color=color)
        if self.symbol.width > self.rect.width - 0.08:
            self.symbol.scale_to_fit_width(self.rect.width - 0.08)
        self.symbol.move_to(self.rect)
        self.add(self.rect, self.symbol)

    def shade(self, level: float) -> "MatrixBlock":
        """Dim (level < 1) or light (level = 1) the block, keeping its fill light."""
        self.rect.set_fill(opacity=BLOCK_FILL * level).set_stroke(opacity=level)
        self.symbol.set_opacity(level)
        return self


def product_row(left: MatrixBlock, right: MatrixBlock, result: MatrixBlock) -> VGroup:
    """left · right = result, aligned on their centres."""
    dot, equals = formula("·", size="heading"), formula("=", size="heading")
    return VGroup(left, dot, right, equals, result).arrange(RIGHT, buff=0.18)


class MatmulCell(VGroup):
    """One numbered cell: a title, the product as blocks, its formula and what it is for."""

    def __init__(self, title, product: VGroup, expression, note, *, width: float, height: float) -> None:
        super().__init__()
        self.frame = RoundedRectangle(width=width, height=height, corner_radius=0.15, stroke_width=3,
                                      stroke_color=theme.color("muted"), fill_color=theme.color("panel"),
                                      fill_opacity=1)
        self.title, self.product, self.expression, self.note = title, product, expression, note
        body = VGroup(title, expression, product, note).arrange(DOWN, buff=0.32)
        note.shift(DOWN * 0.15)   # room under the blocks for a path between cells
        body.move_to(self.frame)
        self.add(self.frame, body)

    def shade(self, level: float) -> "MatmulCell":
        """Dim (level < 1) or light (level = 1) everything but the frame."""
        for part in (self.title, self.expression, self.note):
            part.set_opacity(level)
        for part in self.product:
            part.shade(level) if isinstance(part, MatrixBlock) else part.set_opacity(level)
        return self


class TallyRow(VGroup):
    """Equal tiles in groups, one group per term: ``terms`` = [(name, count, colour)].
    The counts are handed in (from the ledger); each tile stands for one equal-cost unit."""

    def __init__(self, terms: list[tuple[str, int, str]], *, tile: tuple[float, float] = (1.3, 0.75),
                 gap: float = 0.08, group_gap: float = 0.45, size: str = "label") -> None:
        super().__init__()
        self.groups = VGroup()
        for name, count, color in terms:
            tiles = VGroup(*[
                RoundedRectangle(width=tile[0], height=tile[1], corner_radius=0.08, stroke_width=3,
                                 stroke_color=theme.color(color), fill_color=theme.color(color), fill_opacity=0.25)
                for _ in range(count)]).arrange(RIGHT, buff=gap)
            names = VGroup(*[words(name, size=size, color=color).move_to(t) for t in tiles])
            self.groups.add(VGroup(tiles, names))
        self.groups.arrange(RIGHT, buff=group_gap)
        self.add(self.groups)

    def tiles(self) -> VGroup:
        return VGroup(*[t for group in self.groups for t in group[0]])


def clip_at(xs: np.ndarray, ys: np.ndarray, top: float) -> tuple[np.ndarray, np.ndarray]:
    """The points up to where the curve first passes ``top``, ending exactly on it."""
    above = np.nonzero(ys > top)[0]
    if len(above) == 0:
        return xs, ys
    i = above[0]
    if i == 0:
        return xs[:1], np.minimum(ys[:1], top)
    share = (top - ys[i - 1]) / (ys[i] - ys[i - 1])
    return np.append(xs[:i], xs[i - 1] + share * (xs[i] - xs[i - 1])), np.append(ys[:i], top)


class LogNumberLine(VGroup):
    """A horizontal number line, one tick per power of ten; ``ticks`` is a ledger key whose value
    lists the exponents (its item displays label them). :meth:`point` maps a value to the line."""

    def __init__(self, ticks: str, *, left: float, right: float, y: float, size: str = "small") -> None:
        super().__init__()
        self.exponents = list(quantity(ticks).value)
        self.left, self.right, self.y = left, right, y
        muted = theme.color("muted")
        self.line = Line([left, y, 0], [right, y, 0], stroke_width=3, color=muted)
        self.tick_labels = VGroup()
        self.add(self.line)
        for i, exponent in enumerate(self.exponents):
            at = self.point(10.0 ** exponent)
            self.add(Line(at + DOWN * TICK_LENGTH, at + UP * TICK_LENGTH, stroke_width=3, color=muted))
            self.tick_labels.add(ledger_text("{" + ticks + f"[{i}]" + "}", size=size, color="muted")
                                 .next_to(at, DOWN, buff=0.15))
        self.add(self.tick_labels)

    def point(self, value: float) -> np.ndarray:
        lo, hi = self.exponents[0], self.exponents[-1]
        share = (np.log10(value) - lo) / (hi - lo)
        return np.array([self.left + share * (self.right - self.left), self.y, 0.0])


class LinearAxes(VGroup):
    """Two linear axes from 0, ticks labelled by a ledger sequence (``{key[i]}`` at its value).

    ``x_range`` / ``y_range`` are data (0, max); ``box`` is the plot area in scene units
    (left, bottom, right, top). Handed data, it maps it: :meth:`point`, :meth:`polyline`.
    """

    def __init__(self, *, x_max: float, y_max: float, box: tuple[float, float, float, float],
                 x_ticks: str | None = None, y_ticks: str | None = None, size: str = "small",
                 x_min: float = 0.0) -> None:
        super().__init__()
        self.x_min, self.x_max, self.y_max, self.box = x_min, x_max, y_max, box
        left, bottom, right, top = box
        muted = theme.color("muted")
        self.x_axis = Line([left, bottom, 0], [right + 0.2, bottom, 0], stroke_width=3, color=muted)
        self.y_axis = Line([left, bottom, 0], [left, top + 0.2, 0], stroke_width=3, color=muted)
        self.tick_labels = VGroup()
        self.add(self.x_axis, self.y_axis)
        for key, along_x in ((x_ticks, True), (y_ticks, False)):
            if key is None:
                continue
            for i, value in enumerate(quantity(key).value):
                label = ledger_text("{" + key + f"[{i}]" + "}", size=size, color="muted")
                at = self.point(value, 0) if along_x else self.point(x_min, value)
                mark = (Line(at, at + DOWN * TICK_LENGTH) if along_x else Line(at, at + LEFT * TICK_LENGTH))
                mark.set_stroke(muted, 3)
                label.next_to(mark, DOWN if along_x else LEFT, buff=0.08)
                self.tick_labels.add(label)
                self.add(mark)
        self.add(self.tick_labels)

    def point(self, x: float, y: float) -> np.ndarray:
        left, bottom, right, top = self.box
        share = (x - self.x_min) / (self.x_max - self.x_min)
        return np.array([left + share * (right - left), bottom + y / self.y_max * (top - bottom), 0.0])

    def polyline(self, xs, ys, color: str, *, dashed: bool = False, width: float = 5, clip: bool = False) -> VMobject:
        """A curve through the data points; ``clip`` cuts it where it first leaves the top."""
        if clip:
            xs, ys = clip_at(np.asarray(xs, float), np.asarray(ys, float), self.y_max)
        path = VMobject(stroke_color=theme.color(color), stroke_width=width)
        path.set_points_as_corners([self.point(x, y) for x, y in zip(xs, ys)])
        if not dashed:
            return path
        dashes = max(2, round(path.get_arc_length() / DASH_PERIOD))
        return DashedVMobject(path, num_dashes=dashes, dashed_ratio=0.6)

    def area(self, xs, ys, color: str, *, opacity: float = 0.45) -> VMobject:
        """The region between a curve and the x axis, outlined along the curve."""
        corners = [self.point(xs[0], 0), *[self.point(x, y) for x, y in zip(xs, ys)], self.point(xs[-1], 0)]
        shape = VMobject(stroke_color=theme.color(color), stroke_width=3, fill_color=theme.color(color),
                         fill_opacity=opacity)
        shape.set_points_as_corners([*corners, corners[0]])
        return shape

    def hline(self, y: float, color: str, *, dashed: bool = False) -> VMobject:
        return self.polyline([self.x_min, self.x_max], [y, y], color, dashed=dashed)

    def vline(self, x: float, color: str, *, dashed: bool = True) -> VMobject:
        return self.polyline([x, x], [0, self.y_max], color, dashed=dashed, width=4)
