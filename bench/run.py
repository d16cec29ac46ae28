#!/usr/bin/env python3
"""Benchmark the render pipeline against stock manim: ``python bench/run.py [--quick] [--scenes ID ...]``.

Order of a run (each step is a real command, timed from outside):
0. the batch step (3 below) first, when it is not skipped: its records are copied into step 1's
   folder, so each one-scene command re-renders a scene already rendered once;
1. render.py ID --force, one command per scene, as a user runs it (the default jobs: on two
   cores, two workers cut the scene in two, studio/manim_hooks/split_render.py; with --record-memory,
   --jobs 1, so a peak is one whole scene's worker): its whole wall (start-up, worker, GIF,
   poster, clips, pages), worker/post split, peak RSS, outputs; each followed at once by
   stock `manim render --disable_caching` of the same scene file (unless the baseline step is
   skipped), so that ours and stock's take turns under the same load of a shared machine;
2. x264 alone re-encoding each scene's own mp4 frames (encode-only floor);
3. render.py with the default jobs --force, then the same again without --force (no-op);
4. stock manim's total over the scenes, one after another (at high: the preset of `-qh`,
   1920×1080 at 60 fps; rendered in step 1);
5. picture quality: each scene rendered losslessly by the worker (x264 crf 0, the exact
   frames), then the SSIM of our MP4 (step 1) and of stock manim's (step 4) against it;
5b. the deck, as the README makes it: render.py --pptx over step 1's folder (its deck quality
   rendered once, then lecture.pptx); its bytes and wall;
6. render.py --preview ID into a fresh folder, per scene (cold preview at low);
7. render.py --preview ID --section A.2 per beat (the last one only with --quick): cold
   into a fresh folder, then the same command again (warm). Where the preview does not take
   a beat yet, its panel (--section A) is measured instead.
Prints the table and writes the JSON (bench/results/bench-<quality>-<time>.json by default).
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import encoder, measure, report  # noqa: E402
from studio import config
from studio.media import encode  # noqa: E402
from studio.engine import memory, registry  # noqa: E402
from studio.errors import UsageError  # noqa: E402

STEPS = ("encode", "batch", "baseline", "quality", "deck", "preview", "panels")


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="bench/run.py", description=__doc__.splitlines()[0])
    parser.add_argument("--quality", default="high", help="preset to measure (default high)")
    parser.add_argument("--quick", action="store_true", help="smoke run: low quality")
    parser.add_argument("--scenes", nargs="+", metavar="ID", help="subset of scene ids (default: every registered scene)")
    parser.add_argument("--skip", nargs="+", choices=STEPS, default=[],
                        help="leave out steps (encode-only, default-jobs batch + no-op, stock manim, SSIM against lossless, "
                             "the deck, previews, beat previews)")
    parser.add_argument("--last-beat", action="store_true",
                        help="beat previews of each scene's last beat only (the slowest: it skips the most before it)")
    parser.add_argument("--encoder", metavar="NAME",
                        help="render.py --encoder NAME for our commands (default: config/encoder.yaml's x264 setting)")
    parser.add_argument("--json", type=Path, help="where to write the JSON (default bench/results/)")
    parser.add_argument("--work", type=Path, help="folder for rendered output (default: a temporary one, removed)")
    parser.add_argument("--scenes-dir", help="scene modules folder (sets LECTURE_SCENES_DIR, e.g. tests/fixtures/scenes)")
    parser.add_argument("--record-memory", action="store_true",
                        help="write each scene's worker peak (--jobs 1 step) into config/memory.json, "
                             "which render.py plans its default --jobs from")
    args = parser.parse_args(argv)
    if args.record_memory and args.scenes_dir:
        parser.error("--record-memory records the lecture's scenes; it does not go with --scenes-dir")
    if args.quick:
        args.quality = "low"
    return args


def git_commit() -> str:
    result = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=measure.ROOT, capture_output=True, text=True)
    return result.stdout.strip() or "unknown"


def uncommitted() -> list[str]:
    """Files the measured code differs from the commit by (scenes are edited while we measure)."""
    result = subprocess.run(["git", "status", "--porcelain", "--", "scenes", "studio", "lecture_numerics", "config",
                             "render.py"], cwd=measure.ROOT, capture_output=True, text=True)
    return [line[3:] for line in result.stdout.splitlines()]


def load() -> str:
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


class Measurements:
    """The raw numbers of one run, filled step by step; commands that failed are noted."""

    def __init__(self, args: argparse.Namespace, work: Path, log: measure.Log):
        self.args, self.work, self.log = args, work, log
        self.env = measure.pipeline_env(args.scenes_dir)
        if args.encoder:
            encode.encoder_options(name=args.encoder)   # an unknown name stops here
            self.env[encode.ENCODER_ENV] = args.encoder   # render.py's workers; not the lossless reference
        self.entries = registry.select(args.scenes or [])
        self.ids = [e.scene_id for e in self.entries]
        presets = config.presets()
        if args.quality not in presets:
            raise UsageError(f"unknown quality {args.quality!r}; choose one of: {', '.join(presets)}")
        self.preset = presets[args.quality]
        self.jobs = os.cpu_count() or 1
        self.rows = {sid: {"id": sid} for sid in self.ids}
        self.batch: dict = {"jobs": self.jobs}
        lecture = len(registry.select([]))
        if len(self.ids) < lecture:
            self.batch["partial_note"] = f"partial: {len(self.ids)} of {lecture} scenes"
        self.problems: list[dict] = []
        self.meta = {"quality": args.quality, **self.preset, "encoder": args.encoder or encode.DEFAULT_ENCODER, "cpus": self.jobs, "scenes": self.ids,
                     "commit": git_commit(), "uncommitted": uncommitted(), "started": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
                     "load_before": load(), "host": platform.node(), "python": platform.python_version()}

    def note(self, step: str, run: measure.Run) -> measure.Run:
        if run.returncode != 0:
            self.problems.append({"step": step, "exit": run.returncode, "stderr_tail": measure.failure_tail(run)})
        return run

    def sequential_batch(self) -> None:
        """Each scene as its own command, one after another. (Within one batch a scene's GIF
        overlaps the next scene's worker, so only a command of its own times a scene whole.)
        It re-renders a scene the batch step rendered (its record, copied in, gives the length
        the two workers cut at), as a user re-renders the scene they are editing."""
        args = self.args
        jobs = 1 if args.record_memory else None
        quality_dir = self.work / "jobs1" / args.quality
        seeded = self.seed_records(quality_dir)
        self.batch["scene_records_seeded"] = seeded
        wall = cpu = 0.0
        peak = 0
        for sid in self.ids:
            shown = " --jobs 1" if jobs else ""
            self.log(f"render.py {sid} --quality {args.quality}{shown} --force")
            run, timings = measure.pipeline_batch([sid], args.quality, self.work / "jobs1", jobs, self.env)
            self.note(f"render.py {sid}{shown}", run)
            wall, cpu, peak = wall + run.wall_s, cpu + run.cpu_s, max(peak, run.peak_rss_kb or 0)
            self.rows[sid].update(timings.get(sid, {"status": "missing"}), command_s=run.wall_s, command_cpu_s=run.cpu_s)
            self.rows[sid].update(measure.published(quality_dir, sid))
            if "baseline" not in args.skip:
                self.stock_scene(self.entries[self.ids.index(sid)])
        self.batch.update(wall_jobs1_s=wall, cpu_jobs1_s=cpu, peak_rss_kb_jobs1=peak, scene_jobs=jobs or "default")

    def seed_records(self, quality_dir: Path) -> int:
        """Copy the batch step's cache records (scene lengths and beat times) into ``quality_dir``."""
        source = self.work / "default" / self.args.quality / ".cache"
        records = [source / f"{sid}.json" for sid in self.ids if (source / f"{sid}.json").is_file()]
        (quality_dir / ".cache").mkdir(parents=True, exist_ok=True)
        for record in records:
            shutil.copy2(record, quality_dir / ".cache" / record.name)
        return len(records)

    def record_memory(self) -> None:
        """Each rendered scene's worker peak into config/memory.json, with how it was measured."""
        peaks = {sid: row["peak_rss_kb"] for sid, row in self.rows.items()
                 if row.get("status") == "done" and row.get("peak_rss_kb")}
        if not peaks:
            self.log("nothing to record: no scene rendered with a measured peak")
            return
        command = f"bench/run.py --quality {self.args.quality} --scenes {' '.join(peaks)} --record-memory"
        how = {"measured": time.strftime("%Y-%m-%d"), "commit": self.meta["commit"],
               "command": command + " (render.py --jobs 1; peak = the worker's VmHWM)"}
        path = memory.record(self.args.quality, self.preset, peaks, how)
        self.log(f"recorded worker peaks of {', '.join(peaks)} at {self.args.quality} in {path}")

    def encode_only(self) -> None:
        scratch = measure.scratch_dir()
        for sid, row in self.rows.items():
            if row.get("mp4"):
                self.log(f"encode-only {sid} ({row.get('frames')} frames)")
                mp4, preset = Path(row["mp4"]), self.preset
                row["encode_only_s"], row["encode_cpu_s"] = measure.encode_only(
                    mp4, preset["width"], preset["height"], preset["fps"], scratch)
                row["gif_s"], row["gif_cpu_s"] = measure.gif_encode(mp4, preset["width"], preset["fps"], scratch)

    def parallel_batch(self) -> None:
        # What render.py will choose without --jobs (cores, fewer if memory is short), for the efficiency.
        self.jobs = memory.plan(self.args.quality, self.preset, self.ids).default_jobs
        self.batch["jobs"] = self.jobs
        self.log(f"render.py … --jobs {self.jobs} (default) --force")
        out = self.work / "default"
        run, _ = measure.pipeline_batch(self.ids, self.args.quality, out, None, self.env)
        self.note("render.py (default jobs)", run)
        self.batch.update(wall_default_s=run.wall_s, cpu_default_s=run.cpu_s, peak_rss_kb_default=run.peak_rss_kb)
        self.log("no-op re-run (everything cached)")
        run, _ = measure.pipeline_batch(self.ids, self.args.quality, out, None, self.env, force=False)
        self.note("render.py no-op re-run", run)
        counts = measure.batch_counts(run.stdout)
        self.batch.update(noop_s=run.wall_s, noop_counts=counts,
                          noop_all_cached=None if counts is None else counts["cached"] == len(self.ids))

    def stock_scene(self, entry) -> None:
        """Stock ``manim render`` of one scene file: its wall, CPU, peak and MP4."""
        self.log(f"stock manim render {entry.path.name} {entry.class_name}")
        run = measure.manim_baseline(entry, self.preset, self.work / "manim" / entry.scene_id, self.env)
        self.note(f"manim render {entry.scene_id}", run)
        movie = next((self.work / "manim" / entry.scene_id).rglob(f"{entry.class_name}.mp4"), None)
        self.rows[entry.scene_id].update(manim_s=run.wall_s, manim_cpu_s=run.cpu_s, manim_peak_rss_kb=run.peak_rss_kb,
                                         manim_mp4=str(movie) if movie else None,
                                         manim_mp4_bytes=movie.stat().st_size if movie else None)

    def baseline(self) -> None:
        """Stock manim over the scenes one after another: the sum of its per-scene commands."""
        for entry in self.entries:
            if "manim_s" not in self.rows[entry.scene_id]:
                self.stock_scene(entry)
        rows = [self.rows[e.scene_id] for e in self.entries]
        self.batch.update(manim_total_s=sum(r["manim_s"] for r in rows),
                          manim_cpu_total_s=sum(r["manim_cpu_s"] for r in rows))

    def quality(self) -> None:
        """SSIM of our MP4 and of stock manim's against a lossless render of the same frames."""
        for sid, row in self.rows.items():
            if not row.get("mp4"):
                continue
            self.log(f"lossless reference {sid}, then SSIM of ours and stock's against it")
            try:
                reference, _ = encoder.reference(sid, self.args.quality, self.work)
                row["mp4_bytes"] = Path(row["mp4"]).stat().st_size
                row["ssim"] = encoder.ssim_against(Path(row["mp4"]), reference, self.work / f"{sid}.ours.ssim.txt")
                if row.get("manim_mp4"):
                    row["manim_ssim"] = encoder.ssim_against(Path(row["manim_mp4"]), reference,
                                                             self.work / f"{sid}.stock.ssim.txt")
            except (RuntimeError, OSError, StopIteration) as error:
                self.problems.append({"step": f"SSIM {sid}", "exit": 1, "stderr_tail": str(error)[-300:]})

    def deck(self) -> None:
        """``render.py --pptx`` over the one-scene-at-a-time folder: what the README's deck
        command writes, its bytes and its wall (the deck quality's render included)."""
        out = self.work / "jobs1"
        self.log(f"render.py {' '.join(self.ids)} --quality {self.args.quality} --pptx")
        run = self.note("render.py --pptx", measure.run_timed(
            [*measure.render_cmd(self.ids, self.args.quality, out, None, False), "--pptx"], self.env))
        decks = sorted(out.glob("*/lecture.pptx"))
        self.batch.update(deck_s=run.wall_s, deck_bytes=decks[0].stat().st_size if decks else None,
                          deck_quality=decks[0].parent.name if decks else None)

    def previews(self) -> None:
        for sid in self.ids:
            self.log(f"cold preview {sid}")
            fresh = self.work / "preview" / sid
            shutil.rmtree(fresh, ignore_errors=True)  # a kept --work folder must not make it warm
            run = measure.cold_preview(sid, fresh, self.env)
            self.note(f"render.py --preview {sid}", run)
            self.rows[sid]["preview_s"] = run.wall_s

    def panels(self) -> None:
        """Beat previews, cold and warm. The last beat skips the most before it renders, so
        --quick and --last-beat measure that one; otherwise every beat is measured. Where the preview does not
        take a beat's name yet (exit 2: no such section), the beat's panel is measured."""
        names = measure.panel_names(self.ids, self.env)
        for sid in self.ids:
            measured, tried = [], set()
            for section in names.get(sid, [])[-1:] if self.args.quick or self.args.last_beat else names.get(sid, []):
                cold = self.preview_section(sid, section)
                if cold.returncode == 2 and "." in section:
                    section = section.partition(".")[0]
                    if section in tried:
                        continue
                    cold = self.preview_section(sid, section)
                tried.add(section)
                self.note(f"render.py --preview {sid} --section {section}", cold)
                warm = self.note(f"render.py --preview {sid} --section {section} (warm)",
                                 measure.panel_preview(sid, section, self.work / "panels" / sid / section, self.env))
                measured.append({"section": section, "cold_s": cold.wall_s, "cold_cpu_s": cold.cpu_s,
                                 "warm_s": warm.wall_s})
            if measured:
                worst = max(measured, key=lambda m: m["cold_s"])
                self.rows[sid].update(panels=measured, panel_cold_s=worst["cold_s"], panel_worst=worst["section"],
                                      panel_warm_s=max(m["warm_s"] for m in measured))

    def preview_section(self, sid: str, section: str) -> measure.Run:
        """``--preview ID --section X`` into a fresh folder (cold)."""
        fresh = self.work / "panels" / sid / section
        shutil.rmtree(fresh, ignore_errors=True)
        self.log(f"beat preview {sid} {section}: cold, then warm")
        return measure.panel_preview(sid, section, fresh, self.env)

    def raw(self) -> dict:
        scenes = [{k: v for k, v in row.items() if k not in ("mp4", "manim_mp4")} for row in self.rows.values()]
        return {"meta": {**self.meta, "load_after": load()}, "scenes": scenes, "batch": self.batch,
                "problems": self.problems}

    def run(self, checkpoint) -> dict:
        """Every step in order; ``checkpoint(raw)`` after each, so a stopped run keeps what it measured."""
        self.log("import manim alone")
        self.batch["import_manim_s"] = measure.import_manim_s(self.env)
        if "batch" not in self.args.skip:   # first: its records tell the one-scene commands where to cut
            self.parallel_batch()
            checkpoint(self.raw())
        self.sequential_batch()
        if self.args.record_memory:
            self.record_memory()
        checkpoint(self.raw())
        steps = {"encode": self.encode_only, "baseline": self.baseline, "quality": self.quality,
                 "deck": self.deck, "preview": self.previews, "panels": self.panels}
        for name, step in steps.items():
            if name not in self.args.skip:
                step()
                checkpoint(self.raw())
        return self.raw()


def default_json_path(quality: str) -> Path:
    return measure.ROOT / "bench" / "results" / f"bench-{quality}-{time.strftime('%Y%m%d-%H%M%S')}.json"


def _stop(signum, _frame):
    raise KeyboardInterrupt(signal.Signals(signum).name)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    signal.signal(signal.SIGTERM, _stop)  # stop the running command and keep the JSON so far
    log = measure.Log()
    work = args.work or Path(tempfile.mkdtemp(prefix="lecture-bench-"))
    work = work.resolve()
    target = args.json or default_json_path(args.quality)
    target.parent.mkdir(parents=True, exist_ok=True)
    checkpoint = lambda raw: target.write_text(report.to_json(report.summarise(raw)))
    try:
        if args.scenes_dir:
            os.environ["LECTURE_SCENES_DIR"] = args.scenes_dir  # the registry reads it here too
        raw = Measurements(args, work, log).run(checkpoint)
    except UsageError as error:
        print(f"bench/run.py: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        kept = f"what was measured so far is in {target}" if target.exists() else "nothing was measured yet"
        print(f"bench: interrupted; {kept}", file=sys.stderr)
        return 130
    finally:
        if args.work is None:
            shutil.rmtree(work, ignore_errors=True)
    checkpoint(raw)
    print(report.format_table(report.summarise(raw)))
    print(f"\nJSON: {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
