"""Render one panel or one beat of a scene: everything before it runs with animations skipped.

Skipping an animation still finishes it (every mobject lands where the animation leaves
it), so the asked part starts from the same stage as in a full render and its clip has
the same frames. Nothing after it is constructed at all. Used by the worker when
``render.py --preview ID --section X`` asks for panel ``X`` (``A``) or beat ``X`` (``A.2``).

Beats are manim sections named ``<panel>.<n>`` (scenes/kit/base.py), so a panel is the run
of sections whose names start with ``<panel>.``.
"""

from __future__ import annotations

from studio.media.clips import panel_of


class PanelNotFound(Exception):
    """The scene ended without starting the asked part; ``panels`` are the parts it has."""

    def __init__(self, name: str, panels: list[str]):
        super().__init__(name)
        self.name, self.panels = name, panels


def wanted(asked: str, section_name: str) -> bool:
    """Does section ``section_name`` belong to the asked panel or beat?"""
    return section_name == asked or panel_of(section_name) == asked


def only_panel(scene_cls, name: str):
    """A subclass of ``scene_cls`` whose render contains the panel or beat ``name`` alone."""
    from manim import Scene
    from manim.utils.exceptions import EndSceneEarlyException

    class PanelOnly(scene_cls):
        def setup(self) -> None:
            super().setup()
            self.panels_started: list[str] = []
            # Whatever plays before the first panel belongs to no panel's clip: skip it too.
            Scene.next_section(self, "before the first panel", skip_animations=True)

        def next_section(self, section_name: str = "unnamed", *args, **kwargs) -> None:
            if any(wanted(name, s) for s in self.panels_started) and not wanted(name, section_name):
                # The asked part just ended: manim ends the scene normally from here.
                raise EndSceneEarlyException()
            self.panels_started.append(section_name)
            kwargs.pop("skip_animations", None)
            super().next_section(section_name, *args[:1], skip_animations=not wanted(name, section_name), **kwargs)

    PanelOnly.__name__ = PanelOnly.__qualname__ = scene_cls.__name__
    return PanelOnly


def check_found(scene, name: str) -> None:
    if not any(wanted(name, s) for s in scene.panels_started):
        raise PanelNotFound(name, known_parts(scene.panels_started))


def known_parts(section_names: list[str]) -> list[str]:
    """Panels and their beats, for the error message: ``A, A.1, A.2, B, B.1``."""
    parts: list[str] = []
    for section in section_names:
        for part in (panel_of(section), section):
            if part not in parts:
                parts.append(part)
    return parts
