"""「这个数从哪来？」: each number on screen as the room is told where it comes from.

One record per ledger key, built from a ledger entry (lecture_numerics.ledger) for the places
that answer the question: the presenter window's 「本屏数字」, the provenance card projected on
request, the deck's notes and appendix, the page's ledger. A record says

- ``value``: the number as drawn, with its unit as the room reads it;
- ``kind``: 查来的 / 推来的 / 示例取值 / 待核 (``kind_of``: 待核 wins, whatever the entry's kind);
- ``measures``: what it is, in Chinese (lecture_numerics/ledger_zh.py);
- ``source``: one line of provenance: the citation, the formula, or the reason;
- by kind, the card's detail: ``citation``; ``formula`` (as said aloud where ledger_zh writes
  it, else the code's formula with the inputs' values in it, else the code's formula) and
  ``inputs``, each input a record one level down (value, kind, measures, source); ``reason``
  and the notes' ``quote``.

Text for the screen never carries e-notation: 2.2e-04 reads 2.2×10⁻⁴, 2^40 reads 2⁴⁰.
"""

from __future__ import annotations

import re
from typing import Any

from studio.track.labels import view_label

Entry = dict[str, Any]
Ledger = dict[str, Entry]

UNCONFIRMED = "待核"
KINDS = ("查来的", "推来的", "示例取值", "待核")
# The page's tag classes (page.css .kind-…), one per kind.
KIND_CLASSES = {"查来的": "sourced", "推来的": "derived", "示例取值": "chosen", "待核": "unconfirmed"}
MISSING = "账本里没有这个数"
LONG_VALUE = 48          # a sequence's items beyond this many characters are cut with …
SUBSTITUTE_UP_TO = 6     # inputs: a formula with more is shown as written, not with values in it

_SUPERSCRIPT = str.maketrans("0123456789-−+", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁻⁺")
_E_NOTATION = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)[eE]([+-]?)(\d+)(?![\w.])")
_CARET = re.compile(r"\^\(?([−-]?\d+)\)?(?![\w.])")


def kind_of(entry: Entry) -> str:
    """查来的 / 推来的 / 示例取值, or 待核 for a citation not yet checked (or a number derived
    from one) and for a key the ledger lacks."""
    if entry.get("kind") in (None, "missing") or entry.get("status") == UNCONFIRMED:
        return UNCONFIRMED
    return {"sourced": "查来的", "derived": "推来的", "chosen": "示例取值"}.get(entry["kind"], UNCONFIRMED)


def readable(text: Any) -> str:
    """Text for the screen: 2.2e-04 → 2.2×10⁻⁴, 1e-08 → 1×10⁻⁸, 2^40 → 2⁴⁰."""
    def power(m: re.Match) -> str:
        exponent = int(m.group(3)) * (-1 if m.group(2) == "-" else 1)
        return f"{m.group(1)}×10{str(exponent).translate(_SUPERSCRIPT)}"

    text = _E_NOTATION.sub(power, str(text))
    return _CARET.sub(lambda m: m.group(1).translate(_SUPERSCRIPT), text)


LONG_CITATION = 160      # characters of a citation the room is shown; the appendix has it whole


def citation_head(citation: Any) -> str:
    """The reference itself (paper, table or section), without the research notes after it:
    the citation up to its first top-level 「;」, cut at a word with 「…」 past LONG_CITATION."""
    text, depth = " ".join(str(citation or "").split()), 0
    for at, ch in enumerate(text):
        depth += {"(": 1, "（": 1, ")": -1, "）": -1}.get(ch, 0)
        if ch == ";" and depth == 0:
            text = text[:at]
            break
    if len(text) <= LONG_CITATION:
        return text
    cut = text[:LONG_CITATION].rsplit(" ", 1)[0].rstrip(",;:（(")
    return cut + " …"


def _short(text: str, limit: int) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _joins_without_space(display: str, unit: str) -> bool:
    """四 + 项 → 四项: a Chinese numeral takes a Chinese unit without a space."""
    return bool(display) and "\u4e00" <= display[-1] <= "\u9fff" and "\u4e00" <= unit[0] <= "\u9fff"


