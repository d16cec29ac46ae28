"""A cue's steps against a render: what each → shows, in order.

A figure cue shows its views one after another (never side by side), and each view plays
its beats one by one: one step per beat, from the manifest's ``sections[].beats``. A section
without ``beats`` (a render from before beats) is one step, its panel clip, with no poster.
A whole view (整张投) is one step: the scene's own ``whole`` panel when it has one, else the
whole clip. Title and section cards are one step with no clip.

Each beat step carries the ledger keys visible as the beat ends (the manifest's
``beats[].numbers``, as the kit drew them); studio.track.cues turns them into the numbers' records
(studio.track.number_sources): value, kind, provenance.

Each entry of the cue's script (its speech and notes) belongs to one step, by the beats'
quotes: an entry belongs to the beat whose ``says`` it contains (or which contains it, for a
quote across lines) or whose ``notes_line`` it stands on; entries before the first quote
belong to the first step; later unmatched ones to the step before. An entry belongs to one
step only: a beat quoting the same line as the beat before it holds no line of its own. A view whose beats quote
nothing (an older render, a placeholder) starts at the first stage note that names its panel
(「然后跳到 Ⓑ」), or right away after a whole view the cue line times (「先整张投三秒，再放大 Ⓐ」:
the whole frame holds silently for its seconds, then the speech is the panel's).
"""

from __future__ import annotations

import re
from typing import Any

from studio.track import rehearsal
from studio.track.notes_speech import PAUSE, VIEW_FIRST, VIEW_WHOLE, seconds_of, speech_chars

# What a quote may differ by from its notes line: spacing, the outer brackets, the marks.
UNQUOTED = re.compile(r"[\s「」『』⭐⛔⚠\ufe0f]")
SHORTEST_QUOTED_PART = 4   # a script line this short inside a longer quote is not evidence of it


# ---- the steps one view plays --------------------------------------------------------------

def _step(view: str | None, **fields: Any) -> dict[str, Any]:
    step = {"view": view, "panel": None, "beat": None, "file": None, "poster": None, "loop": False,
            "says": None, "notes_line": None, "numbers": []}
    step.update(fields)
    return step


def _last_poster(section: dict[str, Any] | None) -> str | None:
    beats = (section or {}).get("beats") or []
    return beats[-1].get("poster") if beats else None


def _last_numbers(section: dict[str, Any] | None) -> list[str]:
    """The ledger keys on screen as a panel ends (its last beat's)."""
    beats = (section or {}).get("beats") or []
    return list(beats[-1].get("numbers") or []) if beats else []


def panel_steps(section: dict[str, Any]) -> list[dict[str, Any]]:
    """One step per beat of a rendered panel."""
    name = section["name"]
    if not section.get("beats"):   # rendered before beats: the panel is its one beat
        return [_step(name, panel=name, beat=1, file=section.get("file"))]
    return [_step(name, panel=name, beat=b.get("n", n), file=b.get("file"), poster=b.get("poster"),
                  says=b.get("says"), notes_line=b.get("notes_line"), numbers=list(b.get("numbers") or []))
            for n, b in enumerate(section["beats"], start=1)]


