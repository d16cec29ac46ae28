"""The deck's appendix (「课件最后新加了一节附录」): every number of the ledger, by kind and then
by the lecture section it is first shown in, each with where it comes from.

- 查来的: looked up; its citation.
- 推来的: derived; its formula and named inputs with their values (each input is listed too).
- 示例取值: chosen for a figure; why this value.
- 待核: cited but not confirmed, or computed from such a number; the citation as it stands.

Within its kind, each number sits in the section where the talk first shows it, in the order
of first appearance, and names the slide, cue and beat where that is (「首次出现：第 37 页 ·
L412 fig-step Ⓐ 第 1 拍」), so a question from the room is one jump from the appendix to the
slide. A number no step shows belongs to the section whose script says it (a number only the
notes say), or else to the first section that shows a number made from it (an input). Each
number is described in Chinese (lecture_numerics/ledger_zh.py). Pages are filled by
measuring at 14 pt, so nothing is shrunk below that.
"""

from __future__ import annotations

from typing import Any

from studio.present.colour_key import KEY_LEAD, KEY_TITLE, colour_key
from studio.present.deck_text import EMU_PER_PT, Paragraph, Run, para, text_height_emu, write_paragraphs
from studio.track.number_sources import kind_of, readable, shown_at, value_text, where_text

APPENDIX_TITLE = "附录：每个数字从哪来"
KINDS = (
    ("查来的", "查到的事实，每个带出处"),
    ("推来的", "自己算的，每个带公式和输入"),
    ("示例取值", "为了讲清楚而取的值，每个带取值的理由"),
    ("待核", "有出处但还没核实的（或由这样的数算出来的）"),
)
UNCONFIRMED = "待核"
NO_SECTION = "未在任何一节出现"
TEXT_PT, TITLE_PT, KEY_PT = 14, 24, 18
INK, MUTED, ACCENT = "1A1A1A", "595959", "B35900"
# The slide (13.333 × 7.5 in): a title band, then the text box below it.
BOX_LEFT, BOX_TOP, BOX_WIDTH, BOX_BOTTOM = 411_480, 960_120, 11_369_040, 6_583_680
LONG_DISPLAY, LONG_INPUT = 60, 28


def _short(text: Any, limit: int) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _value(entry: dict[str, Any]) -> str:
    return _short(value_text(entry), LONG_DISPLAY) or "（无值）"


def _inputs(entry: dict[str, Any]) -> str:
    from lecture_numerics.ledger_zh import unit_zh

    return "；".join(f"{name} = {_short(readable(dep['display']), LONG_INPUT)} {unit_zh(dep['unit'])}".rstrip()
                     for name, dep in (entry.get("inputs") or {}).items())


def source_text(entry: dict[str, Any]) -> str:
    """Where the number comes from, in the words of its kind."""
    if entry["kind"] == "missing":
        return "没有定义：lecture_numerics 里没有这个键"
    if entry["kind"] == "derived":
        inputs = _inputs(entry)
        doubt = "（由待核的输入推出）" if entry.get("status") == UNCONFIRMED else ""
        said = f"{readable(entry['formula_zh'])}　即 " if entry.get("formula_zh") else ""
        return f"公式：{said}{readable(entry['formula'])}{doubt}" + (f"　输入：{inputs}" if inputs else "")
    if entry["kind"] == "chosen":
        quote = f"　讲稿：「{entry['notes_quote']}」" if entry.get("notes_quote") else ""
        return f"理由：{entry.get('reason_zh') or entry['reason']}{quote}"
    label = "出处（未核实）" if entry.get("status") == UNCONFIRMED else "出处"
    return f"{label}：{entry['citation']}"


FIRST_SHOWN = "首次出现："


def shown_text(entry: dict[str, Any]) -> str:
    """Where the talk first shows the number (slide, cue line, scene and beat), and how many
    other beats show it: 「首次出现：第 37 页 · L412 fig-step Ⓐ 第 1 拍（另有 3 拍）」."""
    places = entry.get("shown_at") or []
    if not places:
        return ""
    more = f"（另有 {len(places) - 1} 拍）" if len(places) > 1 else ""
    return f"{FIRST_SHOWN}{where_text(places[0])}{more}"


