"""Panel furniture shared by the walkthroughs: the panel header, the speaker's line, and the
panel's takeaways (the sentences its beats leave on screen)."""

from __future__ import annotations

from manim import DOWN, UL, Mobject, VGroup, config

from scenes.kit.text import line, words
from scenes.kit.theme import size as text_size, space

EDGE_BUFF = 0.35
PANEL_MARKS = {"A": "Ⓐ", "B": "Ⓑ", "C": "Ⓒ", "D": "Ⓓ"}
TAKEAWAY_GAP = 0.16
# A panel's footnote (※ 待核) sits this far under the takeaways (27 px at 720p): nearer, it reads as
# a footnote to the takeaway above it rather than to the figure.
FOOTNOTE_GAP = 0.3
# Takeaways sit a little above the safe edge: they are the panel's key sentences, and a
# projector's overscan should not be the first thing to eat them.
TAKEAWAY_BOTTOM = EDGE_BUFF + 0.17


def panel_header(panel: str, heading: str) -> VGroup:
    """Top-left header: the panel's circled letter and its one-line heading."""
    mark = words(PANEL_MARKS.get(panel, panel), size="heading", color="accent")
    title = line(heading, size="heading")
    header = VGroup(mark, title).arrange(buff=0.25)
    return header.to_corner(UL, buff=EDGE_BUFF)


def caption(sentence: str, *, color: str = "ink") -> Mobject:
    """The sentence the speaker lands on, along the bottom edge (``{key}`` fills a number)."""
    return line(sentence, size="body", color=color).to_edge(DOWN, buff=EDGE_BUFF)


def content_area_top() -> float:
    """y below which panel content may go (under the header)."""
    return config.frame_height / 2 - 1.1


def takeaway_line(sentence: str, *, color: str = "ink") -> Mobject:
    """One takeaway as drawn: the speaker's sentence at takeaway size, the largest in the
    panel (``{key}`` fills a number). A sentence too long for the safe width is set smaller,
    never below body size, so it stays inside the safe area."""
    mob = line(sentence, size="takeaway", color=color)
    room = config.frame_width - 2 * space("safe") - 2 * space("small")
    if mob.width > room:
        floor = text_size("body") / text_size("takeaway")
        mob.scale(max(room / mob.width, floor))
    return mob


class Takeaways:
    """The panel's key sentences, stacked along the bottom edge in the order they were said.

    Each new one comes in under the others, which move up a line; a beat that replaces
    drops the newest one first. Every line is tagged ``takeaway_of = <beat name>`` so a test
    can find it in a still.
    """

    def __init__(self) -> None:
        self.lines: list[Mobject] = []
        self.floor = -config.frame_height / 2 + TAKEAWAY_BOTTOM

    def moves_after(self, change):
        """Run ``change`` (a restack: ``add``, ``rise_above``) and return its result with the
        animations that carry each line kept through it from its old place to its new one
        (the line a change adds has no old place: it fades in)."""
        kept = {id(m): m.get_center() for m in self.lines}
        result = change()
        moves = []
        for mob in self.lines:
            if id(mob) in kept:
                target = mob.get_center()
                mob.move_to(kept[id(mob)])
                moves.append(mob.animate.move_to(target))
        return result, moves

    def rise_above(self, mob: Mobject) -> bool:
        """Keep the stack above ``mob`` (the panel's footnote in the bottom corner), so a wide
        takeaway never runs into it. Returns whether the kept lines moved (callers animate)."""
        floor = max(self.floor, mob.get_top()[1] + FOOTNOTE_GAP)
        moved = floor > self.floor + 1e-9
        self.floor = floor
        self._stack()
        return moved and bool(self.lines)

    def has(self, beat_name: str) -> bool:
        return any(m.takeaway_of == beat_name for m in self.lines)

    def shown_names(self) -> list[str]:
        return [m.takeaway_of for m in self.lines]

    def add(self, beat_name: str, sentence: str, *, replaces: bool = False,
            color: str = "ink") -> tuple[list[Mobject], Mobject]:
        """Lay out the stack with ``sentence`` at the bottom. Returns (lines to fade out, the
        new line); lines kept are moved to their new places (callers animate that)."""
        removed = [self.lines.pop()] if replaces and self.lines else []
        new = takeaway_line(sentence, color=color)
        new.takeaway_of = beat_name
        self.lines.append(new)
        self._stack()
        return removed, new

    def _stack(self) -> None:
        bottom = self.floor
        for mob in reversed(self.lines):
            mob.move_to([0, bottom + mob.height / 2, 0])
            bottom += mob.height + TAKEAWAY_GAP

    def top(self) -> float:
        """y of the stack's top (the bottom margin when empty): content stays above it."""
        if not self.lines:
            return self.floor
        return max(m.get_top()[1] for m in self.lines)
