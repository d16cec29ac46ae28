"""fig-gradlife: a gradient's life — the stops between computed and thrown away (第二节).

Ⓐ (the only panel) A track of stations; a red gradient block travels through them: computed,
   accumulated (a dashed optional stop: the block rides its loop, more than once), reduced
   across devices, clipped, handed to the optimizer and thrown away. Then, stop by stop, what
   optimisations there save: 省显存 / 省通信 / 省时间, three kinds told apart by their frames and
   their words (no concept owns a kind of saving, so none borrows a concept's colour). Clipping
   gets none: the notes only ever make it a stability guard, and its place says so in grey
   (「不省：保稳定」). Last, how the figure is used.
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, UP, FadeIn, FadeOut, MoveAlongPath, VGroup, VMobject

from lecture_numerics.gradlife import STOPS
from scenes.kit import marks, theme
from scenes.kit.arrows import arrow
from scenes.kit.base import LectureScene
from scenes.kit.text import words

# Geometry (scene units; the frame is 14.2 × 8, the safe area 0.35 in from each edge).
STATION_W, STATION_H, STATION_GAP = 2.2, 0.95, 0.35   # the row ends ≈ 0.7 inside each edge
NAME_PAD = 0.2               # a long name widens its box rather than touch its border
TRACK_Y = 0.7               # the track and its tags fill the middle, clear of the takeaway
TAG_GAP = 0.12
LOOP_ANGLE = 2.4             # how far the accumulation loop bends over its station (radians)
LOOP_INSET = 0.45            # where the loop leaves and rejoins the station's top, from its corners
LOOP_RIDES = 2               # 「可能累加好几次」: the block goes round more than once
BLOCK_W, BLOCK_H = 0.5, 0.34
# Three kinds of saving, none of them a concept of the colour key: told apart by the frame
# around the words (solid, dashed, square), all in ink.
SAVES = {"memory": ("省显存", dict(dashed=False, corner="round")),
         "communication": ("省通信", dict(dashed=True, corner="round")),
         "time": ("省时间", dict(dashed=False, corner="square"))}
NO_SAVING = "不省：保稳定"
LIT, RESTING = "heavy", "regular"    # the stations' outline when the last beat points at them
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
        self.play(*(station.box.animate.set_stroke(width=theme.stroke(LIT)) for station in stations), run_time=0.5)
        self.play(*(station.box.animate.set_stroke(width=theme.stroke(RESTING)) for station in stations),
                  run_time=0.5)

    # ---- the track ----

    def lay_out_stations(self) -> VGroup:
        """Boxes on one line, a gap apart, centred (the words under a box may be wider than it)."""
        stations = VGroup(*[self.station(i, stop) for i, stop in enumerate(STOPS)])
        left = 0.0
        for station in stations:
            box = station.box
            station.shift(np.array([left - box.get_left()[0], TRACK_Y - box.get_y(), 0]))
            left = box.get_right()[0] + STATION_GAP
        stations.shift(LEFT * (stations[0].box.get_left()[0] + stations[-1].box.get_right()[0]) / 2)
        self.links = VGroup(*[arrow(a.box.get_right(), b.box.get_left(), "muted", weight="bold", buff="hair")
                              for a, b in zip(stations, stations[1:])])
        return stations

    def station(self, index: int, stop) -> VGroup:
        name = words(f"{ORDINALS[index]} {stop.name}", size="label")
        box = marks.box(max(STATION_W, name.width + 2 * NAME_PAD), STATION_H, "ink", weight=RESTING, fill="panel",
                        fill_opacity=1, dashed=stop.optional)
        name.move_to(box)
        what = words(stop.what, size="small", color="muted").next_to(box, DOWN, buff=theme.space("small"))
        group = VGroup(box, name, what)
        group.box = box
        group.loop = self.loop_arrow(box) if stop.optional else None
        if group.loop is not None:
            group.add(group.loop)
        return group

    @staticmethod
    def loop_ends(box) -> tuple[np.ndarray, np.ndarray]:
        """Where the loop over a station leaves its top and comes back (read off the box where it is now)."""
        top = box.get_top()[1]
        return (np.array([box.get_right()[0] - LOOP_INSET, top, 0]),
                np.array([box.get_left()[0] + LOOP_INSET, top, 0]))

    def loop_arrow(self, box) -> VMobject:
        """The optional loop over a station: an arc back to its own start."""
        return marks.arc_arrow(*self.loop_ends(box), "muted", angle=LOOP_ANGLE, weight="regular")

    # ---- the gradient's ride ----

    def seat(self, station) -> np.ndarray:
        """Where the block waits at a station: just above its box."""
        return station.box.get_top() + UP * (BLOCK_H / 2 + theme.space("snug"))

    def ride(self, stations) -> None:
        gradient = marks.box(BLOCK_W, BLOCK_H, "backward", weight=None, fill_opacity=1, corner="square")
        gradient.move_to(self.seat(stations[0]))
        self.play(FadeIn(gradient, scale=1.4), run_time=0.5)
        for station in stations[1:]:
            self.play(gradient.animate.move_to(self.seat(station)), run_time=0.6)
            if station.loop is not None:
                self.ride_loop(gradient, station)
        self.play(FadeOut(gradient, shift=DOWN * theme.space("gap")), run_time=0.6)   # 用完扔掉

    def ride_loop(self, gradient, station) -> None:
        """Round the accumulation loop, more than once: from the seat onto the arc, along it, back."""
        seat = self.seat(station)
        along = marks.travel_path(*self.loop_ends(station.box), angle=LOOP_ANGLE)
        for _ in range(LOOP_RIDES):
            self.play(gradient.animate.move_to(along.get_start()), run_time=0.25)
            self.play(MoveAlongPath(gradient, along), run_time=0.7)
            self.play(gradient.animate.move_to(seat), run_time=0.25)

    # ---- who works on each stop ----

    def tag_stops(self, stations) -> None:
        for stop, station in zip(STOPS, stations):
            # A stop the notes give no saving (clipping) says so, unframed and grey, so its empty
            # place reads as meant: what is done there is for stability (第六节), not a saving.
            tags = self.tags(stop) if stop.saves else words(NO_SAVING, size="small", color="muted")
            tags.next_to(station, DOWN, buff=theme.space("medium")).set_x(station.box.get_x())
            if not stop.saves:      # level with the first pill's words, not with its frame's top
                tags.shift(DOWN * theme.space("small"))
            self.play(FadeIn(tags, shift=UP * theme.space("tight")), run_time=0.4)

    @staticmethod
    def tags(stop) -> VGroup:
        pills = VGroup()
        for kind in stop.saves:
            label, frame = SAVES[kind]
            text = words(label, size="small")
            pills.add(VGroup(marks.frame_around(text, "ink", pad="small", weight="regular", **frame), text))
        return pills.arrange(DOWN, buff=TAG_GAP)
