"""Keep parsed text across renders: an SVG that was turned into mobjects once is loaded, not parsed.

Every ``Text`` is drawn by Pango to an SVG, which manim parses (svgelements) and turns into
one mobject per glyph outline, every time a scene is built. In the lecture's text-heavy
scenes that parse was the largest cost of building a scene (cProfile on fig-circuit: about
40 % of construct), and a panel preview builds every panel before the one it renders. The
same SVG always gives the same mobjects, so they are stored, pickled, under a key made of
the SVG's bytes and everything else the parse reads (the mobject class, its style defaults
and path settings, the renderer, the manim and svgelements versions), and loaded next time.

Each glyph keeps the svgelements path it was parsed from, which is slow to unpickle and
only read if the glyph's points are generated again; it is stored on the side and
unpickled only if that ever happens. Files are written whole (temporary name, rename), so
concurrent workers never read half an entry; an unreadable entry is parsed again.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
from importlib import metadata
from pathlib import Path

VERSION = 1  # bump when what is stored changes


def cache_dir() -> Path:
    """``LECTURE_TEXT_CACHE``, else the user's cache folder."""
    if os.environ.get("LECTURE_TEXT_CACHE"):
        return Path(os.environ["LECTURE_TEXT_CACHE"])
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "lecture-studio" / "text"


class LazyPath:
    """Stands in for a glyph's svgelements path: unpickled on first use."""

    def __init__(self, blob: bytes):
        self._blob = blob
        self._path = None

    def _loaded(self):
        if self._path is None:
            self._path = pickle.loads(self._blob)
        return self._path

    def __iter__(self):
        return iter(self._loaded())

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._loaded(), name)

    def __deepcopy__(self, memo):
        return self  # read-only, like the path itself (studio/manim_hooks/fastcopy.py)


def _key(mobject, svg_bytes: bytes) -> str:
    from manim import config

    digest = hashlib.sha256()
    digest.update(repr((VERSION, type(mobject).__module__, type(mobject).__qualname__,
                        sorted(mobject.svg_default.items()), sorted(mobject.path_string_config.items()),
                        str(config.renderer), metadata.version("manim"), metadata.version("svgelements"))).encode())
    digest.update(svg_bytes)
    return digest.hexdigest()


def _store(path: Path, mobject) -> None:
    glyphs = [m for m in mobject.get_family() if hasattr(m, "path_obj")]
    originals = [m.path_obj for m in glyphs]
    try:
        for glyph, original in zip(glyphs, originals):
            glyph.path_obj = LazyPath(pickle.dumps(original, protocol=pickle.HIGHEST_PROTOCOL))
        data = pickle.dumps((list(mobject.submobjects), mobject.id_to_vgroup_dict), protocol=pickle.HIGHEST_PROTOCOL)
    finally:
        for glyph, original in zip(glyphs, originals):
            glyph.path_obj = original
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def install() -> None:
    from manim.mobject.svg.svg_mobject import SVGMobject

    original = SVGMobject.generate_mobject
    if getattr(original, "_lecture_text_cache", False):
        return

    def generate_mobject(self):
        try:
            path = cache_dir() / f"{_key(self, self.get_file_path().read_bytes())}.pickle"
        except (OSError, ValueError, AttributeError):
            return original(self)
        try:
            submobjects, id_to_vgroup = pickle.loads(path.read_bytes())
        except Exception:  # absent, half-copied by hand, or from an incompatible version: parse
            result = original(self)
            try:
                _store(path, self)
            except Exception:
                pass  # a cache that cannot be written only costs time
            return result
        self.add(*submobjects)
        self.id_to_vgroup_dict = id_to_vgroup
        return self

    generate_mobject._lecture_text_cache = True
    generate_mobject._original = original
    SVGMobject.generate_mobject = generate_mobject


def uninstall() -> None:
    from manim.mobject.svg.svg_mobject import SVGMobject

    SVGMobject.generate_mobject = getattr(SVGMobject.generate_mobject, "_original", SVGMobject.generate_mobject)
