"""LectureScene: the base every artifact derives from.

It sets the theme's background, names the artifact (``scene_id``, ``title``, ``loop``,
``ledger_keys``), and turns each panel into a manim section. When ``capture_stills`` is
on (tests), it snapshots what is on screen at the end of every section, so a section's
final frame can be checked without rendering a single pixel.
"""

from __future__ import annotations

from dataclasses import dataclass

from manim import FadeIn, Mobject, Scene

from scenes.kit import theme
from scenes.kit.panels import panel_header


@dataclass
class SectionStill:
    """What was on screen when a section ended."""

    name: str
    mobjects: list[Mobject]


class LectureScene(Scene):
    scene_id: str = ""
    title: str = ""
    loop: bool = False
    # Every ledger key this scene draws (the ledger's "scenes that show it").
    ledger_keys: tuple[str, ...] = ()

    capture_stills: bool = False

    def setup(self) -> None:
        self.camera.background_color = theme.background()
        self.section_stills: list[SectionStill] = []
        self._open_section: str | None = None

    def panel(self, name: str) -> None:
        """Start the panel ``name`` (A, B, C …) as its own section."""
        self._close_section()
        self._open_section = name
        self.next_section(name)

    def start_panel(self, name: str, heading: str) -> None:
        """Start a walkthrough panel whose clip stands alone: clear the stage, show the header."""
        self.panel(name)
        self.clear()
        self.play(FadeIn(panel_header(name, heading)), run_time=0.6)

    def _close_section(self) -> None:
        if self.capture_stills and self._open_section is not None:
            still = [m.copy() for m in self.mobjects]
            self.section_stills.append(SectionStill(self._open_section, still))

    def tear_down(self) -> None:
        if self._open_section is None:
            self._open_section = "main"
        self._close_section()
