"""Panel furniture shared by the walkthroughs: the panel header, the speaker's line, and the
panel's takeaways (the sentences its beats leave on screen)."""

from __future__ import annotations

from dataclasses import dataclass, field

from manim import BOLD, DOWN, UL, Mobject, VGroup, config

from lecture_numerics.emphasis import PLAIN, Emphasis
from scenes.kit.text import line, words
from scenes.kit.marks import highlight_band
from scenes.kit.theme import size as text_size, space, takeaway_style

EDGE_BUFF = 0.35
PANEL_MARKS = {"A": "Ⓐ", "B": "Ⓑ", "C": "Ⓒ", "D": "Ⓓ"}
TAKEAWAY_GAP = 0.16
# A panel's footnote (※ 待核) sits this far under the takeaways (27 px at 720p): nearer, it reads as
# a footnote to the takeaway above it rather than to the figure.
FOOTNOTE_GAP = 0.3
# Takeaways sit a little above the safe edge: they are the panel's key sentences, and a
# projector's overscan should not be the first thing to eat them.
TAKEAWAY_BOTTOM = EDGE_BUFF + 0.17
# A ⭐⭐⭐ line too wide for the frame breaks after one of these, nearest its middle.
BREAKS = "，、；：。——"
RECAP_JOIN = "　·　"
# A ⛔ line stands on a pale band of the highlight colour: a mark no one reads as a glyph (a
# bar at its left was read as a stray 「|」), in the colour the key gives to emphasis.
WARNING_BAND_OPACITY = 0.28


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


def _fits(mob: Mobject, floor_size: str, size: str) -> Mobject:
    """Shrink ``mob`` to the safe width, never below ``floor_size``."""
    room = config.frame_width - 2 * space("safe") - 2 * space("small")
    if mob.width > room:
        mob.scale(max(room / mob.width, text_size(floor_size) / text_size(size)))
    return mob


def _split_point(sentence: str) -> int | None:
    """Where a long sentence breaks into two lines: after the punctuation nearest its middle,
    never inside a ``{key}`` placeholder."""
    depth, best = 0, None
    for i, ch in enumerate(sentence):
        depth += (ch == "{") - (ch == "}")
        if depth == 0 and ch in BREAKS and 0 < i < len(sentence) - 1:
            if best is None or abs(i - len(sentence) / 2) < abs(best - len(sentence) / 2):
                best = i + 1
    return best


def takeaway_line(sentence: str, *, color: str = "ink", level: str = "plain") -> Mobject:
    """One takeaway as drawn, set as the notes mark it (theme ``takeaway_styles``). A ⭐⭐⭐ line
    too wide for one line breaks into two at its middle punctuation rather than shrinking
    (it must stay the largest text); other lines shrink to fit, never below body size. A
    ⛔ line stands on a pale highlight band."""
    style = takeaway_style(level)
    colour = style["color"] if color == "ink" or level in ("back", "recap") else color
    weight = {"weight": BOLD} if style["bold"] else {}
    mob = line(sentence, size=style["size"], color=colour, **weight)
    room = config.frame_width - 2 * space("safe") - 2 * space("small")
    at = _split_point(sentence) if level == "star3" and mob.width > room else None
    if at is not None:
        rows = [line(part, size=style["size"], color=colour, **weight) for part in (sentence[:at], sentence[at:])]
        mob = VGroup(*rows).arrange(DOWN, buff=space("tight"))
        for row in rows:
            _fits(row, "takeaway", style["size"])
    else:
        _fits(mob, "body" if level != "recap" else style["size"], style["size"])
    if style["band"]:
        band = highlight_band(mob, opacity=WARNING_BAND_OPACITY)
        band.warning_band = True
        mob = VGroup(band, mob)
    return mob


@dataclass
class _Said:
    """One takeaway of the panel: its beat, sentence, how the notes mark it, and its line."""

    beat: str
    sentence: str
    emphasis: Emphasis
    color: str
    mob: Mobject | None = None
    style: str = ""

    @property
    def starred(self) -> bool:
        return self.emphasis.stars > 0 or self.emphasis.warning


@dataclass
class Restack:
    """What a change to the takeaways does on screen, in order: lines leave, kept lines move
    to their new places while restyled ones morph into their new style (no moment without
    them), new lines arrive."""

    leaving: list = field(default_factory=list)
    moving: list = field(default_factory=list)
    morphing: list = field(default_factory=list)     # (old line, the same sentence restyled)
    arriving: list = field(default_factory=list)


