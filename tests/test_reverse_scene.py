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
    from manim import Rectangle, RoundedRectangle, Text, VMobject

    from scenes.kit import theme
    from studio.engine.stills import section_stills

    stills = {s.name: s.mobjects for s in section_stills("anim-reverse")}
    n = quantity("trips.parameters").value
    trips = quantity("trips.forward").value + quantity("trips.reverse").value
    opening, peak = _visible_parts(stills["main"]), _visible_parts(stills["peak"])
    lit = [p for p in peak if isinstance(p, RoundedRectangle) and p.get_stroke_width() > 0
           and p.get_fill_color() == theme.color("gradients")]
    ticks = [p for p in peak if type(p) is VMobject and p.get_stroke_color() == theme.color("good")]
    # The stacks' blocks are square-cornered and unoutlined; the chains' blocks are rounded.
    stack = [p for p in peak if isinstance(p, Rectangle) and not isinstance(p, RoundedRectangle)
             and p.get_stroke_width() == 0]
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

    from studio.engine import registry

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


def _reverse_row_lighting_order(scene_cls) -> list[int]:
    """Play ``scene_cls`` without drawing a pixel and note, frame by frame, when each block of
    fig-reverse's lower row (反向模式) first shows its gradient fill; the blocks come back
    numbered 0 = leftmost, in the order they lit."""
    from manim import RoundedRectangle, Scene, tempconfig
    from manim.renderer.cairo_renderer import CairoRenderer
    from manim.scene.scene_file_writer import SceneFileWriter

    from scenes.anim_reverse import ROW_Y
    from scenes.kit import theme

    first_lit: dict[float, int] = {}
    frame = [0]
    original = Scene.update_to_time

    def update_and_watch(self, t):
        original(self, t)
        frame[0] += 1
        for top in self.mobjects:
            for part in top.get_family():
                if (isinstance(part, RoundedRectangle) and abs(part.get_center()[1] - ROW_Y["reverse"]) < 0.05
                        and part.get_fill_color() == theme.color("gradients") and part.get_fill_opacity() > 0.5):
                    first_lit.setdefault(round(part.get_center()[0], 2), frame[0])

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Scene, "update_to_time", update_and_watch)
        patch.setattr(CairoRenderer, "render", lambda self, scene, time, moving: None)
        patch.setattr(CairoRenderer, "add_frame", lambda self, frame, num_frames=1: None)
        patch.setattr(SceneFileWriter, "finish", lambda self: None)
        with tempconfig({"pixel_width": 160, "pixel_height": 90, "frame_rate": 30, "write_to_movie": False,
                         "disable_caching": True, "progress_bar": "none", "verbosity": "ERROR"}):
            scene_cls().render()
    xs = sorted(first_lit)
    return sorted(range(len(xs)), key=lambda i: (first_lit[xs[i]], -i))


def test_fig_reverse_lights_the_reverse_row_from_the_loss_leftward():
    """「往回走的路上，每一层的梯度顺手就到手了」: the backward walk starts at the loss (right), so
    the block next to the loss lights first and the leftmost last, one after another."""
    from studio.engine import registry

    n = quantity("trips.parameters").value
    order = _reverse_row_lighting_order(registry.load_class(registry.select(["fig-reverse"])[0]))
    assert order == list(reversed(range(n)))


def test_fig_reverse_ticks_the_perturbed_block_of_the_forward_row():
    """Row Ⓐ's one trip hands over one gradient: that block is filled and ticked, no other."""
    from manim import RoundedRectangle, VMobject

    from scenes.anim_reverse import ROW_Y
    from scenes.fig_reverse import PERTURBED
    from scenes.kit import theme
    from studio.engine.stills import section_stills

    a_final = [s for s in section_stills("fig-reverse") if s.panel == "A"][-1]
    row = [p for p in _visible_parts(a_final.mobjects) if abs(p.get_center()[1] - ROW_Y["forward"]) < 0.7]
    lit = [p for p in row if isinstance(p, RoundedRectangle) and p.get_fill_color() == theme.color("gradients")]
    ticks = [p for p in row if type(p) is VMobject and p.get_stroke_color() == theme.color("good")]
    blocks = sorted((p for p in row if isinstance(p, RoundedRectangle) and p.width < 0.6
                     and abs(p.get_center()[1] - ROW_Y["forward"]) < 0.05), key=lambda p: p.get_center()[0])
    perturbed_x = blocks[0].get_center()[0] + PERTURBED * (blocks[1].get_center()[0] - blocks[0].get_center()[0])
    assert len(lit) == 1 and abs(lit[0].get_center()[0] - perturbed_x) < 0.05
    assert len(ticks) == 1 and abs(ticks[0].get_center()[0] - perturbed_x) < 0.1


def test_fig_reverse_hands_the_forward_gradient_over_when_it_is_named():
    """The forward trip's one ✓ belongs to 「可这一遍走完，你只拿到了这一个参数的梯度」 (A.4):
    the still of the trip's own sentence (A.3) shows no ✓ in row Ⓐ, A.4's shows exactly one."""
    from manim import VMobject

    from scenes.anim_reverse import ROW_Y
    from scenes.kit import theme
    from studio.engine.stills import section_stills

    stills = {s.name: s for s in section_stills("fig-reverse")}

    def forward_ticks(name: str) -> int:
        row = [p for p in _visible_parts(stills[name].mobjects) if abs(p.get_center()[1] - ROW_Y["forward"]) < 0.7]
        return sum(1 for p in row if type(p) is VMobject and p.get_stroke_color() == theme.color("good"))

    assert (forward_ticks("A.3"), forward_ticks("A.4")) == (0, 1)


def test_anim_reverse_rows_arrows_agree_with_fig_reverse():
    """anim-reverse draws fig-reverse's two chains: the upper row's arrows run right, the lower
    row's leftward from the loss. Before any walk both rows' arrows are the same muted grey (the
    rows differ only in direction and seed); after the walk back, the lower row's links are red
    (the gradients' colour) in both."""
    from manim import Arrow

    from scenes.anim_reverse import ROW_Y
    from scenes.kit import theme
    from studio.engine.stills import section_stills

    def row_arrows(still, mode):
        return [m for top in still.mobjects for m in top.get_family()
                if isinstance(m, Arrow) and abs(m.get_center()[1] - ROW_Y[mode]) < 0.05
                and m.get_stroke_opacity() > 0.5]

    n = quantity("trips.parameters").value
    anim = {s.name: s for s in section_stills("anim-reverse")}
    fig = {s.name: s for s in section_stills("fig-reverse")}
    for still in (anim["main"], fig["A.1"]):
        back, ahead = row_arrows(still, "reverse"), row_arrows(still, "forward")
        assert len(back) == n and len(ahead) == n
        assert all(a.get_end()[0] < a.get_start()[0] for a in back)
        assert all(a.get_end()[0] > a.get_start()[0] for a in ahead)
        assert {a.get_color() for a in back + ahead} == {theme.color("muted")}
    for still in (anim["peak"], fig["A.8"]):
        back = row_arrows(still, "reverse")
        assert sum(a.get_color() == theme.color("backward") for a in back) == n
