"""The ledger: every number the lecture shows, with its provenance (the lecture's appendix).

``ledger_entries`` lists the quantities the scenes draw, every key of the numerics issue's
table, and (transitively) the inputs they are derived from; ``ledger_markdown`` renders the
appendix: 查来的 (sourced) and 推来的 (derived) sections and the discrepancies with the notes.
"""

from __future__ import annotations

import math
from typing import Any, Iterable

import numpy as np

from lecture_numerics import load_all
from lecture_numerics.census import census_keys
from lecture_numerics.ledger_zh import chinese, unit_zh
from lecture_numerics.notes import agrees
from lecture_numerics.provenance import BREAKDOWNS, SPEAKERS_EXAMPLE, UNCONFIRMED, Chosen, Derived, Quantity

# The keys the slides and checks reference (numerics issue, "Content" table).
TABLE_KEYS: tuple[str, ...] = (
    "bill.v3.weights_tib", "bill.v3.optimizer_tib", "bill.v3.total_tib", "bill.v3.gpus_80gib",
    "act.v3.full_recompute_gib", "act.v3.no_recompute_tib", "act.v3.seqs_to_match_resident",
    "flops.v3.attention_share_128k", "flops.v3.six_nd_pflop_128k", "flops.v3.real_over_6nd_128k",
    "flops.gpt3.attention_share_2k", "recompute.v3.crossover_tokens", "recompute.gpt3.crossover_tokens",
    "recompute.gpt3.selective_saving", "recompute.gpt3.selective_overhead",
    "precision.bf16.spacing_at_1", "precision.increment_over_spacing", "precision.bf16.after_1000_adds",
    "precision.fp32.after_1000_adds", "underflow.gap_orders", "vanish.rate_0p8_60_layers",
    "vanish.rate_1p2_60_layers", "vanish.sigmoid_max_slope", "optim.adagrad_lr_at_600",
    "optim.rmsprop_first_step_gain", "optim.adam_no_bias_correction_peak", "step.halfway_steps_kappa25",
    "step.halfway_steps_kappa1000", "zero.baseline_gb", "zero.pos_gb", "zero.pos_g_gb", "zero.pos_g_p_gb",
    "lora.7b.full_gib", "lora.7b.lora_gib",
    "timeline.v3.activation_peak_gib", "timeline.v3.gradient_peak_tib", "timeline.v3.total_peak_tib",
    "timeline.v3.total_peak_t", "timeline.v3.total_peak_phase", "timeline.v3.peak_moving_batch",
    "step.halfway_coefficient",
)


