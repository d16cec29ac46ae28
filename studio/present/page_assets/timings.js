// Rehearsal timings: the real time spent on each cue and beat while rehearsing, kept in this
// browser (localStorage), shown in the track beside the estimates, exported as the JSON file
// render.py reads with --timings, and imported back. Format (checked by studio/track/rehearsal.py): {"version": 1, "notes",
// "recorded", "cues": {"<cue notes line>": {"seconds", "beats": {"<view>.<n>": seconds}}}}.
const Rehearsal = (function () {
  "use strict";

  if (!LectureTrack) return null;
  const { sheet, cues, spokenClock: clock } = LectureTrack;
  const STORAGE_KEY = `lecture-timings:${sheet.notes}`;
  const status = document.getElementById("timings-status");
  let session = null;  // what this rehearsal has recorded so far: it replaces those cues' old times

  function blank() {
    return { version: 1, notes: sheet.notes, recorded: new Date().toISOString(), cues: {} };
  }

  function load() {
    try {
      const stored = JSON.parse(localStorage.getItem(STORAGE_KEY) || "null");
      return stored && stored.version === 1 ? stored : null;
    } catch (e) {
      return null;  // storage refused (private window) or damaged: nothing recorded
    }
  }

  function save(timings) {
    try { localStorage.setItem(STORAGE_KEY, JSON.stringify(timings)); } catch (e) { say("浏览器不让保存排练记录"); }
  }

  function say(text) { if (status) status.textContent = text; }

  const tenths = (seconds) => Math.round(seconds * 10) / 10;

  function startSession() { session = {}; }
  function stopSession() { session = null; }
  function recording() { return session !== null; }

  // Time spent on one step of one cue; only while a rehearsal is being recorded.
  function record(cue, stepKey, seconds) {
    if (!session || !(seconds > 0)) return;
    const line = String(cue.line);
    const spent = session[line] || (session[line] = { seconds: 0, beats: {} });
    spent.seconds += seconds;
    spent.beats[stepKey] = (spent.beats[stepKey] || 0) + seconds;
    const timings = load() || blank();
    timings.cues[line] = { seconds: tenths(spent.seconds), beats: {} };
    Object.entries(spent.beats).forEach(([key, s]) => { timings.cues[line].beats[key] = tenths(s); });
    timings.recorded = new Date().toISOString();
    save(timings);
    showOnTrack();
  }

  // ---- the track: rehearsed beside estimated, per cue and section ---------------------
  function rehearsedOf(cue, timings) {
    const own = timings && timings.cues[String(cue.line)];
    if (own) return own.seconds;
    return typeof cue.rehearsed_s === "number" ? cue.rehearsed_s : null;
  }

  // A section's time: the sum over its cues once any of them was timed in this browser,
  // else what the cue sheet says (from render.py --timings). Section number → seconds or null.
  function sectionTimes(timings) {
    const sums = new Map();
    cues.forEach((cue) => {
      const sum = sums.get(cue.section) || { seconds: 0, own: false };
      sum.seconds += rehearsedOf(cue, timings) || 0;
      sum.own = sum.own || Boolean(timings && timings.cues[String(cue.line)]);
      sums.set(cue.section, sum);
    });
    return new Map(sheet.sections.map((section) => {
      const sum = sums.get(section.number);
      const known = typeof section.rehearsed_s === "number" ? section.rehearsed_s : null;
      return [section.number, sum && sum.own ? sum.seconds : known];
    }));
  }

  // What the presenter window shows beside the estimates.
  function rehearsed(cue) {
    const timings = load();
    return { cue: rehearsedOf(cue, timings), section: sectionTimes(timings).get(cue.section) };
  }

  function showSeconds(element, seconds, prefix) {
    if (!element) return;
    element.textContent = seconds === null ? (prefix ? "" : "—") : `${prefix}${clock(seconds)}`;
    if (seconds === null) delete element.dataset.seconds;
    else element.dataset.seconds = String(tenths(seconds));
  }

  function showOnTrack() {
    const timings = load();
    cues.forEach((cue) => {
      const item = document.querySelector(`.cue-list li[data-cue="${cue.index}"] .cue-rehearsed`);
      showSeconds(item, rehearsedOf(cue, timings), "排 ");
    });
    let total = null;
    sectionTimes(timings).forEach((seconds, number) => {
      const section = sheet.sections.find((s) => s.number === number);
      const row = document.querySelector(`#track tr[data-section="${number}"]`);
      if (seconds !== null) total = (total || 0) + seconds;
      if (!row) return;
      showSeconds(row.querySelector("td.rehearsed"), seconds, "");
      const over = seconds !== null && typeof section.target_s === "number" && seconds > section.target_s;
      row.classList.toggle("over-target", over);
      row.querySelector("td.flag").textContent = over ? `超时 ${clock(seconds - section.target_s)}` : "";
    });
    showSeconds(document.querySelector("#track td.total-rehearsed"), total, "");
  }

  // ---- export and import ---------------------------------------------------------------
  function problem(data) {
    if (!data || typeof data !== "object") return "不是 JSON 对象";
    if (data.version !== 1) return `版本应为 1，文件里是 ${JSON.stringify(data.version)}`;
    if (!data.cues || typeof data.cues !== "object") return "缺少 cues";
    for (const [line, cue] of Object.entries(data.cues)) {
      if (!/^[1-9]\d*$/.test(line)) return `cues 的键应是讲稿行号，文件里有 ${JSON.stringify(line)}`;
      if (!cue || typeof cue.seconds !== "number" || cue.seconds < 0) return `第 ${line} 行的 seconds 不是非负数`;
      const beats = cue.beats || {};
      const wrongBeat = typeof beats === "object" && Object.entries(beats).find(
        ([key, s]) => !/^[A-Za-z]+\.[1-9]\d*$/.test(key) || typeof s !== "number" || s < 0);
      if (typeof beats !== "object" || wrongBeat) {
        return `第 ${line} 行的 beats 应是「视图.拍: 秒数」（如 "A.2": 12.5）`;
      }
    }
    return "";
  }

  function importText(text, name) {
    let data;
    try { data = JSON.parse(text); } catch (e) { say(`${name}：不是 JSON（${e.message}）`); return; }
    const wrong = problem(data);
    if (wrong) { say(`${name}：不是排练用时文件：${wrong}`); return; }
    const timings = { ...blank(), recorded: data.recorded || new Date().toISOString(), cues: {} };
    Object.entries(data.cues).forEach(([line, cue]) => {
      timings.cues[line] = { seconds: cue.seconds, beats: { ...(cue.beats || {}) } };
    });
    save(timings);
    showOnTrack();
    say(`已导入 ${Object.keys(timings.cues).length} 条的排练用时`);
  }

  const exportLink = document.getElementById("timings-export");
  if (exportLink) {
    exportLink.addEventListener("click", (event) => {
      const timings = load();
      if (!timings) { event.preventDefault(); say("还没有排练记录：先按 ● 排练计时 讲一遍"); return; }
      if (exportLink.href.startsWith("blob:")) URL.revokeObjectURL(exportLink.href);
      const blob = new Blob([JSON.stringify(timings, null, 2) + "\n"], { type: "application/json" });
      exportLink.href = URL.createObjectURL(blob);  // set before the default action downloads it
    });
  }
  const importInput = document.getElementById("timings-import");
  if (importInput) {
    importInput.addEventListener("change", () => {
      const file = importInput.files[0];
      if (file) file.text().then((text) => importText(text, file.name));
      importInput.value = "";
    });
  }
  const clearButton = document.getElementById("timings-clear");
  if (clearButton) {
    clearButton.addEventListener("click", () => {
      try { localStorage.removeItem(STORAGE_KEY); } catch (e) { /* nothing stored */ }
      showOnTrack();
      say("本机的排练记录已清除");
    });
  }
  showOnTrack();

  return { startSession, stopSession, recording, record, rehearsed };
})();
