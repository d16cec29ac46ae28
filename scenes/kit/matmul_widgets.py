"""Matrix multiplies drawn as blocks: a matrix block, a product row, a matmul cell, and a tally
of equal-cost tiles (fig-3x, fig-recompute).

Each is handed its data (shapes as symbols, counts from numerics) and only draws it.
"""

from __future__ import annotations

from manim import DOWN, RIGHT, Rectangle, RoundedRectangle, VGroup

from scenes.kit import theme
from scenes.kit.text import formula, words

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