def value_text(entry: Entry) -> str:
    """The number as drawn, then its unit as the room reads it (unless the display holds it):
    a sequence drawn item by item reads as its items."""
    items = entry.get("item_displays")
    display = " / ".join(map(str, items)) if items and str(entry.get("display", "")).startswith(("(", "[")) \
        else str(entry.get("display") if entry.get("display") not in (None, "") else entry.get("value", ""))
    display = _short(readable(display), LONG_VALUE)
    unit = entry.get("unit_zh", entry.get("unit") or "")
    if not unit or display.endswith(unit) or display.endswith(str(entry.get("unit") or "\0")):
        return display
    return f"{display}{unit}" if unit.startswith("（") or _joins_without_space(display, unit) else f"{display} {unit}"


def measures_of(entry: Entry) -> str:
    return readable(entry.get("measures_zh") or "")


def reason_of(entry: Entry) -> str:
    return entry.get("reason_zh") or ""


def substituted(entry: Entry, ledger: Ledger) -> str:
    """The formula with each input's value in place of its name, when every name stands in it
    (and there are few enough): 「671B × (2 + 2 + 12) ÷ 2⁴⁰」; else ""."""
    formula, inputs = str(entry.get("formula") or ""), entry.get("inputs") or {}
    if not inputs or len(inputs) > SUBSTITUTE_UP_TO:
        return ""
    names = sorted(inputs, key=len, reverse=True)  # total_params before params
    patterns = {name: re.compile(rf"(?<![\w.]){re.escape(name)}(?![\w(])") for name in names}
    if not all(p.search(formula) for p in patterns.values()):
        return ""
    values = {name: readable(_input_entry(inputs[name], ledger).get("display", "")) for name in names}
    if any(not v or v.startswith(("(", "[")) or " / " in v or len(v) > 16 for v in values.values()):
        return ""   # a sequence or a long value does not read inside a formula
    marks = {}
    for i, name in enumerate(names):  # two passes: a value is never mistaken for a name
        marks[f"\0{i}\0"] = values[name]
        formula = patterns[name].sub(f"\0{i}\0", formula)
    for mark, value in marks.items():
        formula = formula.replace(mark, value)
    return readable(formula)


def _ref_key(ref: Any) -> str:
    """An input's ledger key, whether the ledger gives the input whole or as its key."""
    return str(ref.get("key") if isinstance(ref, dict) else ref)


def _input_entry(ref: Any, ledger: Ledger) -> Entry:
    key = _ref_key(ref)
    known = ledger.get(key)
    if known and known.get("kind") != "missing":
        return known
    return {**(ref if isinstance(ref, dict) else {}), "key": key, "kind": "missing"}


def formula_line(entry: Entry, ledger: Ledger) -> str:
    """How a derived number is computed, in one line: as said (formula_zh) when written, else
    with the inputs' values in it, else as the code writes it."""
    return readable(entry.get("formula_zh") or substituted(entry, ledger) or entry.get("formula") or "")


def source_line(entry: Entry, ledger: Ledger) -> str:
    """One line of provenance: 出处 / 公式 / 理由, in the words of its kind."""
    if entry.get("kind") in (None, "missing"):
        return MISSING
    if entry.get("kind") == "derived":
        doubt = "（由待核的输入推出）" if entry.get("status") == UNCONFIRMED else ""
        return f"公式：{formula_line(entry, ledger)}{doubt}"
    if entry.get("kind") == "chosen":
        return f"理由：{readable(reason_of(entry)) or '（未写理由）'}"
    label = "出处（未核实）" if entry.get("status") == UNCONFIRMED else "出处"
    return f"{label}：{readable(citation_head(entry.get('citation')) or '（无出处）')}"


def record(key: str, ledger: Ledger, *, depth: int = 1) -> dict[str, Any]:
    """What the room is told about ``key``; a derived number's inputs ``depth`` levels down."""
    entry = ledger.get(key)
    if entry is None or entry.get("kind") in (None, "missing"):
        return {"key": key, "value": "", "kind": UNCONFIRMED, "measures": "", "source": MISSING, "missing": True}
    found: dict[str, Any] = {"key": key, "value": value_text(entry), "kind": kind_of(entry),
                             "measures": measures_of(entry), "source": source_line(entry, ledger)}
    if entry.get("kind") == "derived":
        found["formula"] = formula_line(entry, ledger)
        if depth > 0:
            found["inputs"] = [{**record(_ref_key(ref), ledger, depth=depth - 1), "name": name}
                               for name, ref in (entry.get("inputs") or {}).items()]
    elif entry.get("kind") == "chosen":
        found["reason"] = readable(reason_of(entry))
        found["quote"] = entry.get("notes_quote") or ""
    else:
        found["citation"] = readable(citation_head(entry.get("citation")))
    if entry.get("status") == UNCONFIRMED:
        found["unconfirmed"] = True
    return found


