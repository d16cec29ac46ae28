"""Marks that explain a figure: a brace with a label, a callout pointing at a spot, a tally
row ("前向 1 ＋ 反向 2 ＝ 3") whose numbers come from the ledger, legend rows, labels that sit
on a plot (with a halo of the background, so a line of the same colour never cuts them), and
labels that appear only once what they label has been drawn.

Every label is a template for ``line()``: words, with ``{key}`` where a number goes.
"""

from __future__ import annotations

from typing import Sequence, Union

import numpy as np
from manim import DOWN, LEFT, RIGHT, UR, Animation, Brace, Create, Dot, FadeIn, Line, Mobject, Succession, VGroup, VMobject

from scenes.kit import theme
from scenes.kit.types import Point
from scenes.kit.charts import swatch
from scenes.kit.plots import dashed
from scenes.kit.text import ledger_text, line, words

# (label words, ledger key) or (label words, ledger key, theme colour)
Term = Union[tuple[str, str], tuple[str, str, str]]

CALLOUT_LENGTH = 0.7
CORNER = 0.12       # corner radius of boxed badges and cards
HALO_STROKE = 8      # the background-coloured outline behind a label on a plot


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
    # The leader starts a small gap from the point, so it never covers it.
    leader = Line(at + d * theme.space("small"), at + d * length, stroke_width=theme.stroke("thin"),
                  color=theme.color(color))
    label = line(template, size=size, color=color).next_to(leader.get_end(), np.sign(np.round(d, 6)),
                                                           buff=theme.space("tight"))
    haloed(label)      # as on_plot's labels: a callout mostly stands on a plot, where gridlines pass
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
    group = VGroup(*row).arrange(RIGHT, buff=theme.space("medium"))
    group.terms = VGroup(*parts)
    return group


LEGEND_LINE = 0.6     # length of a line swatch
LEGEND_DOT = 0.14     # radius of a dot swatch (a marked point drawn about 0.1 across the plot)
LEGEND_LINE_STROKE = 5


def _mark(color: str, kind: str) -> VMobject:
    """A legend's swatch: a filled square (areas, bars), a short solid or dashed line (curves)
    or a dot (a marked point)."""
    if kind == "square":
        return swatch(color)
    if kind == "dot":
        return Dot(radius=LEGEND_DOT, color=theme.color(color))
    if kind not in ("line", "dashed"):
        raise ValueError(f"legend mark must be 'square', 'line', 'dashed' or 'dot', got {kind!r}")
    stroke = Line(LEFT * LEGEND_LINE / 2, RIGHT * LEGEND_LINE / 2, stroke_width=LEGEND_LINE_STROKE,
                  color=theme.color(color))
    return dashed(stroke) if kind == "dashed" else stroke


def legend(entries: Sequence[tuple[str, ...]], *, direction: np.ndarray = RIGHT, size: str = "small",
           tinted: bool = False, gap: str | None = None) -> VGroup:
    """Legend rows: a swatch and its words, ``(theme colour, template)`` or ``(theme colour,
    template, mark)`` with mark ``"square"`` (default), ``"line"``, ``"dashed"`` or ``"dot"``; in a row
    (``RIGHT``) or a column (``DOWN``), ``gap`` apart (a spacing name); ``tinted`` writes the
    words in the role's colour."""
    items = VGroup()
    for color, template, *kind in entries:
        words_of = line(template, size=size, color=color if tinted else "ink")
        mark = _mark(color, kind[0] if kind else "square")
        mark.kit_legend = True   # the kit's swatch, wherever a scene regroups it: the own-legends check passes it
        items.add(VGroup(mark, words_of).arrange(RIGHT, buff=theme.space("small")))
    if np.allclose(direction, DOWN):
        return items.arrange(DOWN, buff=theme.space(gap or "medium"), aligned_edge=LEFT)
    return items.arrange(RIGHT, buff=theme.space(gap or "wide"))


def boxed(mob: Mobject, color: str = "muted", *, fill: float = 0.0, weight: str = "hairline",
          pad: str = "medium") -> VGroup:
    """``mob`` in a rounded frame of a role's colour (optionally tinted inside): a badge, a card."""
    from manim import RoundedRectangle

    gap = theme.space(pad)
    box = RoundedRectangle(corner_radius=CORNER, width=mob.width + 2 * gap, height=mob.height + 2 * gap * 0.75,
                           stroke_width=theme.stroke(weight), stroke_color=theme.color(color),
                           fill_color=theme.color(color), fill_opacity=fill).move_to(mob)
    group = VGroup(box, mob)
    group.box, group.content = box, mob
    return group


def on_plot(template: str, *, color: str = "ink", size: str = "label") -> VMobject:
    """A label that sits on a plot: outlined in the background colour, so a curve (of its own
    colour or another) passing behind it never cuts a glyph."""
    return haloed(line(template, size=size, color=color))


def haloed(label: VMobject) -> VMobject:
    """``label`` outlined in the background colour, so a line passing behind it never cuts a glyph."""
    label.set_stroke(theme.background(), width=HALO_STROKE, background=True)
    return label


def label_after(target: Mobject, label: Mobject, *, run_time: float = 1.0, label_time: float = 0.4,
                draw: type[Animation] = Create) -> Succession:
    """Draw ``target``, then fade its ``label`` in: a label never waits at the end of a line
    the line has not reached yet."""
    return Succession(draw(target, run_time=run_time), FadeIn(label, run_time=label_time))
