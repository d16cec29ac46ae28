"""studio/manim_hooks: one door in and out, in a fixed order, and only for the tested versions;
fastcopy's sharing of svgelements paths. What the hooks draw is compared with plain Manim's,
frame by frame, in tests/test_manim_parity.py."""

from __future__ import annotations

import copy
import io
from importlib import metadata

import numpy as np
import svgelements
from manim.renderer.cairo_renderer import CairoRenderer
from manim.scene.scene_file_writer import SceneFileWriter

from studio import manim_hooks
from studio.manim_hooks import fastcopy, slide_stills


def manim_as_is() -> dict:
    from manim.mobject.svg.svg_mobject import SVGMobject

    return {"write_frame": SceneFileWriter.write_frame, "combine": SceneFileWriter.combine_files,
            "next_section": SceneFileWriter.next_section, "update_frame": CairoRenderer.update_frame,
            "get_frame": CairoRenderer.get_frame, "finished": CairoRenderer.scene_finished,
            "svg": SVGMobject.generate_mobject, "deepcopy": getattr(svgelements.Path, "__deepcopy__", None)}


def test_uninstall_gives_manim_back_exactly(tmp_path):
    before = manim_as_is()
    stills = slide_stills.SlideStills(tmp_path / "stills", loop=False, from_start=True)
    assert manim_hooks.install(None, stills)
    try:
        after = manim_as_is()
        assert all(after[name] is not before[name] for name in before), "a hook did not go in"
        # The stills wrap the frame path fastencode put in place, not manim's own.
        assert slide_stills._ORIGINAL_WRITE is not before["write_frame"]
    finally:
        manim_hooks.uninstall()
    assert manim_as_is() == before
    # Twice in a row (a worker that installs again) still leaves one layer, and one uninstall.
    manim_hooks.install(None, stills)
    manim_hooks.install(None, stills)
    manim_hooks.uninstall()
    assert manim_as_is() == before


def test_untested_versions_leave_plain_manim(monkeypatch):
    real = metadata.version
    monkeypatch.setattr(metadata, "version", lambda name: "0.99.0" if name == "manim" else real(name))
    before = manim_as_is()
    said = io.StringIO()
    assert manim_hooks.install(warn=said) is False
    assert manim_as_is() == before
    assert "manim 0.99.0 (tested: 0.22)" in said.getvalue() and "plain Manim" in said.getvalue()
    assert not manim_hooks.supported()


def test_the_tested_versions_are_the_pinned_ones():
    pins = dict(line.split("==") for line in open(manim_hooks.__file__.rsplit("/studio/", 1)[0] + "/constraints.txt")
                if "==" in line)
    for package, prefixes in manim_hooks.TESTED.items():
        assert pins[package].strip().startswith(prefixes), (package, pins[package])


def test_fastcopy_shares_parsed_paths_and_gives_them_back():
    path = svgelements.Path("M 0 0 L 10 10 Q 20 0 30 10 Z")
    assert copy.deepcopy(path) is not path            # svgelements copies on its own
    fastcopy.install()
    try:
        assert copy.deepcopy(path) is path
        # Only the path is shared: a structure holding it is still copied.
        holder = {"path": path, "points": [1, 2]}
        copied = copy.deepcopy(holder)
        assert copied is not holder and copied["points"] is not holder["points"] and copied["path"] is path
    finally:
        fastcopy.uninstall()
    copied = copy.deepcopy(path)
    assert copied is not path and copied == path


def test_fastcopy_keeps_text_the_same_after_a_copy():
    # A glyph's points come from its path when it is built; a copy made while paths are
    # shared has the same points, and the original's path is never changed by copying.
    from manim import Text

    fastcopy.install()
    try:
        text = Text("反向 Ag", font_size=48)
        twin = text.copy().shift([1, 0, 0])
        assert twin.submobjects[0].path_obj is text.submobjects[0].path_obj
    finally:
        fastcopy.uninstall()
    plain = Text("反向 Ag", font_size=48)
    assert np.allclose(twin.get_all_points() - [1, 0, 0], plain.get_all_points(), rtol=0, atol=1e-12)
    assert (text.get_all_points() == plain.get_all_points()).all()
