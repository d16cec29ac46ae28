"""The lecture as a PowerPoint deck (``<out>/<quality>/lecture.pptx``), built with python-pptx.

One slide per step of the cue sheet (``cues.json``), in the notes' order: a step is what one
key press shows, so a figure cue gets a slide per beat of each view it shows, one view after
another, never side by side. Then the appendix (studio/present/deck_appendix.py).

- A step with a clip embeds it (H.264 MP4) full-slide, with the step's poster (the frame the
  beat ends on) as its picture, and starts it by itself when the slide is entered: the
  timing tree PowerPoint writes for a movie set to "Start: Automatically" (python-pptx
  writes one that waits for a click). A loop plays until the slide is left.
- A step whose scene is not rendered yet shows a placeholder naming it.
- A title card and each 本节主屏 marker are a card with the cue sheet's own title.
- Every slide's notes hold its lines, hints and errata, sized to fit their notes page
  (studio/present/deck_notes.py).

Posters are stored as JPEG (a PNG poster is converted), so a slide per beat stays small.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from studio import atomic
from studio.media import encode
from studio.present.deck_appendix import add_appendix
from studio.present.deck_notes import notes_paragraphs, write_notes
from studio.present.deck_text import para, write_paragraphs
from studio.errors import UsageError
from studio.track.labels import view_label

DECK_NAME = "lecture.pptx"
SLIDE_W, SLIDE_H = 12_192_000, 6_858_000  # 16:9 in EMU (13.333 × 7.5 inches)
INK, MUTED = "1A1A1A", "6B6B6B"
# A poster shows only until its clip starts (the clip then shows its own frames, and holds
# its last one), and on printed pages: 1280 px across is enough for both. A dense 1080p
# frame is ~0.5 MB as PNG, ~0.2 MB as JPEG, ~0.11 MB as this JPEG (fig-vote Ⓑ, fig-step Ⓐ).
POSTER_MAX_WIDTH = 1280
POSTER_JPEG_QUALITY = 85


def _presentation():
    try:
        from pptx import Presentation
    except ImportError:
        raise UsageError("--pptx needs python-pptx (pip install python-pptx, or scripts/setup.sh)") from None
    deck = Presentation()
    deck.slide_width, deck.slide_height = SLIDE_W, SLIDE_H
    return deck


def add_text(slide, text: str, top: int, height: int, size: int, colour: str, bold: bool = False) -> None:
    from pptx.enum.text import PP_ALIGN

    if not text:
        return
    box = slide.shapes.add_textbox(int(SLIDE_W * 0.06), top, int(SLIDE_W * 0.88), height)
    box.text_frame.word_wrap = True
    write_paragraphs(box.text_frame, [para(text, bold, colour)], size, align=PP_ALIGN.CENTER)


def add_card(slide, kicker: str, title: str, sub: str = "") -> None:
    add_text(slide, kicker, int(SLIDE_H * 0.26), int(SLIDE_H * 0.1), 24, MUTED)
    add_text(slide, title, int(SLIDE_H * 0.37), int(SLIDE_H * 0.25), 44, INK, bold=True)
    add_text(slide, sub, int(SLIDE_H * 0.64), int(SLIDE_H * 0.2), 20, MUTED)


def card_text(cue: dict[str, Any], step: dict[str, Any] | None = None) -> tuple[str, str, str]:
    """Kicker, title and subtitle of a slide without a clip (same words as lecture mode)."""
    if cue["kind"] == "section":
        return ("全讲完" if cue.get("opens") is None else "新的一节", cue["title"], "")
    if cue["kind"] == "title":
        return ("", cue["title"], "")
    kicker = "这一格还没有渲染" if cue.get("rendered") else "这张图还没有做好"
    step = step or {}
    beat = f" · 第 {step['beat']} 拍" if step.get("beat") else ""
    return (kicker, f"{cue['scene']} · {view_label(step.get('view') or '')}{beat}", cue.get("screen", ""))


def steps_of(cue: dict[str, Any]) -> list[dict[str, Any]]:
    """What the cue's key presses show. A card is one step holding every line of its script."""
    if cue["kind"] != "figure":
        return cue.get("steps") or [{"file": None, "lines": list(range(len(cue.get("script") or []))),
                                     "errata": cue.get("errata") or [], "estimated_s": cue["estimated_s"]}]
    if not cue.get("steps"):
        raise UsageError(f"cues.json: the figure cue at notes line {cue['line']} has no steps; render again")
    return cue["steps"]


