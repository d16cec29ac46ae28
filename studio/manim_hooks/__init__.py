"""The Manim hooks: everything that reaches into Manim, PyAV or svgelements internals, behind
one door.

- fastencode: our frame path into x264 (one conversion per frame, the GIF's frames on the side);
- slide_stills: each beat's last frame kept as the slide's still (wraps fastencode's path);
- fastcopy: svgelements paths shared, not deep-copied;
- framepool: the camera's frame buffers reused;
- skipdraw: a skipped play draws nothing;
- textcache: parsed text kept across renders;
- split_render, panel_only: a scene cut in two parts, or one panel of it (scene subclasses
  that lean on Manim's skipping; the worker applies them per render).

``install()`` puts the global ones in place in one fixed order and ``uninstall()`` takes them
out in the reverse order, so a hook that wraps another (slide_stills over fastencode) never
restores the wrong writer. They are tested against the versions in ``TESTED``
(tests/test_manim_parity.py renders with and without them and compares every frame); with
any other version, ``install()`` warns and leaves plain Manim in place.

This module imports nothing heavy: the version check reads package metadata only, so the
render process can ask it without importing Manim.
"""

from __future__ import annotations

import sys
from importlib import metadata

# The versions the hooks were written and tested against (constraints.txt pins them).
TESTED = {"manim": ("0.22",), "av": ("18.",), "svgelements": ("1.9.",)}

_installed: list = []   # the modules installed, in order


def untested_versions() -> list[str]:
    """「manim 0.23.1 (tested: 0.22)」 for each package outside the tested versions."""
    found = []
    for package, prefixes in TESTED.items():
        try:
            version = metadata.version(package)
        except metadata.PackageNotFoundError:
            version = "missing"
        if not version.startswith(prefixes):
            found.append(f"{package} {version} (tested: {', '.join(p.rstrip('.') for p in prefixes)})")
    return found


def supported() -> bool:
    return not untested_versions()


def install(gif=None, stills=None, *, warn=sys.stderr) -> bool:
    """The hooks, in order; ``gif`` gathers the GIF's frames while encoding, ``stills`` keeps
    the slides' stills. False, with one warning line, where the versions are untested: then
    Manim renders on its own (slower, the same pictures; the pipeline makes GIF and posters
    from the movie)."""
    untested = untested_versions()
    if untested:
        print(f"warning: the Manim hooks are tested with other versions ({'; '.join(untested)}): "
              "rendering with plain Manim, slower", file=warn)
        return False
    from studio.manim_hooks import fastcopy, fastencode, framepool, skipdraw, slide_stills, textcache

    uninstall()
    fastencode.install(gif)
    _installed.append(fastencode)
    if stills is not None:
        slide_stills.install(stills)   # wraps the frame path fastencode just put in place
        _installed.append(slide_stills)
    for hook in (fastcopy, framepool, skipdraw, textcache):
        hook.install()
        _installed.append(hook)
    return True


def uninstall() -> None:
    """Every hook out, the last installed first: Manim as it was before ``install``."""
    while _installed:
        _installed.pop().uninstall()