def entry_paragraphs(entry: dict[str, Any]) -> list[Paragraph]:
    head = [Run(_value(entry), bold=True)]
    measures = entry.get("measures_zh") or entry.get("measures")
    if measures:
        head.append(Run(f"　{measures}"))
    head.append(Run(f"　{entry['key']}", colour=MUTED))
    paragraphs = [Paragraph(tuple(head)), para(source_text(entry), colour=MUTED)]
    if shown_text(entry):
        paragraphs.append(para(shown_text(entry), colour=ACCENT))
    return paragraphs


# ---- sections ----------------------------------------------------------------------------

def scene_sections(sheet: dict[str, Any]) -> dict[str, int]:
    """Each scene's first section in the talk (a section's main figure counts as shown there)."""
    first: dict[str, int] = {}
    for cue in sheet["cues"]:
        shown = cue.get("scene") if cue["kind"] == "figure" else cue.get("main_figure")
        if shown and shown not in first:
            first[shown] = cue["section"]
    return first


def quote_section(quote: str, sheet: dict[str, Any]) -> int | None:
    """The section of the first cue whose script holds ``quote`` (a number only the notes say)."""
    quote = quote.strip()
    for cue in sheet["cues"] if quote else []:
        if any(quote in (item.get("say") or item.get("note") or "") for item in cue.get("script") or []):
            return cue["section"]
    return None


def entry_sections(entries: dict[str, dict[str, Any]], sheet: dict[str, Any]) -> dict[str, int | None]:
    """Each entry's section: where a step of the talk first shows it; else the first one of
    its scenes; else, for a number only the notes say, the section where they say it; else
    the first section of a number derived from it; None when there is none."""
    order = [s["number"] for s in sheet["sections"]]
    by_scene = scene_sections(sheet)
    cue_section = {c.get("index"): c.get("section") for c in sheet["cues"]}
    seen = shown_at(sheet)
    users: dict[str, list[str]] = {}
    for key, entry in entries.items():
        for dep in (entry.get("inputs") or {}).values():
            users.setdefault(dep["key"], []).append(key)
    found: dict[str, int | None] = {}

    def section_of(key: str) -> int | None:  # derivations form no cycles
        if key not in found:
            entry = entries[key]
            candidates = [cue_section[seen[key][0]["cue"]]] if key in seen else []
            candidates = [c for c in candidates if c in order] or [by_scene[s] for s in entry["scenes"] if s in by_scene]
            if not candidates:
                said = quote_section(entry.get("notes_quote") or "", sheet)
                candidates = [said] if said is not None else [
                    s for user in users.get(key, []) if (s := section_of(user)) is not None]
            found[key] = min(candidates, key=order.index) if candidates else None
        return found[key]

    for key in entries:
        section_of(key)
    return found


def grouped(entries: dict[str, dict[str, Any]], sheet: dict[str, Any]) -> dict[str, list[tuple[str, list[dict]]]]:
    """kind → [(section heading, its entries)], sections in the talk's order, and within a
    section the numbers in the order the talk first shows them (those it never shows after,
    as the ledger lists them). Each entry carries ``shown_at``: the steps that show it."""
    sections = entry_sections(entries, sheet)
    titles = {s["number"]: s["title"] for s in sheet["sections"]}
    order = [*titles, None]
    seen = shown_at(sheet)
    never = float("inf")
    ordered = sorted(entries.values(), key=lambda e: seen[e["key"]][0]["slide"] if e["key"] in seen else never)
    ordered = [{**e, "shown_at": seen.get(e["key"], [])} for e in ordered]
    result: dict[str, list[tuple[str, list[dict]]]] = {}
    for kind, _ in KINDS:
        chosen = [e for e in ordered if kind_of(e) == kind]
        groups = [(titles.get(number, NO_SECTION), [e for e in chosen if sections[e["key"]] == number])
                  for number in order]
        result[kind] = [(title, rows) for title, rows in groups if rows]
    return result


# ---- pages -------------------------------------------------------------------------------

def _height(paragraphs: list[Paragraph]) -> int:
    return text_height_emu(paragraphs, BOX_WIDTH, TEXT_PT)


