"""Text in the deck that has to fit its box in every client: how wide a line is, how many
lines a paragraph wraps to, and runs with their size and faces written out.

Impress draws a run with no size of its own at its own default (about 20 pt, not the notes
master's 12 pt) and shrinks nothing, so every run the deck writes carries its size, and the
size is chosen here, by measuring, so that the text fits before any client opens it.

The measure is on the generous side: a CJK character is one em wide, anything else 0.55 em
(Noto Sans CJK's Latin averages about 0.5 em), and a line is 1.32 em high (Impress draws
Noto Sans CJK at 1.2 em; PowerPoint, substituting Microsoft YaHei where Noto is missing,
at about 1.32 em). The client tests convert the deck with LibreOffice and check
that every page still shows its last line.
"""

from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass

from studio import config

EMU_PER_PT = 12_700
LINE_HEIGHT_EM = 1.32
NARROW_EM = 0.55
# The marks of the notes. Noto Color Emoji draws nothing in Impress 7.4's PDF export, so
# their runs name a plain symbol face; a client without it falls back to its own emoji font.
MARKS = frozenset("⭐⛔🖥⚠🎯✅❌")
MARK_FACE = "Symbola"
VARIATION_SELECTOR = "\ufe0f"
# A text frame's default insets (python-pptx and PowerPoint): 0.1 in left/right, 0.05 in top/bottom.
INSET_X, INSET_Y = 91_440, 45_720


@dataclass(frozen=True)
class Run:
    text: str
    bold: bool = False
    colour: str | None = None   # RRGGBB; None: the text frame's own


@dataclass(frozen=True)
class Paragraph:
    runs: tuple[Run, ...]

    @property
    def text(self) -> str:
        return "".join(run.text for run in self.runs)


def para(text: str, bold: bool = False, colour: str | None = None) -> Paragraph:
    return Paragraph((Run(text, bold, colour),))


def width_em(text: str) -> float:
    return sum(1.0 if unicodedata.east_asian_width(ch) in "WF" or ch in MARKS else NARROW_EM
               for ch in text if ch != VARIATION_SELECTOR)


def wrapped_lines(text: str, line_em: float) -> int:
    """Lines a paragraph takes in a box ``line_em`` ems wide (an empty one still takes one).
    Latin words move whole to the next line, which can leave up to a word's width unused:
    a twentieth of the line is kept for that."""
    return max(1, math.ceil(width_em(text) / (line_em * 0.95)))


def text_height_emu(paragraphs: list[Paragraph], box_width_emu: int, size_pt: float) -> int:
    line_em = (box_width_emu - 2 * INSET_X) / (size_pt * EMU_PER_PT)
    lines = sum(wrapped_lines(p.text, line_em) for p in paragraphs)
    return int(lines * size_pt * LINE_HEIGHT_EM * EMU_PER_PT) + 2 * INSET_Y


def fits(paragraphs: list[Paragraph], box_width_emu: int, box_height_emu: int, size_pt: float) -> bool:
    return text_height_emu(paragraphs, box_width_emu, size_pt) <= box_height_emu


def mark_pieces(text: str) -> list[tuple[str, bool]]:
    """``text`` cut into (piece, is_mark) runs, so the marks can take their own face."""
    pieces: list[tuple[str, bool]] = []
    for ch in text:
        is_mark = ch in MARKS or (ch == VARIATION_SELECTOR and bool(pieces) and pieces[-1][1])
        if pieces and pieces[-1][1] == is_mark:
            pieces[-1] = (pieces[-1][0] + ch, is_mark)
        else:
            pieces.append((ch, is_mark))
    return pieces


def _set_faces(run, face: str) -> None:
    """Latin, east-Asian and symbol faces of a run (python-pptx exposes only the Latin one)."""
    from pptx.oxml.ns import qn

    properties = run._r.get_or_add_rPr()
    for tag in ("a:latin", "a:ea", "a:cs", "a:sym"):
        for old in properties.findall(qn(tag)):
            properties.remove(old)
    # Schema order inside a:rPr: ln, fill…, latin, ea, cs, sym, then hlinks and extLst.
    anchor = next((child for child in properties if child.tag in (qn("a:hlinkClick"), qn("a:extLst"))), None)
    for tag in ("a:latin", "a:ea", "a:cs"):
        element = properties.makeelement(qn(tag), {"typeface": face})
        if anchor is None:
            properties.append(element)
        else:
            anchor.addprevious(element)


def write_paragraphs(frame, paragraphs: list[Paragraph], size_pt: float, align=None) -> None:
    """Replace ``frame``'s text with ``paragraphs``, every run at ``size_pt`` with its faces set."""
    from pptx.dml.color import RGBColor
    from pptx.util import Pt

    font = config.theme()["font"]
    frame.clear()
    for index, paragraph in enumerate(paragraphs):
        target = frame.paragraphs[0] if index == 0 else frame.add_paragraph()
        if align is not None:
            target.alignment = align
        for run_spec in paragraph.runs:
            for piece, is_mark in mark_pieces(run_spec.text) or [("", False)]:
                run = target.add_run()
                run.text = piece
                run.font.size, run.font.bold = Pt(size_pt), run_spec.bold
                run._r.get_or_add_rPr().set("lang", "zh-CN")  # line breaking and spelling: Chinese
                if run_spec.colour:
                    run.font.color.rgb = RGBColor.from_string(run_spec.colour)
                _set_faces(run, MARK_FACE if is_mark else font)
        # An empty paragraph's height comes from its end mark: size it like the runs.
        end = target._p.get_or_add_endParaRPr()
        end.set("sz", str(int(size_pt * 100)))
