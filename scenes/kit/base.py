"""LectureScene: the base every artifact derives from.

It sets the theme's background, names the artifact (``scene_id``, ``title``, ``loop``,
``ledger_keys``), and cuts the render into panels and beats:

- ``self.panel("A")`` / ``self.start_panel("A", heading)`` opens panel A;
- ``self.beat(says="…")`` opens the next stop inside the open panel. The stage is kept.

Each beat is its own manim section, named ``<panel>.<n>`` (n from 1), so its clip is cut
where the worker writes it (never re-encoded) and a panel's clip is its beats joined. A
beat's ``says`` is the speaker's sentence, quoted verbatim from the notes lines of the cue
that shows its panel; a beat ends on a held frame showing what it says. What a beat must
leave on screen is its ``takeaway``: a sentence that joins the panel's takeaways along the
bottom and stays until the panel ends (``replaces=True`` swaps it for the previous one).

When ``capture_stills`` is on (tests), the screen is snapshot at the end of every beat, so
each beat's final frame can be checked without rendering a single pixel.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from manim import UP, FadeIn, FadeOut, FadeTransform, Mobject, Scene

from lecture_numerics.emphasis import Emphasis, emphasis_of
from scenes.kit import text, theme
from scenes.kit.panels import Restack, Takeaways, panel_header

# A beat's clip ends on its picture held this long: the player stops on the last frame,
# and the panel and whole clips, played through, still give each beat a breath.
BEAT_HOLD_S = 0.5


# A text fainter than this is fading out or gone: its numbers are not on screen.
VISIBLE_OPACITY = 0.05


def numbers_on_screen(mobjects: list[Mobject]) -> list[str]:
    """The ledger keys of the texts visible now, as the kit's text helpers drew them, in
    drawing order, each once."""
    keys: dict[str, None] = {}
    for top in mobjects:
        for part in top.get_family():
            drawn = getattr(part, "ledger_keys", ())
            shown = max((m.get_fill_opacity() for m in part.family_members_with_points()), default=0.0)
            if drawn and shown > VISIBLE_OPACITY:
                keys.update(dict.fromkeys(drawn))
    return list(keys)


@dataclass
class SectionStill:
    """What was on screen when a beat ended (``name`` is ``<panel>.<n>``)."""

    name: str
    mobjects: list[Mobject]
    panel: str = ""
    beat: int = 0


@dataclass
class Beat:
    """One stop inside a panel: what the speaker says there, and what must stay on screen."""

    panel: str
    n: int
    says: str | None = None
    takeaway: str | None = None
    replaces: bool = False
    takeaway_shown: list[str] = field(default_factory=list)   # filled when the beat ends
    numbers_shown: list[str] = field(default_factory=list)    # ledger keys drawn in its final frame

    @property
    def name(self) -> str:
        return f"{self.panel}.{self.n}"

    @property
    def emphasis(self) -> Emphasis:
        """How the notes mark what this beat quotes (⭐ level, ⛔): its takeaway is set so. A beat
        that quotes no line of its own (a cue with no speech) takes the marks of its takeaway
        when that is a line of the notes."""
        return emphasis_of(self.says if self.says else self.takeaway)


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
        self.beats: list[Beat] = []
        self._takeaways: Takeaways | None = None

    # ---- panels ------------------------------------------------------------------------

    def panel(self, name: str, *, says: str | None = None, takeaway: str | None = None) -> None:
        """Open panel ``name`` (A, B, C …) with its first beat."""
        self._end_beat()
        self._takeaways = Takeaways()
        text.begin_panel()          # 待核 is marked once per panel, with one footnote
        self._open_beat(Beat(name, 1, says, takeaway))

    def start_panel(self, name: str, heading: str, *, says: str | None = None,
                    takeaway: str | None = None) -> None:
        """Open a walkthrough panel whose clip stands alone: clear the stage, show the header."""
        self.panel(name, says=says, takeaway=takeaway)
        self.clear()
        self.header = panel_header(name, heading)     # kept: a scene may rename its panel later
        self.play(FadeIn(self.header), run_time=0.6)

    # ---- beats -------------------------------------------------------------------------

    def beat(self, says: str, *, takeaway: str | None = None, replaces: bool = False) -> None:
        """End the beat on screen (held) and open the next stop of the same panel."""
        if not self.beats:
            raise RuntimeError(f"{self.scene_id}: beat({says!r}) before any panel")
        self._end_beat()
        current = self.beats[-1]
        self._open_beat(Beat(current.panel, current.n + 1, says, takeaway, replaces))

    def show_takeaway(self, run_time: float = 0.6) -> None:
        """Bring the open beat's takeaway on screen now (otherwise it comes as the beat ends)."""
        beat = self.beats[-1] if self.beats else None
        if beat is None or beat.takeaway is None or self._takeaways.has(beat.name):
            return
        self.play_restack(self._takeaways.add(beat.name, beat.takeaway, replaces=beat.replaces,
                                              emphasis=beat.emphasis), run_time)

    def play_restack(self, change: Restack, run_time: float = 0.6) -> None:
        """Lines leave first, kept ones move, then new ones arrive: never two sentences in one place.
        A line that changes style fades into its restyled copy while both travel together from the
        old place and size to the new (a point morph between bold and plain glyphs was glyph soup
        mid-way; a cross-fade in two places showed the sentence twice, one above the other), so it
        reads as one line moving and stepping back."""
        steps = [[FadeOut(m) for m in change.leaving],
                 change.moving + [FadeTransform(old, new) for old, new in change.morphing],
                 [FadeIn(m, shift=UP * 0.15) for m in change.arriving]]
        steps = [s for s in steps if s]
        for animations in steps:
            self.play(*animations, run_time=run_time / len(steps))

    def dim_takeaways(self) -> list:
        """Animations that step the takeaways on screen back to muted, so the next line leads.
        A ⛔ line's highlight band fades away rather than turning grey with its words."""
        muted = theme.text_color("muted")
        animations = []
        for line in self._takeaways.lines:
            band = next((m for m in line.submobjects if getattr(m, "warning_band", False)), None)
            words = [m for m in line.submobjects if m is not band] if band is not None else [line]
            animations += [m.animate.set_color(muted) for m in words]
            animations += [band.animate.set_fill(opacity=0)] if band is not None else []
        return animations

    def clear_takeaways(self) -> list:
        """FadeOuts for every takeaway and the recap on screen, the stack emptied: the open
        beat's own sentence then stands alone, and replaces them (the beat records it)."""
        stack = self._takeaways
        leaving = [*stack.lines, *([stack.recap] if stack.recap is not None else [])]
        stack.said, stack.recap = [], None
        if self.beats:
            self.beats[-1].replaces = True
        return [FadeOut(m) for m in leaving]

    def _open_beat(self, beat: Beat) -> None:
        self.next_section(beat.name)     # first: a panel-only render may end the scene here
        self.beats.append(beat)
        self._beat_open = True

    def _end_beat(self) -> None:
        if not self.beats or not getattr(self, "_beat_open", False):
            return
        footnote = text.take_footnote()
        if footnote is not None:
            # The footnote takes the bottom-left corner: the takeaways stand on top of it.
            change = self._takeaways.rise_above(footnote)
            change.arriving.append(footnote)
            self.play_restack(change, run_time=0.3)
        self.show_takeaway()
        self.wait(BEAT_HOLD_S)
        beat = self.beats[-1]
        beat.takeaway_shown = self._takeaways.shown_names()
        beat.numbers_shown = numbers_on_screen(self.mobjects)
        if self.capture_stills:
            self.section_stills.append(SectionStill(beat.name, [m.copy() for m in self.mobjects],
                                                    beat.panel, beat.n))
        self._beat_open = False

    def tear_down(self) -> None:
        if self.beats:
            self._end_beat()
        elif self.capture_stills:
            # A loop has no panels: its one still is the last frame, under the name "main".
            self.section_stills.append(SectionStill("main", [m.copy() for m in self.mobjects], "main", 1))
