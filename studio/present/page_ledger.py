"""The ledger on the rehearsal page: one number's cells, and the full-ledger page.

Entries come from ``lecture_numerics.ledger.ledger_entries``; only ``kind`` and ``display``
(or ``value``) are relied on, every other field is optional. What a number measures and why a
value was picked are shown in Chinese where the ledger has it (``measures_zh``, ``reason_zh``).
Given the cue sheet, each number links to the beats of the talk that show it, each with its
poster: a click opens lecture mode at that beat.
"""

from __future__ import annotations

from typing import Any, Iterable
from urllib.parse import quote

from lecture_numerics.provenance import SPEAKERS_EXAMPLE
from studio.track.number_sources import readable, runs, shown_at
from studio.present.page_html import LEDGER_FILE, anchor, asset, document, entry_href, esc, url

Entry = dict[str, Any]
Ledger = dict[str, Entry]

KIND_LABELS = {"sourced": "查来的", "derived": "推来的", "chosen": "示例取值", "missing": "缺失"}
UNCONFIRMED = "待核"
# The full ledger's groups, in the lecture's words: looked up, derived, picked for a figure,
# looked up but unconfirmed; never one list where the kinds blur.
GROUPS = (
    ("sourced", "查来的 · 有出处", lambda e: e.get("kind") == "sourced" and e.get("status") != UNCONFIRMED),
    ("derived", "推来的 · 有公式和输入", lambda e: e.get("kind") == "derived" and e.get("status") != UNCONFIRMED),
    ("chosen", "示例取值 · 为图挑的输入", lambda e: e.get("kind") == "chosen"),
    ("unconfirmed", "待核 · 出处未能核实（或由未核实的数推出）", lambda e: e.get("status") == UNCONFIRMED),
    ("missing", "缺失", lambda e: e.get("kind") not in ("sourced", "derived", "chosen")),
)
ROLE_LABELS = {"input": "推导用的输入", "table": "尚未上屏", "notes": "只在讲稿里"}
OPEN_NUMBERS_UP_TO = 8
AGREEMENT = {True: '<span class="agree">一致</span>', False: '<span class="disagree">不一致</span>'}


def kind_badge(entry: Entry) -> str:
    kind = str(entry.get("kind") or "unknown")
    label = KIND_LABELS.get(kind, "未标注" if kind == "unknown" else kind)
    badge = f'<span class="kind kind-{esc(kind)}">{esc(label)}</span>'
    if entry.get("status") == UNCONFIRMED:
        badge += f' <span class="kind kind-unconfirmed">{UNCONFIRMED}</span>'
    return badge


def value_text(entry: Entry) -> str:
    """The on-screen display string, with the unit unless the display already carries it."""
    display = entry.get("display")
    display = str(entry.get("value", "") if display in (None, "") else display)
    if display in ("", "None"):
        return '<span class="none">—</span>'
    unit = str(entry.get("unit_zh", entry.get("unit")) or "")   # as the room reads it (ledger_zh.UNITS)
    if unit and not display.endswith(unit) and not display.endswith(str(entry.get("unit") or "\0")):
        return f'{esc(display)} <span class="unit">{esc(unit)}</span>'
    return esc(display)


def input_refs(inputs: Any) -> Iterable[tuple[str, str | None, Entry]]:
    """(name, ledger key, what the ledger says of it) whatever shape ``inputs`` has."""
    pairs = inputs.items() if isinstance(inputs, dict) else ((None, ref) for ref in inputs or ())
    for name, ref in pairs:
        key = ref.get("key") if isinstance(ref, dict) else ref
        key = None if key is None else str(key)
        yield str(name if name is not None else key), key, ref if isinstance(ref, dict) else {}


def inputs_html(inputs: Any, ledger: Ledger, page: str) -> str:
    """One line: each input's name (linked to its entry, key on hover) and its value."""
    items = []
    for name, key, ref in input_refs(inputs):
        known = ledger.get(key) if key else None
        shown = known if known and known.get("kind") != "missing" else ref
        value = f" = {value_text(shown)}" if shown else ""
        label = f'<a href="{entry_href(key, page)}" title="{esc(key)}">{esc(name)}</a>' if key else esc(name)
        items.append(f'<span class="input">{label}{value}</span>')
    return f'<p class="inputs">输入：{" · ".join(items)}</p>' if items else ""


def provenance_html(entry: Entry, ledger: Ledger, page: str = LEDGER_FILE) -> str:
    """Citation for a sourced number; formula and named inputs for a derived one."""
    if entry.get("kind") == "missing":
        return f'<span class="missing">{esc(entry.get("note") or "账本中没有这个数")}</span>'
    if entry.get("kind") == "derived" or entry.get("formula"):
        said = f'<p class="said">{esc(readable(entry["formula_zh"]))}</p>' if entry.get("formula_zh") else ""
        formula = f'<code class="formula">{esc(readable(entry.get("formula") or "（无公式）"))}</code>'
        return said + formula + inputs_html(entry.get("inputs"), ledger, page)
    if entry.get("kind") == "chosen":
        reason = entry.get("reason_zh") or entry.get("reason") or "（未说明理由）"
        quoted = f"：「{entry['notes_quote']}」" if entry.get("notes_quote") and reason == SPEAKERS_EXAMPLE else ""
        return f'<span class="reason">为图挑的：{esc(reason + quoted)}</span>'
    citation = entry.get("citation")
    return f'<span class="citation">{esc(citation)}</span>' if citation else '<span class="missing">无出处</span>'