def paginate(groups: list[tuple[str, list[dict]]]) -> list[list[Paragraph]]:
    """The kind's text cut into pages that fit the box at 14 pt. An entry never splits, a
    heading never ends a page, and a section that runs on repeats its heading (续)."""
    room = BOX_BOTTOM - BOX_TOP
    pages: list[list[Paragraph]] = [[]]
    for title, rows in groups:
        heading = para(title, bold=True, colour=ACCENT)
        for index, entry in enumerate(rows):
            block = entry_paragraphs(entry)
            lead = [heading] if index == 0 else []
            if pages[-1] and _height(pages[-1] + lead + block) > room:
                pages.append([])
            if not pages[-1] and index > 0:
                lead = [para(f"{title}（续）", bold=True, colour=ACCENT)]
            pages[-1] += lead + block
    return [page for page in pages if page]


def _title(slide, text: str) -> None:
    box = slide.shapes.add_textbox(BOX_LEFT, int(0.3 * 914_400), BOX_WIDTH, TITLE_PT * 2 * EMU_PER_PT)
    box.text_frame.word_wrap = True
    write_paragraphs(box.text_frame, [para(text, bold=True, colour=INK)], TITLE_PT)


def _body(slide, paragraphs: list[Paragraph]) -> None:
    box = slide.shapes.add_textbox(BOX_LEFT, BOX_TOP, BOX_WIDTH, BOX_BOTTOM - BOX_TOP)
    box.text_frame.word_wrap = True
    write_paragraphs(box.text_frame, paragraphs, TEXT_PT)


def _notes(slide, text: str) -> None:
    write_paragraphs(slide.notes_slide.notes_text_frame, [para(text)], 12)


def add_colour_key(deck, layout) -> None:
    """The colour key as a slide: a swatch per colour, its meaning beside it in the colour's
    text variant, two columns."""
    from pptx.dml.color import RGBColor
    from pptx.enum.shapes import MSO_SHAPE

    slide = deck.slides.add_slide(layout)
    _title(slide, KEY_TITLE)
    entries = colour_key()
    rows = (len(entries) + 1) // 2
    row_h = (BOX_BOTTOM - BOX_TOP) // rows
    swatch_w, swatch_h, column_w = 548_640, 365_760, BOX_WIDTH // 2
    for index, entry in enumerate(entries):
        column, row = divmod(index, rows)
        left, top = BOX_LEFT + column * column_w, BOX_TOP + row * row_h
        swatch = slide.shapes.add_shape(MSO_SHAPE.ROUNDED_RECTANGLE, left, top, swatch_w, swatch_h)
        swatch.fill.solid()
        swatch.fill.fore_color.rgb = RGBColor.from_string(entry.line[1:])
        swatch.line.fill.background()
        label = slide.shapes.add_textbox(left + swatch_w + 182_880, top, column_w - swatch_w - 182_880, swatch_h)
        write_paragraphs(label.text_frame, [para(entry.meaning, colour=entry.text[1:])], KEY_PT)
    _notes(slide, KEY_LEAD)


def add_appendix(deck, sheet: dict[str, Any], entries: dict[str, dict[str, Any]]) -> int:
    """The appendix slides after the talk; returns how many were added."""
    groups = grouped(entries, sheet)
    blank = deck.slide_layouts[6]
    opener = deck.slides.add_slide(blank)
    _title(opener, APPENDIX_TITLE)
    counts = [para(f"{kind}　{sum(len(rows) for _, rows in groups[kind])} 个 — {meaning}")
              for kind, meaning in KINDS]
    _body(opener, [para("按讲的顺序：每个数字排在它第一次出现的那一节，按出现先后，注明第几页、哪一拍；"
                        "每个数字带出处，或带公式和输入，或带取值的理由。", colour=MUTED), *counts])
    _notes(opener, "台上不用念；被追问某个数从哪来时，翻到这一节。")
    add_colour_key(deck, blank)
    added = 2
    for kind, meaning in KINDS:
        pages = paginate(groups[kind])
        for number, page in enumerate(pages, start=1):
            slide = deck.slides.add_slide(blank)
            _title(slide, f"附录 · {kind}（{number} / {len(pages)}）")
            _body(slide, page)
            _notes(slide, f"附录 · {kind}：{meaning}")
            added += 1
    return added
