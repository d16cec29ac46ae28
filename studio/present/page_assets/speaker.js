// The presenter window: this same page opened as index.html#speaker, following lecture mode
// (lecture.js) by its messages. It shows the screen as projected, what the next key press
// shows (the next beat), the cue's lines with this beat's highlighted, its hints and errata,
// the clock and this cue's and section's time against the estimate and the rehearsal.
//
// 「本屏数字」 lists the numbers on screen as the beat ends, each with its kind as a tag and one
// line of where it comes from; choosing one (a click, or N and its index) puts its provenance
// card on the projected screen (lecture.js), Esc takes it off.
//
// Keys here: → space PageDown next step, ← PageUp previous, ↓/J and ↑/K scroll the script
// without stepping the talk, T pause/continue the clock, N + index project a number's card,
// Esc take it off.
(function () {
  "use strict";

  if (!LectureTrack || location.hash !== "#speaker") return;
  const { sheet, cues, steps, stepLabel, clock, position, cueWhere, cardOf, setMarked, post, listen, kindTag,
    indexEntry } = LectureTrack;
  const sectionsByNumber = new Map(sheet.sections.map((s) => [s.number, s]));

  document.body.classList.add("speaker-mode");
  // The scene list is hidden here: stop its looping players instead of decoding unseen video.
  document.querySelectorAll("main video").forEach(unloadVideo);
  const root = document.getElementById("speaker");
  root.hidden = false;
  const $ = (id) => document.getElementById(id);
  const script = $("speaker-script");
  let state = { step: -1 };
  let shownStep = -1;
  let shownCue = -1;

  function hint(text) {
    const item = document.createElement("li");
    setMarked(item, text);
    item.className = text.startsWith("⛔") ? "warn" : "star";
    return item;
  }

  function scriptItem(item, index, wrongLines) {
    const p = document.createElement("p");
    p.dataset.line = String(item.line);
    p.dataset.index = String(index);
    if ("say" in item) {
      p.className = "say";
      setMarked(p, item.say);
    } else {
      p.className = item.note.startsWith("⛔") ? "stage warn" : "stage";
      setMarked(p, item.note);
    }
    if (wrongLines.has(item.line)) p.classList.add("erratum");
    return p;
  }

  function erratumItem(erratum) {
    const li = document.createElement("li");
    const line = document.createElement("span");
    line.className = "erratum-line";
    line.textContent = `L${erratum.line}`;
    const right = document.createElement("strong");
    right.textContent = erratum.right;
    li.append(line, ` 讲稿说「${erratum.said}」，应为 `, right);
    if (erratum.say) li.append(`，改说「${erratum.say}」`);
    if (erratum.why) li.append(`：${erratum.why}`);
    return li;
  }

  // One number of this screen: its index (the key after N), kind, value, what it is, and one
  // line of where it comes from. Choosing it projects its card.
  function numberItem(number, index) {
    const li = document.createElement("li");
    li.dataset.key = number.key;
    li.dataset.kind = number.kind;
    const button = document.createElement("button");
    button.type = "button";
    const at = document.createElement("span");
    at.className = "number-index";
    at.textContent = String(index + 1);
    const value = document.createElement("strong");
    value.className = "number-value";
    value.textContent = number.value || number.key;
    const what = document.createElement("span");
    what.className = "number-measures";
    what.textContent = ((sheet.numbers || {})[number.key] || number).measures || "";
    const source = document.createElement("span");
    source.className = "number-source";
    source.textContent = number.source;
    button.append(at, kindTag(number.kind), value, what, source);
    button.addEventListener("click", (event) => { project(number.key); event.currentTarget.blur(); });
    li.append(button);
    return li;
  }

  function shownNumbers() {
    return state.step >= 0 && state.step < steps.length ? steps[state.step].step.numbers || [] : [];
  }

  function project(key) { ask("number", { key, step: state.step }); }

  const typedBox = $("speaker-number-typed");
  const entry = indexEntry((index) => {
    const numbers = shownNumbers();
    if (index < numbers.length) project(numbers[index].key);
  }, (typed) => {
    typedBox.hidden = typed === null;
    typedBox.textContent = typed === null ? "" : `投第 ${typed || "…"} 个`;
  });

  // The numbers this beat brings (not on screen in the step before, in the same cue) are
  // marked, and the list opens at the first of them.
  function showNumbers(step) {
    const box = $("speaker-numbers");
    const list = box.querySelector("ol");
    const numbers = step.numbers || [];
    const before = state.step > 0 && steps[state.step - 1].cue === steps[state.step].cue
      ? new Set((steps[state.step - 1].step.numbers || []).map((n) => n.key)) : new Set();
    const items = numbers.map(numberItem);
    items.forEach((li) => li.classList.toggle("new", !before.has(li.dataset.key)));
    list.replaceChildren(...items);
    box.hidden = numbers.length === 0;
    const first = list.querySelector("li.new");
    list.scrollTop = first ? Math.max(0, first.offsetTop - 4) : 0;
  }

  function markProjected() {
    let shown = 0;
    $("speaker-numbers").querySelectorAll("li").forEach((li, index) => {
      li.classList.toggle("projected", li.dataset.key === state.number);
      if (li.dataset.key === state.number) shown = index + 1;
    });
    root.dataset.number = state.number || "";
    const note = $("speaker-number-shown");
    note.hidden = !shown;
    $("speaker-numbers").classList.toggle("projecting", Boolean(shown));
    note.textContent = shown ? `屏幕上是第 ${shown} 个数的来路 · Esc 收回` : "";
  }

  // A still of what a step leaves on screen: its poster, else its clip's last frame, else its card.
  function still(at) {
    const where = steps[at];
    const cue = cues[where.cue];
    const step = where.step;
    if (step.poster) {
      const img = document.createElement("img");
      img.src = step.poster;
      img.alt = `${cue.scene} ${stepLabel(step)}`;
      return img;
    }
    if (step.file) {
      const clip = document.createElement("video");
      clip.muted = true;
      clip.preload = "auto";
      clip.addEventListener("loadedmetadata", () => { clip.currentTime = Math.max(0, clip.duration - 0.05); });
      clip.src = step.file;
      return clip;
    }
    const text = cardOf(cue, step);
    const div = document.createElement("div");
    div.className = "next-card";
    div.textContent = [text.kicker, text.title].filter(Boolean).join(" · ");
    return div;
  }

  // The screen as the audience sees it: the same clip, from where the projected one is.
  function mirror(at) {
    const box = $("speaker-current-media");
    const step = steps[at].step;
    box.dataset.step = String(at);
    if (!step.file) { box.replaceChildren(still(at)); return; }
    const clip = document.createElement("video");
    clip.muted = true;
    clip.playsInline = true;
    clip.loop = Boolean(step.loop);
    clip.preload = "auto";
    clip.id = "speaker-current-video";
    const offset = state.clipTime || 0;
    clip.addEventListener("loadedmetadata", () => { if (offset > 0.2) clip.currentTime = Math.min(offset, clip.duration); }, { once: true });
    clip.src = step.file;
    const playing = clip.play();
    if (playing) playing.catch(() => {});
    box.replaceChildren(clip);
  }

  function preview(at) {
    const box = $("speaker-next-media");
    const label = $("speaker-next-label");
    if (at >= steps.length) {
      box.replaceChildren();
      box.dataset.step = "";
      box.dataset.cue = "";
      label.textContent = "这是最后一步";
      return;
    }
    const where = steps[at];
    const cue = cues[where.cue];
    box.dataset.step = String(at);
    box.dataset.cue = String(where.cue);
    box.replaceChildren(still(at));
    const within = state.step >= 0 && steps[state.step].cue === where.cue;
    label.textContent = `${within ? "同一条" : "下一条"} ${position(at)} · ${cueWhere(cue)}${where.step.view ? ` · ${stepLabel(where.step)}` : ""}`;
  }

  function highlight(step) {
    const lines = new Set(step.lines);
    const first = step.lines.length ? Math.min(...step.lines) : -1;  // a beat with no lines of its own dims none
    script.querySelectorAll("p").forEach((p) => {
      const index = Number(p.dataset.index);
      p.classList.toggle("current", lines.has(index));
      p.classList.toggle("past", !lines.has(index) && index < first);
    });
  }

  function scrollToCurrent() {
    const first = script.querySelector("p.current");
    script.scrollTop = first ? Math.max(0, first.offsetTop - script.offsetTop - 12) : 0;
  }

  function render() {
    const open = state.step >= 0 && state.step < steps.length;
    $("speaker-waiting").hidden = open;
    root.classList.toggle("idle", !open);
    if (!open) {
      Object.assign(root.dataset, { cue: "", step: "" });
      shownStep = shownCue = -1;
      $("speaker-current-media").replaceChildren();
      return;
    }
    const where = steps[state.step];
    const cue = cues[where.cue];
    const step = where.step;
    const section = sectionsByNumber.get(cue.section);
    $("speaker-count").textContent = position(state.step);
    $("speaker-where").textContent = `${section ? section.title : ""} · ${cueWhere(cue)}${step.view ? ` · ${stepLabel(step)}` : ""}`;
    setMarked($("speaker-screen"), `🖥 ${cue.screen || cue.text}`);
    if (shownCue !== where.cue) {
      $("speaker-hints").replaceChildren(...cue.hints.map(hint));
      const wrongLines = new Set(cue.errata.map((e) => e.line));
      script.replaceChildren(...cue.script.map((item, i) => scriptItem(item, i, wrongLines)));
    }
    if (shownStep !== state.step) {
      highlight(step);
      scrollToCurrent();
      mirror(state.step);
      preview(state.step + 1);
      const errata = $("speaker-errata");
      errata.querySelector("ul").replaceChildren(...step.errata.map(erratumItem));
      errata.hidden = step.errata.length === 0;
      showNumbers(step);
    }
    markProjected();
    shownCue = where.cue;
    shownStep = state.step;
    $("speaker-cue-est").textContent = clock(cue.estimated_s);
    $("speaker-section-est").textContent = section ? clock(section.estimated_s) : "—";
    const before = Rehearsal ? Rehearsal.rehearsed(cue) : { cue: null, section: null };
    $("speaker-cue-rehearsed").textContent = before.cue === null ? "" : ` / 排 ${clock(before.cue)}`;
    $("speaker-section-rehearsed").textContent = before.section === null ? "" : ` / 排 ${clock(before.section)}`;
    $("speaker-pause").textContent = state.running ? "暂停" : "继续";
    $("speaker-recording").hidden = !state.recording;
    root.classList.toggle("paused", !state.running);
    root.classList.remove("at-end");
    if (state.atEnd) { void root.offsetWidth; root.classList.add("at-end"); }
    Object.assign(root.dataset, { cue: String(where.cue), step: String(state.step), line: String(cue.line), view: step.view || "" });
    tick();
  }

  function tick() {
    const now = new Date();
    $("speaker-clock").textContent = now.toLocaleTimeString("zh-CN", { hour12: false });
    if (!(state.step >= 0)) return;
    const running = state.running ? now.getTime() - state.sentAt : 0;
    $("speaker-elapsed").textContent = clock((state.elapsed + running) / 1000);
    $("speaker-cue-elapsed").textContent = clock((state.cueSpent + running) / 1000);
    $("speaker-section-elapsed").textContent = clock((state.sectionSpent + running) / 1000);
    const cue = cues[steps[state.step].cue];
    const section = sectionsByNumber.get(cue.section);
    $("speaker-cue-elapsed").classList.toggle("over", (state.cueSpent + running) / 1000 > cue.estimated_s);
    $("speaker-section-elapsed").classList.toggle("over", Boolean(section) && (state.sectionSpent + running) / 1000 > section.estimated_s);
  }
  setInterval(tick, 500);

  const ask = (type, extra) => post(window.opener, type, extra);

  function scrollScript(delta) {
    script.scrollBy({ top: delta * Math.max(60, script.clientHeight * 0.4), behavior: "instant" });
  }

  listen((message) => {
    if (message.type === "state") { state = message; render(); }
    else if (message.type === "scroll") scrollScript(message.delta);
  });

  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    if (entry.key(key, shownNumbers().length)) { event.preventDefault(); return; }
    if (key === "n" && shownNumbers().length) entry.start();
    else if (key === "Escape") ask("number", { key: null });
    else if (["ArrowRight", " ", "PageDown"].includes(key)) ask("go", { delta: 1 });
    else if (["ArrowLeft", "PageUp"].includes(key)) ask("go", { delta: -1 });
    else if (key === "ArrowDown" || key === "j") scrollScript(1);
    else if (key === "ArrowUp" || key === "k") scrollScript(-1);
    else if (key === "t") ask("timer", { action: "toggle" });
    else return;
    event.preventDefault();
  });
  [["speaker-pause", "toggle"], ["speaker-reset", "reset"]].forEach(([id, action]) => {
    $(id).addEventListener("click", (event) => { ask("timer", { action }); event.currentTarget.blur(); });
  });
  render();
  ask("hello", {});
})();
