"""The lecture track: the notes' 🖥 screen cues, in order, as a cue sheet.

Every line of ``assets/lecture-notes.txt`` that starts with 🖥 becomes one cue:

- ``🖥 屏幕：…`` naming a figure (``fig-slider，先只放 Ⓐ``) is a *figure cue*: the scene id,
  the panels it shows (Ⓐ Ⓑ …), whether it is projected whole (整张投).
- ``平移到 Ⓑ`` names no figure: it pans the figure on screen. Animations (``anim-…``) have no
  panels, so a pan after one continues the last ``fig-…`` shown (anim-reverse is played over
  fig-reverse, then 「平移到 Ⓒ」 is fig-reverse's Ⓒ).
- ``同一张图`` is not decided here: the storyboards record that it once means an earlier
  figure, so such a cue must be settled in config/cues.yaml.
- A ``屏幕`` cue naming neither a figure nor a panel (the opening's 「课件 s零」) is a *title card*.
- ``🖥 本节主屏：课件 第一节 …`` is a *section marker*. In the notes it closes its section (the
  section's content comes before it, as the storyboards read it), and what follows it is the
  next section's opening. So its card is the section being opened, all of it: that section's
  title, its 本节主屏 line (``text``, from ``marker_line``) and the speech that opens it; the
  last marker closes the talk.
- A figure the notes name that is no scene (「fig-slidr」) is a warning naming the line and
  the nearest scene id; with ``strict`` it is an error.

A cue's script is everything between its line and the next 🖥 line (the first cue also takes
what comes before it: the opening is spoken over it): quoted speech 「…」 (one entry per notes
line, outer brackets removed) and the speaker's other notes (⭐ ⛔ ⚠️ 🎯 lines). Its hints are
the ⭐/⛔ parts of the cue line itself.

Its time is an estimate: letters and digits of its speech at ``speaking_rate`` (config/cues.yaml),
plus the silent pauses the notes name (停三秒, 想三秒, 整张投三秒); a time the cue line gives its
screen (「一分钟后就切走」, 「这三分钟全靠嘴」) is a floor, not an addition, since the speech fills it.

config/cues.yaml settles what parsing cannot (or gets wrong): each override names the line,
repeats part of its text (so an edit to the notes that moves it is caught) and says why. It
also holds each section's target length, against which rehearsed times are flagged.

Each cue carries the 改口 errata on its lines (lecture_numerics.errata; the sheet's
``errata_details`` holds the 细节, for the appendix) and, given a rehearsal's
timings (studio.track.rehearsal), the seconds it really took. Against a render, each cue gets its
clips and its steps (studio.track.cue_steps).
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from studio import config
from studio.track import rehearsal
from studio.track import cue_steps
from studio.errors import UsageError
from studio.track.notes_speech import BUDGET, PAUSE, VIEW_FIRST, VIEW_WHOLE, seconds_of, speech_chars, zh_number
from studio.track.rehearsal import load_timings  # noqa: F401  (the CLI reads a timings file through here)

NOTES_PATH = config.PROJECT_ROOT / "assets" / "lecture-notes.txt"
ERRATA_CACHE = config.PROJECT_ROOT / ".cache" / "errata"
ERRATA_LIBRARIES = ("numpy", "scipy", "ml_dtypes")   # what runs the numerics (studio.cli's ledger stamp)
CONFIG_NAME = "cues.yaml"
SCREEN_MARK = "🖥"

FIGURE_ID = re.compile(r"\b(?:fig|anim)-[a-z0-9]+(?:-[a-z0-9]+)*")
PANEL = re.compile(r"[Ⓐ-Ⓩ]")  # U+24B6 … U+24CF
CUE_LINE = re.compile(r"^🖥\s*(屏幕|本节主屏)\s*[：:]\s*(.*)$")
MARKER = re.compile(r"^课件\s*第(?P<num>[零一二三四五六七八九十]+)节\s*(?P<title>.+?)\s*·\s*(?P<what>.+)$")
HINT_START = re.compile(r"[⭐⛔]|⚠️?")
KINDS = ("figure", "title", "section")


CONFIG_SCHEMA = {
    "type": "object",
    "required": ["speaking_rate"],
    "additionalProperties": False,
    "properties": {
        "speaking_rate": {
            "type": "object", "required": ["chars_per_minute"], "additionalProperties": False,
            "properties": {"chars_per_minute": {"type": "number", "exclusiveMinimum": 0, "maximum": 1000}},
        },
        "overrides": {
            "type": "array",
            "items": {
                "type": "object", "required": ["line", "text", "why"], "additionalProperties": False,
                "properties": {
                    "line": {"type": "integer", "minimum": 1},
                    "text": {"type": "string", "minLength": 1},
                    "why": {"type": "string", "minLength": 1},
                    "kind": {"enum": list(KINDS[:2])},
                    "scene": {"type": "string", "pattern": r"^(fig|anim)-[a-z0-9-]+$"},
                    "sections": {"type": "array", "items": {"type": "string", "pattern": "^[A-Z]$"}},
                    "whole": {"type": "boolean"},
                    "views": {"type": "array", "minItems": 1,
                              "items": {"type": "string", "pattern": f"^([A-Z]|{VIEW_WHOLE}|{VIEW_FIRST})$"}},
                },
            },
        },
        # Keys are section numbers (checked against the notes' sections in build_sheet).
        "sections": {
            "type": "object",
            "additionalProperties": {
                "type": "object", "required": ["target_minutes"], "additionalProperties": False,
                "properties": {"target_minutes": {"type": "number", "exclusiveMinimum": 0, "maximum": 600}},
            },
        },
    },
}


@dataclass
class Cue:
    index: int
    line: int                 # 1-based line number in the notes
    kind: str                 # figure | title | section
    text: str                 # the cue line after 「🖥 屏幕：」 / 「🖥 本节主屏：」
    screen: str               # what to show: the cue text before its first ⭐/⛔
    hints: list[str] = field(default_factory=list)
    scene: str | None = None
    sections: list[str] = field(default_factory=list)
    whole: bool = False
    views: list[str] = field(default_factory=list)
    how: str = ""             # named | continues | override | title | section
    why: str = ""             # an override's reason
    undecided: str = ""       # why parsing could not decide (must be overridden)
    section: int = 0          # the section the cue is spoken in
    marks: int | None = None  # a marker: the section its line names (and closes)
    opens: int | None = None  # a marker: the section it opens (None: the last closes the talk)
    marker_line: int | None = None  # a marker: the 本节主屏 line its text is (its own section's)
    title: str = ""           # a card's heading (title card, section marker)
    main_figure: str | None = None
    lines: list[str] = field(default_factory=list)
    script: list[dict[str, Any]] = field(default_factory=list)
    holds: list[dict[str, Any]] = field(default_factory=list)
    end_line: int = 0         # the last notes line of the cue's stretch
    speech_chars: int = 0
    estimated_s: float = 0.0
    errata: list[dict[str, Any]] = field(default_factory=list)
    rehearsed_s: float | None = None
    rehearsed_beats: dict[str, float] = field(default_factory=dict)  # "<view>.<n>" → seconds


# ---- small parsers --------------------------------------------------------------------

def panels(text: str) -> list[str]:
    """Ⓐ Ⓑ … as A B …, in order of mention, each once."""
    return list(dict.fromkeys(chr(ord("A") + ord(c) - ord("Ⓐ")) for c in PANEL.findall(text)))


def split_hints(body: str) -> tuple[str, list[str]]:
    """The instruction before the first ⭐/⛔/⚠️, and the hints after it (one per marker run)."""
    start = HINT_START.search(body)
    if not start:
        return body.strip(), []
    screen = body[:start.start()].strip().rstrip("—").strip()
    hints = [h.strip() for h in re.split(r"\s+(?=[⭐⛔]|⚠)", body[start.start():]) if h.strip()]
    return screen, hints


def split_script(lines: list[tuple[int, str]]) -> tuple[list[str], list[dict[str, Any]]]:
    """Quoted speech and the other notes of one stretch of the notes.

    A speech block starts with 「 at the start of a line and runs until its brackets close
    (quotes nest: 「那「偏导数」的「偏」…」). Each notes line of speech is one entry."""
    speech: list[str] = []
    script: list[dict[str, Any]] = []
    depth = 0
    for number, raw in lines:
        text = raw.strip()
        if not text:
            continue
        opening = depth == 0 and text.startswith("「")
        if depth == 0 and not opening:
            script.append({"note": text, "line": number})
            continue
        depth += text.count("「") - text.count("」")
        said = text[1:] if opening else text
        if depth <= 0:
            depth = 0
            said = said[:-1] if said.endswith("」") else said
        said = said.strip()
        if said:
            speech.append(said)
            script.append({"say": said, "line": number})
    return speech, script


# ---- config ---------------------------------------------------------------------------

def load_config(config_dir: Path | None = None) -> dict[str, Any]:
    path = (config_dir or config.config_dir()) / CONFIG_NAME
    data = config.load_yaml(path, CONFIG_SCHEMA)
    seen: set[int] = set()
    for entry in data.get("overrides") or []:
        if entry["line"] in seen:
            raise UsageError(f"{path}: line {entry['line']} is overridden twice")
        seen.add(entry["line"])
    data["path"] = path
    return data


# ---- the sheet ------------------------------------------------------------------------

def read_notes(path: Path | None = None) -> list[str]:
    path = path or NOTES_PATH
    try:
        return path.read_text(encoding="utf-8").splitlines()
    except OSError as error:
        raise UsageError(f"{path}: cannot read the notes ({error.strerror})") from None


def parse_cues(notes: list[str], notes_name: str = "lecture-notes.txt") -> list[Cue]:
    """Every 🖥 line as a cue, before overrides: kind, scene, panels, whole, hints, script."""
    cues: list[Cue] = []
    for number, raw in enumerate(notes, start=1):
        if not raw.lstrip().startswith(SCREEN_MARK):
            continue
        match = CUE_LINE.match(raw.strip())
        if not match:
            raise UsageError(f"{notes_name}:{number}: a 🖥 line must start 「🖥 屏幕：」 or 「🖥 本节主屏：」")
        label, body = match.groups()
        screen, hints = split_hints(body)
        cue = Cue(index=len(cues), line=number, kind="figure", text=body.strip(), screen=screen, hints=hints)
        if label == "本节主屏":
            marker = MARKER.match(body.strip())
            cue.kind, cue.how = "section", "section"
            if not marker:
                cue.undecided = "a 本节主屏 line reads 「课件 第N节 标题 · 主图 fig-… / 本节无图」"
            else:
                cue.marks = int(zh_number(marker["num"]))
                cue.title = f"第{marker['num']}节　{marker['title'].strip()}"
                figure = FIGURE_ID.search(marker["what"])
                cue.main_figure = figure.group(0) if figure else None
        else:
            ids = list(dict.fromkeys(FIGURE_ID.findall(screen)))
            cue.sections = panels(screen)
            cue.whole = "整张投" in screen
            if "同一张图" in screen:
                cue.undecided = "「同一张图」 may mean an earlier figure than the one on screen"
            elif len(ids) > 1:
                cue.undecided = f"names several figures ({', '.join(ids)})"
            elif ids:
                cue.scene, cue.how = ids[0], "named"
            elif cue.sections:
                cue.how = "continues"
            else:
                cue.kind, cue.how = "title", "title"
        cues.append(cue)
    for cue, following in zip(cues, [*cues[1:], None]):
        end = following.line - 1 if following else len(notes)
        start = 1 if cue.index == 0 else cue.line + 1
        stretch = [(n, notes[n - 1]) for n in range(start, end + 1) if n != cue.line]
        cue.lines, cue.script = split_script(stretch)
        cue.end_line = end
    return cues


def nameless_figures(cues: list[Cue], scene_ids: list[str]) -> list[str]:
    """A warning for each figure a 🖥 line names that is no scene, with the nearest id."""
    found = []
    for cue in cues:
        named = cue.main_figure if cue.kind == "section" else (cue.scene if cue.how == "named" else None)
        if named is None or named in scene_ids:
            continue
        nearest = difflib.get_close_matches(named, scene_ids, n=1, cutoff=0.5)
        hint = f"did you mean {nearest[0]}?" if nearest else "no scene id is close (python render.py --list)"
        found.append(f"L{cue.line}: 「{named}」 names no scene — {hint}")
    return found


def views_of(cue: Cue, previous: Cue | None) -> list[str]:
    """What the screen shows, step by step: the whole frame and/or panels."""
    if cue.whole:
        # 「先整张投三秒，再放大 Ⓐ」 zooms after the whole; 「整张投，先只指 Ⓐ 和 Ⓑ」 only points.
        return [VIEW_WHOLE, *cue.sections] if "再放大" in cue.screen else [VIEW_WHOLE]
    if cue.scene and cue.scene.startswith("anim-"):
        return [VIEW_WHOLE]
    if cue.sections:
        return list(cue.sections)
    if previous is not None and previous.scene == cue.scene and previous.views:
        return [previous.views[-1]]  # the same figure named again, pointed at as it stands
    return [VIEW_FIRST]


def apply_override(cue: Cue, entry: dict[str, Any], notes_name: str) -> None:
    if entry["text"] not in cue.text:
        raise UsageError(f"{CONFIG_NAME}: the override for line {cue.line} expects 「{entry['text']}」, "
                         f"but {notes_name}:{cue.line} reads 「{cue.text}」")
    if cue.kind == "section":
        raise UsageError(f"{CONFIG_NAME}: line {cue.line} is a 本节主屏 section marker; it cannot be overridden")
    cue.kind = entry.get("kind") or ("figure" if "scene" in entry else cue.kind)
    if cue.kind == "figure" and cue.how == "title" and "scene" not in entry:
        raise UsageError(f"{CONFIG_NAME}: line {cue.line} names no figure; its override must give a scene")
    if "scene" in entry:
        cue.scene = entry["scene"]
    if "sections" in entry:
        cue.sections = list(entry["sections"])
    if "whole" in entry:
        cue.whole = entry["whole"]
    if "views" in entry:
        cue.views = list(entry["views"])
    cue.how, cue.why, cue.undecided = "override", entry["why"].strip(), ""
    if cue.kind == "title":
        cue.scene, cue.sections, cue.whole, cue.views = None, [], False, []


def resolve(cues: list[Cue], overrides: list[dict[str, Any]], notes_name: str) -> None:
    """Apply overrides, follow pans, fill views and sections; raise on anything undecided."""
    by_line = {c.line: c for c in cues}
    for entry in overrides:
        if entry["line"] not in by_line:
            raise UsageError(f"{CONFIG_NAME}: line {entry['line']} of {notes_name} is not a 🖥 line")
    named = {c.scene for c in cues if c.scene} | {c.main_figure for c in cues if c.main_figure}
    last_figure: Cue | None = None   # the last fig-… on screen (pans move it)
    previous: Cue | None = None      # the last figure cue of any kind
    for cue in cues:
        entry = next((e for e in overrides if e["line"] == cue.line), None)
        if entry:
            if "scene" in entry and entry["scene"] not in named:
                raise UsageError(f"{CONFIG_NAME}: line {cue.line}: {entry['scene']!r} is not a figure the notes name")
            apply_override(cue, entry, notes_name)
        if cue.kind == "figure" and cue.scene is None and not cue.undecided:
            if last_figure is None:
                cue.undecided = "pans, but no figure is on screen yet"
            else:
                cue.scene = last_figure.scene
        if cue.undecided:
            raise UsageError(f"{notes_name}:{cue.line}: cannot tell what 「{cue.screen}」 shows: {cue.undecided}; "
                             f"settle it in config/{CONFIG_NAME}")
        if cue.kind != "figure":
            continue
        if not cue.views:
            cue.views = views_of(cue, previous)
        if cue.views == [VIEW_WHOLE] or cue.views[:1] == [VIEW_WHOLE]:
            cue.whole = cue.whole or not cue.scene.startswith("anim-")
        previous = cue
        if cue.scene.startswith("fig-"):
            last_figure = cue


def assign_sections(cues: list[Cue], notes_name: str) -> list[dict[str, Any]]:
    """Each cue's section and the sections' titles. A marker closes the section it names;
    the cues before it are in that section, and the speech after it opens the next one."""
    markers = [c for c in cues if c.kind == "section"]
    if not markers:
        raise UsageError(f"{notes_name}: no 🖥 本节主屏 line, so the talk has no sections")
    sections = [{"number": m.marks, "title": m.title, "main_figure": m.main_figure, "line": m.line}
                for m in markers]
    position = 0
    for cue in cues:
        if position >= len(markers):
            raise UsageError(f"{notes_name}:{cue.line}: a cue after the last 本节主屏 line belongs to no section")
        if cue.kind == "section":
            following = markers[position + 1] if position + 1 < len(markers) else None
            own = following or cue   # the section this card opens (the last: the one it closes)
            cue.opens = following.marks if following else None
            cue.section = own.marks
            cue.title, cue.main_figure = own.title, own.main_figure
            cue.text, cue.screen, cue.hints = own.text, own.screen, list(own.hints)
            cue.marker_line = own.line
            position += 1
        else:
            cue.section = markers[position].marks
            if cue.kind == "title":
                cue.title = markers[position].title
    return sections


def estimate(cue: Cue, chars_per_minute: float) -> None:
    said = "".join(cue.lines)
    cue.speech_chars = speech_chars(said)
    talk = cue.speech_chars * 60.0 / chars_per_minute
    # The first cue's script also holds the lecture-wide notes before it (「fig-step 先整张停
    # 三秒」…): only what follows a cue line times that cue.
    stage = " ".join([cue.text, *(s["note"] for s in cue.script if "note" in s and s["line"] > cue.line)])
    holds = [{"text": m.group(0), "seconds": seconds_of(m), "kind": "pause"} for m in PAUSE.finditer(stage)]
    holds += [{"text": m.group(0), "seconds": seconds_of(m), "kind": "budget"} for m in BUDGET.finditer(cue.text)]
    cue.holds = holds
    total = talk + sum(h["seconds"] for h in holds if h["kind"] == "pause")
    budget = max((h["seconds"] for h in holds if h["kind"] == "budget"), default=0.0)
    cue.estimated_s = round(max(total, budget), 1)


def errata_inputs() -> str:
    """A digest of what the errata are computed from: the numerics' code and the libraries that
    run it, the notes and the config."""
    from importlib import metadata

    digest = hashlib.sha256()
    for name in ERRATA_LIBRARIES:
        try:
            digest.update(f"{name}={metadata.version(name)}\0".encode())
        except metadata.PackageNotFoundError:
            digest.update(f"{name} absent\0".encode())
    root = config.PROJECT_ROOT
    for path in [*sorted((root / "lecture_numerics").rglob("*.py")), NOTES_PATH, *sorted(config.config_dir().glob("*.yaml"))]:
        digest.update(str(path.relative_to(root) if path.is_relative_to(root) else path.name).encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()


def notes_errata() -> list[dict[str, Any]]:
    """The notes' errata (lecture_numerics.errata): numbers the notes say that the numerics
    contradict. Kept on disk by their inputs: computing them loads every quantity and reads
    the whole notes, seconds that a no-op re-run must not pay."""
    from lecture_numerics.errata import errata

    if os.environ.get("LECTURE_NUMERICS_CACHE", "on") == "off":
        return errata()
    path = ERRATA_CACHE / f"{errata_inputs()[:32]}.json"
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        pass
    found = errata()
    try:
        from studio import atomic

        path.parent.mkdir(parents=True, exist_ok=True)
        atomic.write_json(path, found)
    except OSError:
        pass   # a read-only checkout still works, only slower
    return found


def attach_errata(cues: list[Cue], found: list[dict[str, Any]]) -> None:
    """Each cue gets the 改口 errata on the lines of its stretch (the first cue's starts at line 1):
    what the presenter's red box and the deck's notes show. 细节 go to the appendix only."""
    from lecture_numerics.errata import is_correction

    for cue in cues:
        first = 1 if cue.index == 0 else cue.line
        cue.errata = [e for e in found if first <= e["line"] <= cue.end_line and is_correction(e)]


def attach_timings(cues: list[Cue], timings: dict[str, Any], notes_shown: str) -> list[str]:
    """Each rehearsed cue's seconds (and its beats'); warnings for records that fit no cue."""
    rehearsal.check_timings(timings)
    found, warnings = rehearsal.rehearsed_by_line(timings, [c.line for c in cues], notes_shown)
    for cue in cues:
        record = found.get(cue.line)
        if record:
            cue.rehearsed_s = round(float(record["seconds"]), 1)
            cue.rehearsed_beats = {k: round(float(v), 1) for k, v in (record.get("beats") or {}).items()}
    return warnings


def section_targets(settings: dict[str, Any], sections: list[dict[str, Any]]) -> dict[int, float]:
    """``sections:`` of config/cues.yaml: target minutes by section number, each a section of the notes."""
    numbers = [s["number"] for s in sections]
    targets = {}
    for key, entry in (settings.get("sections") or {}).items():
        number = int(key) if str(key).isdigit() else None
        if number not in numbers:
            raise UsageError(f"{settings['path']}: sections: {key!r} is not a section of the notes "
                             f"({', '.join(map(str, numbers))})")
        targets[number] = float(entry["target_minutes"])
    return targets


def shown_notes_path(notes_path: Path) -> str:
    try:
        return str(notes_path.relative_to(config.PROJECT_ROOT))
    except ValueError:
        return notes_path.name


def build_sheet(notes_path: Path | None = None, config_dir: Path | None = None, *,
                timings: dict[str, Any] | None = None, strict: bool = False,
                scene_ids: list[str] | None = None,
                errata: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The cue sheet: every 🖥 line of the notes, in order, resolved and timed.

    ``timings``: a rehearsal's export (studio.track.rehearsal.load_timings). ``strict``: a warning
    (a figure that is no scene, a rehearsed cue the notes no longer have) is an error.
    ``scene_ids`` (default: the lecture's, config/lecture.yaml) and ``errata`` (default: the numerics') are
    what the notes are checked against."""
    notes_path = notes_path or NOTES_PATH
    settings = load_config(config_dir)
    notes = read_notes(notes_path)
    cues = parse_cues(notes, notes_path.name)
    if not cues:
        raise UsageError(f"{notes_path}: no 🖥 lines, so there is no cue sheet")
    # The notes are checked against the lecture's own scenes (config/lecture.yaml), not against
    # whatever folder the registry reads, so a fixture or demo folder cannot mute or fake a typo.
    warnings = nameless_figures(cues, config.lecture_order() if scene_ids is None else scene_ids)
    resolve(cues, settings.get("overrides") or [], notes_path.name)
    sections = assign_sections(cues, notes_path.name)
    targets = section_targets(settings, sections)
    rate = float(settings["speaking_rate"]["chars_per_minute"])
    for cue in cues:
        estimate(cue, rate)
    shown_path = shown_notes_path(notes_path)
    if timings is not None:
        warnings += attach_timings(cues, timings, shown_path)
    if strict and warnings:
        raise UsageError(f"{notes_path.name}: " + "; ".join(warnings))
    found = notes_errata() if errata is None else errata
    attach_errata(cues, found)
    cue_dicts = [asdict(c) for c in cues]
    for section in sections:
        section["estimated_s"] = round(sum(c.estimated_s for c in cues if c.section == section["number"]), 1)
        section["cues"] = sum(1 for c in cues if c.section == section["number"])
    rehearsal.section_times(sections, cue_dicts, targets)
    rehearsed = [c.rehearsed_s for c in cues if c.rehearsed_s is not None]
    return {
        "notes": shown_path,
        "speaking_rate": {"chars_per_minute": rate},
        "estimate": (f"估算：引号内讲话的字数按每分钟 {rate:g} 字，加上讲稿写明的停顿"
                     "（停三秒之类）；讲稿给一屏定了时长的（一分钟后就切走），至少算那么久。"),
        "total_estimated_s": round(sum(c.estimated_s for c in cues), 1),
        "total_rehearsed_s": round(sum(rehearsed), 1) if rehearsed else None,
        "total_target_s": (round(sum(targets.values()) * 60, 1) if len(targets) == len(sections) else None),
        "rehearsal": None if timings is None else {"recorded": timings.get("recorded"), "notes": timings.get("notes"),
                                                   "cues": len(rehearsed)},
        "warnings": warnings,
        "sections": sections,
        "cues": cue_dicts,
        # 细节 errata: true but immaterial, for the appendix only (lecture_numerics.errata)
        "errata_details": [e for e in found if e.get("kind", "改口") != "改口"],
    }


