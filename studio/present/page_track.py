"""The lecture track on the rehearsal page: section and total times (estimated, rehearsed,
against each section's target), the cue list, rehearsal timings (record, export, import),
lecture mode (the talk step by step: one step per beat of each view a cue shows) and the
presenter window it keeps in step.

Everything the script needs travels in ``<script id="cue-data">`` (the published cue sheet,
with each cue's steps and clips in this render); the presenter window is this same page
opened as ``index.html#speaker``, so nothing else has to be published or fetched.
"""

from __future__ import annotations

from typing import Any

from studio.present.page_html import esc, marked, script_json, url_path
from studio.track.labels import clock, view_label

KIND_LABELS = {"figure": "图", "title": "标题卡", "section": "分节"}


def cue_label(cue: dict[str, Any]) -> str:
    if cue["kind"] == "figure":
        return f"{cue['scene']} · {' '.join(view_label(v) for v in cue['views'])}"
    if cue["kind"] == "section":
        return f"{cue['title']}" if cue.get("opens") is not None else f"全讲完（{cue['title']}）"
    return cue.get("title") or "标题卡"


def step_file(path: Any) -> str | None:
    return url_path(path) if path else None


def fallback_steps(cue: dict[str, Any], media: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A sheet without "steps" (before beats): one step per view, each with all the cue's lines."""
    every_line = list(range(len(cue.get("script") or [])))
    views = media if cue["kind"] == "figure" else [{"view": None, "file": None}]
    share = round(float(cue.get("estimated_s") or 0) / len(views), 1)
    return [{"view": m.get("view"), "panel": None, "beat": None, "file": m.get("file"), "poster": m.get("poster"),
             "loop": bool(m.get("loop")), "says": None, "lines": every_line, "errata": cue.get("errata") or [],
             "estimated_s": share, "numbers": []} for m in views]


def steps_data(cue: dict[str, Any], media: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What each → shows in this cue, as cues.json's "steps" give it (studio/track/cue_steps.py), paths as URLs."""
    if not cue.get("steps"):
        return fallback_steps(cue, media)
    keys = ("view", "panel", "beat", "loop", "says", "lines", "errata", "estimated_s", "rehearsed_s")
    return [{**{k: step.get(k) for k in keys}, "file": step_file(step.get("file")),
             "poster": step_file(step.get("poster")), "errata": step.get("errata") or [],
             "lines": step.get("lines") or [], "numbers": [n for n in step.get("numbers") or [] if isinstance(n, dict)]}
            for step in cue["steps"]]


def timing_key(step: dict[str, Any]) -> str:
    """A step's name in an exported timings file: "<view>.<n>" (studio/track/rehearsal.py reads it)."""
    return f"{step.get('view') or 'card'}.{step.get('beat') or 1}"


def track_data(sheet: dict[str, Any]) -> dict[str, Any]:
    """What the script needs, file paths as relative URLs."""
    cues = []
    for cue in sheet["cues"]:
        item = {k: cue.get(k) for k in ("index", "line", "kind", "text", "screen", "hints", "scene", "views",
                                        "whole", "section", "marks", "opens", "title", "main_figure",
                                        "estimated_s", "rehearsed_s", "script", "lines", "scene_title", "rendered")}
        media = []
        if cue["kind"] == "figure":
            media = [{**m, "file": step_file(m.get("file")), "poster": step_file(m.get("poster"))}
                     for m in cue.get("media") or [{"view": v, "file": None, "placeholder": True}
                                                   for v in cue["views"]]]
            item["media"] = media
        item["errata"] = cue.get("errata") or []
        item["steps"] = [{**step, "key": timing_key(step)} for step in steps_data(cue, media)]
        cues.append(item)
    return {"sections": sheet["sections"], "cues": cues, "estimate": sheet.get("estimate", ""),
            "total_estimated_s": sheet.get("total_estimated_s", 0), "notes": sheet.get("notes", ""),
            "numbers": sheet.get("numbers") or {}}


def seconds_attr(value: Any) -> str:
    return "" if value is None else f' data-seconds="{esc(value)}"'


def seconds_cell(cls: str, value: Any, prefix: str = "") -> str:
    shown = "—" if value is None else f"{prefix}{clock(value)}"
    return f'<td class="{cls}"{seconds_attr(value)}>{esc(shown)}</td>'


def section_rows(sheet: dict[str, Any]) -> str:
    rows = []
    for s in sheet["sections"]:
        over = " over-target" if s.get("over_target") else ""
        excess = (f" {clock(s['rehearsed_s'] - s['target_s'])}"
                  if over and s.get("rehearsed_s") is not None and s.get("target_s") is not None else "")
        rows.append(
            f'<tr data-section="{esc(s["number"])}" class="section{over}"><td class="section-title">{esc(s["title"])}</td>'
            f'<td class="count">{esc(s.get("cues", ""))}</td>{seconds_cell("est", s["estimated_s"], "约 ")}'
            f'{seconds_cell("rehearsed", s.get("rehearsed_s"))}{seconds_cell("target", s.get("target_s"))}'
            f'<td class="flag">{"超时" + excess if over else ""}</td></tr>')
    return "".join(rows)


def cue_items(sheet: dict[str, Any]) -> str:
    items = []
    for cue in sheet["cues"]:
        missing = cue["kind"] == "figure" and not cue.get("rendered")
        state = '<span class="cue-state">未制作</span>' if missing else ""
        classes = f"cue kind-{cue['kind']}" + (" not-built" if missing else "")
        rehearsed = cue.get("rehearsed_s")
        items.append(
            f'<li class="{classes}" data-cue="{cue["index"]}" data-line="{cue["line"]}">'
            f'<button type="button" class="cue-go" data-lecture-start="{cue["index"]}" title="从这一条开始讲">'
            f'L{cue["line"]}</button> <span class="cue-kind">{esc(KIND_LABELS[cue["kind"]])}</span> '
            f'<span class="cue-what">{esc(cue_label(cue))}</span> {state}'
            f'<span class="cue-est">约 {esc(clock(cue["estimated_s"]))}</span>'
            f'<span class="cue-rehearsed"{seconds_attr(rehearsed)}>{"" if rehearsed is None else "排 " + esc(clock(rehearsed))}</span>'
            f'<span class="cue-screen">{marked(cue["screen"] or cue["text"])}</span></li>')
    return "".join(items)


REHEARSAL_HTML = """
  <div class="rehearsal" id="rehearsal">
    <button type="button" class="present rehearse-start" data-lecture-start="0" data-rehearse>● 排练计时</button>
    <a class="timings-export" id="timings-export" download="timings.json" href="#">导出排练用时（JSON）</a>
    <label class="timings-import">导入排练用时 <input type="file" id="timings-import" accept="application/json,.json"></label>
    <button type="button" class="timings-clear" id="timings-clear">清除本机记录</button>
    <span id="timings-status" role="status"></span>
  </div>"""


def track_html(sheet: dict[str, Any]) -> str:
    count = len(sheet["cues"])
    total = clock(sheet.get("total_estimated_s"))
    rehearsed = [s.get("rehearsed_s") for s in sheet["sections"] if s.get("rehearsed_s") is not None]
    return f"""
<section class="track" id="track">
  <div class="track-head">
    <div><h2>讲稿轨道</h2>
      <p class="meta">{count} 条屏幕提示（讲稿里的 {marked("🖥")}）· 估计共 <strong class="total-est">约 {esc(total)}</strong></p></div>
    <button type="button" class="present lecture-start" data-lecture-start="0">▶ 讲课模式</button>
  </div>
  <p class="estimate-note">{esc(sheet.get("estimate", ""))}</p>{REHEARSAL_HTML}
  <table class="section-times">
    <thead><tr><th>节</th><th>屏幕提示</th><th>估计用时（估算）</th><th>排练用时</th><th>目标</th><th></th></tr></thead>
    <tbody>{section_rows(sheet)}</tbody>
    <tfoot><tr><td>合计</td><td class="count">{count}</td>
      <td class="est total-est" data-seconds="{esc(sheet.get("total_estimated_s"))}">约 {esc(total)}</td>
      {seconds_cell("rehearsed total-rehearsed", round(sum(rehearsed), 1) if rehearsed else None)}<td></td><td></td></tr></tfoot>
  </table>
  <details class="cue-list"><summary>逐条看（{count} 条，按讲稿顺序）</summary><ol>{cue_items(sheet)}</ol></details>
</section>"""


# The audience screen carries nothing but the picture: its bar (where we are, the 提词窗口
# button, the keys) shows only while the mouse moves, and the presenter window has the rest.
LECTURE_HTML = """
<div id="lecture" tabindex="-1" hidden>
  <video id="lecture-video" muted playsinline></video>
  <div id="lecture-card" hidden>
    <p id="lecture-kicker"></p>
    <h2 id="lecture-title"></h2>
    <p id="lecture-sub"></p>
  </div>
  <div id="lecture-number" hidden role="dialog" aria-label="这个数从哪来"></div>
  <div class="lecture-bar">
    <span id="lecture-where"></span>
    <span id="lecture-count"></span>
    <span id="lecture-recording" hidden>● 排练计时</span>
    <button type="button" id="lecture-speaker">提词窗口</button>
    <span class="presenter-keys">→ / 空格 / PageDown 下一步 · ← / PageUp 上一步 · J K 滚动讲稿 · N 序号 数从哪来 · P 提词窗口 · F 全屏 · Esc 返回</span>
  </div>
</div>
<div id="speaker" hidden>
  <header class="speaker-top">
    <span id="speaker-count"></span>
    <span id="speaker-where"></span>
    <span class="speaker-timer">已用 <strong id="speaker-elapsed">0:00</strong>
      <button type="button" id="speaker-pause">暂停</button><button type="button" id="speaker-reset">归零</button></span>
    <span>本条 <strong id="speaker-cue-elapsed">0:00</strong> / 估 <strong id="speaker-cue-est">—</strong><span
      class="rehearsed" id="speaker-cue-rehearsed"></span></span>
    <span>本节 <strong id="speaker-section-elapsed">0:00</strong> / 估 <strong id="speaker-section-est">—</strong><span
      class="rehearsed" id="speaker-section-rehearsed"></span></span>
    <span>时钟 <strong id="speaker-clock">—</strong></span>
    <span id="speaker-recording" hidden>● 排练计时</span>
  </header>
  <p id="speaker-waiting">在排练页打开讲课模式（▶ 讲课模式），这个窗口就跟着走。</p>
  <div class="speaker-main">
    <div class="speaker-screens">
      <figure class="speaker-current"><figcaption>现在屏幕上</figcaption><div id="speaker-current-media"></div></figure>
      <figure class="speaker-next"><figcaption>下一步（按 → 之后）</figcaption><div id="speaker-next-media"></div>
        <p id="speaker-next-label"></p></figure>
    </div>
    <div class="speaker-now">
      <section id="speaker-errata" hidden><h3>讲稿勘误</h3><ul></ul></section>
      <p id="speaker-screen"></p>
      <ul id="speaker-hints"></ul>
      <section id="speaker-numbers" hidden>
        <h3>本屏数字 <small>点一下，或按 N 再按序号：投到屏幕上 · Esc 收回</small><span id="speaker-number-typed" hidden></span><span id="speaker-number-shown" hidden></span></h3>
        <ol></ol>
      </section>
      <div id="speaker-script" tabindex="0"></div>
    </div>
  </div>
  <p class="speaker-keys">→ / 空格 / PageDown 下一步 · ← / PageUp 上一步 · ↑ ↓ / K J 滚动讲稿（不翻页）· T 暂停计时 · N 序号 把这个数的来路投到屏幕上 · Esc 收回</p>
  <p class="speaker-estimate">“估”都是估算：引号内讲话按字数和语速折算，加上讲稿写明的停顿。</p>
</div>"""


def cue_data_script(sheet: dict[str, Any]) -> str:
    return f'<script type="application/json" id="cue-data">{script_json(track_data(sheet))}</script>'
