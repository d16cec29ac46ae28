"""fig-gradlife: a gradient's life — the stops between computed and thrown away (第二节).

Ⓐ (the only panel) A track of stations; a red gradient block travels through them: computed,
   accumulated (a dashed optional stop: the block rides its loop, more than once), reduced
   across devices, clipped, handed to the optimizer and thrown away. Then, stop by stop, what
   optimisations there save: 省显存 / 省通信 / 省时间 — every stop has at least one (③'s traffic
   not depending on batch is said before this figure, not over it). Last, how the figure is used.
"""

from __future__ import annotations

import numpy as np
from manim import (DOWN, LEFT, UP, ArcBetweenPoints, DashedVMobject, FadeIn, FadeOut,
                   MoveAlongPath, Rectangle, RoundedRectangle, VGroup, VMobject)

from lecture_numerics.gradlife import STOPS
from scenes.kit import theme
from scenes.kit.arrows import TIP_PER_STROKE, arrow
from scenes.kit.base import LectureScene
from scenes.kit.text import words

# Geometry (scene units; the frame is 14.2 × 8, the safe area 0.35 in from each edge).
STATION_W, STATION_H, STATION_GAP = 2.2, 0.95, 0.35   # the row ends ≈ 0.7 inside each edge
NAME_PAD = 0.2               # a long name widens its box rather than touch its border
TRACK_Y = 1.0               # high enough that the tags and ③'s note end well above the takeaway
TAG_GAP = 0.12
LOOP_ANGLE = 2.4             # how far the accumulation loop bends over its station (radians)
LOOP_INSET = 0.45            # where the loop leaves and rejoins the station's top, from its corners
LOOP_RIDES = 2               # 「可能累加好几次」: the block goes round more than once
BLOCK_W, BLOCK_H = 0.5, 0.34
# Three kinds of saving, three theme hues: 显存 in the activations' teal (fig-act-bill's
# mountain), 通信 in warm, 时间 in the accent blue that fig-batch gives 总时间 (ink would read
# as "no kind").
SAVES = {"memory": ("省显存", "activations"), "communication": ("省通信", "warm"), "time": ("省时间", "accent")}
ORDINALS = "①②③④⑤"


