"""Rehearsal page: an offline HTML page per quality folder, built from manifest and ledger.

``build_page(manifest, ledger)`` returns the files the pipeline publishes next to the videos:
``index.html`` (every scene in lecture order, a presenter view, numbers and embed snippets)
and ``ledger.html`` (the full ledger). CSS and JS are inlined so the page works from
``file://`` with no server and nothing fetched. Every string from data is escaped here.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any, Iterable
from urllib.parse import quote

from studio import config

ASSETS_DIR = Path(__file__).with_name("page_assets")
LEDGER_FILE = "ledger.html"
KIND_LABELS = {"sourced": "查来的", "derived": "推来的"}
QUALITY_LABELS = {"low": "低清", "medium": "中清", "high": "高清", "4k": "4K"}

Manifest = dict[str, Any]
Ledger = dict[str, dict[str, Any]]


def build_page(manifest: Manifest, ledger: Ledger) -> dict[str, str]:
    """The rehearsal page's files, ``{filename: content}``, for ``<out>/<quality>/``."""
    ledger = ledger or {}
    return {"index.html": index_html(manifest, ledger), LEDGER_FILE: ledger_html(manifest, ledger)}


# ---- small escaping and formatting helpers -------------------------------------------

def esc(value: Any) -> str:
    return "" if value is None else html.escape(str(value), quote=True)


def url(path: str) -> str:
    """A manifest-relative file path as an escaped attribute value."""
    return esc(quote(str(path), safe="/"))


def anchor(key: str) -> str:
    """The element id of a ledger entry (ids may not hold whitespace)."""
    return "n-" + re.sub(r"\s", "_", str(key))


def ledger_href(key: str) -> str:
    return f"{LEDGER_FILE}#{quote(anchor(key), safe='')}"


def seconds(value: Any) -> str:
    try:
        return f"{float(value):.1f} 秒"
    except (TypeError, ValueError):
        return "—"


def clock(total_s: float) -> str:
    minutes, secs = divmod(round(total_s), 60)
    return f"{minutes} 分 {secs:02d} 秒" if minutes else f"{secs} 秒"


def script_json(data: Any) -> str:
    """JSON safe inside <script>: no '<', '>' or '&' can close the element early."""
    text = json.dumps(data, ensure_ascii=False)
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def asset(name: str) -> str:
    return (ASSETS_DIR / name).read_text(encoding="utf-8")


def theme_css() -> str:
    """The theme's colours as CSS variables, so the page matches the videos."""
    theme = config.theme()
    colours = {**theme["colors"], "background": theme["background"]}
    lines = [f"--{esc(name)}: {esc(value)};" for name, value in colours.items()]
    return ":root {" + " ".join(lines) + f" --font: {esc(theme['font'])}; }}"


def document(title: str, body: str, script: str = "") -> str:
    style = theme_css() + "\n" + asset("page.css")
    tail = f"<script>\n{script}\n</script>\n" if script else ""
    return (
        "<!DOCTYPE html>\n<html lang=\"zh-CN\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        f"<title>{esc(title)}</title>\n<style>\n{style}\n</style>\n</head>\n"
        f"<body>\n{body}\n{tail}</body>\n</html>\n"
    )


# ---- ledger entries --------------------------------------------------------------

def kind_badge(entry: dict[str, Any]) -> str:
    kind = entry.get("kind", "")
    label = KIND_LABELS.get(kind, kind or "未标注")
    return f'<span class="kind kind-{esc(kind or "unknown")}">{esc(label)}</span>'


def value_text(entry: dict[str, Any]) -> str:
    display = str(entry.get("display", entry.get("value", "")))
    unit = str(entry.get("unit") or "")
    if unit and not display.endswith(unit):
        return f'{esc(display)} <span class="unit">{esc(unit)}</span>'
    return esc(display)


def input_items(inputs: Any) -> Iterable[tuple[str, str | None]]:
    """(name, ledger key or None) pairs, whatever shape the ledger gives inputs in."""
    if isinstance(inputs, dict):
        for name, ref in inputs.items():
            key = ref.get("key") if isinstance(ref, dict) else ref
            yield str(name), (str(key) if key is not None else None)
    elif isinstance(inputs, (list, tuple)):
        for ref in inputs:
            key = ref.get("key") if isinstance(ref, dict) else ref
            yield str(key), str(key)


def inputs_html(inputs: Any, ledger: Ledger, href_prefix: str) -> str:
    parts = []
    for name, key in input_items(inputs):
        target = ledger.get(key) if key else None
        shown = f" = {value_text(target)}" if target else ""
        link = f'<a href="{href_prefix}#{quote(anchor(key), safe="")}">{esc(key)}</a>' if key else ""
        head = link if name == key else (f"{esc(name)}（{link}）" if key else esc(name))
        parts.append(f"<li>{head}{shown}</li>")
    return f'<ul class="inputs">{"".join(parts)}</ul>' if parts else ""


