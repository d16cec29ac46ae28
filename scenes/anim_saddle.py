"""anim-saddle: the saddle in 3D, rocking gently to and fro in a loop (第三节, after fig-saddle).

One section: the eye swings a little either way about the start view of the surface
z = (x² − y²) / 2, so the shape reads as 3D while both paths stay side-on. The red path
rises on both sides of the black flat point, the green one falls on both sides; the legend
on the right and the speaker's line below stay still while it rocks. A full turn would show
the sheet's underside and put the red path end-on half the time; the swing stays where
neither happens (tests/test_saddle.py checks the whole swing).
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, RIGHT, UL, VGroup

from lecture_numerics import saddle
from scenes.kit import theme
from scenes.kit.annotate import legend as kit_legend
from scenes.kit.base import LectureScene
from scenes.kit.panels import EDGE_BUFF, takeaway_line
from scenes.kit.surface import Rock, ShadedMesh, SurfaceCamera, View
from scenes.kit.text import formula, ledger_text, words

# One swing there and back: as many frames as the full turn it replaces (same render time),
# at a quarter of its pace or less (13° · 2π / 9 s ≈ 9°/s at the fastest, against 40°/s).
ROCK_SECONDS = 9.0
ROCK_AMPLITUDE = np.radians(13)
MESH_CELLS = 32           # even, so both paths run along grid lines through the centre
# The eye: 30° above the horizon, 21° off the red path so both paths show at once; ±13°
# about it neither shows the underside's edge much nor puts a path end-on. Scale and centre
# keep the mesh, at every angle of the swing, between the heading, the caption and the
# legend (tests/test_saddle.py rocks it and checks).
START_VIEW = View(azimuth=np.radians(-21), elevation=np.radians(30), scale=2.95,
                  centre=(-2.2, 0.1), eye_distance=7.0)
PATH_WIDTH = 0.075        # manim units (about 10 px at 1080p)
DOT_RADIUS = 0.1
UNDERSIDE_SHADE = 0.12    # share of ink mixed into the sheet's blue on its back


def saddle_mesh() -> ShadedMesh:
    """The surface with its two paths and the flat point, all from lecture_numerics.saddle."""
    accent, paper = theme.color("accent"), theme.background()
    mesh = ShadedMesh(
        saddle.grid(MESH_CELLS), START_VIEW,
        low_color=accent.interpolate(paper, 0.35), high_color=accent.interpolate(paper, 0.8),
        # The back of the same blue sheet, in shade: where the left edge curls over during the
        # swing it reads as the sheet turning away, not as a grey patch stuck on it.
        underside_color=accent.interpolate(theme.color("ink"), UNDERSIDE_SHADE),
    )
    # Two samples per cell; each depth-sorted piece spans two cells (one stroke each).
    samples = 2 * MESH_CELLS + 1
    mesh.add_path(saddle.rising_path(samples), theme.color("backward"), PATH_WIDTH, segments_per_piece=4)
    mesh.add_path(saddle.falling_path(samples), theme.color("good"), PATH_WIDTH, segments_per_piece=4)
    mesh.add_dot(saddle.flat_point(), theme.color("ink"), DOT_RADIUS, rim_color=paper)
    return mesh


def legend() -> VGroup:
    """What the colours mean, in the speaker's words, and the numbers at the black point."""
    rows = kit_legend([("backward", "红线：往上翘", "line"), ("good", "绿线：往下沉", "line"),
                       ("ink", "黑点：脚下是平的", "dot")], direction=DOWN, size="label", tinted=True, gap="large")
    facts = VGroup(
        formula("z = (x² − y²) / 2", size="small", color="muted"),
        ledger_text("黑点的坡度：{saddle.slope_at_centre}", size="small", color="muted"),
        ledger_text("{saddle.directions}个方向的弯曲：{saddle.curvature_up} 和 {saddle.curvature_down}",
                    size="small", color="muted"),
    ).arrange(DOWN, aligned_edge=LEFT, buff=0.22)
    return VGroup(rows, facts).arrange(DOWN, aligned_edge=LEFT, buff=theme.space("wide"))


class AnimSaddle(LectureScene):
    scene_id = "anim-saddle"
    title = "鞍点：脚下是平的，路就在旁边"
    loop = True
    ledger_keys = ("saddle.directions", "saddle.slope_at_centre", "saddle.curvature_up", "saddle.curvature_down")

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("camera_class", SurfaceCamera)
        super().__init__(**kwargs)

    def construct(self) -> None:
        # The still parts go in first: they become the static background the turn is drawn on.
        heading = words("鞍点：一个方向往上，另一个方向往下", size="heading").to_corner(UL, buff=EDGE_BUFF)
        key = legend().to_edge(RIGHT, buff=EDGE_BUFF + 0.1).shift(DOWN * theme.space("close"))
        # The notes' ⭐ sentence, at takeaway size: the biggest text on screen, above the heading's.
        line = takeaway_line("站在那个点上，脚下确实是平的 —— 可绿色那条路一直都在", color="good")
        line.to_edge(DOWN, buff=EDGE_BUFF)
        self.add(heading, key, line)

        # One swing there and back; the last frame leads back into the first.
        mesh = saddle_mesh()
        self.add(mesh)
        self.play(Rock(mesh, ROCK_AMPLITUDE, run_time=ROCK_SECONDS))
