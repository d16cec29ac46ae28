"""One render of a scene at low quality, in a process of its own, writing the digest of every
frame Manim hands its file writer: ``python -m tests.manim_parity_run ID plain|hooked STAGING``.

``plain`` is Manim as it comes (its own encoder and frame path); ``hooked`` is the worker's
render (studio/engine/worker.py: every Manim hook installed, the GIF's frames and the
slides' stills gathered). Each frame is the RGBA array the renderer writes, hashed as it is
written; a frame held for n frames counts n times. Prints the digests as JSON.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from manim.renderer.cairo_renderer import CairoRenderer

DIGESTS: list[str] = []
_add_frame = CairoRenderer.add_frame


def _recording_add_frame(self, frame, num_frames: int = 1) -> None:
    if not self.skip_animations:
        DIGESTS.extend([hashlib.sha256(frame.tobytes()).hexdigest()[:20]] * num_frames)
    _add_frame(self, frame, num_frames)


def render_plain(scene_id: str, staging: Path) -> None:
    from manim import tempconfig

    from studio import config
    from studio.engine import registry

    preset = config.presets()["low"]
    scene_cls = registry.load_class(registry.select([scene_id])[0])
    with tempconfig({"pixel_width": preset["width"], "pixel_height": preset["height"], "frame_rate": preset["fps"],
                     "media_dir": str(staging / "media"), "disable_caching": True, "progress_bar": "none",
                     "verbosity": "WARNING", "output_file": scene_id}):
        scene_cls().render()


def main(argv: list[str]) -> int:
    scene_id, mode, staging = argv[0], argv[1], Path(argv[2])
    staging.mkdir(parents=True, exist_ok=True)
    CairoRenderer.add_frame = _recording_add_frame
    if mode == "plain":
        render_plain(scene_id, staging)
    else:
        from studio.engine import worker

        worker.render(scene_id, "low", staging)
    print(json.dumps(DIGESTS))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
