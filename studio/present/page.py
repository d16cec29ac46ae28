"""Rehearsal page: an offline HTML page per quality folder, built from manifest and ledger.

``build_page(manifest, ledger)`` returns the files the pipeline publishes next to the videos:
``index.html`` (every scene in lecture order with its player, a presenter view that steps
section by section, the numbers each scene shows, embed snippets, and the appendix that only
prints: 讲稿勘误, 查来的, 推来的, 示例取值, 待核; given the cue sheet, also the lecture track:
times per section, rehearsal timings, lecture mode and its presenter window) and
``ledger.html`` (the full ledger). Both work from ``file://``: styles and scripts are inlined, nothing is fetched.
"""

from __future__ import annotations

from typing import Any

from studio.present.colour_key import colour_key_html
from studio.present.page_html import LEDGER_FILE, asset, document, esc, script_json, url, url_path
from studio.present.page_ledger import GROUPS, ledger_group, ledger_html, scene_numbers_html
from studio.present.page_track import LECTURE_HTML, cue_data_script, track_html
from studio.track.labels import clock

QUALITY_LABELS = {"low": "低清", "medium": "中清", "high": "高清", "4k": "4K"}

Manifest = dict[str, Any]
Ledger = dict[str, dict[str, Any]]


def build_page(manifest: Manifest, ledger: Ledger, cues: dict[str, Any] | None = None) -> dict[str, str]:
    """The rehearsal page's files, ``{filename: content}``, for ``<out>/<quality>/``.
    ``cues`` is the published cue sheet (studio.track.cues.publish); without it there is no track."""
    ledger = ledger or {}
    from studio.track.cues import notes_errata   # kept on disk by its inputs: a no-op re-run reads it

    return {"index.html": index_html(manifest, ledger, cues), LEDGER_FILE: ledger_html(ledger, notes_errata(), cues)}


def seconds(value: Any) -> str:
    try:
        return f"{float(value):.1f} 秒"
    except (TypeError, ValueError):
        return "—"


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
    poster = url(files["png"]) if files.get("png") else None
    blocks = [snippet_block("整幕", video_snippet(url(files.get("mp4")), poster, loop))]
    if not loop:  # a walkthrough's deck shows one section per slide
        blocks += [snippet_block(f"段 {s.get('name', '')}", video_snippet(url(s.get("file")), None, False))
                   for s in scene.get("sections") or []]
    return "".join(blocks)


