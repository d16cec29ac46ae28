"""The command line: ``python render.py [ID ...] [--quality Q] [--out DIR] [--jobs N] …``.

Usage and config errors print one line and exit 2; a failed scene makes the exit code 1.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

from studio import atomic, config
from studio.media import encode, toolcheck
from studio.engine import launch, registry
from studio.present import publish
from studio.errors import UsageError

EXIT_OK, EXIT_FAILED = publish.EXIT_OK, publish.EXIT_FAILED
EXIT_USAGE, EXIT_INTERRUPTED = 2, 130
# The deck is projected at 1280×720 (「整张投到 1280×720 上」): clips larger than that carry
# pixels the room never sees and make a deck too big to carry to a venue or mail.
DECK_QUALITY = "medium"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, no usage dump
        raise UsageError(message)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="render.py", description="Render the lecture's scenes to slide-ready MP4, GIF and PNG.")
    parser.add_argument("ids", nargs="*", metavar="ID", help="scene ids (default: every scene)")
    parser.add_argument("--quality", default="high", help="low | medium | high | 4k (config/presets.yaml; default high)")
    parser.add_argument("--out", type=Path, default=Path("out"), help="output folder (default out/)")
    parser.add_argument("--jobs", type=int, default=None,
                        help="scenes rendered at once (default: as many as fit in free memory, at most the cores)")
    parser.add_argument("--force", action="store_true", help="re-render even when cached")
    parser.add_argument("--encoder", metavar="NAME",
                        help="x264 setting from config/encoder.yaml (default: the measured one, clips at most 1.5x "
                             "stock manim's bytes; 'fast': less CPU, about 2.5x the bytes)")
    parser.add_argument("--list", action="store_true", help="list the scenes with title and duration")
    parser.add_argument("--preview", action="store_true", help="render at low quality (or take from cache) and open it")
    parser.add_argument("--section", help="with --preview: render only this panel (A, B …) or beat (A.2) and open its clip")
    parser.add_argument("--ledger", action="store_true", help="write <out>/ledger.json and ledger.md, then stop")
    parser.add_argument("--pptx", action="store_true",
                        help="also write <out>/<deck quality>/lecture.pptx: a slide per step of the talk (one per beat), "
                             "then the appendix")
    parser.add_argument("--deck-quality", default=DECK_QUALITY, metavar="QUALITY",
                        help=f"with --pptx: the preset the deck's clips and posters are made at (default {DECK_QUALITY}: "
                             "1280×720, the size the room sees; rendered once and cached like any other quality). "
                             "--deck-quality high makes a full-HD deck")
    parser.add_argument("--timings", type=Path, metavar="FILE",
                        help="a rehearsal's exported timings (default: config/timings.json when present)")
    parser.add_argument("--strict", action="store_true",
                        help="a 🖥 line naming no scene, or timings that fit no cue, is an error")
    parser.add_argument("--errata", action="store_true",
                        help="list where the speaker must say a number differently (讲稿勘误 · 改口), with the "
                             "sentence to say instead, then stop")
    parser.add_argument("--details", action="store_true",
                        help="with --errata: also list the 细节 (true but immaterial differences, appendix only)")
    parser.add_argument("--serve", action="store_true",
                        help="serve the rehearsal page on 127.0.0.1 and re-render (low quality) on every save")
    return parser


def scene_durations(ids: list[str]) -> dict[str, str]:
    """Each scene's duration from a construct with animations skipped, in a child process
    (restarted past any scene that kills it), so one broken scene cannot hide the rest."""
    found: dict[str, str] = {}
    pending = list(ids)
    while pending:
        child = launch.run("studio.engine.stills", "--durations", *pending)
        for line in child.stdout.splitlines():
            scene_id, _, value = line.partition("\t")
            found[scene_id] = value
        pending = [i for i in pending if i not in found]
        if pending:
            found[pending.pop(0)] = f"error: process died ({child.returncode})"
    return found


def known_durations(out_dir: Path, entries: dict) -> dict[str, str]:
    """Durations measured before for the scenes' current content (``<out>/.durations.json``),
    then a dry run for the rest, remembered for next time."""
    import json

    from studio.engine import cache

    path = out_dir / ".durations.json"
    try:
        remembered = json.loads(path.read_text())
    except (OSError, ValueError):
        remembered = {}
    keys = {sid: cache.cache_key(entry, "any", {}) for sid, entry in entries.items()}
    found = {sid: remembered[sid]["duration"] for sid in entries
             if remembered.get(sid, {}).get("key") == keys[sid]}
    fresh = scene_durations([sid for sid in entries if sid not in found])
    found.update(fresh)
    remembered.update({sid: {"key": keys[sid], "duration": value} for sid, value in fresh.items()
                       if not value.startswith("error")})
    try:
        atomic.write_json(path, remembered)
    except OSError:
        pass  # listing must work even where the output folder cannot be written
    return found


def list_scenes(out_dir: Path) -> int:
    entries = registry.discover()
    durations = known_durations(out_dir, entries)
    for sid, entry in entries.items():
        value = durations[sid]
        shown = f"{float(value):6.1f} s" if not value.startswith("error") else "     ? s"
        problem = f"  ({value})" if value.startswith("error") else ""
        print(f"{sid:<14} {shown}  {entry.title}{problem}")
    return EXIT_OK


def _open(path: Path) -> None:
    opener = "open" if sys.platform == "darwin" else "xdg-open"
    has_display = sys.platform == "darwin" or os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    if has_display and shutil.which(opener):
        subprocess.Popen([opener, str(path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        print(f"opened {path}")
    else:
        print(path)


def run(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    if args.list:
        return list_scenes(args.out)
    if args.errata:
        from lecture_numerics.errata import errata_text

        print(errata_text(with_details=args.details))
        return EXIT_OK
    if args.ledger:
        publish.check_out_dir(args.out)
        publish.write_ledger(args.out)
        print(f"wrote {args.out / 'ledger.json'} and {args.out / 'ledger.md'}")
        return EXIT_OK

    if args.encoder:
        # Its workers (forked from the zygote started below, or spawned) read it from here.
        encode.encoder_options(name=args.encoder)   # an unknown name: one line and exit 2
        os.environ[encode.ENCODER_ENV] = args.encoder
    if args.serve:
        if args.preview or args.section:
            raise UsageError("--serve does not go with --preview or --section")
        if args.jobs is not None and args.jobs < 1:
            raise UsageError(f"--jobs must be at least 1 (got {args.jobs})")
        from studio.present import serve

        # --serve renders at low quality; its default jobs are chosen like any batch's.
        ids = [entry.scene_id for entry in registry.select(args.ids)]
        return serve.run(args.ids, args.out, choose_jobs(args.jobs, "low", config.presets()["low"], ids))
    quality = "low" if args.preview else args.quality
    presets = config.presets()
    if quality not in presets:
        raise UsageError(f"unknown quality {quality!r}; choose one of: {', '.join(presets)}")
    if args.jobs is not None and args.jobs < 1:
        raise UsageError(f"--jobs must be at least 1 (got {args.jobs})")
    if args.pptx and args.deck_quality not in presets:
        raise UsageError(f"unknown --deck-quality {args.deck_quality!r}; choose one of: {', '.join(presets)}")
    from studio.engine import pipeline

    # Started first: its imports (manim, the kit; most of a second) overlap the checks below
    # and working out what is stale. The batch closes it; a check that fails, here.
    # Its log is a temporary file: the output folder is not checked yet.
    forker = None if args.section else pipeline.start_zygote()
    try:
        return render(args, quality, presets, forker)
    finally:
        if forker is not None:
            forker.close()


def render(args, quality: str, presets: dict, forker) -> int:
    """The checks that come before any worker starts, then the batch (or a beat preview)."""
    entries = registry.select(args.ids)
    if args.preview and len(entries) != 1:
        raise UsageError("--preview takes exactly one scene id")
    if args.section and not args.preview:
        raise UsageError("--section goes with --preview")
    config.theme()
    config.scenario("memtime")
    encode.encoder_options()  # a broken config/encoder.yaml: one line and exit 2, before any worker starts
    from studio.track import cues, rehearsal

    # Broken notes, config/cues.yaml or timings: say so before rendering.
    sheet = cues.build_sheet(timings=rehearsal.timings_for(args.timings), strict=args.strict)
    for warning in sheet["warnings"]:
        print(f"warning: {warning}", file=sys.stderr)
    if args.pptx:
        import importlib.util

        if importlib.util.find_spec("pptx") is None:
            raise UsageError("--pptx needs python-pptx (pip install python-pptx, or scripts/setup.sh)")
    if args.section:
        # That panel alone, at low quality, without GIF or poster (studio/engine/preview.py).
        from studio.engine import preview

        return preview.run(entries[0], args.section, args.out, force=args.force, show=_open)
    publish.check_out_dir(args.out)
    toolcheck.check_theme_fonts(config.theme())
    toolcheck.check_encoder()

    from studio.engine.pipeline import Batch, render_batch
    from studio.track import beats

    jobs = choose_jobs(args.jobs, quality, presets[quality], [e.scene_id for e in entries])
    known = list(registry.discover().values())
    batch = Batch(entries=entries, quality=quality, out_dir=args.out, jobs=jobs, force=args.force)
    states, manifest = render_batch(batch, known, forker, annotate=beats.annotate_from_notes)
    ledger = publish.write_ledger(args.out)
    published = publish.write_page(batch.quality_dir, manifest, ledger, sheet)
    for warning in published["warnings"][len(sheet["warnings"]):]:   # what only a render can find
        print(f"warning: {warning}", file=sys.stderr)
    code = publish.summary(states, batch.quality_dir)
    if args.pptx:
        code = max(code, write_deck(args, batch, published, ledger, sheet, known, jobs))
    if args.preview and code == EXIT_OK:
        _open(batch.quality_dir / f"{entries[0].scene_id}.mp4")
    return code


def write_deck(args, batch, published: dict, ledger: dict, sheet: dict, known: list, jobs: int) -> int:
    """The deck, from the render at ``--deck-quality``: this batch's when it is that quality,
    else a second batch at that quality (cached scenes cost nothing). Returns its exit code."""
    from studio.present.deck import build_deck
    from studio.engine.pipeline import Batch, render_batch
    from studio.track import beats

    code = EXIT_OK
    if args.deck_quality != batch.quality:
        preset = config.presets()[args.deck_quality]
        print(f"the deck's clips: {args.deck_quality} ({preset['width']}×{preset['height']}, {preset['fps']} fps)",
              file=sys.stderr)
        deck_batch = Batch(entries=batch.entries, quality=args.deck_quality, out_dir=args.out, jobs=jobs, force=False)
        states, manifest = render_batch(deck_batch, known, None, annotate=beats.annotate_from_notes)
        published = publish.write_page(deck_batch.quality_dir, manifest, ledger, sheet)
        code = publish.summary(states, deck_batch.quality_dir)
        batch = deck_batch
    deck = build_deck(batch.quality_dir, published, ledger)
    steps = sum(len(c.get("steps") or [None]) for c in published["cues"])
    size_mb = deck.stat().st_size / 1e6
    print(f"wrote {deck} ({steps} slides, one per step of the talk, then the appendix; {size_mb:.0f} MB)")
    return code


def choose_jobs(requested: int | None, quality: str, preset: dict, scene_ids: list[str]) -> int:
    """``--jobs`` as given (with a warning when it would not fit in memory), else the
    largest number of workers that fits in the memory available now, at most the cores."""
    from studio.engine import memory

    plan = memory.plan(quality, preset, scene_ids)
    note = plan.default_note() if requested is None else plan.warning(requested)
    if note:
        print(f"render.py: {note}", file=sys.stderr)
    return plan.default_jobs if requested is None else requested


def main(argv: list[str] | None = None) -> int:
    try:
        return run(sys.argv[1:] if argv is None else argv)
    except UsageError as error:
        print(f"render.py: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("render.py: interrupted; published files are unchanged or complete", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Exception as error:
        from studio.engine.pipeline import Interrupted

        if isinstance(error, Interrupted):
            print(f"render.py: interrupted ({error}); published files are unchanged or complete", file=sys.stderr)
            return EXIT_INTERRUPTED
        raise
