"""Copy text mobjects without copying the SVG paths they were parsed from.

Every glyph of a manim ``Text`` keeps the svgelements ``Path`` it was built from
(``VMobjectFromSVGPath.path_obj``), and ``Mobject.copy`` deep-copies it: thousands of
small Python objects per line of text. Transforms and fades copy their mobjects at every
animation start, so in a text-heavy scene most of the construct time went to copying
these paths (measured with cProfile on fig-circuit: 35 % of the worker). The path is read
only while the glyph's points are generated in ``__init__`` and never changed after, so
copies can share it; the points, colours and everything drawn are still copied.
"""

from __future__ import annotations

import svgelements

_ORIGINAL = getattr(svgelements.Path, "__deepcopy__", None)


def _share(self, memo):
    return self


def install() -> None:
    svgelements.Path.__deepcopy__ = _share


def uninstall() -> None:
    if _ORIGINAL is None:
        del svgelements.Path.__deepcopy__
    else:
        svgelements.Path.__deepcopy__ = _ORIGINAL
