"""Render one panel of a scene: the panels before it run with animations skipped.

Skipping an animation still finishes it (every mobject lands where the animation leaves
it), so the asked panel starts from the same stage as in a full render and its clip has
the same frames. Nothing after the panel is constructed at all. Used by the worker when
``render.py --preview ID --section X`` asks for one panel.
"""

from __future__ import annotations


class PanelNotFound(Exception):
    """The scene ended without starting the asked panel; ``panels`` are the ones it has."""

    def __init__(self, name: str, panels: list[str]):
        super().__init__(name)
        self.name, self.panels = name, panels


def only_panel(scene_cls, name: str):
    """A subclass of ``scene_cls`` whose render contains the section ``name`` alone."""
    from manim import Scene
    from manim.utils.exceptions import EndSceneEarlyException

    class PanelOnly(scene_cls):
        def setup(self) -> None:
            super().setup()
            self.panels_started: list[str] = []
            # Whatever plays before the first panel belongs to no panel's clip: skip it too.
            Scene.next_section(self, "before the first panel", skip_animations=True)

        def next_section(self, section_name: str = "unnamed", *args, **kwargs) -> None:
            if name in self.panels_started:
                # The asked panel just ended: manim ends the scene normally from here.
                raise EndSceneEarlyException()
            self.panels_started.append(section_name)
            kwargs.pop("skip_animations", None)
            super().next_section(section_name, *args[:1], skip_animations=section_name != name, **kwargs)

    PanelOnly.__name__ = PanelOnly.__qualname__ = scene_cls.__name__
    return PanelOnly


def check_found(scene, name: str) -> None:
    if name not in scene.panels_started:
        raise PanelNotFound(name, list(scene.panels_started))
