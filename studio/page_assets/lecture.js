// Lecture mode, the projected window: the talk step by step (one step per beat of each view
// a 🖥 cue shows), each beat's clip held on its last frame. Nothing but the picture faces the
// audience: the bar shows only while the mouse moves. This window keeps the clock (elapsed,
// pause, reset; the time spent per cue, section and beat, recorded while rehearsing) and
// tells the presenter window (speaker.js) where the talk is.
//
// Keys here: → space PageDown ↓ next step, ← PageUp ↑ previous (clickers send PageDown and
// PageUp), J/K scroll the presenter's script, T pause/continue the clock, P presenter
// window, F fullscreen, Esc leave.
(function () {
  "use strict";

  if (!LectureTrack || location.hash === "#speaker") return;
  const { cues, steps, stepLabel, position, cueWhere, cardOf, setMarked, post, listen } = LectureTrack;
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

  function show(index) {
    if (index < 0 || index >= steps.length) {
      overlay.classList.remove("at-end");
      void overlay.offsetWidth;  // restart the "nothing further" flash
      overlay.classList.add("at-end");
      broadcast({ atEnd: true });
      return;
    }
    settle();
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
    if (NEXT_KEYS.has(key)) show(current + 1);
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
