"""Render one scene in its own process:
``python -m studio.engine.worker ID QUALITY STAGING [--section X | --part head MEET | --part tail MEET --aim FRAMES]``.

Writes manim's output under STAGING and a ``result.json`` describing the movie, its
sections (one per beat, named ``<panel>.<n>``), what each beat says, the GIF's frames and
the slides' stills (studio/manim_hooks/slide_stills.py). With ``--section X`` only panel X is rendered
(studio/manim_hooks/panel_only.py), without GIF or stills; a scene
without that panel writes ``{"missing_panel": X, "panels": [...]}`` and exits 3. With
``--part`` it renders the head or the tail of a scene cut in two (studio/manim_hooks/split_render.py),
meeting the other part in the folder MEET; the tail starts at the first beat at or after
frame FRAMES.
Prints ``PROGRESS <seconds of video rendered>`` lines for the parent's display.
Never touches published files: the parent publishes what the worker staged.
"""

from __future__ import annotations

import ctypes
import json
import signal
import sys
from dataclasses import dataclass
from pathlib import Path

from studio import config
from studio.engine import registry
from studio.manim_hooks import split_render
from studio.manim_hooks.panel_only import PanelNotFound, check_found, only_panel


def die_with_parent() -> None:
    """Ask Linux to SIGTERM this process when the parent render dies (even by SIGKILL)."""
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except OSError:
        pass


def _report_progress(scene_cls) -> None:
    original_play = scene_cls.play

    def play(self, *args, **kwargs):
        result = original_play(self, *args, **kwargs)
        # A part of a cut scene counts only what it drew (skipped plays advance manim's clock).
        written = getattr(self, "written_frames", None)
        seconds = self.renderer.time if written is None else written / self.renderer.camera.frame_rate
        print(f"PROGRESS {seconds:.3f}", flush=True)
        return result

    scene_cls.play = play


# Most of a worker's memory is x264's: each clip's encoder holds ~50 frames (lookahead and
# references), about 200 bytes per pixel — 0.4 GB at 1080p, 1.6 GB at 4k
# (bench/run.py; config/memory.json has the measured peaks). So the number of clips
# encoding at once follows the picture size: two 1080p encoders' worth of pixels.
ENCODER_PIXEL_BUDGET = 2 * 1920 * 1080
MAX_INFLIGHT_ENCODERS = 4
# Frames waiting for an encoder are RGBA: 8 of them at 1080p (manim's default queue).
# (PyAV asks x264 for slice threads, which share one set of frames, so the footprint
# does not grow with the core count.)
QUEUE_PIXEL_BUDGET = 8 * 1920 * 1080