# ---- movies that start by themselves ---------------------------------------------------

_P = "http://schemas.openxmlformats.org/presentationml/2006/main"

# PowerPoint's timing for one movie set to "Start: Automatically": the main sequence's first
# step begins with the slide (onBegin of the sequence, delay 0) and holds one effect, after
# the previous one (afterEffect), of class mediacall: playFrom(0.0) for the clip's length.
# Below it, the media node PowerPoint pairs with every movie (repeatCount: loop until stopped).
AUTOSTART_TIMING = """\
<p:timing xmlns:p="{ns}"><p:tnLst><p:par>
<p:cTn id="1" dur="indefinite" restart="never" nodeType="tmRoot"><p:childTnLst>
<p:seq concurrent="1" nextAc="seek"><p:cTn id="2" dur="indefinite" nodeType="mainSeq"><p:childTnLst>
<p:par><p:cTn id="3" fill="hold"><p:stCondLst><p:cond delay="indefinite"/><p:cond evt="onBegin" delay="0"><p:tn val="2"/></p:cond></p:stCondLst><p:childTnLst>
<p:par><p:cTn id="4" fill="hold"><p:stCondLst><p:cond delay="0"/></p:stCondLst><p:childTnLst>
<p:par><p:cTn id="5" presetID="1" presetClass="mediacall" presetSubtype="0" fill="hold" nodeType="afterEffect"><p:stCondLst><p:cond delay="0"/></p:stCondLst><p:childTnLst>
<p:cmd type="call" cmd="playFrom(0.0)"><p:cBhvr><p:cTn id="6" dur="{duration_ms}" fill="hold"/><p:tgtEl><p:spTgt spid="{spid}"/></p:tgtEl></p:cBhvr></p:cmd>
</p:childTnLst></p:cTn></p:par>
</p:childTnLst></p:cTn></p:par>
</p:childTnLst></p:cTn></p:par>
</p:childTnLst></p:cTn>
<p:prevCondLst><p:cond evt="onPrev" delay="0"><p:tgtEl><p:sldTgt/></p:tgtEl></p:cond></p:prevCondLst>
<p:nextCondLst><p:cond evt="onNext" delay="0"><p:tgtEl><p:sldTgt/></p:tgtEl></p:cond></p:nextCondLst>
</p:seq>
<p:video><p:cMediaNode vol="80000"><p:cTn id="7" fill="hold" display="0"{repeat}><p:stCondLst><p:cond delay="indefinite"/></p:stCondLst></p:cTn><p:tgtEl><p:spTgt spid="{spid}"/></p:tgtEl></p:cMediaNode></p:video>
</p:childTnLst></p:cTn>
</p:par></p:tnLst></p:timing>"""


def start_automatically(slide, movie, duration_s: float, loop: bool) -> None:
    """Replace the click-to-play timing python-pptx wrote for ``movie`` with PowerPoint's
    start-automatically tree."""
    from lxml import etree

    xml = AUTOSTART_TIMING.format(ns=_P, spid=movie.shape_id, duration_ms=max(1, round(duration_s * 1000)),
                                  repeat=' repeatCount="indefinite"' if loop else "")
    timing = etree.fromstring(xml.replace("\n", ""))
    root = slide._element
    for old in root.findall(f"{{{_P}}}timing"):
        root.remove(old)
    # p:timing follows p:transition and precedes p:extLst in a slide.
    ext = root.find(f"{{{_P}}}extLst")
    if ext is None:
        root.append(timing)
    else:
        ext.addprevious(timing)


# ---- posters ---------------------------------------------------------------------------