STEP_FIELDS = ("key", "value", "kind", "source")


def step_numbers(keys: list[str], ledger: Ledger) -> list[dict[str, Any]]:
    """A step's numbers, in the order the kit drew them: each its value as drawn, kind and one
    line of provenance (the whole record, inputs and all, is the sheet's ``numbers[key]``:
    a number shown in ten beats is described once)."""
    return [{field: found[field] for field in STEP_FIELDS}
            for found in (record(str(key), ledger, depth=0) for key in dict.fromkeys(keys or []))]


def sheet_numbers(cues: list[dict[str, Any]], ledger: Ledger) -> dict[str, dict[str, Any]]:
    """Every number any step shows, by key: its whole record, a derived number's inputs one
    level down (what the provenance card shows)."""
    keys = dict.fromkeys(n["key"] for cue in cues for step in cue.get("steps") or [] for n in step.get("numbers") or [])
    return {key: record(key, ledger) for key in keys}


# ---- where each number is shown --------------------------------------------------------------

def beat_label(step: dict[str, Any]) -> str:
    """「Ⓐ 第 1 拍」, 「整张」: the view and beat of a step."""
    view = view_label(step.get("view") or "")
    return f"{view} 第 {step['beat']} 拍" if step.get("beat") else view


def _keys(step: dict[str, Any]) -> list[str]:
    return [n["key"] if isinstance(n, dict) else str(n) for n in step.get("numbers") or []]


def shown_at(sheet: dict[str, Any] | None) -> dict[str, list[dict[str, Any]]]:
    """Each key → the steps of the talk that show it, in the talk's order: the cue (index and
    notes line), the step's place in its cue, the slide it is in the deck (one per step), its
    scene, view and beat, and its poster."""
    found: dict[str, list[dict[str, Any]]] = {}
    slide = 0
    for cue in (sheet or {}).get("cues") or []:
        steps = cue.get("steps") or [{}]
        for position, step in enumerate(steps):
            slide += 1
            where = {"cue": cue.get("index"), "line": cue.get("line"), "position": position, "slide": slide,
                     "scene": cue.get("scene"), "label": beat_label(step), "poster": step.get("poster")}
            for key in _keys(step):
                found.setdefault(key, []).append(where)
    return found


def runs(places: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Places one after another in the talk (a number that stays on screen beat after beat)
    as one run each: the first place, its ``count``, and the label of the stretch
    (「Ⓐ 第 2–8 拍」)."""
    found: list[dict[str, Any]] = []
    for where in places:
        last = found[-1] if found else None
        if last and where["slide"] == last["_end"] + 1 and where["cue"] == last["cue"]:
            last["_end"], last["count"] = where["slide"], last["count"] + 1
            last["_labels"].append(where["label"])
            continue
        found.append({**where, "count": 1, "_end": where["slide"], "_labels": [where["label"]]})
    for run in found:
        labels = run.pop("_labels")
        run.pop("_end")
        first, last = labels[0], labels[-1]
        same_view = first.split(" ")[0] == last.split(" ")[0] and "第" in first and "第" in last
        if len(labels) > 1:
            run["label"] = (f"{first.rsplit(' 拍', 1)[0]}–{last.split('第 ')[-1]}" if same_view
                            else f"{first} 起 {len(labels)} 拍")
    return found


def where_text(where: dict[str, Any]) -> str:
    """「第 37 页 · L412 fig-step Ⓐ 第 1 拍」."""
    scene = f" {where['scene']}" if where.get("scene") else ""
    label = f" {where['label']}" if where.get("label") else ""
    return f"第 {where['slide']} 页 · L{where['line']}{scene}{label}"


__all__ = ["KINDS", "KIND_CLASSES", "beat_label", "citation_head", "kind_of", "readable", "record", "runs",
           "sheet_numbers", "shown_at", "source_line", "step_numbers", "value_text", "where_text"]
