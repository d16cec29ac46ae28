"""Section stills without rendering video: run a scene's construct with animations
skipped, snapshot the screen at the end of each section, and draw each snapshot once.

    python -m studio.engine.stills fig-circuit [--out scratch/stills] [--width 1280 --height 720]

Writes ``<out>/<id>_<panel>.<beat>.png``: one PNG per beat, as the beat ends (a loop's
snapshots by their own names). The tests use :func:`section_stills` directly.
``--durations`` and ``--sections`` print each scene's length or panel names instead (the
CLI runs them in a child process, so manim never loads into render.py itself).
"""

from __future__ import annotations

import argparse
import atexit
import functools
import shutil
import sys
import tempfile
from pathlib import Path

from studio.engine import registry


def build_scene(scene_id: str, *, capture_stills: bool = False):
    """Run the scene's construct with every animation skipped (finished instantly)."""
    return build_scene_class(registry.load_class(registry.select([scene_id])[0]), capture_stills=capture_stills)


@functools.lru_cache(maxsize=None)
def _media_dir() -> str:
    """This process's own folder for the SVGs Pango writes: manim names them by the text's
    hash and deletes a temporary copy after parsing, so two processes building the same text
    in one shared folder delete each other's files (parallel test workers did)."""
    folder = tempfile.mkdtemp(prefix="lecture-stills-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


def build_scene_class(cls, *, capture_stills: bool = False):
    """Like :func:`build_scene`, for a scene class in hand (tests build deliberately bad ones)."""
    from manim import tempconfig

    with tempconfig({"dry_run": True, "write_to_movie": False, "disable_caching": True,
                     "progress_bar": "none", "verbosity": "ERROR", "media_dir": _media_dir()}):
        scene = cls(skip_animations=True)
        scene.capture_stills = capture_stills
        scene.render()
    return scene


def section_stills(scene_id: str):
    """Construct the scene with animations skipped; return its SectionStill list."""
    return build_scene(scene_id, capture_stills=True).section_stills


def draw(mobjects, path: Path, width: int, height: int, camera_class=None, background=None) -> None:
    """Draw mobjects into one PNG on the scene's background, through the scene's own
    camera class (a scene may draw some mobjects itself, e.g. the shaded 3D mesh)."""
    from manim import tempconfig
    from manim.camera.camera import Camera

    with tempconfig({"pixel_width": width, "pixel_height": height}):
        camera = (camera_class or Camera)(background_color=background)
        camera.capture_mobjects(mobjects)
        camera.get_image().convert("RGB").save(path)


def panel_names(scene_id: str) -> list[str]:
    """The sections the scene starts, in order: its beats, ``A.1 A.2 B.1 …`` (a render
    publishes ``<id>/A.mp4`` per panel and ``<id>/A/1.mp4`` per beat)."""
    names: list[str] = []
    base = registry.load_class(registry.select([scene_id])[0])

    class Recording(base):
        def next_section(self, name="unnamed", *args, **kwargs):
            names.append(name)
            return super().next_section(name, *args, **kwargs)

    build_scene_class(Recording)
    return names


def print_durations(ids: list[str]) -> int:
    """One line per scene, ``id<TAB>seconds`` or ``id<TAB>error: …``, flushed as it goes."""
    for scene_id in ids:
        try:
            line = f"{dry_run_duration(scene_id):.3f}"
        except Exception as error:  # a broken scene must not hide the others
            line = f"error: {type(error).__name__}: {error}"
        print(f"{scene_id}\t{line}", flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m studio.engine.stills", description=__doc__.splitlines()[0])
    parser.add_argument("ids", nargs="+")
    parser.add_argument("--durations", action="store_true", help="print each scene's duration instead")
    parser.add_argument("--sections", action="store_true", help="print each scene's section names instead")
    parser.add_argument("--out", type=Path, default=Path("scratch/stills"))
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=720)
    args = parser.parse_args(argv)
    if args.durations:
        return print_durations(args.ids)
    if args.sections:
        for scene_id in args.ids:
            print(f"{scene_id}\t{' '.join(panel_names(scene_id))}", flush=True)
        return 0
    args.out.mkdir(parents=True, exist_ok=True)
    for scene_id in args.ids:
        scene = build_scene(scene_id, capture_stills=True)
        for still in scene.section_stills:
            path = args.out / f"{scene_id}_{still.name}.png"
            draw(still.mobjects, path, args.width, args.height, type(scene.renderer.camera),
                 scene.camera.background_color)
            print(path)
    return 0



def dry_run_duration(scene_id: str) -> float:
    """Seconds of video the scene will make, from a construct with animations skipped."""
    return float(build_scene(scene_id).renderer.time)

if __name__ == "__main__":
    sys.exit(main())