class Takeaways:
    """The panel's key sentences along the bottom edge, in the order they were said.

    At most two stand on their own: the newest, set as the notes mark it, and the one before,
    stepped back (muted, smaller) so the sentence being said leads, however strongly the notes
    marked the one before (a ⭐⭐⭐ line kept at its size under a newer one competed with it,
    and the room read the old line first). Older starred
    (⭐ or ⛔) lines fold into one muted recap line above them; older unstarred lines leave. A
    later sentence never stands above an earlier one.
    Every full line is tagged ``takeaway_of = <beat name>``, the recap ``recap_of = [names]``.
    """

    def __init__(self) -> None:
        self.said: list[_Said] = []
        self.recap: Mobject | None = None
        self.floor = -config.frame_height / 2 + TAKEAWAY_BOTTOM

    @property
    def lines(self) -> list[Mobject]:
        return [s.mob for s in self.said if s.mob is not None]

    def has(self, beat_name: str) -> bool:
        return any(s.beat == beat_name for s in self.said)

    def shown_names(self) -> list[str]:
        recap = list(getattr(self.recap, "recap_of", []))
        return recap + [s.beat for s in self.said if s.mob is not None]

    def add(self, beat_name: str, sentence: str, *, replaces: bool = False, color: str = "ink",
            emphasis: Emphasis = PLAIN) -> Restack:
        """Lay out the stack with ``sentence`` at the bottom."""
        change = Restack()
        if replaces and self.said:
            gone = self.said.pop()
            change.leaving += [gone.mob] if gone.mob is not None else []
        self.said.append(_Said(beat_name, sentence, emphasis, color))
        return self._restack(change)

    def rise_above(self, mob: Mobject) -> Restack:
        """Keep the stack above ``mob`` (the panel's footnote in the bottom corner)."""
        self.floor = max(self.floor, mob.get_top()[1] + FOOTNOTE_GAP)
        return self._restack(Restack())

    def _styles(self) -> list[str]:
        """Each said line's style: '' for a line that is no longer drawn on its own."""
        full = self.said[-2:]
        styles = []
        for s in self.said:
            if s not in full:
                styles.append("")
            elif s is not full[-1]:
                styles.append("back")
            else:
                styles.append(s.emphasis.level)
        return styles

    def _restack(self, change: Restack) -> Restack:
        old_places = {id(s.mob): s.mob.get_center() for s in self.said if s.mob is not None}
        for s, style in zip(self.said, self._styles()):
            if style == s.style and s.mob is not None:
                continue
            old, s.style = s.mob, style
            s.mob = takeaway_line(s.sentence, color=s.color, level=style) if style else None
            if s.mob is not None:
                s.mob.takeaway_of = s.beat
            if old is not None and s.mob is not None:
                change.morphing.append((old, s.mob))
            elif old is not None:
                change.leaving.append(old)
            elif s.mob is not None:
                change.arriving.append(s.mob)
        change.leaving += self._refold_recap(change)
        self._stack()
        for s in self.said:
            if s.mob is not None and id(s.mob) in old_places:
                target = s.mob.get_center()
                if abs(target - old_places[id(s.mob)]).max() > 1e-9:
                    s.mob.move_to(old_places[id(s.mob)])
                    change.moving.append(s.mob.animate.move_to(target))
        return change

    def _refold_recap(self, change: Restack) -> list[Mobject]:
        """Rebuild the recap line from the older starred sentences; returns the old recap to
        fade out when it changed."""
        older = [s for s in self.said if s.mob is None and s.starred]
        names = [s.beat for s in older]
        if names == list(getattr(self.recap, "recap_of", [])):
            return []
        gone = [self.recap] if self.recap is not None else []
        self.recap = self._recap_line(older) if older else None
        if self.recap is not None:
            change.arriving.insert(0, self.recap)
        return gone

    def _recap_line(self, older: list[_Said]) -> Mobject:
        """One muted line of the older starred sentences, the newest kept when they do not fit."""
        room = config.frame_width - 2 * space("safe") - 2 * space("small")
        for start in range(len(older)):
            kept = older[start:]
            mob = takeaway_line(RECAP_JOIN.join(s.sentence for s in kept), level="recap")
            if mob.width <= room + 1e-6 or start == len(older) - 1:
                mob.recap_of = [s.beat for s in kept]
                mob.takeaway_of = None
                return mob
        raise AssertionError("unreachable")

    def _stack(self) -> None:
        bottom = self.floor
        for mob in reversed([*([self.recap] if self.recap is not None else []), *self.lines]):
            mob.move_to([0, bottom + mob.height / 2, 0])
            bottom += mob.height + TAKEAWAY_GAP

    def top(self) -> float:
        """y of the stack's top (the bottom margin when empty): content stays above it."""
        shown = self.lines + ([self.recap] if self.recap is not None else [])
        if not shown:
            return self.floor
        return max(m.get_top()[1] for m in shown)
