"""The lecture as a PowerPoint deck (``<out>/<quality>/lecture.pptx``), built with python-pptx.

One slide per cue of the cue sheet, in the notes' order:

- a figure cue embeds its clip (an H.264 MP4 as a movie, with the frame the panel ends on as
  its poster, so the slide looks right before it plays); a cue that shows two views (「平移到
  Ⓑ，再到 Ⓒ」) holds both clips side by side, in order; a scene not yet rendered gets a
  placeholder naming it;
- a title card and each 本节主屏 marker become a section title slide (a marker shows the
  section it opens; the last one closes the talk);
- the slide's notes hold the cue line, its ⭐/⛔ hints, every line the speaker says and the
  stage notes in between, and the estimated time.

python-pptx writes the movie the way PowerPoint does (a picture with a videoFile link and a
media part), which LibreOffice Impress opens too, and Keynote imports.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from studio import atomic, config, encode
from studio.errors import UsageError
from studio.page_track import clock, view_label

DECK_NAME = "lecture.pptx"
SLIDE_W, SLIDE_H = 12_192_000, 6_858_000  # 16:9 in EMU (13.333 × 7.5 inches)
INK, MUTED, WARM = "1A1A1A", "6B6B6B", "FF7F0E"


def _presentation():
    try:
        from pptx import Presentation
    except ImportError:
        raise UsageError("--pptx needs python-pptx (pip install python-pptx, or scripts/setup.sh)") from None
    deck = Presentation()
    deck.slide_width, deck.slide_height = SLIDE_W, SLIDE_H
    return deck


def _text(slide, text: str, top: int, height: int, size: int, colour: str, bold: bool = False) -> None:
    from pptx.dml.color import RGBColor
    from pptx.enum.text import PP_ALIGN
    from pptx.oxml.ns import qn
    from pptx.util import Pt

    if not text:
        return
    box = slide.shapes.add_textbox(int(SLIDE_W * 0.06), top, int(SLIDE_W * 0.88), height)
    frame = box.text_frame
    frame.word_wrap = True
    paragraph = frame.paragraphs[0]
    paragraph.alignment = PP_ALIGN.CENTER
    run = paragraph.add_run()
    run.text = text
    run.font.size, run.font.bold = Pt(size), bold
    run.font.color.rgb = RGBColor.from_string(colour)
    font = config.theme()["font"]
    run.font.name = font
    # CJK text takes its face from the east-Asian slot, which python-pptx does not expose.
    latin = run._r.get_or_add_rPr().get_or_add_latin()
    ea = latin.makeelement(qn("a:ea"), {"typeface": font})
    latin.addnext(ea)


def _card(slide, kicker: str, title: str, sub: str = "") -> None:
    _text(slide, kicker, int(SLIDE_H * 0.26), int(SLIDE_H * 0.1), 24, MUTED)
    _text(slide, title, int(SLIDE_H * 0.37), int(SLIDE_H * 0.25), 44, INK, bold=True)
    _text(slide, sub, int(SLIDE_H * 0.64), int(SLIDE_H * 0.2), 20, MUTED)


def card_text(cue: dict[str, Any], media: dict[str, Any] | None = None) -> tuple[str, str, str]:
    """Kicker, title and subtitle of a slide without a clip (same words as lecture mode)."""
    if cue["kind"] == "section":
        return ("全讲完", cue["title"], "") if cue.get("opens") is None else ("新的一节", cue["title"], "")
    if cue["kind"] == "title":
        return ("", cue["title"], "")
    kicker = "这一格还没有渲染" if cue.get("rendered") else "这张图还没有做好"
    return (kicker, f"{cue['scene']} · {view_label((media or {}).get('view', ''))}", cue.get("screen", ""))


def notes_text(cue: dict[str, Any], total: int) -> str:
    """The speaker's notes: the cue, its hints, then what is said and noted, in order."""
    parts = [f"🖥 {cue['text']}",
             f"第 {cue['index'] + 1} / {total} 条 · 讲稿第 {cue['line']} 行 · 估计 {clock(cue['estimated_s'])}（估算）"]
    parts += cue.get("hints") or []
    parts.append("")
    parts += [item.get("say", item.get("note", "")) for item in cue.get("script") or []]
    return "\n".join(parts)


class Posters:
    """The frame each clip's poster shows, made once per clip: a loop's first frame, otherwise
    the last (a panel's clip ends on the finished panel)."""

    def __init__(self, folder: Path):
        self.folder, self.made = folder, {}

    def __call__(self, clip: Path, loop: bool) -> Path:
        if clip not in self.made:
            target = self.folder / f"poster-{len(self.made)}.png"
            encode.poster(clip, target, first_frame=loop)
            self.made[clip] = target
        return self.made[clip]


def _figure_slide(slide, cue: dict[str, Any], quality_dir: Path, posters: Posters) -> None:
    views = cue.get("media") or []
    if not any(m.get("file") for m in views):
        _card(slide, *card_text(cue, views[0] if views else None))
        return
    count = len(views)
    width = SLIDE_W // count
    height = width * 9 // 16
    top = (SLIDE_H - height) // 2
    for position, media in enumerate(views):
        left = position * width
        if not media.get("file"):
            _text(slide, " · ".join(card_text(cue, media)[:2]), SLIDE_H // 2, SLIDE_H // 10, 20, WARM)
            continue
        clip = quality_dir / media["file"]
        if not clip.is_file():
            raise UsageError(f"{clip} is listed in manifest.json but missing; render again")
        poster = posters(clip, bool(media.get("loop")))
        slide.shapes.add_movie(str(clip), left, top, width, height,
                               poster_frame_image=str(poster), mime_type="video/mp4")
        if count > 1:
            _text(slide, view_label(media["view"]), max(0, top - SLIDE_H // 12), SLIDE_H // 14, 20, MUTED)


def build_deck(quality_dir: Path, sheet: dict[str, Any]) -> Path:
    """Write ``<quality_dir>/lecture.pptx`` from the published cue sheet; return its path."""
    deck = _presentation()
    blank = deck.slide_layouts[6]
    total = len(sheet["cues"])
    with tempfile.TemporaryDirectory(prefix="deck-posters-") as scratch:
        posters = Posters(Path(scratch))
        for cue in sheet["cues"]:
            slide = deck.slides.add_slide(blank)
            if cue["kind"] == "figure":
                _figure_slide(slide, cue, quality_dir, posters)
            else:
                _card(slide, *card_text(cue))
            slide.notes_slide.notes_text_frame.text = notes_text(cue, total)
        target = quality_dir / DECK_NAME
        fd, staged = tempfile.mkstemp(dir=quality_dir, prefix=f".{DECK_NAME}.", suffix=atomic.TMP_SUFFIX)
        try:
            with open(fd, "wb") as handle:
                deck.save(handle)
            atomic.publish(Path(staged), target)
        except BaseException:
            Path(staged).unlink(missing_ok=True)
            raise
    return target
