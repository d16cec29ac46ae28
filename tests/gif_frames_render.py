"""Render a fixture scene as the worker does, with the GIF's frames gathered on the way.

``python tests/gif_frames_render.py SCENE_ID WIDTH HEIGHT FPS STAGING`` prints the path of
the joined GIF-frames stream and of the movie, as JSON. Used by tests/test_gif_frames.py.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    scene_id, width, height, fps, staging = argv[0], int(argv[1]), int(argv[2]), int(argv[3]), Path(argv[4])
    from manim import tempconfig

    from studio.manim_hooks import fastencode
    from studio.engine import registry, worker

    gif = fastencode.GifFrames(staging / "gif-parts", width, height, fps)
    fastencode.install(gif)
    scene_cls = registry.load_class(registry.select([scene_id])[0])
    preset = {"width": width, "height": height, "fps": fps}
    settings = {"pixel_width": width, "pixel_height": height, "frame_rate": fps, "media_dir": str(staging / "media"),
                "disable_caching": True, "write_to_movie": True, "format": "mp4", "progress_bar": "none",
                "verbosity": "WARNING", "output_file": scene_id, "preview": False, **worker.encoder_settings(preset)}
    with tempconfig(settings):
        scene_cls().render()
    frames = gif.finish(staging / f"{scene_id}.gif-frames.mp4")
    movie = next((staging / "media").rglob(f"{scene_id}.mp4"))
    print(json.dumps({"gif_frames": str(frames), "movie": str(movie)}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
