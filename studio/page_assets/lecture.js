// Lecture mode: the talk cue by cue, as the notes' 🖥 lines give it, and a presenter window
// (this same page opened as #speaker) that follows it. The two windows talk by postMessage
// (works between file:// pages, whose origins are opaque) and, where the browser allows it,
// a BroadcastChannel too (so a presenter window reloaded on its own finds the talk again).
(function () {
  "use strict";

  const dataEl = document.getElementById("cue-data");
  if (!dataEl) return;
  const sheet = JSON.parse(dataEl.textContent);
  const cues = sheet.cues;
  const sectionsByNumber = new Map(sheet.sections.map((s) => [s.number, s]));
  const CHANNEL = "lecture-track";
  const PANELS = "ⒶⒷⒸⒹⒺⒻⒼⒽⒾⒿⓀⓁⓂⓃⓄⓅⓆⓇⓈⓉⓊⓋⓌⓍⓎⓏ";

  // One step per view of a figure cue (「平移到 Ⓑ，再到 Ⓒ」 is two), one per card.
  const steps = [];
  cues.forEach((cue, index) => {
    const views = cue.kind === "figure" ? cue.media : [null];
    views.forEach((media, view) => steps.push({ cue: index, view, count: views.length, media }));
  });

  function viewLabel(view) {
    if (view === "whole") return "整张";
    if (view === "first") return "开头";
    const at = view.charCodeAt(0) - 65;
    return at >= 0 && at < 26 && view.length === 1 ? PANELS[at] : view;
  }

  function clock(seconds) {
    if (!(seconds >= 0)) return "—";
    const whole = Math.round(seconds);
    const minutes = Math.floor(whole / 60);
    return `${minutes}:${String(whole % 60).padStart(2, "0")}`;
  }

  function cueWhere(cue) {
    if (cue.kind === "figure") return `L${cue.line} · ${cue.scene} · ${cue.views.map(viewLabel).join(" ")}`;
    if (cue.kind === "section") return `L${cue.line} · ${cue.opens === null ? "全讲完" : "新的一节"}`;
    return `L${cue.line} · 标题卡`;
  }

  // What a card says: the section a marker opens (or the end), a title card, a figure not yet made.
  function cardOf(cue, media) {
    // Cards face the audience: the speaker's instructions stay in the presenter window.
    if (cue.kind === "section") {
      return { kicker: cue.opens === null ? "全讲完" : "新的一节", title: cue.title, sub: "" };
    }
    if (cue.kind === "title") return { kicker: "", title: cue.title, sub: "" };
    const what = `${cue.scene} · ${viewLabel(media.view)}`;
    return { kicker: cue.rendered ? "这一格还没有渲染" : "这张图还没有做好", title: what, sub: cue.screen };
  }

  function send(target, message) {
    try { if (target && !target.closed) target.postMessage(message, "*"); } catch (e) { /* window gone */ }
  }

  let channel = null;
  try { channel = new BroadcastChannel(CHANNEL); } catch (e) { channel = null; }

  let messageCount = 0;
  const seen = new Set();
  function envelope(type, extra) {
    messageCount += 1;
    return Object.assign({ channel: CHANNEL, type, id: `${Date.now()}-${Math.random()}-${messageCount}` }, extra);
  }
  function fresh(message) {
    if (!message || message.channel !== CHANNEL || seen.has(message.id)) return false;
    seen.add(message.id);
    return true;
  }

  if (location.hash === "#speaker") speakerWindow();
  else lectureMode();

  // ---- the projected window -----------------------------------------------------------
  function lectureMode() {
    const overlay = document.getElementById("lecture");
    const video = document.getElementById("lecture-video");
    const card = document.getElementById("lecture-card");
    const kicker = document.getElementById("lecture-kicker");
    const title = document.getElementById("lecture-title");
    const sub = document.getElementById("lecture-sub");
    const where = document.getElementById("lecture-where");
    const count = document.getElementById("lecture-count");
    let current = -1;
    let started = 0;
    let cueStarted = 0;
    let speaker = null;

    function state() {
      return { step: overlay.hidden ? -1 : current, started, cueStarted };
    }
    function broadcast() {
      const message = envelope("state", state());
      send(speaker, message);
      if (channel) channel.postMessage(message);
    }

    function show(index) {
      if (index < 0 || index >= steps.length) {
        overlay.classList.remove("at-end");
        void overlay.offsetWidth;  // restart the "nothing further" flash
        overlay.classList.add("at-end");
        return;
      }
      const step = steps[index];
      const cue = cues[step.cue];
      if (current < 0 || steps[current].cue !== step.cue) cueStarted = Date.now();
      current = index;
      overlay.classList.remove("at-end", "clip-ended");
      const media = step.media;
      if (media && media.file) {
        card.hidden = true;
        video.hidden = false;
        video.loop = Boolean(media.loop);
        video.poster = media.poster || "";
        video.src = media.file;
        const playing = video.play();
        if (playing) playing.catch(() => {});
      } else {
        video.pause();
        video.removeAttribute("src");
        video.load();
        video.hidden = true;
        const text = cardOf(cue, media);
        kicker.textContent = text.kicker;
        title.textContent = text.title;
        sub.textContent = text.sub;
        card.hidden = false;
        card.className = media ? "placeholder" : `card-${cue.kind}`;
      }
      where.textContent = cueWhere(cue);
      count.textContent = `${step.cue + 1} / ${cues.length}` + (step.count > 1 ? ` · ${step.view + 1}/${step.count}` : "");
      Object.assign(overlay.dataset, {
        cue: String(step.cue), line: String(cue.line), kind: cue.kind,
        view: media ? media.view : "", placeholder: media && !media.file ? "1" : "",
      });
      history.replaceState(null, "", `#lecture=${step.cue}/${step.view}`);
      broadcast();
    }

    function open(cueIndex, view) {
      const first = steps.findIndex((s) => s.cue === cueIndex);
      if (first < 0) return;
      if (!started) started = Date.now();
      document.querySelectorAll("video").forEach((v) => { if (v !== video) v.pause(); });
      overlay.hidden = false;
      document.body.classList.add("presenting");
      overlay.focus();
      show(Math.min(first + (view || 0), first + steps[first].count - 1));
    }

    function close() {
      if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
      overlay.hidden = true;
      document.body.classList.remove("presenting");
      video.pause();
      video.removeAttribute("src");
      video.load();
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
      speaker = window.open(address, "lecture-speaker", "popup,width=1180,height=760");
      setTimeout(broadcast, 300);  // the new window asks too (hello); this covers a reused one
    }

    function step(delta) { show(current + delta); }

    const NEXT_KEYS = new Set(["ArrowRight", " ", "PageDown", "ArrowDown"]);
    const PREVIOUS_KEYS = new Set(["ArrowLeft", "PageUp", "ArrowUp"]);
    document.addEventListener("keydown", (event) => {
      if (overlay.hidden || event.altKey || event.ctrlKey || event.metaKey) return;
      if (NEXT_KEYS.has(event.key)) step(1);
      else if (PREVIOUS_KEYS.has(event.key)) step(-1);
      else if (event.key === "Escape") close();
      else if (event.key === "p" || event.key === "P") openSpeaker();
      else if (event.key === "f" || event.key === "F") {
        if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
        else if (overlay.requestFullscreen) overlay.requestFullscreen().catch(() => {});
      } else return;
      event.preventDefault();
    });
    video.addEventListener("click", () => step(1));
    card.addEventListener("click", () => step(1));
    video.addEventListener("ended", () => overlay.classList.add("clip-ended"));
    document.getElementById("lecture-speaker").addEventListener("click", (event) => {
      event.stopPropagation();
      openSpeaker();
      overlay.focus();
    });
    document.querySelectorAll("[data-lecture-start]").forEach((button) => {
      button.addEventListener("click", () => open(Number(button.dataset.lectureStart), 0));
    });

    function onMessage(message, source) {
      if (!fresh(message)) return;
      if (source && source !== window) speaker = source;
      if (message.type === "hello") broadcast();
      else if (message.type === "go" && !overlay.hidden) step(message.delta);
    }
    window.addEventListener("message", (event) => onMessage(event.data, event.source));
    if (channel) channel.addEventListener("message", (event) => onMessage(event.data, null));

    // #lecture=<cue>/<view> reopens lecture mode there (a reload keeps the place).
    function openFromHash() {
      const match = /^#lecture=(\d+)(?:\/(\d+))?$/.exec(location.hash);
      if (match) open(Number(match[1]), Number(match[2] || 0));
    }
    window.addEventListener("hashchange", openFromHash);
    openFromHash();
  }

  // ---- the presenter window -------------------------------------------------------------
  function speakerWindow() {
    document.body.classList.add("speaker-mode");
    // The scene list is hidden here: stop its looping players instead of decoding unseen video.
    document.querySelectorAll("main video").forEach((v) => { v.pause(); v.removeAttribute("src"); v.load(); });
    const root = document.getElementById("speaker");
    root.hidden = false;
    const $ = (id) => document.getElementById(id);
    const waiting = $("speaker-waiting");
    let state = { step: -1, started: 0, cueStarted: 0 };

    function hint(text) {
      const item = document.createElement("li");
      item.textContent = text;
      item.className = text.startsWith("⛔") ? "warn" : "star";
      return item;
    }

    function scriptItem(item) {
      const p = document.createElement("p");
      p.dataset.line = String(item.line);
      if ("say" in item) {
        p.className = "say";
        p.textContent = item.say;
      } else {
        p.className = item.note.startsWith("⛔") ? "stage warn" : "stage";
        p.textContent = item.note;
      }
      return p;
    }

    function nextPreview(index) {
      const box = $("speaker-next-media");
      box.replaceChildren();
      const label = $("speaker-next-label");
      const following = index + 1 < cues.length ? cues[index + 1] : null;
      if (!following) {
        label.textContent = "这是最后一条";
        box.dataset.cue = "";
        return;
      }
      box.dataset.cue = String(following.index);
      label.textContent = cueWhere(following);
      const media = following.kind === "figure" ? following.media[0] : null;
      if (media && media.file && media.loop && media.poster) {
        const img = document.createElement("img");
        img.src = media.poster;
        img.alt = following.scene;
        box.appendChild(img);
      } else if (media && media.file) {
        // The clip's last frame is its finished panel: show that, still.
        const still = document.createElement("video");
        still.muted = true;
        still.preload = "auto";
        still.addEventListener("loadedmetadata", () => { still.currentTime = Math.max(0, still.duration - 0.05); });
        still.src = media.file;
        box.appendChild(still);
      } else {
        const text = cardOf(following, media);
        const div = document.createElement("div");
        div.className = "next-card";
        div.textContent = `${text.kicker} · ${text.title}`;
        box.appendChild(div);
      }
    }

    function render() {
      const open = state.step >= 0 && state.step < steps.length;
      waiting.hidden = open;
      root.classList.toggle("idle", !open);
      if (!open) { root.dataset.cue = ""; return; }
      const step = steps[state.step];
      const cue = cues[step.cue];
      const section = sectionsByNumber.get(cue.section);
      $("speaker-count").textContent = `${step.cue + 1} / ${cues.length}` + (step.count > 1 ? ` · ${step.view + 1}/${step.count}` : "");
      $("speaker-where").textContent = `${section ? section.title : ""} · ${cueWhere(cue)}`;
      $("speaker-screen").textContent = `🖥 ${cue.screen || cue.text}`;
      $("speaker-hints").replaceChildren(...cue.hints.map(hint));
      if (root.dataset.cue !== String(step.cue)) {
        $("speaker-script").replaceChildren(...cue.script.map(scriptItem));
        $("speaker-script").scrollTop = 0;
        nextPreview(step.cue);
      }
      $("speaker-cue-est").textContent = clock(cue.estimated_s);
      $("speaker-section-est").textContent = section ? clock(section.estimated_s) : "—";
      Object.assign(root.dataset, { cue: String(step.cue), line: String(cue.line), view: step.media ? step.media.view : "" });
      tick();
    }

    function tick() {
      const now = Date.now();
      $("speaker-elapsed").textContent = state.started ? clock((now - state.started) / 1000) : "0:00";
      $("speaker-cue-elapsed").textContent = state.cueStarted ? clock((now - state.cueStarted) / 1000) : "0:00";
    }
    setInterval(tick, 500);

    function ask(type, extra) {
      const message = envelope(type, extra);
      send(window.opener, message);
      if (channel) channel.postMessage(message);
    }

    function onMessage(message) {
      if (!fresh(message) || message.type !== "state") return;
      state = message;
      render();
    }
    window.addEventListener("message", (event) => onMessage(event.data));
    if (channel) channel.addEventListener("message", (event) => onMessage(event.data));

    document.addEventListener("keydown", (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      if (["ArrowRight", " ", "PageDown", "ArrowDown"].includes(event.key)) ask("go", { delta: 1 });
      else if (["ArrowLeft", "PageUp", "ArrowUp"].includes(event.key)) ask("go", { delta: -1 });
      else return;
      event.preventDefault();
    });
    render();
    ask("hello", {});
  }
})();