class Posters:
    """Each poster as a compact JPEG, made once: a published JPEG as it is when it is small
    enough, anything else converted (and scaled down); a step without a poster gets its
    clip's last frame (a loop's first)."""

    def __init__(self, folder: Path):
        self.folder, self.made = folder, {}

    def __call__(self, quality_dir: Path, step: dict[str, Any]) -> Path:
        source = quality_dir / step["poster"] if step.get("poster") else quality_dir / step["file"]
        if source not in self.made:
            self.made[source] = self._make(source, step)
        return self.made[source]

    def _make(self, source: Path, step: dict[str, Any]) -> Path:
        if not source.is_file():
            raise UsageError(f"{source} is listed in cues.json but missing; render again")
        if source.suffix.lower() == ".mp4":
            frame = self.folder / f"frame-{len(self.made)}.png"
            encode.poster(source, frame, first_frame=bool(step.get("loop")))
            source = frame
        return compact_jpeg(source, self.folder / f"poster-{len(self.made)}.jpg")


def compact_jpeg(source: Path, target: Path) -> Path:
    """``source`` itself when it is a JPEG no wider than POSTER_MAX_WIDTH, else ``target``:
    the picture as such a JPEG."""
    from PIL import Image

    with Image.open(source) as image:
        if image.format == "JPEG" and image.width <= POSTER_MAX_WIDTH:
            return source
        picture = image.convert("RGB")
        if picture.width > POSTER_MAX_WIDTH:
            height = round(picture.height * POSTER_MAX_WIDTH / picture.width)
            picture = picture.resize((POSTER_MAX_WIDTH, height), Image.LANCZOS)
        picture.save(target, "JPEG", quality=POSTER_JPEG_QUALITY, optimize=True)
    return target


# ---- slides ----------------------------------------------------------------------------

def _movie_slide(slide, step: dict[str, Any], quality_dir: Path, posters: Posters) -> None:
    clip = quality_dir / step["file"]
    if not clip.is_file():
        raise UsageError(f"{clip} is listed in cues.json but missing; render again")
    movie = slide.shapes.add_movie(str(clip), 0, 0, SLIDE_W, SLIDE_H,
                                   poster_frame_image=str(posters(quality_dir, step)), mime_type="video/mp4")
    start_automatically(slide, movie, encode.probe(clip)["duration_s"], bool(step.get("loop")))


def _step_slide(deck, cue: dict[str, Any], step: dict[str, Any], quality_dir: Path, posters: Posters):
    slide = deck.slides.add_slide(deck.slide_layouts[6])
    if step.get("file"):
        _movie_slide(slide, step, quality_dir, posters)
    else:
        add_card(slide, *card_text(cue, step))
    return slide


def add_talk(deck, sheet: dict[str, Any], quality_dir: Path, posters: Posters) -> None:
    """A slide per step of every cue, with its notes."""
    total = len(sheet["cues"])
    for cue in sheet["cues"]:
        steps = steps_of(cue)
        for number, step in enumerate(steps, start=1):
            slide = _step_slide(deck, cue, step, quality_dir, posters)
            write_notes(slide, notes_paragraphs(cue, step, (number, len(steps)), total))


def build_deck(quality_dir: Path, sheet: dict[str, Any], ledger: dict[str, dict[str, Any]] | None = None) -> Path:
    """Write ``<quality_dir>/lecture.pptx`` from the published cue sheet and the ledger (by
    default the ledger of every scene, from lecture_numerics.ledger); return its path."""
    deck = _presentation()
    with tempfile.TemporaryDirectory(prefix="deck-posters-") as scratch:
        add_talk(deck, sheet, quality_dir, Posters(Path(scratch)))
        add_appendix(deck, sheet, ledger if ledger is not None else _lecture_ledger())
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


def _lecture_ledger() -> dict[str, dict[str, Any]]:
    from lecture_numerics.ledger import ledger_entries
    from studio.engine import registry

    return ledger_entries({sid: e.ledger_keys for sid, e in registry.discover().items()})