def encoder_settings(preset: dict) -> dict:
    """Manim's encoder pool for this picture size: how many clips encode at once while
    the next animation is drawn, and how many frames wait for each."""
    pixels = preset["width"] * preset["height"]
    return {
        # Several clips in flight let the drawing thread go on at an animation's end
        # while the last clip's lookahead is flushed (manim's default of 1 waits).
        "max_inflight_encoders": max(1, min(MAX_INFLIGHT_ENCODERS, ENCODER_PIXEL_BUDGET // pixels)),
        "encoder_queue_size": max(2, min(8, QUEUE_PIXEL_BUDGET // pixels)),
    }


@dataclass
class Part:
    """Which part of a cut scene this worker renders, and where it meets the other."""
    name: str                 # "head" or "tail"
    meet: Path
    aim: int = 0              # the tail's: first frame of the cut at the earliest


def cut_scene(scene_cls, part: Part, gif):
    if part.name == "head":
        return split_render.head_part(scene_cls, part.meet)
    tail = split_render.tail_part(scene_cls, part.meet, part.aim)
    if gif is not None:
        tail.started_at = lambda self, frame: gif.start_at(frame)
    return tail


def render(scene_id: str, quality: str, staging: Path, section: str | None = None, part: Part | None = None) -> dict:
    preset = config.presets()[quality]
    entry = registry.select([scene_id])[0]

    from manim import tempconfig

    from studio import manim_hooks
    from studio.manim_hooks import fastencode, slide_stills

    # The GIF's frames are gathered while the clips are encoded (a preview makes no GIF).
    gif = None if section is not None else fastencode.GifFrames(staging / "gif-parts", preset["width"],
                                                                  preset["height"], preset["fps"])
    # The slides' stills come from the drawn frames too (a preview shows none).
    stills = None if section is not None else slide_stills.SlideStills(
        staging / "stills", loop=entry.loop, from_start=part is None or part.name == "head")
    if not manim_hooks.install(gif, stills):
        gif = stills = None   # plain Manim: the pipeline makes GIF and posters from the movie
    scene_cls = registry.load_class(entry)
    if section is not None:
        scene_cls = only_panel(scene_cls, section)
    if part is not None:
        scene_cls = cut_scene(scene_cls, part, gif)
    elif section is None:
        scene_cls = split_render.counted(scene_cls)
    _report_progress(scene_cls)
    media = staging / "media"
    settings = {
        "pixel_width": preset["width"], "pixel_height": preset["height"], "frame_rate": preset["fps"],
        "media_dir": str(media), "disable_caching": True, "save_sections": True,
        # manim prunes its clip folder to 100 files after the movie is joined; a cut render's
        # parts are joined from their clips after the worker ends (fig-precision has 116 plays).
        "max_files_cached": -1,
        "write_to_movie": True, "format": "mp4", "progress_bar": "none", "verbosity": "WARNING",
        "output_file": scene_id, "preview": False,
        **encoder_settings(preset),
    }
    with tempconfig(settings):
        scene = scene_cls()
        try:
            scene.render()
        except RuntimeError:
            # Manim refuses a movie of no frames; a tail that stopped before drawing any (the
            # head renders the whole scene) has nothing to give, which the pipeline knows.
            if part is None or part.name != "tail" or scene.written_frames:
                raise
    if section is not None:
        check_found(scene, section)
    result = {"duration_s": float(scene.renderer.time)}
    if section is None:
        result["play_starts_s"] = [frame / preset["fps"] for frame in scene.play_starts]
    if part is not None:
        result.update(part_summary(scene, part, gif, preset["fps"]))
    # A head that was not cut is the whole render; the parts of a cut leave their GIF clips
    # for the pipeline to join.
    whole = part is None or (part.name == "head" and scene.cut_at is None)
    gif_frames = gif.finish(staging / f"{scene_id}.gif-frames.mp4") if gif is not None and whole else None
    movie = next(media.rglob(f"{scene_id}.mp4"), None)
    return {"movie": str(movie) if movie else None, "sections": read_sections(media, scene_id),
            "beats": beat_records(scene), "gif_frames": str(gif_frames) if gif_frames else None,
            "stills": stills.finish() if stills is not None else {}, **result}


def part_summary(scene, part: Part, gif, fps: int) -> dict:
    """What the pipeline needs to join a cut scene's parts: frames drawn, where the cut is,
    and the part's clips in movie order (joined as manim joins a whole render's, the joined
    movie is the one a whole render makes). Skipped plays advance manim's clock, so the
    part's length is its frames."""
    return {"part": part.name, "duration_s": scene.written_frames / fps, "written_frames": scene.written_frames,
            "cut_at": scene.cut_at, "missed_cut": getattr(scene, "missed_cut", False),
            "section_clips": split_render.drawn_sections(scene),
            "clips": [str(c) for c in scene.renderer.file_writer.partial_movie_files if c],
            "gif_clips": [str(s.path) for s in gif.segments if s.path.is_file()] if gif is not None else []}


def read_sections(media: Path, scene_id: str) -> list[dict]:
    """The beats' clips manim wrote (its sections index), in order."""
    index = next(media.rglob(f"sections/{scene_id}.json"), None)
    if index is None:
        return []
    return [{"name": item["name"], "file": str(index.parent / item["video"]), "duration_s": float(item["duration"])}
            for item in json.loads(index.read_text())
            if item["name"] != split_render.AUTOCREATED]  # before the first panel: no beat


def beat_records(scene) -> list[dict]:
    """Each beat's name and words, its takeaway as drawn (the ledger's numbers filled in, as
    the presenter, deck and page show it beside the picture), how the notes mark what it
    says, and the ledger keys drawn in its final frame."""
    from scenes.kit.text import fill

    return [{"name": b.name, "panel": b.panel, "n": b.n, "says": b.says,
             "takeaway": fill(b.takeaway)[0] if b.takeaway else None,
             "stars": b.emphasis.stars, "warning": b.emphasis.warning, "numbers": list(b.numbers_shown)}
            for b in getattr(scene, "beats", [])]


EXIT_NO_PANEL = 3


def parse_args(argv: list[str]):
    import argparse

    parser = argparse.ArgumentParser(prog="python -m studio.engine.worker", description="Render one scene into STAGING.")
    parser.add_argument("scene_id")
    parser.add_argument("quality")
    parser.add_argument("staging", type=Path)
    parser.add_argument("--section", help="render this panel only")
    parser.add_argument("--part", nargs=2, metavar=("HEAD_OR_TAIL", "MEET"), help="one part of a scene cut in two")
    parser.add_argument("--aim", type=int, default=0, help="the tail's first frame at the earliest")
    args = parser.parse_args(argv)
    if args.part is not None and args.part[0] not in ("head", "tail"):
        parser.error(f"--part takes head or tail, not {args.part[0]!r}")
    return args


def main(argv: list[str]) -> int:
    die_with_parent()
    args = parse_args(argv)
    scene_id, quality, staging, section = args.scene_id, args.quality, args.staging, args.section
    part = Part(args.part[0], Path(args.part[1]), args.aim) if args.part else None
    try:
        result = render(scene_id, quality, staging, section, part)
    except PanelNotFound as error:
        (staging / "result.json").write_text(json.dumps({"missing_panel": error.name, "panels": error.panels}))
        return EXIT_NO_PANEL
    (staging / "result.json").write_text(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
