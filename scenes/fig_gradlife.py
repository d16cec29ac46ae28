"""fig-gradlife: a gradient's life — the stops between computed and thrown away (第二节).

Ⓐ (the only panel) A track of stations; a red gradient block travels through them: computed,
   accumulated (a dashed optional loop), reduced across devices, clipped, handed to the optimizer
   and thrown away. Under each, what optimisations there save: 省显存 / 省通信 / 省时间.
"""

from __future__ import annotations

from manim import (DOWN, LEFT, RIGHT, UP, CurvedArrow, DashedVMobject, FadeIn, FadeOut, Rectangle,
                   RoundedRectangle, VGroup)

from lecture_numerics.gradlife import STOPS
from scenes.kit import theme
from scenes.kit.arrows import arrow
from scenes.kit.base import LectureScene
from scenes.kit.panels import caption
from scenes.kit.text import words

# Geometry (scene units; the frame is 14.2 × 8).
STATION_W, STATION_H, STATION_GAP = 2.35, 0.95, 0.3   # five stations inside the safe area
TRACK_Y = 0.3
TAG_GAP = 0.12
SAVES = {"memory": ("省显存", "activations"), "communication": ("省通信", "warm"), "time": ("省时间", "accent")}
ORDINALS = "①②③④⑤"


class FigGradlife(LectureScene):
    scene_id = "fig-gradlife"
    title = "梯度的一生：从算出来到被扔掉"
    ledger_keys = ("gradlife.stops",)

    def construct(self) -> None:
        self.start_panel("A", "梯度从算出来到被扔掉，要过{gradlife.stops}道")
        stations = VGroup(*[self.station(i, stop) for i, stop in enumerate(STOPS)])
        stations.arrange(RIGHT, buff=STATION_GAP).move_to(UP * TRACK_Y)
        for station in stations:            # boxes on one line, whatever hangs off them
            station.shift(UP * (TRACK_Y - station[0].get_y()))
        links = VGroup(*[arrow(a[0].get_right(), b[0].get_left(), "muted", weight="bold", buff="hair")
                         for a, b in zip(stations, stations[1:])])
        tags = [self.tags(stop) for stop in STOPS]
        for tag, station in zip(tags, stations):
            if len(tag):
                tag.next_to(station, DOWN, buff=theme.space("medium")).set_x(station[0].get_x())
        self.play(FadeIn(stations, lag_ratio=0.1), FadeIn(links), run_time=1.0)

        said = self.say(None, "每道都有人在上面做文章 —— 要么省显存，要么省通信，要么省时间")
        gradient = Rectangle(width=0.5, height=0.34, stroke_width=0, fill_color=theme.color("backward"),
                             fill_opacity=1).next_to(stations[0][0], UP, buff=theme.space("snug"))
        self.play(FadeIn(gradient, scale=1.4), FadeIn(tags[0]), run_time=0.5)
        for station, tag in zip(stations[1:], tags[1:]):
            self.play(gradient.animate.next_to(station[0], UP, buff=theme.space("snug")), FadeIn(tag), run_time=0.6)
        self.play(FadeOut(gradient, shift=DOWN * theme.space("gap")), run_time=0.6)

        volume = words("通信量 ＝ 参数量 × 每参数字节数 —— 与 batch 无关", size="label", color="warm")
        volume.next_to(stations, UP, buff=0.75)
        self.play(FadeIn(volume), run_time=0.5)
        self.say(said, "这{gradlife.stops}道，推理里都没有", color="accent")
        self.wait(2.5)

    def say(self, current, sentence: str, color: str = "ink"):
        new = caption(sentence, color=color)
        self.play(*([FadeOut(current)] if current is not None else []), FadeIn(new, shift=UP * theme.space("close")), run_time=0.4)
        return new

    def station(self, index: int, stop) -> VGroup:
        box = RoundedRectangle(width=STATION_W, height=STATION_H, corner_radius=0.15, stroke_width=3,
                               stroke_color=theme.color("ink"), fill_color=theme.color("panel"), fill_opacity=1)
        if stop.optional:
            box = DashedVMobject(box, num_dashes=36)
        name = words(f"{ORDINALS[index]} {stop.name}", size="label").move_to(box)
        what = words(stop.what, size="small", color="muted").next_to(box, DOWN, buff=theme.space("small"))
        group = VGroup(box, name, what)
        if stop.optional:
            loop = CurvedArrow(box.get_corner(UP + RIGHT) + LEFT * 0.5, box.get_corner(UP + LEFT) + RIGHT * 0.5,
                               angle=2.2, color=theme.color("muted"), stroke_width=3)
            group.add(loop)
        return group

    @staticmethod
    def tags(stop) -> VGroup:
        pills = VGroup()
        for kind in stop.saves:
            label, color = SAVES[kind]
            text = words(label, size="small", color=color)
            pill = RoundedRectangle(width=text.width + 0.3, height=text.height + 0.2, corner_radius=0.12,
                                    stroke_color=theme.color(color), stroke_width=3)
            pills.add(VGroup(pill, text.move_to(pill)))
        return pills.arrange(DOWN, buff=TAG_GAP) if len(pills) else pills
