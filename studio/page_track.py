"""The lecture track on the rehearsal page: section and total estimated times, the cue list,
lecture mode (the talk cue by cue) and the presenter window it keeps in step.

Everything the script needs travels in ``<script id="cue-data">`` (the published cue sheet,
with each figure cue's clips in this render); the presenter window is this same page opened
as ``index.html#speaker``, so nothing else has to be published or fetched.
"""

from __future__ import annotations

from typing import Any

from studio.page_html import esc, script_json, url_path

KIND_LABELS = {"figure": "图", "title": "标题卡", "section": "分节"}
PANEL_MARKS = {chr(ord("A") + i): chr(ord("Ⓐ") + i) for i in range(26)}


def clock(total_s: Any) -> str:
    try:  # half up, as the page's script rounds (Python's round() would make 34.5 → 34)
        minutes, secs = divmod(int(float(total_s) + 0.5), 60)
    except (TypeError, ValueError):
        return "—"
    return f"{minutes} 分 {secs:02d} 秒" if minutes else f"{secs} 秒"


def view_label(view: str) -> str:
    return {"whole": "整张", "first": "开头"}.get(view, PANEL_MARKS.get(view, view))


def cue_label(cue: dict[str, Any]) -> str:
    if cue["kind"] == "figure":
        return f"{cue['scene']} · {' '.join(view_label(v) for v in cue['views'])}"
    if cue["kind"] == "section":
        return f"{cue['title']}" if cue.get("opens") is not None else f"全讲完（{cue['title']}）"
    return cue.get("title") or "标题卡"


def track_data(sheet: dict[str, Any]) -> dict[str, Any]:
    """What the script needs, file paths as relative URLs."""
    cues = []
    for cue in sheet["cues"]:
        item = {k: cue.get(k) for k in ("index", "line", "kind", "text", "screen", "hints", "scene", "views",
                                        "whole", "section", "marks", "opens", "title", "main_figure",
                                        "estimated_s", "script", "lines", "scene_title", "rendered")}
        if cue["kind"] == "figure":
            item["media"] = [{**m, "file": url_path(m["file"]) if m.get("file") else None,
                              "poster": url_path(m["poster"]) if m.get("poster") else None}
                             for m in cue.get("media") or [{"view": v, "file": None, "placeholder": True}
                                                           for v in cue["views"]]]
        cues.append(item)
    return {"sections": sheet["sections"], "cues": cues, "estimate": sheet.get("estimate", ""),
            "total_estimated_s": sheet.get("total_estimated_s", 0)}


def section_rows(sheet: dict[str, Any]) -> str:
    return "".join(
        f'<tr data-section="{esc(s["number"])}"><td class="section-title">{esc(s["title"])}</td>'
        f'<td class="count">{esc(s.get("cues", ""))}</td>'
        f'<td class="est" data-seconds="{esc(s["estimated_s"])}">约 {esc(clock(s["estimated_s"]))}</td></tr>'
        for s in sheet["sections"])


def cue_items(sheet: dict[str, Any]) -> str:
    items = []
    for cue in sheet["cues"]:
        missing = cue["kind"] == "figure" and not cue.get("rendered")
        state = '<span class="cue-state">未制作</span>' if missing else ""
        classes = f"cue kind-{cue['kind']}" + (" not-built" if missing else "")
        items.append(
            f'<li class="{classes}" data-cue="{cue["index"]}" data-line="{cue["line"]}">'
            f'<button type="button" class="cue-go" data-lecture-start="{cue["index"]}" title="从这一条开始讲">'
            f'L{cue["line"]}</button> <span class="cue-kind">{esc(KIND_LABELS[cue["kind"]])}</span> '
            f'<span class="cue-what">{esc(cue_label(cue))}</span> {state}'
            f'<span class="cue-est">约 {esc(clock(cue["estimated_s"]))}</span>'
            f'<span class="cue-screen">{esc(cue["screen"] or cue["text"])}</span></li>')
    return "".join(items)


def track_html(sheet: dict[str, Any]) -> str:
    count = len(sheet["cues"])
    total = clock(sheet.get("total_estimated_s"))
    return f"""
<section class="track" id="track">
  <div class="track-head">
    <div><h2>讲稿轨道</h2>
      <p class="meta">{count} 条屏幕提示（讲稿里的 🖥）· 估计共 <strong class="total-est">约 {esc(total)}</strong></p></div>
    <button type="button" class="present lecture-start" data-lecture-start="0">▶ 讲课模式</button>
  </div>
  <p class="estimate-note">{esc(sheet.get("estimate", ""))}</p>
  <table class="section-times">
    <thead><tr><th>节</th><th>屏幕提示</th><th>估计用时（估算）</th></tr></thead>
    <tbody>{section_rows(sheet)}</tbody>
    <tfoot><tr><td>合计</td><td class="count">{count}</td>
      <td class="est total-est" data-seconds="{esc(sheet.get("total_estimated_s"))}">约 {esc(total)}</td></tr></tfoot>
  </table>
  <details class="cue-list"><summary>逐条看（{count} 条，按讲稿顺序）</summary><ol>{cue_items(sheet)}</ol></details>
</section>"""


LECTURE_HTML = """
<div id="lecture" tabindex="-1" hidden>
  <video id="lecture-video" muted playsinline></video>
  <div id="lecture-card" hidden>
    <p id="lecture-kicker"></p>
    <h2 id="lecture-title"></h2>
    <p id="lecture-sub"></p>
  </div>
  <div class="lecture-bar">
    <span id="lecture-where"></span>
    <span id="lecture-count"></span>
    <button type="button" id="lecture-speaker">提词窗口</button>
    <span class="presenter-keys">→ / 空格 下一步 · ← 上一步 · P 提词窗口 · F 全屏 · Esc 返回</span>
  </div>
</div>
<div id="speaker" hidden>
  <header class="speaker-top">
    <span id="speaker-count"></span>
    <span id="speaker-where"></span>
    <span>已用 <strong id="speaker-elapsed">0:00</strong></span>
    <span>本条 <strong id="speaker-cue-elapsed">0:00</strong> / 估 <strong id="speaker-cue-est">—</strong></span>
    <span>本节估 <strong id="speaker-section-est">—</strong></span>
    <span class="speaker-keys">→ / 空格 下一步 · ← 上一步</span>
  </header>
  <p id="speaker-waiting">在排练页打开讲课模式（▶ 讲课模式），这个窗口就跟着走。</p>
  <div class="speaker-main">
    <div class="speaker-now">
      <p id="speaker-screen"></p>
      <ul id="speaker-hints"></ul>
      <div id="speaker-script"></div>
    </div>
    <aside class="speaker-next">
      <h3>下一条</h3>
      <div id="speaker-next-media"></div>
      <p id="speaker-next-label"></p>
    </aside>
  </div>
  <p class="speaker-estimate">时间都是估算：引号内讲话按字数和语速折算，加上讲稿写明的停顿。</p>
</div>"""


def cue_data_script(sheet: dict[str, Any]) -> str:
    return f'<script type="application/json" id="cue-data">{script_json(track_data(sheet))}</script>'