def provenance_html(entry: dict[str, Any], ledger: Ledger, href_prefix: str) -> str:
    """Citation for a sourced number; formula and named inputs for a derived one."""
    if entry.get("kind") == "derived" or entry.get("formula"):
        formula = f'<code class="formula">{esc(entry.get("formula", ""))}</code>'
        return formula + inputs_html(entry.get("inputs"), ledger, href_prefix)
    citation = entry.get("citation")
    return f'<span class="citation">{esc(citation)}</span>' if citation else '<span class="missing">无出处</span>'


def scene_keys(scene: dict[str, Any], ledger: Ledger) -> list[str]:
    """The ledger keys a scene shows: its declared keys first, then any the ledger adds."""
    keys = list(scene.get("ledger_keys") or [])
    keys += [k for k, e in ledger.items() if scene.get("id") in (e.get("scenes") or []) and k not in keys]
    return keys


def numbers_html(scene: dict[str, Any], ledger: Ledger) -> str:
    keys = scene_keys(scene, ledger)
    if not keys:
        return '<p class="empty">本幕不显示数字。</p>'
    rows = []
    for key in keys:
        entry = ledger.get(key)
        if entry is None:
            rows.append(f'<tr class="absent"><td><code>{esc(key)}</code></td>'
                        '<td colspan="3" class="missing">账本中没有这个数</td></tr>')
            continue
        rows.append(
            f'<tr data-key="{esc(key)}"><td><a href="{esc(ledger_href(key))}"><code>{esc(key)}</code></a></td>'
            f'<td class="value">{value_text(entry)}</td><td>{kind_badge(entry)}</td>'
            f'<td>{provenance_html(entry, ledger, LEDGER_FILE)}</td></tr>')
    return ('<table class="numbers"><thead><tr><th>键</th><th>数值</th><th>类别</th>'
            f'<th>出处 / 公式</th></tr></thead><tbody>{"".join(rows)}</tbody></table>')


# ---- scene cards -----------------------------------------------------------------

def video_snippet(src: str, poster: str | None, loop: bool) -> str:
    """The <video> tag to paste into the deck: plays by itself, silently, inline."""
    poster_attr = f' poster="{poster}"' if poster else ""
    loop_attr = " loop" if loop else ""
    return f'<video src="{src}"{poster_attr} autoplay muted{loop_attr} playsinline></video>'


def snippet_block(label: str, snippet: str) -> str:
    return (f'<div class="snippet"><span class="snippet-label">{esc(label)}</span>'
            f'<code>{esc(snippet)}</code>'
            '<button type="button" class="copy" data-copy>复制</button></div>')


def snippets_html(scene: dict[str, Any]) -> str:
    files = scene.get("files") or {}
    loop = bool(scene.get("loop"))
    blocks = [snippet_block("整幕", video_snippet(quote(files.get("mp4", ""), safe="/"),
                                                   quote(files["png"], safe="/") if files.get("png") else None, loop))]
    if not loop:
        blocks += [snippet_block(f"段 {s.get('name', '')}", video_snippet(quote(s.get("file", ""), safe="/"), None, False))
                   for s in scene.get("sections") or []]
    return "".join(blocks)


def player_html(scene: dict[str, Any]) -> str:
    """Loops loop; walkthroughs show one section clip at a time; others play whole."""
    files = scene.get("files") or {}
    poster = f' poster="{url(files["png"])}"' if files.get("png") else ""
    sections = scene.get("sections") or []
    if scene.get("loop") or not sections:
        loop = " loop autoplay" if scene.get("loop") else ""
        return (f'<video class="player" src="{url(files.get("mp4", ""))}"{poster} muted playsinline'
                f' controls preload="auto"{loop}></video>')
    tabs = "".join(
        f'<button type="button" class="section-tab{" active" if i == 0 else ""}" data-index="{i}"'
        f' data-src="{url(s.get("file", ""))}">{esc(s.get("name", ""))}'
        f'<small>{esc(seconds(s.get("duration_s")))}</small></button>'
        for i, s in enumerate(sections))
    return (f'<video class="player" src="{url(sections[0].get("file", ""))}"{poster} muted playsinline'
            f' controls preload="auto"></video>'
            f'<div class="sections" role="group" aria-label="段落">{tabs}</div>')


def scene_card(position: int, scene: dict[str, Any], ledger: Ledger) -> str:
    sid = str(scene.get("id", ""))
    sections = scene.get("sections") or []
    kind = "循环" if scene.get("loop") else (f"分段讲解 · {len(sections)} 段" if sections else "整段")
    files = scene.get("files") or {}
    downloads = " · ".join(f'<a href="{url(path)}">{esc(fmt.upper())}</a>' for fmt, path in files.items() if path)
    return f"""
<section class="scene" id="{esc(sid)}" data-scene-id="{esc(sid)}">
  <div class="scene-media">{player_html(scene)}</div>
  <div class="scene-info">
    <p class="scene-number">第 {position} 幕 · <code>{esc(sid)}</code></p>
    <h2>{esc(scene.get("title") or sid)}</h2>
    <p class="facts"><span class="duration">{esc(seconds(scene.get("duration_s")))}</span>
      <span class="tag">{esc(kind)}</span></p>
    <button type="button" class="present" data-present="{esc(sid)}">▶ 演示模式</button>
    <p class="files">文件：{downloads}</p>
  </div>
  <div class="scene-numbers"><h3>本幕数字</h3>{numbers_html(scene, ledger)}</div>
  <div class="scene-embed"><h3>嵌入代码</h3>{snippets_html(scene)}</div>
</section>"""


