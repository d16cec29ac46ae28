// Lecture mode, the projected window: the talk step by step (one step per beat of each view
// a 🖥 cue shows), each beat's clip held on its last frame. Nothing but the picture faces the
// audience: the bar shows only while the mouse moves. This window keeps the clock (elapsed,
// pause, reset; the time spent per cue, section and beat, recorded while rehearsing) and
// tells the presenter window (speaker.js) where the talk is.
//
// On request (the presenter window, or N and an index here) a number of this screen gets its
// provenance card over the picture: its value and kind; a citation, or the formula with each
// input's own kind and source, or the reason it was picked. The beat underneath is held as it
// was (a clip still playing is paused, and resumes), and Esc takes the card off.
//
// Keys here: → space PageDown ↓ next step, ← PageUp ↑ previous (clickers send PageDown and
// PageUp), J/K scroll the presenter's script, T pause/continue the clock, N + index a
// number's card (Esc takes it off), P presenter window, F fullscreen, Esc leave.
(function () {
  "use strict";

  if (!LectureTrack || location.hash === "#speaker") return;
  const { sheet, cues, steps, stepLabel, position, cueWhere, cardOf, setMarked, post, listen, kindTag, indexEntry } = LectureTrack;
  const CONTROLS_LINGER_MS = 2000;

  // The clock: elapsed time with pause and reset, and where that time was spent.
  function stopwatch() {
    let before = 0;          // ms counted before the clock last started
    let since = 0;           // when it last started (0: paused)
    let spent = {};          // ms per "cue:<i>", "section:<n>", "step:<i>"
    return {
      running: () => since !== 0,
      start() { if (!since) since = Date.now(); },
      pause() { if (since) { before += Date.now() - since; since = 0; } },
      reset() { before = 0; spent = {}; if (since) since = Date.now(); },
      elapsed: () => before + (since ? Date.now() - since : 0),
      add(keys, ms) { keys.forEach((key) => { spent[key] = (spent[key] || 0) + ms; }); },
      spentOn: (key) => spent[key] || 0,
    };
  }

  const overlay = document.getElementById("lecture");
  const video = document.getElementById("lecture-video");
  const card = document.getElementById("lecture-card");
  const $ = (id) => document.getElementById(id);
  const watch = stopwatch();
  let current = -1;
  let settled = 0;   // when the time on the current step was last booked
  let speaker = null;

  // Book the time since the last booking to the step on screen (and, rehearsing, record it).
  function settle() {
    const now = Date.now();
    if (current >= 0 && watch.running() && settled) {
      const where = steps[current];
      const cue = cues[where.cue];
      const ms = now - settled;
      watch.add([`cue:${where.cue}`, `section:${cue.section}`, `step:${current}`], ms);
      if (Rehearsal) Rehearsal.record(cue, where.step.key, ms / 1000);
    }
    settled = now;
  }

  function state() {
    if (overlay.hidden || current < 0) return { step: -1 };
    settle();
    const cue = cues[steps[current].cue];
    return {
      number: numberShown ? numberShown.key : null,
      step: current, running: watch.running(), sentAt: Date.now(), elapsed: watch.elapsed(),
      cueSpent: watch.spentOn(`cue:${steps[current].cue}`), sectionSpent: watch.spentOn(`section:${cue.section}`),
      clipTime: video.hidden ? 0 : video.currentTime, recording: Boolean(Rehearsal && Rehearsal.recording()),
    };
  }
  function broadcast(extra) { post(speaker, "state", Object.assign(state(), extra || {})); }

  // The first frame of a beat is the last frame of the beat before it, so show that while
  // the clip loads (never the beat's own poster: that is its end, the reveal).
  function posterBefore(index) {
    const before = index > 0 ? steps[index - 1] : null;
    const cue = cues[steps[index].cue];
    return before && cues[before.cue].scene === cue.scene && before.step.poster ? before.step.poster : "";
  }

  function showStep(index) {
    const where = steps[index];
    const cue = cues[where.cue];
    const step = where.step;
    if (step.file) {
      card.hidden = true;
      video.hidden = false;
      video.loop = Boolean(step.loop);
      video.poster = posterBefore(index);
      video.src = step.file;
      const playing = video.play();
      if (playing) playing.catch(() => {});
    } else {
      unloadVideo(video);
      video.hidden = true;
      const text = cardOf(cue, step);
      $("lecture-kicker").textContent = text.kicker;
      $("lecture-title").textContent = text.title;
      setMarked($("lecture-sub"), text.sub);
      card.hidden = false;
      card.className = cue.kind === "figure" ? "placeholder" : `card-${cue.kind}`;
    }
    $("lecture-where").textContent = `${cueWhere(cue)}${step.beat ? ` · ${stepLabel(step)}` : ""}`;
    $("lecture-count").textContent = position(index);
    Object.assign(overlay.dataset, {
      step: String(index), cue: String(where.cue), line: String(cue.line), kind: cue.kind,
      view: step.view || "", beat: String(step.beat || ""), placeholder: cue.kind === "figure" && !step.file ? "1" : "",
    });
  }

  // ---- 「这个数从哪来？」: a number's provenance card over the held beat ----------------
  const numberCard = $("lecture-number");
  let numberShown = null;   // the record on the card, null when none
  let resumeAfter = false;  // the clip was playing when the card came up

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // One input of a derived number: its kind, value, what it is, and where it comes from.
  function inputItem(input) {
    const li = element("li");
    li.dataset.kind = input.kind;
    const head = element("p", "input-head");
    head.append(kindTag(input.kind), element("strong", "input-value", input.value || input.key),
      element("span", "input-measures", input.measures || input.name || ""));
    li.append(head, element("p", "input-source", input.source));
    return li;
  }

  // Inputs read from one place (a model's config file: its width, its layers, its experts …)
  // are one item when there are many: their values, then the source once.
  const GROUP_FROM = 3;
  // "…config_671B.json (dim)", "…block memtime (…), batch": the document, without the field.
  const document_ = (source) => source.replace(/,\s*[\w.]+$/, "").replace(/\s*\([^()]*\)$/, "");
  const field = (source) => source.slice(document_(source).length).replace(/^[\s,]*\(?|\)?$/g, "");

  function inputGroup(inputs) {
    const li = element("li", "input-group");
    li.dataset.kind = inputs[0].kind;
    li.dataset.count = String(inputs.length);
    const head = element("p", "input-head");
    head.append(kindTag(inputs[0].kind), element("strong", "input-value", inputs.map((i) => i.value || i.key).join("、")));
    const fields = inputs.map((i) => field(i.source)).filter(Boolean);
    const source = document_(inputs[0].source) + (fields.length === inputs.length ? `（依次是 ${fields.join("、")}）` : "");
    li.append(head, element("p", "input-source", source));
    return li;
  }

  const MOST_ITEMS = 8;     // more than this: the rest are counted, not listed

  function inputItems(inputs) {
    const sameDocument = (input) => `${input.kind}\u0000${document_(input.source)}`;
    const byDocument = new Map();
    inputs.forEach((input) => {
      if (!byDocument.has(sameDocument(input))) byDocument.set(sameDocument(input), []);
      byDocument.get(sameDocument(input)).push(input);
    });
    const items = [];
    const grouped = new Set();
    inputs.forEach((input) => {
      const group = byDocument.get(sameDocument(input));
      if (group.length >= GROUP_FROM) {
        if (!grouped.has(group)) { grouped.add(group); items.push(inputGroup(group)); }
      } else items.push(inputItem(input));
    });
    return items;
  }

  function cardBody(number) {
    const parts = [];
    const label = (text) => parts.push(element("p", "number-label", text));
    if (number.missing) {
      parts.push(element("p", "number-text", "账本里没有这个数：它还没有出处。"));
    } else if ("formula" in number) {
      label("怎么算");
      parts.push(element("p", "number-formula", number.formula));
      const inputs = number.inputs || [];
      if (inputs.length) {
        label("用到的数，各自从哪来");
        const list = element("ul", "number-inputs");
        const items = inputItems(inputs);
        list.append(...items.slice(0, MOST_ITEMS));
        if (items.length > MOST_ITEMS) {
          const more = element("li", "input-more", `另有 ${items.length - MOST_ITEMS} 项输入，见附录`);
          more.dataset.count = String(items.length - MOST_ITEMS);
          list.append(more);
        }
        parts.push(list);
      }
      if (number.unconfirmed) parts.push(element("p", "number-warn", "有一个输入的出处还没核实，这个数也跟着待核。"));
    } else if ("reason" in number) {
      label("为什么取这个值");
      parts.push(element("p", "number-text", number.reason || "（未写理由）"));
      if (number.quote) parts.push(element("p", "number-quote", `讲稿：「${number.quote}」`));
    } else {
      label(number.unconfirmed ? "出处（还没核实）" : "出处");
      parts.push(element("p", "number-citation", number.citation || "（无出处）"));
      if (number.unconfirmed) parts.push(element("p", "number-warn", "这个出处还没核实：先别当定论。"));
    }
    return parts;
  }

  // The card's larger text shrinks in steps until it fits the screen, never below 20 px at
  // 1280×720; then the inputs drop what they measure (their value, kind and source stay);
  // then they take two columns.
  const CARD_SCALES = [1, 0.9, 0.8, 0.7];
  const CARD_LAYOUTS = ["", "compact", "compact dense"];
  function fitCard() {
    const box = numberCard.querySelector(".number-card");
    const fits = () => box.scrollHeight <= box.clientHeight + 1 && box.scrollWidth <= box.clientWidth + 1;
    for (const layout of CARD_LAYOUTS) {
      box.className = `number-card ${layout}`.trim();
      for (const scale of CARD_SCALES) {
        box.style.setProperty("--card-scale", String(scale));
        if (fits()) return;
      }
    }
    // Still too much: the last inputs give way to a line that counts them (the appendix has all).
    const list = box.querySelector(".number-inputs");
    if (!list) return;
    let more = list.querySelector(".input-more");
    let hidden = more ? Number(more.dataset.count) : 0;
    while (!fits()) {
      const items = list.querySelectorAll("li:not(.input-more)");
      if (items.length <= 1) return;
      items[items.length - 1].remove();
      hidden += 1;
      if (!more) { more = element("li", "input-more"); list.append(more); }
      more.dataset.count = String(hidden);
      more.textContent = `另有 ${hidden} 项输入，见附录`;
    }
  }

  function showNumber(key) {
    const numbers = current >= 0 ? steps[current].step.numbers || [] : [];
    const shown = numbers.find((n) => n.key === key);   // only a number of this screen
    const number = shown && ((sheet.numbers || {})[key] || shown);
    if (!number) { hideNumber(); return; }
    if (!numberShown && !video.hidden) {
      resumeAfter = !video.paused && !video.ended;
      video.pause();
    }
    numberShown = number;
    const box = element("div", "number-card");
    const head = element("div", "number-head");
    head.append(kindTag(number.kind), element("strong", "number-value", number.value || number.key));
    box.append(element("p", "number-kicker", "这个数从哪来"), head);
    if (number.measures) box.append(element("p", "number-measures", number.measures));
    box.append(...cardBody(number));
    numberCard.replaceChildren(box);
    numberCard.dataset.key = number.key;
    numberCard.dataset.kind = number.kind;
    numberCard.hidden = false;
    fitCard();
    broadcast();
  }

  function hideNumber() {
    const was = numberShown;
    numberShown = null;
    numberCard.hidden = true;
    numberCard.dataset.key = "";
    if (was && resumeAfter && !video.hidden) {
      const playing = video.play();
      if (playing) playing.catch(() => {});
    }
    resumeAfter = false;
    if (was) broadcast();
  }

  const entry = indexEntry((index) => {
    const numbers = current >= 0 ? steps[current].step.numbers || [] : [];
    if (index < numbers.length) showNumber(numbers[index].key);
  }, () => {});

  function show(index) {
    if (index < 0 || index >= steps.length) {
      overlay.classList.remove("at-end");
      void overlay.offsetWidth;  // restart the "nothing further" flash
      overlay.classList.add("at-end");
      broadcast({ atEnd: true });
      return;
    }
    settle();
    if (numberShown) { resumeAfter = false; hideNumber(); }
    current = index;
    overlay.classList.remove("at-end", "clip-ended");
    showStep(index);
    history.replaceState(null, "", `#lecture=${steps[index].cue}/${steps[index].position}`);
    broadcast();
  }

  // ---- controls show on mouse move only, so the audience sees nothing but the picture
  const controls = controlsWhileMouseMoves(overlay, CONTROLS_LINGER_MS);
  document.addEventListener("fullscreenchange", () => {
    const full = document.fullscreenElement === overlay;
    overlay.classList.toggle("fullscreen", full);
    if (full) controls.hide();
  });

  function open(cueIndex, at, rehearse) {
    const first = steps.findIndex((s) => s.cue === cueIndex);
    if (first < 0) return;
    if (Rehearsal && rehearse) Rehearsal.startSession();
    document.querySelectorAll("video").forEach((v) => { if (v !== video) v.pause(); });
    overlay.hidden = false;
    $("lecture-recording").hidden = !(Rehearsal && Rehearsal.recording());
    document.body.classList.add("presenting");
    overlay.focus();
    watch.start();
    settled = Date.now();
    if (!document.fullscreenElement) controls.show();  // a glimpse, so the lecturer knows they are there
    show(Math.min(first + (at || 0), first + steps[first].count - 1));
  }

  function close() {
    settle();
    resumeAfter = false;
    hideNumber();
    watch.pause();  // the clock counts the talk, not the time spent in the list between
    if (Rehearsal) Rehearsal.stopSession();
    if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
    overlay.hidden = true;
    document.body.classList.remove("presenting");
    unloadVideo(video);
    const cue = current >= 0 ? cues[steps[current].cue] : null;
    current = -1;
    history.replaceState(null, "", location.pathname);
    const item = cue && document.querySelector(`.cue-list li[data-cue="${cue.index}"]`);
    const track = document.getElementById("track");
    if (item) item.scrollIntoView({ block: "center" });
    else if (track) track.scrollIntoView({ block: "start" });
    broadcast();
  }

  function openSpeaker() {
    const address = location.href.split("#")[0] + "#speaker";
    speaker = window.open(address, "lecture-speaker", "popup,width=1280,height=800");
    setTimeout(() => broadcast(), 300);  // the new window asks too (hello); this covers a reused one
  }

  function timer(action) {
    settle();
    if (action === "reset") {
      watch.reset();
      if (Rehearsal && Rehearsal.recording()) Rehearsal.startSession();  // a fresh run replaces the times
    } else if (watch.running()) watch.pause();
    else watch.start();
    settled = Date.now();
    broadcast();
  }

  const NEXT_KEYS = new Set(["ArrowRight", " ", "PageDown", "ArrowDown"]);
  const PREVIOUS_KEYS = new Set(["ArrowLeft", "PageUp", "ArrowUp"]);
  document.addEventListener("keydown", (event) => {
    if (overlay.hidden || event.altKey || event.ctrlKey || event.metaKey) return;
    const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    const numbers = current >= 0 ? steps[current].step.numbers || [] : [];
    if (entry.key(key, numbers.length)) { event.preventDefault(); return; }
    if (key === "Escape" && numberShown) hideNumber();   // back to the beat, held as it was
    else if (key === "n" && numbers.length) entry.start();
    else if (NEXT_KEYS.has(key)) show(current + 1);
    else if (PREVIOUS_KEYS.has(key)) show(current - 1);
    else if (key === "j" || key === "k") post(speaker, "scroll", { delta: key === "j" ? 1 : -1 });
    else if (key === "t") timer("toggle");
    else if (key === "Escape") close();
    else if (key === "p") openSpeaker();
    else if (key === "f") {
      if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
      else if (overlay.requestFullscreen) overlay.requestFullscreen().catch(() => {});
    } else return;
    event.preventDefault();
  });
  video.addEventListener("click", () => show(current + 1));
  card.addEventListener("click", () => show(current + 1));
  numberCard.addEventListener("click", () => hideNumber());
  // A beat ends held on its last frame (no loop, no rewind): tell the presenter window.
  video.addEventListener("ended", () => { overlay.classList.add("clip-ended"); broadcast(); });
  $("lecture-speaker").addEventListener("click", (event) => {
    event.stopPropagation();
    openSpeaker();
    overlay.focus();
  });
  document.querySelectorAll("[data-lecture-start]").forEach((button) => {
    button.addEventListener("click", () => open(Number(button.dataset.lectureStart), 0, "rehearse" in button.dataset));
  });

  listen((message, source) => {
    if (source && source !== window) speaker = source;
    if (message.type === "hello") broadcast();
    else if (message.type === "go" && !overlay.hidden) show(current + message.delta);
    else if (message.type === "timer" && !overlay.hidden) timer(message.action);
    else if (message.type === "number" && !overlay.hidden) {
      if (message.key && !(message.step >= 0 && message.step !== current)) showNumber(message.key);
      else hideNumber();
    }
  });
  window.addEventListener("pagehide", settle);

  // #lecture=<cue>/<step> reopens lecture mode there (a reload keeps the place).
  function openFromHash() {
    const match = /^#lecture=(\d+)(?:\/(\d+))?$/.exec(location.hash);
    if (match) open(Number(match[1]), Number(match[2] || 0), false);
  }
  window.addEventListener("hashchange", openFromHash);
  openFromHash();
})();
