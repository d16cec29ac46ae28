"""anim-reverse: the full-stacks moment shows what the trip counts say, and the loop's
last rendered frame is its first."""

from __future__ import annotations

import numpy as np
import pytest

from lecture_numerics import quantity


def _visible_parts(mobjects) -> list:
    seen = []
    for mob in mobjects:
        for part in mob.get_family():
            if part.has_points() and (part.get_fill_opacity() > 0 or part.get_stroke_opacity() > 0) and part not in seen:
                seen.append(part)
    return seen


def test_peak_shows_every_gradient_and_one_block_per_trip():
    from manim import RoundedRectangle, Text, VMobject

    from scenes.kit import theme
    from studio.stills import section_stills

    stills = {s.name: s.mobjects for s in section_stills("anim-reverse")}
    n = quantity("trips.parameters").value
    trips = quantity("trips.forward").value + quantity("trips.reverse").value
    opening, peak = _visible_parts(stills["main"]), _visible_parts(stills["peak"])
    lit = [p for p in peak if isinstance(p, RoundedRectangle) and p.get_stroke_width() > 0
           and p.get_fill_color() == theme.color("gradients")]
    ticks = [p for p in peak if type(p) is VMobject and p.get_stroke_color() == theme.color("good")]
    stack = [p for p in peak if isinstance(p, RoundedRectangle) and p.get_stroke_width() == 0]
    assert (len(lit), len(ticks), len(stack)) == (2 * n, 2 * n, trips)
    texts = {p for mob in stills["peak"] for p in mob.get_family() if isinstance(p, Text)}
    counts = [t.text for t in texts if t.text.endswith("趟") and t.text[0].isdigit()
              and all(g.get_fill_opacity() > 0.99 for g in t.submobjects)]
    assert sorted(counts) == sorted([f"{quantity('trips.forward').display}趟", f"{quantity('trips.reverse').display}趟"])
    # The loop's opening frame: nothing lit, no ball, empty stacks.
    assert not any(isinstance(p, RoundedRectangle) and p.get_fill_color() == theme.color("gradients") for p in opening)


@pytest.mark.render
def test_loop_ends_on_its_first_frame(monkeypatch):
    from manim import tempconfig
    from manim.renderer.cairo_renderer import CairoRenderer
    from manim.scene.scene_file_writer import SceneFileWriter

    from studio import registry

    frames = []
    monkeypatch.setattr(CairoRenderer, "add_frame",
                        lambda self, frame, num_frames=1: frames.extend([frame[..., :3].astype(np.int16)] * num_frames))
    monkeypatch.setattr(SceneFileWriter, "finish", lambda self: None)
    cls = registry.load_class(registry.select(["anim-reverse"])[0])
    with tempconfig({"pixel_width": 320, "pixel_height": 180, "frame_rate": 15, "write_to_movie": False,
                     "disable_caching": True, "progress_bar": "none", "verbosity": "ERROR"}):
        cls().render()
    steps = [np.abs(a - b).mean() for a, b in zip(frames, frames[1:])]
    seam = np.abs(frames[-1] - frames[0]).mean()
    assert len(frames) > 100 and max(steps) > 0          # it does move
    assert seam <= min(s for s in steps if s > 0)        # and closes exactly
    assert seam == 0
