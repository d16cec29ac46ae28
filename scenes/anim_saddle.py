"""anim-saddle: the saddle in 3D, turning to and fro in a loop (第三节, after fig-saddle).

One section: the eye swings ±60° about a view between the two paths of the surface
z = (x² − y²) / 2. At one end of the swing it looks across the red path, which rises on both
sides of the black flat point; at the other it looks across the green one, which falls on
both sides (「绿色那条路一直都在」). The legend on the right and the speaker's line below
stay still while it turns. The swing is slowest at its two ends, where those two views
are; a full turn would show the sheet's underside, which this swing keeps to a sliver
(tests/test_saddle.py checks the whole swing). The loop starts a twelfth into the swing, so its
first frame (the poster) puts the red path's low point on the black dot.
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
from scenes.kit.text import words

# One swing there and back, ±60°: at the fastest, through the middle view, 60° · 2π / 12 s ≈ 31°/s
# (a full turn in 9 s is 40°/s); at each end it slows to a stop on the view it is there for.
ROCK_SECONDS = 12.0
ROCK_AMPLITUDE = np.radians(60)
# The loop's first frame is its poster: a twelfth of the way into the swing (30° from the middle
# view, towards the end that looks across the red path), where perspective puts the red path's
# low point and the green one's high point on the black dot, so 「红线往上翘」 reads from it.
POSTER_PHASE = 1 / 12
MESH_CELLS = 48           # even, so both paths run along grid lines through the centre; fine
                          # enough that neighbouring faces' shades do not read as a checkerboard
# The eye: 40° above the horizon, midway between the paths (−45°); the swing reaches −105°
# (looking along the red path, across the green one: the green falls on both sides) and
# +15° (across the red one: it rises on both sides). Lower, the falling edges would show
# their undersides. Scale and centre keep the mesh, at every angle, between the heading,
# the caption and the legend (tests/test_saddle.py turns it and checks).
START_VIEW = View(azimuth=np.radians(-45), elevation=np.radians(40), scale=2.75,
                  centre=(-2.2, 0.15), eye_distance=7.0)
PATH_WIDTH = 0.075        # manim units (about 10 px at 1080p)
DOT_RADIUS = 0.1
UNDERSIDE_SHADE = 0.12    # share of ink mixed into the sheet's grey on its back


def saddle_mesh() -> ShadedMesh:
    """The surface with its two paths and the flat point, all from lecture_numerics.saddle."""
    # The ground is no concept of the key, only the stage the paths lie on: the guides' grey,
    # shaded so the shape reads (the paths and the dot carry the colours).
    ground, paper = theme.color("muted"), theme.background()
    mesh = ShadedMesh(
        saddle.grid(MESH_CELLS), START_VIEW,
        low_color=ground.interpolate(paper, 0.2), high_color=ground.interpolate(paper, 0.75),
        # The back of the same sheet, in shade: where an edge curls over during the swing it
        # reads as the sheet turning away, not as a patch stuck on it.
        underside_color=ground.interpolate(theme.color("ink"), UNDERSIDE_SHADE),
    )
    # Two samples per cell; each depth-sorted piece spans two cells (one stroke each).
    samples = 2 * MESH_CELLS + 1
    mesh.add_path(saddle.rising_path(samples), theme.color("bad"), PATH_WIDTH, segments_per_piece=4)
    mesh.add_path(saddle.falling_path(samples), theme.color("good"), PATH_WIDTH, segments_per_piece=4)
    mesh.add_dot(saddle.flat_point(), theme.color("ink"), DOT_RADIUS, rim_color=paper)
    return mesh


def legend() -> VGroup:
    """What the colours mean, in the speaker's words (the notes' 红 is the status crimson: the
    way that rises is no way out; their 绿 the status green: the way out)."""
    return kit_legend([("bad", "红线：往上翘", "line"), ("good", "绿线：往下沉", "line"),
                       ("ink", "黑点：脚下是平的", "dot")], direction=DOWN, size="label", tinted=True, gap="large")


class AnimSaddle(LectureScene):
    scene_id = "anim-saddle"
    title = "鞍点：脚下是平的，路就在旁边"
    loop = True
    ledger_keys = ()

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("camera_class", SurfaceCamera)
        super().__init__(**kwargs)

    def construct(self) -> None:
        # The still parts go in first: they become the static background the turn is drawn on.
        heading = words("鞍点：一个方向往上，另一个方向往下", size="heading").to_corner(UL, buff=EDGE_BUFF)
        key = legend().to_edge(RIGHT, buff=EDGE_BUFF + 0.1).shift(DOWN * theme.space("close"))
        # The notes' ⭐ sentence, set as a ⭐ takeaway: the biggest text on screen, above the heading's.
        line = takeaway_line("站在那个点上，脚下确实是平的 —— 可绿色那条路一直都在", level="star")
        line.to_edge(DOWN, buff=EDGE_BUFF)
        self.add(heading, key, line)

        # One swing there and back; the last frame leads back into the first.
        mesh = saddle_mesh()
        self.add(mesh)
        self.play(Rock(mesh, ROCK_AMPLITUDE, phase=POSTER_PHASE, run_time=ROCK_SECONDS))
