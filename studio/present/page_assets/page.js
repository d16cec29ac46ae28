// Rehearsal page behaviour: section tabs in the list, the presenter view, printing, copy buttons.
// Everything runs from file:// with no network; data comes from the #page-data JSON.

// Stop a player and let go of its file (a removed src alone keeps the last clip decoding).
function unloadVideo(video) {
  video.pause();
  video.removeAttribute("src");
  video.load();
}

// Controls over a projected picture (its class "pointer-active" shows them) appear while the
// mouse moves and go again after lingerMs. Lecture mode (lecture.js) uses it too.
function controlsWhileMouseMoves(stage, lingerMs = 2000) {
  let timer = 0;
  let pointer = "";
  const hide = () => { clearTimeout(timer); stage.classList.remove("pointer-active"); };
  const show = () => {
    stage.classList.add("pointer-active");
    clearTimeout(timer);
    timer = setTimeout(hide, lingerMs);
  };
  stage.addEventListener("mousemove", (event) => {
    const at = `${event.screenX},${event.screenY}`;
    if (at === pointer) return;  // Chrome also sends mousemove when the page changes under a still mouse
    pointer = at;
    show();
  });
  return { show, hide };
}
(function () {
  "use strict";

  const scenes = JSON.parse(document.getElementById("page-data").textContent);

  // The whole lecture as one sequence of steps: a walkthrough gives one step per section,
  // a loop (or a scene without sections) gives one step that plays its whole video.
  function stepsOf(scene) {
    if (scene.loop || scene.sections.length === 0) {
      return [{ scene, name: scene.loop ? "循环" : "整段", file: scene.mp4, loop: scene.loop, index: 0, count: 1 }];
    }
    return scene.sections.map((section, index) => ({
      scene, name: section.name, file: section.file, loop: false, index, count: scene.sections.length,
    }));
  }
  const steps = scenes.flatMap(stepsOf);

  function playQuietly(video) {
    const started = video.play();
    if (started) started.catch(() => {});  // autoplay refused: the controls still work
  }

  // ---- list view: one section clip at a time -----------------------------------------
  document.querySelectorAll(".scene").forEach((card) => {
    const video = card.querySelector("video.player");
    const tabs = Array.from(card.querySelectorAll(".section-tab"));
    if (tabs.length === 0) return;
    let playing = 0;
    const mark = () => tabs.forEach((tab, i) => {
      tab.classList.toggle("active", i === playing);
      tab.classList.remove("up-next");
    });
    video.addEventListener("play", mark);
    // When a section ends, point at the next one instead of running on into it.
    video.addEventListener("ended", () => { if (tabs[playing + 1]) tabs[playing + 1].classList.add("up-next"); });
    tabs.forEach((tab, i) => tab.addEventListener("click", () => {
      playing = i;
      video.src = tab.dataset.src;
      mark();
      playQuietly(video);
    }));
  });

  // ---- presenter view ------------------------------------------------------------------
  const presenter = document.getElementById("presenter");
  const screen = document.getElementById("presenter-video");
  const titleEl = document.getElementById("presenter-title");
  const sectionEl = document.getElementById("presenter-section");
  const countEl = document.getElementById("presenter-count");
  const labelEl = document.getElementById("presenter-label");
  const nextEl = document.getElementById("presenter-next");
  let current = -1;

  function show(index) {
    if (index < 0 || index >= steps.length) {
      presenter.classList.remove("at-end");
      void presenter.offsetWidth;  // restart the "nothing further" flash
      presenter.classList.add("at-end");
      return;
    }
    current = index;
    const step = steps[index];
    presenter.classList.remove("clip-ended", "at-end");
    screen.loop = step.loop;
    screen.src = step.file;
    playQuietly(screen);
    titleEl.textContent = step.scene.title;
    sectionEl.textContent = step.name;
    countEl.textContent = step.count > 1 ? `${step.index + 1} / ${step.count}` : "";
    labelEl.textContent = step.count > 1 ? "段" : "";
    const following = steps[index + 1];
    if (!following) nextEl.textContent = "全片最后一段";
    else nextEl.textContent = following.scene === step.scene ? "" : `下一幕：${following.scene.title}`;
    presenter.dataset.scene = step.scene.id;
    presenter.dataset.section = step.name;
    history.replaceState(null, "", `#present=${encodeURIComponent(step.scene.id)}/${step.index}`);
  }

  function listPlayers(action) {
    document.querySelectorAll("video.player").forEach((video) => {
      if (action === "pause") video.pause();
      else if (video.loop) playQuietly(video);
    });
  }

  function openPresenter(sceneId, sectionIndex) {
    const first = steps.findIndex((step) => step.scene.id === sceneId);
    if (first < 0) return;
    const step = Math.min(first + (sectionIndex || 0), first + steps[first].count - 1);
    listPlayers("pause");  // one video at a time while presenting
    presenter.hidden = false;
    document.body.classList.add("presenting");
    presenter.focus();  // keys go to the stage, not to the button that opened it
    show(step);
  }

  function closePresenter() {
    const sceneId = current >= 0 ? steps[current].scene.id : "";
    if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
    presenter.hidden = true;
    document.body.classList.remove("presenting");
    unloadVideo(screen);
    current = -1;
    history.replaceState(null, "", sceneId ? `#${encodeURIComponent(sceneId)}` : location.pathname);
    const card = sceneId && document.getElementById(sceneId);
    if (card) card.scrollIntoView({ block: "start" });
    listPlayers("resume");
  }

  function toggleFullscreen() {
    if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
    else if (presenter.requestFullscreen) presenter.requestFullscreen().catch(() => {});
  }

  const NEXT_KEYS = new Set(["ArrowRight", " ", "PageDown", "ArrowDown"]);
  const PREVIOUS_KEYS = new Set(["ArrowLeft", "PageUp", "ArrowUp"]);

  document.addEventListener("keydown", (event) => {
    if (presenter.hidden || event.altKey || event.ctrlKey || event.metaKey) return;
    if (NEXT_KEYS.has(event.key)) show(current + 1);
    else if (PREVIOUS_KEYS.has(event.key)) show(current - 1);
    else if (event.key === "Escape") closePresenter();
    else if (event.key === "f" || event.key === "F") toggleFullscreen();
    else return;
    event.preventDefault();  // space must not scroll the list behind
  });

  // The bar (title, section, keys) shows only while the mouse moves: the audience sees the picture.
  controlsWhileMouseMoves(presenter);

  screen.addEventListener("click", () => show(current + 1));
  // A section clip holds its last frame; brighten the key hint so the next step is obvious.
  screen.addEventListener("ended", () => presenter.classList.add("clip-ended"));
  document.querySelectorAll("[data-present]").forEach((button) => {
    button.addEventListener("click", () => openPresenter(button.dataset.present, 0));
  });

  // #present=<scene-id>/<section index> opens the presenter there (and survives a reload).
  function openFromHash() {
    const match = /^#present=([^/]+)(?:\/(\d+))?$/.exec(location.hash);
    if (match) openPresenter(decodeURIComponent(match[1]), Number(match[2] || 0));
  }
  window.addEventListener("hashchange", openFromHash);
  openFromHash();

  // The appendix prints as a handout (page.css @media print); this is the same as Ctrl+P.
  document.querySelectorAll("[data-print]").forEach((button) => button.addEventListener("click", () => window.print()));

  // ---- copy buttons --------------------------------------------------------------------
  function copyWithSelection(text) {
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    const copied = document.execCommand("copy");
    area.remove();
    return copied;
  }

  function copyText(text) {
    const viaSelection = () => (copyWithSelection(text) ? Promise.resolve() : Promise.reject());
    if (navigator.clipboard && navigator.clipboard.writeText) {
      return navigator.clipboard.writeText(text).catch(viaSelection);
    }
    return viaSelection();
  }

  document.querySelectorAll("[data-copy]").forEach((button) => {
    button.addEventListener("click", () => {
      const code = button.parentElement.querySelector("code");
      const done = (label) => {
        button.textContent = label;
        setTimeout(() => { button.textContent = "复制"; }, 1600);
      };
      copyText(code.textContent).then(() => done("已复制"), () => {
        window.getSelection().selectAllChildren(code);  // let the lecturer press Ctrl+C
        done("请按 Ctrl+C");
      });
    });
  });
})();