def whole_step(scene: dict[str, Any], sections: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The whole view: the scene's ``whole`` panel when it defines one, else its whole clip,
    ending on its last beat's poster (a loop's poster is its first frame)."""
    if VIEW_WHOLE in sections:
        panel = sections[VIEW_WHOLE]
        return _step(VIEW_WHOLE, panel=VIEW_WHOLE, file=panel.get("file"), poster=_last_poster(panel),
                     numbers=_last_numbers(panel))
    files = scene.get("files") or {}
    if not files.get("mp4"):
        return _step(VIEW_WHOLE)
    loop = bool(scene.get("loop"))
    ordered = scene.get("sections") or []
    last = None if loop or not ordered else _last_poster(ordered[-1])
    numbers = [] if loop or not ordered else _last_numbers(ordered[-1])
    return _step(VIEW_WHOLE, file=files["mp4"], poster=last or files.get("png"), loop=loop, numbers=numbers)


def view_steps(scene: dict[str, Any] | None, view: str) -> list[dict[str, Any]]:
    """The steps a view plays in a rendered scene; a placeholder step when it has no clip."""
    if scene is None:
        return [_step(view, panel=view if len(view) == 1 else None)]
    ordered = scene.get("sections") or []
    sections = {s.get("name"): s for s in ordered}
    if view == VIEW_FIRST:
        view = VIEW_WHOLE if scene.get("loop") or not ordered else ordered[0]["name"]
    if scene.get("loop") or (view == VIEW_WHOLE and (VIEW_WHOLE in sections or not ordered)):
        return [whole_step(scene, sections)]
    if view == VIEW_WHOLE:
        # A walkthrough has no picture the whole clip shows that its beats do not: the whole
        # view is its panels' beats in order, so 整张投 steps (and holds) like any view.
        return [step for section in ordered for step in panel_steps(section)]
    if view not in sections:
        return [_step(view, panel=view if len(view) == 1 else None)]
    return panel_steps(sections[view])


# ---- which script entries each step holds ---------------------------------------------------

def quotes(entry: dict[str, Any], step: dict[str, Any]) -> bool:
    """Whether a script entry is the line a beat quotes (or one line of a longer quote)."""
    if step.get("notes_line") is not None and entry["line"] == step["notes_line"]:
        return True
    if not step.get("says"):
        return False
    said = UNQUOTED.sub("", entry.get("say") or entry.get("note") or "")
    quote = UNQUOTED.sub("", step["says"])
    return bool(said and quote) and (quote in said or (len(said) >= SHORTEST_QUOTED_PART and said in quote))


def names_panel(entry: dict[str, Any], panel: str | None) -> bool:
    """A stage note that names the panel (Ⓑ for B): where a view without quotes starts."""
    if "note" not in entry or not panel or len(panel) != 1:
        return False
    return chr(ord("Ⓐ") + ord(panel) - ord("A")) in entry["note"]


def _first(script: list[dict[str, Any]], start: int, test) -> int | None:
    return next((k for k in range(start, len(script)) if test(script[k])), None)


def anchors(script: list[dict[str, Any]], steps: list[dict[str, Any]], whole_timed: bool) -> list[int | None]:
    """Where in the script each step starts (None: it holds no entry of its own)."""
    found: list[int | None] = []
    cursor = -1   # the last entry a step was found at: later steps are searched after it
    for i, step in enumerate(steps):
        if cursor >= 0 and quotes(script[cursor], step):
            found.append(None)   # it quotes the line the step before it starts on: that line is taken
            continue
        at = _first(script, cursor + 1, lambda e, s=step: quotes(e, s))
        opens_view = i > 0 and steps[i - 1]["view"] != step["view"]
        if at is None and opens_view:
            at = _first(script, cursor + 1, lambda e, s=step: names_panel(e, s["panel"]))
            if at is None and whole_timed and steps[i - 1]["view"] == VIEW_WHOLE and not steps[i - 1]["says"]:
                at = found[-1]
        if at is not None:
            cursor = max(cursor, at)
        found.append(0 if i == 0 else at)
    return found


def assign_lines(script: list[dict[str, Any]], steps: list[dict[str, Any]], whole_timed: bool) -> list[list[int]]:
    """Each step's script entries, as indices into the script: every entry in exactly one step."""
    starts = anchors(script, steps, whole_timed)
    lines: list[list[int]] = [[] for _ in steps]
    for k in range(len(script)):
        owner = max(i for i, at in enumerate(starts) if at is not None and at <= k)
        lines[owner].append(k)
    return lines


# ---- each step's time, errata and rehearsed seconds ------------------------------------------

def _step_seconds(cue: dict[str, Any], indices: list[int], first: bool, chars_per_minute: float) -> float:
    """The estimate's own parts that fall in these entries (studio.track.cues.estimate, split)."""
    entries = [cue["script"][k] for k in indices]
    said = "".join(e["say"] for e in entries if "say" in e)
    stage = [e["note"] for e in entries if "note" in e and e["line"] > cue["line"]]
    if first:
        stage.insert(0, cue["text"])
    pauses = sum(seconds_of(m) for m in PAUSE.finditer(" ".join(stage)))
    return speech_chars(said) * 60.0 / chars_per_minute + pauses


