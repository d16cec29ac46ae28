"""The colour key: what each theme colour means across the whole lecture, published on the
rehearsal page and in the deck's appendix so the room and the speaker read colours one way.

It is read from config/theme.yaml (``colors`` and ``meanings``), the same file the figures are
drawn from, so the key cannot drift from the pictures.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from lecture_numerics import config_files

KEY_TITLE = "颜色的意思（全讲统一）"
KEY_LEAD = "每种颜色只表示一件事；浅灰表示不活跃或已经释放。"


@dataclass(frozen=True)
class KeyEntry:
    role: str
    line: str       # #RRGGBB, the colour lines and fills are drawn in
    text: str       # #RRGGBB, the darker variant text is set in
    meaning: str


def colour_key() -> list[KeyEntry]:
    """One entry per colour role, in the theme's order (surface fills are not meanings)."""
    theme = config_files.theme()
    return [KeyEntry(role, colour, theme["text_colors"][role], theme["meanings"][role])
            for role, colour in theme["colors"].items() if role not in theme["fills"]]


def colour_key_html() -> str:
    rows = "".join(
        f'<li data-role="{e.role}"><span class="swatch" style="background:{e.line}"></span>'
        f'<span class="meaning" style="color:{e.text}">{escape(e.meaning)}</span></li>' for e in colour_key())
    return (f'<section class="colour-key" id="colour-key"><h2>{KEY_TITLE}</h2>'
            f'<p class="meta">{KEY_LEAD}</p><ul>{rows}</ul></section>')


def add_colour_key_slide(deck, layout) -> None:
    """A slide of swatches, each with its meaning in the colour's text variant."""
    from pptx.dml.color import RGBColor
    from pptx.enum.shapes import MSO_SHAPE
    from pptx.util import Emu, Pt

    slide = deck.slides.add_slide(layout)
    inch = 914_400
    title = slide.shapes.add_textbox(Emu(inch // 2), Emu(inch * 3 // 10), Emu(inch * 12), Emu(inch * 7 // 10))
    title.text_frame.text = KEY_TITLE
    title.text_frame.paragraphs[0].runs[0].font.size = Pt(24)
    title.text_frame.paragraphs[0].runs[0].font.bold = True
    entries = colour_key()
    rows = (len(entries) + 1) // 2
    row_h = Emu(int(inch * 5.6 / rows))
    for index, entry in enumerate(entries):
        column, row = divmod(index, rows)
        left, top = Emu(inch // 2 + column * inch * 6), Emu(int(inch * 1.3) + row * row_h)
        swatch = slide.shapes.add_shape(MSO_SHAPE.ROUNDED_RECTANGLE, left, top, Emu(inch * 6 // 10), Emu(inch * 4 // 10))
        swatch.fill.solid()
        swatch.fill.fore_color.rgb = RGBColor.from_string(entry.line[1:])
        swatch.line.fill.background()
        label = slide.shapes.add_textbox(Emu(left + inch * 8 // 10), top, Emu(inch * 5), Emu(inch * 4 // 10))
        label.text_frame.text = entry.meaning
        run = label.text_frame.paragraphs[0].runs[0]
        run.font.size, run.font.color.rgb = Pt(18), RGBColor.from_string(entry.text[1:])
    slide.notes_slide.notes_text_frame.text = KEY_LEAD
