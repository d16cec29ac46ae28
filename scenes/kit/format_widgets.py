"""Number formats drawn: a byte ruler, bit-field rows and format names (第三节).

Each widget is handed its data (byte counts, bit counts as ledger keys) and only draws it.
"""

from __future__ import annotations

from manim import DOWN, RIGHT, Rectangle, Text, VGroup

from lecture_numerics import quantity
from scenes.kit import theme
from scenes.kit.scale import ScreenAxis  # noqa: F401  (figures of this section map with it)
from scenes.kit.text import ledger_text


def format_name(name: str) -> str:
    """Template for a format's name: its width is a ledger number (bf16 → "bf{…total_bits}")."""
    letters = name.rstrip("0123456789")
    return letters + "{format." + name + ".total_bits}"


def format_label(name: str, rest: str = "", *, size: str = "label", color: str = "ink") -> Text:
    """A format's name followed by words, e.g. ``format_label("bf16", " 权重")``."""
    return ledger_text(format_name(name) + rest, size=size, color=color)


class CellBar(VGroup):
    """A row of equal cells in segments: ``segments`` is [(count, colour name)], left to right.

    ``cells[i]`` is one cell; ``segment(j)`` is the group of cells of segment j.
    """

    def __init__(self, segments: list[tuple[int, str]], *, cell_width: float, cell_height: float,
                 fill_opacity: float = 0.45, stroke_width: float = 2.0):
        super().__init__()
        self._bounds: list[tuple[int, int]] = []
        start = 0
        for count, colour in segments:
            for _ in range(count):
                cell = Rectangle(width=cell_width, height=cell_height, stroke_width=stroke_width,
                                 stroke_color=theme.color("ink"), fill_color=theme.color(colour),
                                 fill_opacity=fill_opacity)
                self.add(cell)
            self._bounds.append((start, start + count))
            start += count
        self.arrange(RIGHT, buff=0)

    def segment(self, j: int) -> VGroup:
        lo, hi = self._bounds[j]
        return VGroup(*self.submobjects[lo:hi])

    def segments_between(self, first: int, last: int) -> VGroup:
        lo, hi = self._bounds[first][0], self._bounds[last][1]
        return VGroup(*self.submobjects[lo:hi])


def byte_bar(byte_keys: list[tuple[str, str]], **kwargs) -> CellBar:
    """A :class:`CellBar` with one cell per byte: ``byte_keys`` is [(ledger key, colour)]."""
    return CellBar([(int(quantity(key).value), colour) for key, colour in byte_keys], **kwargs)


def bit_row(field_keys: list[tuple[str, str]], *, bit_width: float, height: float) -> CellBar:
    """One cell per bit, fields given as [(ledger key of the bit count, colour)]."""
    return CellBar([(int(quantity(key).value), colour) for key, colour in field_keys],
                   cell_width=bit_width, cell_height=height, fill_opacity=0.55, stroke_width=1.2)


def stacked_label(lines: list[Text], buff: float = 0.08) -> VGroup:
    return VGroup(*lines).arrange(DOWN, buff=buff)