class FigGradlife(LectureScene):
    scene_id = "fig-gradlife"
    title = "梯度的一生：从算出来到被扔掉"
    ledger_keys = ("gradlife.stops",)

    def construct(self) -> None:
        self.start_panel("A", "梯度从算出来到被扔掉，要过{gradlife.stops}道",
                         says="一个梯度从算出来到被扔掉，中间要过五道")
        stations = self.lay_out_stations()
        self.play(FadeIn(stations, lag_ratio=0.1), FadeIn(self.links), run_time=1.0)
        self.ride(stations)
        self.beat(says="每一道都有人在上面做文章 —— 要么省显存，要么省通信，要么省时间")
        self.tag_stops(stations)
        self.beat(says="记住这张图的用法：后面每讲一个优化，都能在这五道里指出它动的是哪一道",
                  takeaway="后面讲到的每个优化，都能在这{gradlife.stops}道里指出它动的是哪道")
        self.play(*(station[0].animate.set_stroke(width=5) for station in stations), run_time=0.5)
        self.play(*(station[0].animate.set_stroke(width=3) for station in stations), run_time=0.5)

    # ---- the track ----

    def lay_out_stations(self) -> VGroup:
        """Boxes on one line, a gap apart, centred (the words under a box may be wider than it)."""
        stations = VGroup(*[self.station(i, stop) for i, stop in enumerate(STOPS)])
        left = 0.0
        for station in stations:
            box = station[0]
            station.shift(np.array([left - box.get_left()[0], TRACK_Y - box.get_y(), 0]))
            left = box.get_right()[0] + STATION_GAP
        stations.shift(LEFT * (stations[0][0].get_left()[0] + stations[-1][0].get_right()[0]) / 2)
        self.links = VGroup(*[arrow(a[0].get_right(), b[0].get_left(), "muted", weight="bold", buff="hair")
                              for a, b in zip(stations, stations[1:])])
        return stations

    def station(self, index: int, stop) -> VGroup:
        name = words(f"{ORDINALS[index]} {stop.name}", size="label")
        box = RoundedRectangle(width=max(STATION_W, name.width + 2 * NAME_PAD), height=STATION_H, corner_radius=0.15,
                               stroke_width=3, stroke_color=theme.color("ink"), fill_color=theme.color("panel"),
                               fill_opacity=1)
        if stop.optional:
            box = DashedVMobject(box, num_dashes=36)
        name.move_to(box)
        what = words(stop.what, size="small", color="muted").next_to(box, DOWN, buff=theme.space("small"))
        group = VGroup(box, name, what)
        group.loop = self.loop_arrow(box) if stop.optional else None
        if group.loop is not None:
            group.add(group.loop)
        return group

    @staticmethod
    def loop_arrow(box) -> VMobject:
        """The optional loop over a station: an arc back to its own start, its tip sized as the kit's arrows."""
        top = box.get_top()[1]
        start = np.array([box.get_right()[0] - LOOP_INSET, top, 0])
        end = np.array([box.get_left()[0] + LOOP_INSET, top, 0])
        width = theme.stroke("regular")
        loop = ArcBetweenPoints(start, end, angle=LOOP_ANGLE, color=theme.color("muted"), stroke_width=width)
        loop.add_tip(tip_length=TIP_PER_STROKE * width, tip_width=TIP_PER_STROKE * width)
        return loop

    # ---- the gradient's ride ----

    def seat(self, station) -> np.ndarray:
        """Where the block waits at a station: just above its box."""
        return station[0].get_top() + UP * (BLOCK_H / 2 + theme.space("snug"))

    def ride(self, stations) -> None:
        gradient = Rectangle(width=BLOCK_W, height=BLOCK_H, stroke_width=0, fill_color=theme.color("backward"),
                             fill_opacity=1).move_to(self.seat(stations[0]))
        self.play(FadeIn(gradient, scale=1.4), run_time=0.5)
        for station in stations[1:]:
            self.play(gradient.animate.move_to(self.seat(station)), run_time=0.6)
            if station.loop is not None:
                self.ride_loop(gradient, station)
        self.play(FadeOut(gradient, shift=DOWN * theme.space("gap")), run_time=0.6)   # 用完扔掉

    def ride_loop(self, gradient, station) -> None:
        """Round the accumulation loop, more than once: from the seat onto the arc, along it, back."""
        seat = self.seat(station)
        along = ArcBetweenPoints(station.loop.get_start(), station.loop.get_end(), angle=LOOP_ANGLE)
        for _ in range(LOOP_RIDES):
            self.play(gradient.animate.move_to(along.get_start()), run_time=0.25)
            self.play(MoveAlongPath(gradient, along), run_time=0.7)
            self.play(gradient.animate.move_to(seat), run_time=0.25)

    # ---- who works on each stop ----

    def tag_stops(self, stations) -> None:
        for stop, station in zip(STOPS, stations):
            tags = self.tags(stop).next_to(station, DOWN, buff=theme.space("medium")).set_x(station[0].get_x())
            self.play(FadeIn(tags, shift=UP * theme.space("tight")), run_time=0.4)

    @staticmethod
    def tags(stop) -> VGroup:
        pills = VGroup()
        for kind in stop.saves:
            label, color = SAVES[kind]
            text = words(label, size="small", color=color)
            pill = RoundedRectangle(width=text.width + 0.3, height=text.height + 0.2, corner_radius=0.12,
                                    stroke_color=theme.color(color), stroke_width=3)
            pills.add(VGroup(pill, text.move_to(pill)))
        return pills.arrange(DOWN, buff=TAG_GAP)