def split_estimate(cue: dict[str, Any], lines: list[list[int]], chars_per_minute: float) -> list[float]:
    """The cue's estimate shared out over its steps; they add up to it exactly (a time the
    cue line gives its screen, 「一分钟后就切走」, stretches every step alike)."""
    raw = [_step_seconds(cue, indices, i == 0, chars_per_minute) for i, indices in enumerate(lines)]
    total, spoken = float(cue["estimated_s"]), sum(raw)
    shares = [r / spoken for r in raw] if spoken > 0 else [1 / len(raw)] * len(raw)
    times = [round(total * s, 1) for s in shares[:-1]]
    return [*times, round(max(0.0, total - sum(times)), 1)]


def step_errata(cue: dict[str, Any], indices: list[int], first: bool) -> list[dict[str, Any]]:
    """The errata on this step's lines (the cue line's own belong to its first step)."""
    numbers = {cue["script"][k]["line"] for k in indices} | ({cue["line"]} if first else set())
    return [e for e in cue.get("errata") or [] if e["line"] in numbers]


def finish(cue: dict[str, Any], steps: list[dict[str, Any]], lines: list[list[int]],
           chars_per_minute: float) -> list[dict[str, Any]]:
    times = split_estimate(cue, lines, chars_per_minute)
    beats = cue.get("rehearsed_beats") or {}
    for i, step in enumerate(steps):
        step["lines"] = lines[i]
        step["errata"] = step_errata(cue, lines[i], i == 0)
        step["estimated_s"] = times[i]
        rehearsed = beats.get(rehearsal.step_key(step))
        if rehearsed is None and len(steps) == 1:
            rehearsed = cue.get("rehearsed_s")  # one step: the cue's time is the step's
        step["rehearsed_s"] = None if rehearsed is None else round(float(rehearsed), 1)
    return steps


def whole_is_timed(cue: dict[str, Any]) -> bool:
    """「先整张投三秒」: the cue line gives the whole frame its own silent seconds."""
    return any(m.group(0).startswith("整张投") for m in PAUSE.finditer(cue["text"]))


def cue_steps(cue: dict[str, Any], scene: dict[str, Any] | None, chars_per_minute: float) -> list[dict[str, Any]]:
    """Every step of one cue, with its script entries, errata and times."""
    if cue["kind"] != "figure":
        steps = [{"scene": None, **_step(None)}]
        return finish(cue, steps, [list(range(len(cue["script"])))], chars_per_minute)
    steps = [{"scene": cue["scene"], **s} for view in cue["views"] for s in view_steps(scene, view)]
    steps = own_beats(cue, steps)
    return finish(cue, steps, assign_lines(cue["script"], steps, whole_is_timed(cue)), chars_per_minute)


def own_beats(cue: dict[str, Any], steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The beats this cue says: a figure shown over several cues (fig-per-byte 整张投, then
    「指两个交点」) plays each beat at the cue whose lines it quotes, never twice. A beat that
    quotes nothing goes with the next quoting beat of its view (else the one before it); when
    none of the cue's own lines is quoted, the cue holds the figure as it last stood."""
    if not any(s["notes_line"] for s in steps):
        return steps
    own = {e["line"] for e in cue["script"]} | {cue["line"]}

    def keeps(i: int) -> bool:
        view = steps[i]["view"]
        later = [s for s in steps[i:] if s["view"] == view and s["notes_line"]]
        earlier = [s for s in steps[:i] if s["view"] == view and s["notes_line"]]
        decider = later[0] if later else (earlier[-1] if earlier else None)
        return decider is None or decider["notes_line"] in own

    kept = [s for i, s in enumerate(steps) if keeps(i)]
    if kept:
        return kept
    before = [s for s in steps if s["notes_line"] and s["notes_line"] < cue["line"]]
    return [before[-1] if before else steps[0]]


def unmatched_times(cue: dict[str, Any], steps: list[dict[str, Any]]) -> list[str]:
    """A warning for each rehearsed beat this render has no step for."""
    keys = {rehearsal.step_key(s) for s in steps}
    return [f"timings: L{cue['line']} has no step {key} in this render; its time is left out"
            for key in (cue.get("rehearsed_beats") or {}) if key not in keys]