def scene_keys(scene: dict[str, Any], ledger: Ledger) -> list[str]:
    """The ledger keys a scene shows: its declared keys first, then any the ledger adds."""
    keys = [str(k) for k in scene.get("ledger_keys") or []]
    keys += [k for k, e in ledger.items() if scene.get("id") in (e.get("scenes") or []) and k not in keys]
    return keys


def scene_numbers_html(scene: dict[str, Any], ledger: Ledger) -> str:
    """The table of numbers a scene shows, each linked to its ledger entry."""
    keys = scene_keys(scene, ledger)
    if not keys:
        return '<h3>本幕数字</h3><p class="empty">本幕不显示数字。</p>'
    rows = []
    for key in keys:
        entry = ledger.get(key)
        if entry is None:
            rows.append(f'<tr class="absent" data-key="{esc(key)}"><td><code>{esc(key)}</code></td>'
                        '<td colspan="3" class="missing">账本中没有这个数</td></tr>')
            continue
        rows.append(
            f'<tr data-key="{esc(key)}"><td><a href="{entry_href(key)}"><code>{esc(key)}</code></a></td>'
            f'<td class="value">{value_text(entry)}</td><td>{kind_badge(entry)}</td>'
            f'<td>{provenance_html(entry, ledger)}</td></tr>')
    table = ('<table class="numbers"><thead><tr><th>键</th><th>数值</th><th>类别</th>'
             f'<th>出处 / 公式</th></tr></thead><tbody>{"".join(rows)}</tbody></table>')
    kinds = [KIND_LABELS.get((ledger.get(k) or {}).get("kind"), "缺失") for k in keys]
    counts = " · ".join(f"{label} {kinds.count(label)}" for label in dict.fromkeys(kinds))
    is_open = " open" if len(keys) <= OPEN_NUMBERS_UP_TO else ""  # long lists fold so the page stays scannable
    return (f'<details class="numbers-block"{is_open}><summary>本幕数字（{len(keys)} 个：{esc(counts)}）</summary>'
            f"{table}</details>")


# ---- the full ledger page ---------------------------------------------------------------

def notes_cell(entry: Entry) -> str:
    """How the speaker's notes state the number, and whether they agree with the ledger."""
    stated = entry.get("notes_value")
    if stated in (None, ""):
        return '<span class="none">—</span>'
    quote_text = entry.get("notes_quote")
    quoted = f'<p class="note">「{esc(quote_text)}」</p>' if quote_text else ""
    return f"{esc(stated)} {AGREEMENT.get(entry.get('agrees'), '')}{quoted}"