def presenter_data(manifest: Manifest) -> list[dict[str, Any]]:
    """What the presenter script needs to step through scenes and sections."""
    scenes = []
    for scene in manifest.get("scenes") or []:
        files = scene.get("files") or {}
        scenes.append({
            "id": scene.get("id"), "title": scene.get("title") or scene.get("id"),
            "loop": bool(scene.get("loop")), "mp4": quote(files.get("mp4", ""), safe="/"),
            "sections": [{"name": s.get("name", ""), "file": quote(s.get("file", ""), safe="/")}
                         for s in scene.get("sections") or []],
        })
    return scenes


def header_html(manifest: Manifest, ledger: Ledger) -> str:
    scenes = manifest.get("scenes") or []
    total = sum(float(s.get("duration_s") or 0) for s in scenes)
    quality = manifest.get("quality", "")
    size = f'{manifest.get("width", "?")}×{manifest.get("height", "?")} · {manifest.get("fps", "?")} fps'
    first = f'<button type="button" class="present" data-present="{esc(scenes[0].get("id"))}">▶ 从头演示</button>' if scenes else ""
    return f"""
<header class="top">
  <div><h1>排练页</h1>
    <p class="meta">{esc(QUALITY_LABELS.get(quality, quality))} {esc(size)} · {len(scenes)} 幕 · 共 {esc(clock(total))}</p></div>
  <nav>{first}<a class="ledger-link" href="{LEDGER_FILE}">完整账本（{len(ledger)} 个数）</a></nav>
</header>"""


PRESENTER_HTML = """
<div id="presenter" tabindex="-1" hidden>
  <video id="presenter-video" muted playsinline autoplay></video>
  <div class="presenter-bar">
    <span id="presenter-title"></span>
    <span class="presenter-where">段 <strong id="presenter-section"></strong> <span id="presenter-count"></span></span>
    <span class="presenter-keys">→ / 空格 下一段 · ← 上一段 · F 全屏 · Esc 返回</span>
  </div>
</div>"""


def index_html(manifest: Manifest, ledger: Ledger) -> str:
    cards = "".join(scene_card(i, s, ledger) for i, s in enumerate(manifest.get("scenes") or [], start=1))
    data = f'<script type="application/json" id="page-data">{script_json(presenter_data(manifest))}</script>'
    body = f"{header_html(manifest, ledger)}\n<main>{cards}</main>\n{PRESENTER_HTML}\n{data}"
    return document("排练页 · 讲座动画", body, asset("page.js"))


# ---- the full ledger ----------------------------------------------------------------

def notes_cell(entry: dict[str, Any]) -> str:
    """How the speaker's notes state the number, and whether they agree with the ledger."""
    stated = entry.get("notes_value", entry.get("notes"))
    if stated in (None, ""):
        return '<span class="missing">—</span>'
    agrees = entry.get("agrees")
    mark = {True: '<span class="agree">一致</span>', False: '<span class="disagree">不一致</span>'}.get(agrees, "")
    return f"{esc(stated)} {mark}"


def ledger_row(key: str, entry: dict[str, Any], ledger: Ledger) -> str:
    scenes = " ".join(f'<a href="index.html#{esc(quote(str(s), safe=""))}">{esc(s)}</a>' for s in entry.get("scenes") or [])
    note = entry.get("note") or entry.get("measures")
    note_html = f'<p class="note">{esc(note)}</p>' if note else ""
    return (f'<tr id="{esc(anchor(key))}" class="entry"><td><code>{esc(key)}</code>{note_html}</td>'
            f'<td class="value">{value_text(entry)}</td><td>{kind_badge(entry)}</td>'
            f'<td>{provenance_html(entry, ledger, "")}</td><td>{notes_cell(entry)}</td><td>{scenes}</td></tr>')


def ledger_html(manifest: Manifest, ledger: Ledger) -> str:
    counts = {kind: sum(1 for e in ledger.values() if e.get("kind") == kind) for kind in KIND_LABELS}
    summary = " · ".join(f"{KIND_LABELS[k]} {n} 个" for k, n in counts.items())
    rows = "".join(ledger_row(key, entry, ledger) for key, entry in ledger.items())
    body = f"""
<header class="top">
  <div><h1>账本</h1><p class="meta">{len(ledger)} 个数 · {esc(summary)}</p></div>
  <nav><a class="back-link" href="index.html">← 返回排练页</a></nav>
</header>
<main class="ledger">
<table class="numbers ledger-table"><thead><tr><th>键</th><th>数值</th><th>类别</th><th>出处 / 公式</th>
<th>讲稿</th><th>出现于</th></tr></thead><tbody>{rows}</tbody></table>
</main>"""
    return document("账本 · 讲座动画", body)