def _plain(value: Any) -> Any:
    """JSON-ready: numpy scalars and arrays to Python, tuples to lists, non-finite to str."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, np.ndarray):
        return [_plain(v) for v in value.tolist()]
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    return value


def _with_inputs(keys: Iterable[str], registry: dict[str, Quantity]) -> list[str]:
    """``keys`` followed by every quantity they are derived from, depth first, no repeats."""
    seen: dict[str, None] = {}

    def visit(key: str) -> None:
        if key in seen:
            return
        seen[key] = None
        q = registry[key]
        if isinstance(q, Derived):
            for dep in q.inputs.values():
                visit(dep.key)

    for key in keys:
        visit(key)
    return list(seen)


def _entry(q: Quantity, scenes: list[str], role: str) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "key": q.key, "value": _plain(q.value), "unit": q.unit, "kind": q.kind, "display": q.display,
        "measures": q.measures, "notes_value": q.notes, "notes_quote": q.notes_quote,
        "agrees": agrees(q.value, q.notes, q.unit, q.display), "scenes": scenes, "role": role,
        "note": getattr(q, "note", ""), "status": q.status,
    }
    if q.item_displays:
        entry["item_displays"] = list(q.item_displays)
    entry.update(_chinese(q))
    if isinstance(q, Derived):
        entry["formula"] = q.formula
        entry["inputs"] = {name: {"key": dep.key, "value": _plain(dep.value), "unit": dep.unit,
                                  "display": dep.display} for name, dep in q.inputs.items()}
    elif isinstance(q, Chosen):
        entry["reason"] = q.reason
    else:
        entry["citation"] = q.citation
    if q.key in BREAKDOWNS:
        entry["items"] = _plain(BREAKDOWNS[q.key]())
    return entry


def _chinese(q: Quantity) -> dict[str, str]:
    """What the room reads (lecture_numerics.ledger_zh): measures_zh, unit_zh, and reason_zh
    (示例取值: the speaker's own example needs none) or formula_zh (推来的, when written)."""
    zh = chinese(q.key)
    found = {"measures_zh": zh.get("measures", ""), "unit_zh": unit_zh(q.unit)}
    if isinstance(q, Chosen):
        found["reason_zh"] = zh.get("reason") or (q.reason if q.reason == SPEAKERS_EXAMPLE else "")
    if isinstance(q, Derived) and zh.get("formula"):
        found["formula_zh"] = zh["formula"]
    return found


def ledger_entries(scene_keys: dict[str, tuple[str, ...]]) -> dict[str, dict[str, Any]]:
    """Ledger entries keyed by stable key. ``scene_keys``: scene id → ledger keys it draws.

    role: "shown" (a scene draws it), "table" (an issue-table key no scene draws yet), "notes"
    (a number only the speaker says, 只在讲稿里: the census reads a numeral of the notes as it)
    or "input" (a quantity something above is derived from). A key no module declares gets an
    entry of kind "missing" (see ``missing``)."""
    registry = load_all()
    shown: dict[str, list[str]] = {}
    for scene, keys in sorted(scene_keys.items()):
        for key in keys:
            shown.setdefault(key, []).append(scene)
    spoken = sorted(census_keys() - set(shown) - set(TABLE_KEYS))
    listed = list(shown) + [key for key in TABLE_KEYS if key not in shown] + spoken
    entries = {}
    for key in _with_inputs([k for k in listed if k in registry], registry):
        role = ("shown" if key in shown else "table" if key in TABLE_KEYS else "notes" if key in spoken
                else "input")
        entries[key] = _entry(registry[key], sorted(set(shown.get(key, []))), role)
    for key in listed:
        if key not in registry:
            entries[key] = _missing_entry(key, sorted(set(shown.get(key, []))))
    return entries


def _missing_entry(key: str, scenes: list[str]) -> dict[str, Any]:
    """A key a scene draws (or the table names) that no numerics module declares: listed, so
    the appendix shows the hole instead of the whole ledger failing."""
    return {"key": key, "value": None, "unit": "", "kind": "missing", "display": "", "measures": "",
            "notes_value": None, "notes_quote": "", "agrees": None, "scenes": scenes,
            "role": "shown" if scenes else "table",
            "note": "no quantity with this key in lecture_numerics"}


def missing(entries: dict[str, dict[str, Any]]) -> list[str]:
    return [key for key, e in entries.items() if e["kind"] == "missing"]


def discrepancies(entries: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Entries whose value does not agree with the notes' value, with our explanation."""
    return [{"key": key, "ours": e["display"], "notes": e["notes_value"], "note": e["note"]}
            for key, e in entries.items() if e["agrees"] is False]


# --- the appendix ---------------------------------------------------------------------------

_AGREE = {True: "✓", False: "✗ 不一致", None: "—"}


def _cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _inputs_text(entry: dict[str, Any]) -> str:
    return "; ".join(f"{name} = {dep['display']} ({dep['key']})" for name, dep in entry["inputs"].items())


NOTES_ONLY = "只在讲稿里"


def _scenes_text(entry: dict[str, Any]) -> str:
    if entry["scenes"]:
        return ", ".join(entry["scenes"])
    if entry["role"] == "notes":
        return f"（{NOTES_ONLY} / said, not shown）"
    return "（输入 / input）" if entry["role"] == "input" else "（尚无场景 / no scene yet）"


def _notes_text(e: dict[str, Any]) -> str:
    if e["notes_value"] is None:
        return "—"
    return f"{e['notes_value']} {_AGREE[e['agrees']]}"


def _table_section(title: str, source_column: str, source_field: str, rows: list[dict[str, Any]]) -> list[str]:
    lines = [title, "",
             f"| key | 数值 value | 单位 unit | 测的是什么 measures | {source_column} | 讲稿 notes | 场景 scenes |",
             "|---|---|---|---|---|---|---|"]
    lines += [f"| `{e['key']}` | {_cell(e['display'])} | {_cell(e['unit'])} | {_cell(e['measures'])} "
              f"| {_cell(e[source_field])} | {_cell(_notes_text(e))} | {_cell(_scenes_text(e))} |" for e in rows]
    return lines + ([""] if rows else ["（无 / none）", ""])


def _sourced_section(entries: dict[str, dict[str, Any]]) -> list[str]:
    confirmed = [e for e in entries.values() if e["kind"] == "sourced" and e["status"] != UNCONFIRMED]
    return _table_section("## 查来的 · Sourced (looked up)", "出处 citation", "citation", confirmed)


def _unconfirmed_section(entries: dict[str, dict[str, Any]]) -> list[str]:
    unconfirmed = [e for e in entries.values() if e["kind"] == "sourced" and e["status"] == UNCONFIRMED]
    return _table_section("## 待核 · Unconfirmed (cited, not yet checked; kept off screen or marked 待核)",
                          "出处（未核实） citation, unconfirmed", "citation", unconfirmed)


def _with_quote(entry: dict[str, Any]) -> dict[str, Any]:
    """A chosen entry whose reason is the speaker's example carries the notes' words with it."""
    quote = f"：「{entry['notes_quote']}」" if entry["notes_quote"] and entry["reason"] == SPEAKERS_EXAMPLE else ""
    return {**entry, "reason": entry["reason"] + quote}


def _chosen_section(entries: dict[str, dict[str, Any]]) -> list[str]:
    picked = [_with_quote(e) for e in entries.values() if e["kind"] == "chosen"]
    return _table_section("## 示例取值 · Chosen for a figure (not looked up, not derived)",
                          "为什么取这个值 reason", "reason", picked)


def _derived_block(key: str, e: dict[str, Any]) -> list[str]:
    lines = [f"### `{key}` = {e['display']} {e['unit']}".rstrip(), ""]
    if e["measures"]:
        lines.append(f"- 测的是什么 measures: {e['measures']}")
    lines += [f"- 公式 formula: {e['formula']}", f"- 输入 inputs: {_inputs_text(e) or '—'}"]
    if e["status"] == UNCONFIRMED:
        lines.append(f"- {UNCONFIRMED}: computed from an unconfirmed input; drawn only with the mark")
    if e["notes_value"] is not None:
        lines.append(f"- 讲稿 notes: {e['notes_value']} — {_AGREE[e['agrees']]}" +
                     (f" (「{e['notes_quote']}」)" if e["notes_quote"] else ""))
    if e["note"]:
        lines.append(f"- 说明 note: {e['note']}")
    lines.append(f"- 场景 scenes: {_scenes_text(e)}")
    if "items" in e:
        lines += ["", "| block | tensor | kept for | B/token | layers | TiB |", "|---|---|---|---|---|---|"]
        lines += [f"| {i['block']} | {_cell(i['tensor'])} | {_cell(i['kept_for'])} | {i['bytes_per_token']:,} "
                  f"| {i['layers']} | {i['tib']:.3f} |" for i in e["items"]]
    return lines + [""]


def _discrepancy_section(entries: dict[str, dict[str, Any]]) -> list[str]:
    lines = ["## 与讲稿不一致 · Discrepancies with the notes", ""]
    found = discrepancies(entries)
    if not found:
        return lines + ["（无 / none）", ""]
    for d in found:
        lines.append(f"- `{d['key']}`: 我们 ours **{d['ours']}**, 讲稿 notes **{d['notes']}**. {d['note']}")
    return lines + [""]


_RULE = ("一致 = 我们的值按讲稿写出的精度取整后等于讲稿的值 (agreement: our value rounded to the "
         "precision the notes write it with equals the notes' value; integers are exact to their last "
         "non-zero digit, so 47000 means 2 significant figures; “5–6 ×” is a range, bounds included; "
         "“1.x %” fixes only the leading digit; “≈5.7K” is in thousands; percentages compare "
         "fractions × 100). See lecture_numerics/notes.py.")


def _errata_section(found: list[dict[str, Any]]) -> list[str]:
    """The errata: 改口 (say it differently, with the sentence to say), then 细节 (true but
    immaterial, in the appendix only); lecture_numerics.errata states the rule."""
    lines = ["## 讲稿勘误 · Errata (the notes say a number the numerics contradict)", ""]
    if not found:
        return lines + ["（无 / none）", ""]
    lines += ["改口 = 说出来不对，台上改说右栏那句；细节 = 属实或无关紧要，只记在这里 (say-instead vs detail: "
              "see lecture_numerics/errata.py).", "",
              "| 行 line | 类 kind | 讲稿 says | 应为 right | 改说 say instead | 为什么 why | key |",
              "|---|---|---|---|---|---|---|"]
    ordered = ([e for e in found if e.get("kind", "改口") == "改口"]
               + [e for e in found if e.get("kind", "改口") != "改口"])
    lines += [f"| L{e['line']} | {e.get('kind', '改口')} | {_cell(e['said'])} | {_cell(e['right'])} "
              f"| {_cell(e.get('say') or '—')} | {_cell(e['why'])} | `{e['key']}` |" for e in ordered]
    return lines + [""]


def ledger_markdown(entries: dict[str, dict[str, Any]], errata_found: list[dict[str, Any]] | None = None) -> str:
    """The lecture's appendix: the errata for the speaker, 查来的 vs 推来的, then the discrepancies
    with the notes. ``errata_found`` defaults to :func:`lecture_numerics.errata.errata`."""
    if errata_found is None:
        from lecture_numerics.errata import errata

        errata_found = errata()
    derived_keys = [key for key, e in entries.items() if e["kind"] == "derived"]
    lines = ["# 附录：每个数字从哪来 · Appendix: where every number comes from", "",
             "查来的 (sourced) 数字带出处；推来的 (derived) 数字带公式和命名输入，可以重算 "
             "(`python -c \"from lecture_numerics import quantity; print(quantity('KEY').recompute())\"`).",
             "", _RULE, ""]
    lines += _errata_section(errata_found)
    lines += _discrepancy_section(entries)
    if missing(entries):
        lines += ["## 缺失 · Missing (drawn but not defined)", ""]
        lines += [f"- `{key}` ({_scenes_text(entries[key])})" for key in missing(entries)] + [""]
    lines += _sourced_section(entries)
    lines += _unconfirmed_section(entries)
    lines += _chosen_section(entries)
    lines += ["## 推来的 · Derived (computed)", ""]
    for key in derived_keys:
        lines += _derived_block(key, entries[key])
    return "\n".join(lines)


__all__ = ["NOTES_ONLY", "TABLE_KEYS", "discrepancies", "ledger_entries", "ledger_markdown", "missing"]
