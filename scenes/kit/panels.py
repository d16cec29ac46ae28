"""Panel furniture shared by the walkthroughs: the panel header and the speaker's line."""

from __future__ import annotations

from manim import DOWN, UL, Mobject, VGroup, config

from scenes.kit import theme
from scenes.kit.text import line, words

EDGE_BUFF = 0.35
PANEL_MARKS = {"A": "Ⓐ", "B": "Ⓑ", "C": "Ⓒ", "D": "Ⓓ"}


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