# ---- against a render -----------------------------------------------------------------

def view_media(scene: dict[str, Any] | None, view: str) -> dict[str, Any] | None:
    """The clip a view plays in a rendered scene (None: not rendered, or no such panel).
    A whole view plays the scene's own ``whole`` panel when it defines one."""
    if not scene:
        return None
    files = scene.get("files") or {}
    sections = {s.get("name"): s for s in scene.get("sections") or []}
    loop = bool(scene.get("loop"))
    if view == VIEW_FIRST:
        first = (scene.get("sections") or [None])[0]
        if loop or first is None:
            view = VIEW_WHOLE
        else:
            return {"view": first["name"], "file": first["file"], "loop": False, "whole": first["name"] == VIEW_WHOLE}
    if view == VIEW_WHOLE and VIEW_WHOLE in sections:
        whole = sections[VIEW_WHOLE]
        beats = whole.get("beats") or [{}]
        return {"view": VIEW_WHOLE, "file": whole["file"], "poster": beats[-1].get("poster"), "loop": False,
                "whole": True}
    if view == VIEW_WHOLE:
        if not files.get("mp4"):
            return None
        return {"view": VIEW_WHOLE, "file": files["mp4"], "poster": files.get("png"), "loop": loop, "whole": True}
    section = sections.get(view)
    return {"view": view, "file": section["file"], "loop": False, "whole": False} if section else None