def player_html(scene: dict[str, Any]) -> str:
    """Loops loop; walkthroughs show one section clip at a time; others play whole.

    A walkthrough's player is loaded with its first section but shows the scene's poster
    until played, so no tab is marked until then (the script marks the one playing)."""
    files = scene.get("files") or {}
    poster = f' poster="{url(files["png"])}"' if files.get("png") else ""
    sections = scene.get("sections") or []
    if scene.get("loop") or not sections:
        loop = " loop autoplay" if scene.get("loop") else ""
        return (f'<video class="player" src="{url(files.get("mp4", ""))}"{poster} muted playsinline'
                f' controls preload="auto"{loop}></video>')
    tabs = "".join(
        f'<button type="button" class="section-tab" data-index="{i}"'
        f' data-src="{url(s.get("file", ""))}"><span class="section-name">{esc(s.get("name", ""))}</span>'
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
  <div class="scene-numbers">{scene_numbers_html(scene, ledger)}</div>
  <div class="scene-embed"><h3>嵌入代码</h3>{snippets_html(scene)}</div>
</section>"""


def presenter_data(manifest: Manifest) -> list[dict[str, Any]]:
    """What the presenter script needs to step through scenes and sections."""
    scenes = []
    for scene in manifest.get("scenes") or []:
        files = scene.get("files") or {}
        scenes.append({
            "id": scene.get("id"), "title": scene.get("title") or scene.get("id"),
            "loop": bool(scene.get("loop")), "mp4": url_path(files.get("mp4")),
            "sections": [{"name": s.get("name", ""), "file": url_path(s.get("file"))}
                         for s in scene.get("sections") or []],
        })
    return scenes


def header_html(manifest: Manifest, ledger: Ledger, cues: dict[str, Any] | None = None) -> str:
    scenes = manifest.get("scenes") or []
    total = sum(float(s.get("duration_s") or 0) for s in scenes)
    quality = manifest.get("quality", "")
    size = f'{manifest.get("width", "?")}×{manifest.get("height", "?")} · {manifest.get("fps", "?")} fps'
    first = f'<button type="button" class="present" data-present="{esc(scenes[0].get("id"))}">▶ 从头演示</button>' if scenes else ""
    if cues:
        first = '<button type="button" class="present lecture-start" data-lecture-start="0">▶ 讲课模式</button>' + first
    return f"""
<header class="top">
  <div><h1>排练页</h1>
    <p class="meta">{esc(QUALITY_LABELS.get(quality, quality))} {esc(size)} · {len(scenes)} 幕 · 共 {esc(clock(total))}</p></div>
  <nav>{first}<a class="ledger-link" href="{LEDGER_FILE}">完整账本（{len(ledger)} 个数）</a>
    <button type="button" class="print-appendix" data-print>打印附录</button></nav>
</header>"""


PRESENTER_HTML = """
<div id="presenter" tabindex="-1" hidden>
  <video id="presenter-video" muted playsinline autoplay></video>
  <div class="presenter-bar">
    <span id="presenter-title"></span>
    <span class="presenter-where"><span id="presenter-label">段</span> <strong id="presenter-section"></strong>
      <span id="presenter-count"></span></span>
    <span id="presenter-next"></span>
    <span class="presenter-keys">→ / 空格 下一段 · ← 上一段 · F 全屏 · Esc 返回</span>
  </div>
</div>"""


# ---- the appendix, for paper ---------------------------------------------------------

def all_errata(cues: dict[str, Any] | None) -> list[dict[str, Any]]:
    """Every erratum the cue sheet carries, once each, in notes order."""
    found = {(e.get("line"), e.get("key"), e.get("said")): e
             for cue in (cues or {}).get("cues") or [] for e in cue.get("errata") or []}
    return sorted(found.values(), key=lambda e: (e.get("line") or 0, str(e.get("key"))))


def _erratum_right(e: dict[str, Any]) -> str:
    """The headline, and for a 改口 the sentence to say instead."""
    say = e.get("say")
    return esc(e.get("right")) + (f'<br><span class="say">改说「{esc(say)}」</span>' if say else "")


def errata_html(errata: list[dict[str, Any]], details: list[dict[str, Any]] | None = None) -> str:
    """讲稿勘误 for paper: the 改口 (with the sentence to say), then the 细节 (true but immaterial)."""
    if not errata and not details:
        return ""

    def table(found: list[dict[str, Any]], right_title: str) -> str:
        rows = "".join(
            f'<tr><td>L{esc(e.get("line"))}</td><td>{esc(e.get("said"))}</td><td class="value">{_erratum_right(e)}</td>'
            f'<td>{esc(e.get("why"))}</td><td><code>{esc(e.get("key"))}</code></td></tr>' for e in found)
        return (f'<table class="numbers"><thead><tr><th>讲稿行</th><th>讲稿说</th><th>{right_title}</th><th>为什么</th>'
                f"<th>键</th></tr></thead><tbody>{rows}</tbody></table>")

    html = '<section class="ledger-group errata" id="appendix-errata"><h2>讲稿勘误（' f"改口 {len(errata)}）</h2>"
    html += table(errata, "改说") if errata else '<p class="empty">无</p>'
    if details:
        html += (f'<h3 id="appendix-errata-details">细节（{len(details)}）· 属实或无关紧要，不用改口</h3>'
                 + table(details, "精确值"))
    return html + "</section>"


def appendix_html(ledger: Ledger, cues: dict[str, Any] | None) -> str:
    """The ledger as the handout the page prints (page.css shows it only on paper): 查来的,
    推来的, 示例取值 and 待核, each number with its citation or its formula and inputs."""
    from studio.track.number_sources import shown_at

    groups, places = [], shown_at(cues)
    for group_id, title, belongs in GROUPS:
        keys = [key for key, entry in ledger.items() if belongs(entry)]
        if keys:
            groups.append(ledger_group(group_id, title, keys, ledger, places))
    errata = errata_html(all_errata(cues), (cues or {}).get("errata_details") or [])
    if not groups and not errata:
        return ""
    return (f'<section class="appendix" id="appendix"><h1>附录：屏幕上的每一个数从哪里来</h1>'
            f'{colour_key_html()}{errata}{"".join(groups)}</section>')


def index_html(manifest: Manifest, ledger: Ledger, cues: dict[str, Any] | None = None) -> str:
    cards = "".join(scene_card(i, s, ledger) for i, s in enumerate(manifest.get("scenes") or [], start=1))
    cards = cards or '<p class="empty">还没有渲染好的场景。</p>'
    data = f'<script type="application/json" id="page-data">{script_json(presenter_data(manifest))}</script>'
    track, lecture, script = "", "", asset("page.js")
    if cues:
        track, lecture = track_html(cues), LECTURE_HTML + "\n" + cue_data_script(cues)
        script += "\n" + "\n".join(asset(name) for name in ("track.js", "timings.js", "lecture.js", "speaker.js"))
    body = (f"{header_html(manifest, ledger, cues)}\n<main>{colour_key_html()}{track}{cards}</main>\n{appendix_html(ledger, cues)}\n"
            f"{PRESENTER_HTML}\n{data}{lecture}")
    return document("排练页 · 讲座动画", body, script)
