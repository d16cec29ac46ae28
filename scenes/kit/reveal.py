"""Cheap appearances: fade parts in by setting their opacity, without the copies a manim
Transform makes, and animations driven by a plain function of time.

Both animate through a throwaway group and, when done, put the parts back into the scene
as separate mobjects, so a later animation redraws only what it touches.
"""

from __future__ import annotations

from typing import Callable, Iterable

from manim import Animation, Mobject, VGroup


def hidden(mob: Mobject) -> Mobject:
    """Remember each part's opacities as its 'shown' state, then hide it.

    Every part is read before any is hidden, and each is set on its own (family=False):
    hiding a part first would cascade to its children (an arrow's tip), which would then be
    remembered as hidden and never come back."""
    parts = mob.family_members_with_points()
    for part in parts:
        part.shown_opacity = (part.get_fill_opacity(), part.get_stroke_opacity())
    for part in parts:
        part.set_fill(opacity=0, family=False).set_stroke(opacity=0, family=False)
    return mob


def show_fraction(mob: Mobject, fraction: float) -> None:
    """Set ``mob`` to ``fraction`` of its remembered opacities (0 hidden, 1 shown)."""
    for part in mob.family_members_with_points():
        fill, stroke = part.shown_opacity
        part.set_fill(opacity=fill * fraction, family=False).set_stroke(opacity=stroke * fraction, family=False)


class InPlace(Animation):
    """Animates parts through a throwaway group; no starting copy, dissolved when done."""

    def __init__(self, parts: Iterable[Mobject], **kwargs) -> None:
        self.parts = list(parts)
        super().__init__(VGroup(*self.parts), **kwargs)

    def create_starting_mobject(self) -> Mobject:
        return self.mobject      # subclasses set every part absolutely from alpha

    def clean_up_from_scene(self, scene) -> None:
        super().clean_up_from_scene(scene)
        scene.remove(self.mobject)
        scene.add(*self.parts)


class Reveal(InPlace):
    """Fade ``parts`` in from nothing to their own opacities."""

    def __init__(self, parts: Iterable[Mobject], **kwargs) -> None:
        parts = [hidden(part) for part in parts]
        super().__init__(parts, **kwargs)

    def interpolate_mobject(self, alpha: float) -> None:
        for part in self.parts:
            show_fraction(part, self.rate_func(alpha))


class Driven(InPlace):
    """Calls ``drive(alpha)`` each frame; ``drive`` moves the parts itself."""

    def __init__(self, parts: Iterable[Mobject], drive: Callable[[float], None], **kwargs) -> None:
        self.drive = drive
        super().__init__(parts, **kwargs)

    def interpolate_mobject(self, alpha: float) -> None:
        self.drive(self.rate_func(alpha))