def items_html(items: Any) -> str:
    """A breakdown (list of records) folded away under the entry it adds up to."""
    if not isinstance(items, list) or not items:
        return ""
    records = [i if isinstance(i, dict) else {"": i} for i in items]
    columns = list(dict.fromkeys(k for r in records for k in r))
    head = "".join(f"<th>{esc(c)}</th>" for c in columns)
    body = "".join("<tr>" + "".join(f"<td>{esc(r.get(c, ''))}</td>" for c in columns) + "</tr>" for r in records)
    return (f'<details class="items"><summary>明细（{len(records)} 项）</summary>'
            f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></details>")


def key_cell(key: str, entry: Entry) -> str:
    role = ROLE_LABELS.get(entry.get("role"))
    role_tag = f' <span class="role">{esc(role)}</span>' if role else ""
    texts = dict.fromkeys(t for t in (entry.get("measures_zh") or entry.get("measures"), entry.get("note")) if t)
    notes = "".join(f'<p class="note">{esc(t)}</p>' for t in texts if entry.get("kind") != "missing")
    return f"<td><code>{esc(key)}</code>{role_tag}{notes}</td>"


def beats_html(places: list[dict[str, Any]]) -> str:
    """The beats of the talk that show a number, each its poster and where it is, linked to
    lecture mode at that beat (index.html#lecture=<cue>/<step>). Beats one after another
    that keep it on screen are one link, to the first of them (「L940 Ⓐ 第 2–8 拍」)."""
    if not places:
        return ""
    links = []
    for where in runs(places):
        label = f"L{where['line']} {where['label']}".strip()
        poster = (f'<img src="{url(where["poster"])}" alt="{esc(where.get("scene") or "")} {esc(where["label"])}" '
                  'loading="lazy">' if where.get("poster") else "")
        links.append(f'<a class="beat-link" href="index.html#lecture={esc(where["cue"])}/{esc(where["position"])}" '
                     f'title="从这一拍开始讲（讲课模式）">{poster}<span>{esc(label)}</span></a>')
    return f'<div class="shown-beats" data-beats="{len(places)}">{"".join(links)}</div>'


def ledger_row(key: str, entry: Entry, ledger: Ledger, places: list[dict[str, Any]] | None = None) -> str:
    scenes = " ".join(f'<a href="index.html#{esc(quote(str(s), safe=""))}">{esc(s)}</a>' for s in entry.get("scenes") or [])
    return (f'<tr id="{esc(anchor(key))}" class="entry">{key_cell(key, entry)}'
            f'<td class="value">{value_text(entry)}</td><td>{kind_badge(entry)}</td>'
            f'<td>{provenance_html(entry, ledger, "")}{items_html(entry.get("items"))}</td>'
            f'<td>{notes_cell(entry)}</td><td class="scenes">{scenes}{beats_html(places or [])}</td></tr>')


def ledger_summary(ledger: Ledger) -> str:
    counts = {label: sum(1 for e in ledger.values() if e.get("kind") == kind) for kind, label in KIND_LABELS.items()}
    disagree = sum(1 for e in ledger.values() if e.get("agrees") is False)
    unconfirmed = sum(1 for e in ledger.values() if e.get("status") == UNCONFIRMED)
    parts = [f"{label} {n} 个" for label, n in counts.items() if n] + \
        ([f"其中{UNCONFIRMED} {unconfirmed} 个"] if unconfirmed else []) + \
        ([f"与讲稿不一致 {disagree} 个"] if disagree else [])
    return " · ".join([f"{len(ledger)} 个数", *parts])


def ledger_group(group_id: str, title: str, keys: list[str], ledger: Ledger,
                 places: dict[str, list[dict[str, Any]]] | None = None) -> str:
    rows = "".join(ledger_row(key, ledger[key], ledger, (places or {}).get(key)) for key in keys)
    return (f'<section class="ledger-group" id="group-{group_id}"><h2>{esc(title)}（{len(keys)}）</h2>'
            '<table class="numbers ledger-table"><thead><tr><th>键</th><th>数值</th><th>类别</th>'
            f'<th>出处 / 公式 / 理由</th><th>讲稿</th><th>出现于</th></tr></thead><tbody>{rows}</tbody></table>'
            '</section>')


def _erratum_key(key: str, ledger: Ledger) -> str:
    """The erratum's key, linked to its entry when the ledger lists it."""
    code = f"<code>{esc(key)}</code>"
    return f'<a href="{entry_href(key, "")}">{code}</a>' if key in ledger else code


def errata_html(found: list[dict[str, Any]], ledger: Ledger) -> str:
    """讲稿勘误 as its own section: where the notes say a number the numerics contradict."""
    if not found:
        return ('<section class="ledger-group errata" id="group-errata"><h2>讲稿勘误（0）</h2>'
                '<p class="empty">讲稿里的数都与账本一致。</p></section>')
    def right(e: dict[str, Any]) -> str:
        say = e.get("say")
        return esc(e.get("right")) + (f'<br><span class="say">改说「{esc(say)}」</span>' if say else "")

    rows = "".join(
        f'<tr class="erratum" data-line="{esc(e.get("line"))}" data-kind="{esc(e.get("kind", "改口"))}">'
        f'<td class="line">L{esc(e.get("line"))}</td><td class="kind">{esc(e.get("kind", "改口"))}</td>'
        f'<td class="said">{esc(e.get("said"))}</td><td class="right">{right(e)}</td>'
        f'<td>{esc(e.get("why"))}</td>'
        f'<td>{_erratum_key(str(e.get("key")), ledger)}</td></tr>'
        for e in found)
    return (f'<section class="ledger-group errata" id="group-errata"><h2>讲稿勘误（{len(found)}）</h2>'
            '<p class="meta">讲稿里说的数与账本不一致的地方。改口：上台前按这张表改说；'
            '细节：属实或无关紧要，只记在附录里，不用改口。</p>'
            '<table class="numbers errata-table"><thead><tr><th>讲稿行</th><th>类</th><th>讲稿说</th><th>应为</th>'
            f'<th>为什么</th><th>键</th></tr></thead><tbody>{rows}</tbody></table></section>')


def ledger_html(ledger: Ledger, errata: list[dict[str, Any]] | None = None,
                cues: dict[str, Any] | None = None) -> str:
    """The full ledger page: the errata first, then the groups. ``errata`` defaults to
    ``lecture_numerics.errata.errata()``; ``cues`` (the published cue sheet) links each number
    to the beats that show it."""
    if errata is None:
        from lecture_numerics.errata import errata as read_errata

        errata = read_errata()
    places = shown_at(cues)
    sections = [errata_html(errata, ledger)]
    for group_id, title, belongs in GROUPS:
        keys = [key for key, entry in ledger.items() if belongs(entry)]
        if keys:
            sections.append(ledger_group(group_id, title, keys, ledger, places))
    body = f"""
<header class="top">
  <div><h1>账本</h1><p class="meta">{esc(ledger_summary(ledger))}</p></div>
  <nav><input type="search" id="ledger-filter" placeholder="筛选：键、数值、出处……" aria-label="筛选">
    <a class="back-link" href="index.html">← 返回排练页</a></nav>
</header>
<main class="ledger">{"".join(sections)}</main>"""
    return document("账本 · 讲座动画", body, asset("ledger.js"))
