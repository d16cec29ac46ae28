#!/usr/bin/env python3
"""Price the known costs of a manim render, one at a time: ``python bench/known_costs.py [--quality high]``.

Each line times one thing in isolation, in this process (manim imported once):
- a caption-sized Text built (what rebuilding text every frame costs per frame);
- a Text deep-copied, and a FadeIn of it set up (both copy the whole glyph tree);
- an updater that does nothing, called on a static group (the call itself), and ten still
  captions drawn into a frame: what a still thing costs per frame once it counts as moving.
  Manim's Cairo renderer draws still mobjects once into a background, but a mobject with
  any updater, and every mobject after it in the scene's order, is redrawn every frame
  (Scene.get_moving_mobjects);
- one frame of a 24×24 stock manim ``Surface`` (one VMobject per face, ThreeDCamera)
  against one frame of the kit's vectorised ``ShadedMesh``, at the chosen resolution;
- one RGBA frame converted to yuv420p for the encoder, as manim does for every frame.
Import time of manim itself is measured by ``bench/run.py`` in a fresh process.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from studio import config  # noqa: E402

CAPTION = "反向从最右边起步，乘法门把输入的值对调过来"


def per_call_ms(action, repeat: int) -> float:
    """CPU milliseconds of this thread per call: waiting for a core on a busy machine is left out."""
    action()  # warm caches (font lookups, numpy set-up) before timing
    start = time.thread_time()
    for _ in range(repeat):
        action()
    return (time.thread_time() - start) / repeat * 1000


def text_costs(repeat: int) -> dict[str, float]:
    from manim import DOWN, UP, FadeIn, VGroup
    from manim.camera.camera import Camera

    from scenes.kit.text import words

    caption = words(CAPTION, size="body")
    group = VGroup(*[words(CAPTION, size="body") for _ in range(2)])
    group.add_updater(lambda m: None)
    fade = lambda: FadeIn(caption, shift=UP * 0.2).begin()
    captions = VGroup(*[words(CAPTION, size="body") for _ in range(10)]).arrange(DOWN, buff=0.1)
    camera = Camera()

    def draw_captions():
        camera.reset()
        camera.capture_mobjects([captions])

    return {
        f"Text built (caption, {len(CAPTION)} characters)": per_call_ms(lambda: words(CAPTION, size="body"), repeat),
        "Text deep-copied (Mobject.copy)": per_call_ms(caption.copy, repeat),
        "FadeIn(Text) set up (begin)": per_call_ms(fade, repeat),
        "no-op updater on a static 48-glyph group (Mobject.update)": per_call_ms(lambda: group.update(0.0), repeat * 20),
        "ten still captions redrawn into one frame (Camera.capture_mobjects)": per_call_ms(draw_captions, repeat),
    }


def surface_costs(repeat: int) -> dict[str, float]:
    import numpy as np
    from manim import BLUE, GREY, WHITE, Surface
    from manim.camera.three_d_camera import ThreeDCamera

    from lecture_numerics import saddle
    from scenes.kit.surface import ShadedMesh, SurfaceCamera, View

    cells = 24
    stock = Surface(lambda u, v: np.array([u, v, (u * u - v * v) / 2]), u_range=[-1.5, 1.5], v_range=[-1.5, 1.5],
                    resolution=(cells, cells))
    stock_camera = ThreeDCamera()
    stock_camera.set_phi(60 * np.pi / 180)
    stock_camera.set_theta(-35 * np.pi / 180)
    view = View(azimuth=np.radians(-35), elevation=np.radians(30), scale=2.55, centre=(0, 0), eye_distance=7.0)
    mesh = ShadedMesh(saddle.grid(cells), view, low_color=BLUE, high_color=WHITE, underside_color=GREY)
    mesh_camera = SurfaceCamera()

    def frame(camera, mobject):
        camera.reset()
        camera.capture_mobjects([mobject])

    return {
        f"stock Surface {cells}×{cells}, one frame (ThreeDCamera)": per_call_ms(lambda: frame(stock_camera, stock), repeat),
        f"kit ShadedMesh {cells}×{cells}, mesh only, one frame (SurfaceCamera)": per_call_ms(lambda: frame(mesh_camera, mesh), repeat),
    }


def frame_handoff_costs(width: int, height: int, repeat: int) -> dict[str, float]:
    """What manim's encoder thread does to every frame before x264 sees it (video_segment_encoder.py):
    wrap the RGBA array in a PyAV frame and convert it to yuv420p, once per written frame,
    repeated frames of a wait() included."""
    import av
    import numpy as np

    from studio.manim_hooks.fastencode import to_yuv

    pixels = np.random.default_rng(0).integers(0, 256, (height, width, 4), dtype=np.uint8)
    copied = lambda: av.VideoFrame.from_ndarray(pixels, format="rgba").reformat(format="yuv420p", threads=1)
    in_place = lambda: to_yuv(pixels, "yuv420p")
    return {"RGBA frame → yuv420p, copied into a PyAV frame first (stock)": per_call_ms(copied, repeat * 4),
            "RGBA frame → yuv420p, read in place (studio/manim_hooks/fastencode.py)": per_call_ms(in_place, repeat * 4)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench/known_costs.py", description=__doc__.splitlines()[0])
    parser.add_argument("--quality", default="high")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    preset = config.presets()[args.quality]

    from manim import tempconfig

    settings = {"pixel_width": preset["width"], "pixel_height": preset["height"], "frame_rate": preset["fps"],
                "verbosity": "WARNING"}
    with tempconfig(settings):
        costs = {**text_costs(args.repeat), **surface_costs(args.repeat),
                 **frame_handoff_costs(preset["width"], preset["height"], args.repeat)}
    print(f"known costs at {args.quality} ({preset['width']}x{preset['height']}@{preset['fps']}), "
          f"CPU ms per call, mean of {args.repeat}:")
    for label, ms in costs.items():
        per_second = ms * preset["fps"] / 1000
        print(f"{label:<68} {ms:8.2f} ms   = {per_second:6.2f} s per video second if done every frame")
    return 0


if __name__ == "__main__":
    sys.exit(main())
