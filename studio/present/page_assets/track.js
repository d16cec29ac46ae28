// What lecture mode, its presenter window and the rehearsal timings share: the cue sheet
// (from #cue-data), the talk as one list of steps (one per beat: what one → shows), clock
// text, the notes' marks drawn without an emoji font, and the messages between the windows.
const LectureTrack = (function () {
  "use strict";

  const dataEl = document.getElementById("cue-data");
  if (!dataEl) return null;
  const sheet = JSON.parse(dataEl.textContent);
  const cues = sheet.cues;
  const PANELS = "ⒶⒷⒸⒹⒺⒻⒼⒽⒾⒿⓀⓁⓂⓃⓄⓅⓆⓇⓈⓉⓊⓋⓌⓍⓎⓏ";
  // Keep in step with MARKS in studio/present/page_html.py; page.css draws each one.
  const MARKS = { "⭐": "star", "⛔": "stop", "🖥": "screen", "⚠": "warn", "🎯": "target", "✅": "done" };
  const MARK_PATTERN = new RegExp(`(${Object.keys(MARKS).join("|")})\uFE0F?`, "gu");

  const steps = [];
  cues.forEach((cue, index) => {
    cue.steps.forEach((step, position) => steps.push({ cue: index, position, count: cue.steps.length, step }));
  });

  function viewLabel(view) {
    if (!view) return "";
    if (view === "whole") return "整张";
    if (view === "first") return "开头";
    const at = view.charCodeAt(0) - 65;
    return at >= 0 && at < 26 && view.length === 1 ? PANELS[at] : view;
  }

  function stepLabel(step) {
    const view = viewLabel(step.view);
    return step.beat ? `${view} 第 ${step.beat} 拍` : view;
  }

  function clock(seconds) {
    if (!(seconds >= 0)) return "—";
    const whole = Math.round(seconds);
    const minutes = Math.floor(whole / 60);
    return `${minutes}:${String(whole % 60).padStart(2, "0")}`;
  }

  // As the page's own text writes a time (studio/track/labels.py clock): "1 分 05 秒", "42 秒".
  function spokenClock(seconds) {
    if (!(seconds >= 0)) return "—";
    const whole = Math.round(seconds);
    const minutes = Math.floor(whole / 60);
    return minutes ? `${minutes} 分 ${String(whole % 60).padStart(2, "0")} 秒` : `${whole % 60} 秒`;
  }

  // "3/65 · 2/4": the cue among all cues, then the step within its cue (when it has several).
  function position(at) {
    const where = steps[at];
    return `${where.cue + 1}/${cues.length}` + (where.count > 1 ? ` · ${where.position + 1}/${where.count}` : "");
  }

  function cueWhere(cue) {
    if (cue.kind === "figure") return `L${cue.line} · ${cue.scene} · ${cue.views.map(viewLabel).join(" ")}`;
    if (cue.kind === "section") return `L${cue.line} · ${cue.opens === null ? "全讲完" : "新的一节"}`;
    return `L${cue.line} · 标题卡`;
  }

  // Text as nodes, each mark in a span that page.css draws (the character stays, unpainted).
  function markedNodes(text) {
    const nodes = [];
    let last = 0;
    for (const match of String(text).matchAll(MARK_PATTERN)) {
      if (match.index > last) nodes.push(document.createTextNode(text.slice(last, match.index)));
      const span = document.createElement("span");
      span.className = `mark mark-${MARKS[match[1]]}`;
      span.textContent = match[0];
      nodes.push(span);
      last = match.index + match[0].length;
    }
    if (last < text.length) nodes.push(document.createTextNode(text.slice(last)));
    return nodes;
  }

  function setMarked(element, text) {
    element.replaceChildren(...markedNodes(text));
    return element;
  }

  // What a card says: the section a marker opens (or the end), a title card, a figure not yet made.
  function cardOf(cue, step) {
    // Cards face the audience: the speaker's instructions stay in the presenter window.
    if (cue.kind === "section") {
      return { kicker: cue.opens === null ? "全讲完" : "新的一节", title: cue.title, sub: "" };
    }
    if (cue.kind === "title") return { kicker: "", title: cue.title, sub: "" };
    const what = `${cue.scene} · ${viewLabel(step.view)}`;
    return { kicker: cue.rendered ? "这一格还没有渲染" : "这张图还没有做好", title: what, sub: cue.screen };
  }

  // ---- this screen's numbers (cues.json steps[].numbers, studio/track/number_sources.py) ---------
  // Each kind's tag class, as the page draws it (page.css .kind-…).
  const KIND_CLASSES = { "查来的": "sourced", "推来的": "derived", "示例取值": "chosen", "待核": "unconfirmed" };

  function kindTag(kind) {
    const tag = document.createElement("span");
    tag.className = `kind kind-${KIND_CLASSES[kind] || "unconfirmed"}`;
    tag.textContent = kind;
    return tag;
  }

  // "N, then the number's index": onChoose(index from 0) once the index is typed (at once when
  // no further digit could make a valid one, else after a pause or Enter); onTyped(text or
  // null) shows what is typed so far. key() returns whether it took the key.
  const INDEX_PAUSE_MS = 900;
  const INDEX_GIVE_UP_MS = 4000;
  function indexEntry(onChoose, onTyped) {
    let typed = null;
    let timer = 0;
    const stop = () => { clearTimeout(timer); typed = null; onTyped(null); };
    const finish = () => { const n = Number(typed); stop(); if (n >= 1) onChoose(n - 1); };
    return {
      active: () => typed !== null,
      start() { clearTimeout(timer); typed = ""; onTyped(""); timer = setTimeout(stop, INDEX_GIVE_UP_MS); },
      cancel: stop,
      key(key, count) {
        if (typed === null) return false;
        if (/^[0-9]$/.test(key)) {
          typed += key;
          onTyped(typed);
          clearTimeout(timer);
          if (Number(typed) * 10 > count) finish();
          else timer = setTimeout(finish, INDEX_PAUSE_MS);
        } else if (key === "Enter") finish();
        else if (key === "Escape" || key === "Backspace") stop();
        else return false;
        return true;
      },
    };
  }

  // ---- messages between the projected window and the presenter window ------------------
  // postMessage works between file:// pages (whose origins are opaque); a BroadcastChannel,
  // where the browser allows one, lets a presenter window reloaded on its own find the talk
  // again. Each message is taken once, whichever way it came.
  const CHANNEL = "lecture-track";
  let channel = null;
  try { channel = new BroadcastChannel(CHANNEL); } catch (e) { channel = null; }
  let messageCount = 0;
  const seen = new Set();

  function post(target, type, extra) {
    messageCount += 1;
    const message = Object.assign({ channel: CHANNEL, type, id: `${Date.now()}-${Math.random()}-${messageCount}` }, extra);
    try { if (target && !target.closed) target.postMessage(message, "*"); } catch (e) { /* window gone */ }
    if (channel) channel.postMessage(message);
  }

  // handler(message, source): source is the window that sent it (null over the channel).
  function listen(handler) {
    const take = (message, source) => {
      if (!message || message.channel !== CHANNEL || seen.has(message.id)) return;
      seen.add(message.id);
      handler(message, source);
    };
    window.addEventListener("message", (event) => take(event.data, event.source));
    if (channel) channel.addEventListener("message", (event) => take(event.data, null));
  }

  return { sheet, cues, steps, viewLabel, stepLabel, clock, spokenClock, position, cueWhere, cardOf, markedNodes, setMarked,
    post, listen, kindTag, indexEntry };
})();
