"""Marks that explain a figure: a brace with a label, a callout pointing at a spot, a tally
row ("前向 1 ＋ 反向 2 ＝ 3") whose numbers come from the ledger, and legend rows.

Every label is a template for ``line()``: words, with ``{key}`` where a number goes.
"""

from __future__ import annotations

from typing import Sequence, Union

import numpy as np
from manim import DOWN, LEFT, RIGHT, UR, Brace, Line, Mobject, VGroup, VMobject

from scenes.kit import theme
from scenes.kit.charts import swatch
from scenes.kit.text import ledger_text, line, words

Point = Union[Sequence[float], np.ndarray]
# (label words, ledger key) or (label words, ledger key, theme colour)
Term = Union[tuple[str, str], tuple[str, str, str]]

CALLOUT_GAP = 0.12   # the leader starts this far from the point, so it never covers it
CALLOUT_LENGTH = 0.7
TALLY_BUFF = 0.25
LEGEND_BUFF = 0.5    # between entries in a row
SWATCH_BUFF = 0.15


def brace_label(target: Mobject | tuple[Point, Point], template: str, direction: np.ndarray = DOWN, *,
                color: str = "ink", size: str = "label", buff: float = 0.1) -> VGroup:
    """A brace along ``target`` (a mobject, or a span given as two points) on the
    ``direction`` side, its label at the tip. ``.brace`` and ``.label`` name the parts."""
    if not isinstance(target, Mobject):
        start, end = (np.array([*p, 0.0][:3], dtype=float) for p in target)
        if np.allclose(start, end):
            raise ValueError("brace_label: the span's two points coincide")
        target = Line(start, end)
    brace = Brace(target, direction=direction, buff=buff, color=theme.color(color))
    label = line(template, size=size, color=color)
    brace.put_at_tip(label)
    group = VGroup(brace, label)
    group.brace, group.label = brace, label
    return group


def callout(point: Point, template: str, direction: np.ndarray = UR, *, length: float = CALLOUT_LENGTH,
            color: str = "ink", size: str = "label") -> VGroup:
    """A short leader from near ``point`` outwards along ``direction`` and a label past its
    end: the label never sits on what it points at."""
    d = np.asarray(direction, dtype=float)
    if not np.linalg.norm(d) > 0:
        raise ValueError("callout: direction must be a non-zero vector (e.g. UR)")
    d = d / np.linalg.norm(d)
    at = np.array([*point, 0.0][:3], dtype=float)
    leader = Line(at + d * CALLOUT_GAP, at + d * length, stroke_width=2, color=theme.color(color))
    label = line(template, size=size, color=color).next_to(leader.get_end(), np.sign(np.round(d, 6)), buff=0.08)
    group = VGroup(leader, label)
    group.leader, group.label = leader, label
    return group


def _term(term: Term, size: str) -> VMobject:
    label, key, *color = term
    return ledger_text(f"{label} {{{key}}}".strip(), size=size, color=color[0] if color else "ink")


def tally(terms: Sequence[Term], total: Term | None = None, *, op: str = "＋", size: str = "body") -> VGroup:
    """A row ``label₁ n₁ op label₂ n₂ … ＝ total``, each number from the ledger. ``.terms``
    holds the term mobjects (in order, total last) for colouring or revealing one by one."""
    if not terms:
        raise ValueError("tally needs at least one term")
    parts = [_term(t, size) for t in terms]
    row: list[VMobject] = []
    for i, part in enumerate(parts):
        if i:
            row.append(words(op, size=size, color="muted"))
        row.append(part)
    if total is not None:
        parts.append(_term(total, size))
        row += [words("＝", size=size, color="muted"), parts[-1]]
    group = VGroup(*row).arrange(RIGHT, buff=TALLY_BUFF)
    group.terms = VGroup(*parts)
    return group


def legend(entries: Sequence[tuple[str, str]], *, direction: np.ndarray = RIGHT, size: str = "small") -> VGroup:
    """Legend rows: a colour swatch and its words (``(theme colour, template)`` each), in a
    row (``RIGHT``) or a column (``DOWN``)."""
    items = VGroup()
    for color, template in entries:
        items.add(VGroup(swatch(color), line(template, size=size)).arrange(RIGHT, buff=SWATCH_BUFF))
    if np.allclose(direction, DOWN):
        return items.arrange(DOWN, buff=SWATCH_BUFF * 1.5, aligned_edge=LEFT)
    return items.arrange(RIGHT, buff=LEGEND_BUFF)
