"""A slide's speaker notes: what they say, and how they are laid out on the notes page.

What they say, in order: what the 🖥 cue line puts on screen (for a section card, the cue
sheet gives the line of the section it opens); where the slide stands (cue, step, notes
line, estimated time); the 讲稿勘误 (errata) of this step, in red, before anything else is
read; the cue line's ⭐/⛔ hints (on its first step: they are said as the screen appears);
本屏数字, the numbers on screen as the beat ends, each with its kind (查来的 / 推来的 / 示例取值
/ 待核) and where it comes from (studio/track/number_sources.py); then the lines of the script that
belong to this step, spoken lines and stage notes alike.

How they are laid out: the notes page holds a picture of the slide above the notes. The
largest type that fits is chosen, shrinking the picture before the type drops below 10 pt
(the notes page is read from paper or a second screen; the presenter view scrolls anyway).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from studio.present.deck_text import Paragraph, Run, fits, para, write_paragraphs
from studio.track.labels import clock, view_label

ERRATUM_RED, MUTED = "C00000", "595959"
NUMBERS_TITLE = "本屏数字："
LONG_SOURCE = 90   # characters of a number's provenance line in the notes (the appendix has it whole)

# The notes page (python-pptx's default notes master): 7.5 × 10 in, portrait.
PAGE_W, PAGE_H = 6_858_000, 9_144_000
MARGIN = 457_200                      # 0.5 in
BODY_BOTTOM = PAGE_H - 640_080        # above the page-number footer
SLIDE_ASPECT = 9 / 16


@dataclass(frozen=True)
class NotesLayout:
    picture_width: int    # EMU; 0: no picture of the slide
    size_pt: float

    @property
    def picture_height(self) -> int:
        return int(self.picture_width * SLIDE_ASPECT)

    @property
    def body_top(self) -> int:
        return MARGIN + self.picture_height + (MARGIN // 2 if self.picture_width else 0)

    @property
    def body_height(self) -> int:
        return BODY_BOTTOM - self.body_top


BODY_WIDTH = PAGE_W - 2 * MARGIN
# Tried in order; the first that fits is used. Type first, then the picture, then type again.
LAYOUTS = tuple(NotesLayout(width, size) for width, size in (
    *((4_572_000, s) for s in (12, 11, 10)),         # PowerPoint's own picture: 5 in wide
    *((2_743_200, s) for s in (12, 11, 10)),         # 3 in
    *((1_828_800, s) for s in (10, 9, 8)),           # 2 in
    (0, 8), (0, 7),
))


def erratum_text(erratum: dict[str, Any]) -> str:
    """A 改口 as the deck's notes say it: what the notes say, the headline, the sentence to say instead."""
    say = f"，改说「{erratum['say']}」" if erratum.get("say") else ""
    return (f"⚠ 讲稿勘误：L{erratum['line']} 讲稿说 {erratum['said']}，应为 {erratum['right']}{say}"
            f" —— {erratum['why']}")


def number_paragraph(index: int, number: dict[str, Any]) -> Paragraph:
    """「1. 9.76 TiB〔推来的〕V3 的模型状态 —— 公式：671B × 16 字节 ÷ 1024⁴」."""
    source = " ".join(str(number.get("source") or "").split())
    source = source if len(source) <= LONG_SOURCE else source[: LONG_SOURCE - 1] + "…"
    measures = f"{number['measures']} " if number.get("measures") else ""
    return Paragraph((Run(f"{index}. {number.get('value') or number['key']}", bold=True),
                      Run(f"〔{number['kind']}〕"), Run(f"{measures}—— {source}", colour=MUTED)))


def numbers_paragraphs(step: dict[str, Any]) -> list[Paragraph]:
    numbers = [n for n in step.get("numbers") or [] if isinstance(n, dict)]
    if not numbers:
        return []
    return [para(NUMBERS_TITLE, bold=True)] + [number_paragraph(i, n) for i, n in enumerate(numbers, start=1)]


def where_text(cue: dict[str, Any], step: dict[str, Any], position: tuple[int, int], total: int) -> str:
    """「第 3 / 65 条 · 第 2 / 4 步 Ⓐ 第 2 拍 · 讲稿第 123 行 · 估计 12 秒（估算） · 排练 10 秒」
    (the rehearsed time when a rehearsal's timings were given)."""
    number, steps = position
    parts = [f"第 {cue['index'] + 1} / {total} 条"]
    if steps > 1:
        view = f" {view_label(step['view'])}" if step.get("view") else ""
        beat = f" 第 {step['beat']} 拍" if step.get("beat") else ""
        parts.append(f"第 {number} / {steps} 步{view}{beat}")
    parts.append(f"讲稿第 {cue['line']} 行")
    parts.append(f"估计 {clock(step.get('estimated_s', cue['estimated_s']))}（估算）")
    if step.get("rehearsed_s") is not None:
        parts.append(f"排练 {clock(step['rehearsed_s'])}")
    return " · ".join(parts)


def notes_paragraphs(cue: dict[str, Any], step: dict[str, Any], position: tuple[int, int],
                     total: int) -> list[Paragraph]:
    script = cue.get("script") or []
    paragraphs = [para(f"🖥 {cue.get('screen') or cue['text']}", bold=True),
                  para(where_text(cue, step, position, total), colour=MUTED)]
    paragraphs += [para(erratum_text(e), bold=True, colour=ERRATUM_RED) for e in step.get("errata") or []]
    if position[0] == 1:
        paragraphs += [para(hint) for hint in cue.get("hints") or []]
    paragraphs += numbers_paragraphs(step)
    paragraphs.append(para(""))
    for index in step.get("lines") or []:
        item = script[index]
        said = "say" in item
        paragraphs.append(Paragraph((Run(item["say"] if said else item["note"], colour=None if said else MUTED),)))
    return paragraphs


def choose_layout(paragraphs: list[Paragraph]) -> NotesLayout:
    """The first layout of LAYOUTS the notes fit in (the last one when none does)."""
    for layout in LAYOUTS:
        if fits(paragraphs, BODY_WIDTH, layout.body_height, layout.size_pt):
            return layout
    return LAYOUTS[-1]


def write_notes(slide, paragraphs: list[Paragraph]) -> NotesLayout:
    """The slide's notes page: its picture and notes placed and sized so that they fit."""
    from pptx.enum.shapes import PP_PLACEHOLDER

    layout = choose_layout(paragraphs)
    notes = slide.notes_slide
    picture = next(p for p in notes.placeholders if p.placeholder_format.type == PP_PLACEHOLDER.SLIDE_IMAGE)
    if layout.picture_width:
        picture.left, picture.top = (PAGE_W - layout.picture_width) // 2, MARGIN
        picture.width, picture.height = layout.picture_width, layout.picture_height
    else:
        picture._element.getparent().remove(picture._element)
    body = notes.notes_placeholder
    body.left, body.top, body.width, body.height = MARGIN, layout.body_top, BODY_WIDTH, layout.body_height
    frame = body.text_frame
    frame.word_wrap = True
    write_paragraphs(frame, paragraphs, layout.size_pt)
    return layout