def with_media(sheet: dict[str, Any], manifest: dict[str, Any],
               ledger: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    """The sheet against a render: each figure cue's clips (``rendered``, ``media``, a
    placeholder noted for each view that has none) and every cue's ``steps``, each step with
    the numbers on screen as it ends and where each comes from (``numbers``: records of
    studio.track.number_sources against ``ledger``, by default the lecture's)."""

    scenes = {s.get("id"): s for s in manifest.get("scenes") or []}
    rate = float(sheet["speaking_rate"]["chars_per_minute"])
    cues, warnings = [], list(sheet.get("warnings") or [])
    for cue in sheet["cues"]:
        cue = dict(cue)
        scene = scenes.get(cue["scene"]) if cue["kind"] == "figure" else None
        if cue["kind"] == "figure":
            cue["rendered"] = scene is not None
            cue["scene_title"] = (scene or {}).get("title") or ""
            cue["media"] = [view_media(scene, view) or {"view": view, "file": None, "placeholder": True}
                            for view in cue["views"]]
        cue["steps"] = cue_steps.cue_steps(cue, scene, rate)
        warnings += cue_steps.unmatched_times(cue, cue["steps"])
        cues.append(cue)
    numbers = attach_numbers(cues, ledger)
    return {**sheet, "quality": manifest.get("quality"), "warnings": warnings, "cues": cues, "numbers": numbers}


def attach_numbers(cues: list[dict[str, Any]], ledger: dict[str, dict[str, Any]] | None) -> dict[str, Any]:
    """Each step's ledger keys (as the kit drew them) become records: value as drawn, kind and
    one line of provenance; returned, by key, each number's whole record (a derived number's
    inputs one level down, each with its kind and source), for the provenance card. The
    lecture's ledger is computed only when a step shows a number and none was given."""
    from studio.track import number_sources

    if ledger is None and any(s.get("numbers") for c in cues for s in c["steps"]):
        from lecture_numerics.ledger import ledger_entries
        from studio.engine import registry

        ledger = ledger_entries({sid: e.ledger_keys for sid, e in registry.discover().items()})
    for cue in cues:
        for step in cue["steps"]:
            keys = [n["key"] if isinstance(n, dict) else n for n in step.get("numbers") or []]
            step["numbers"] = number_sources.step_numbers(keys, ledger or {})
    return number_sources.sheet_numbers(cues, ledger or {})


def publish(quality_dir: Path, manifest: dict[str, Any], sheet: dict[str, Any] | None = None,
            ledger: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    """Write ``<quality_dir>/cues.json`` for this render and return it."""
    from studio import atomic

    published = with_media(sheet or build_sheet(), manifest, ledger)
    atomic.write_json(quality_dir / "cues.json", published)
    return published
