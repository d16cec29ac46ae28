"""A shaded 3D height-field mesh drawn in one vectorised pass, fast enough for 1080p60.

Manim's ``Surface`` is one VMobject per face: every frame each face is projected, shaded,
sorted and drawn through its own Python call chain (≈0.5 s per 1080p frame for 24×24).
:class:`ShadedMesh` keeps the whole mesh in numpy arrays instead. Per frame it projects
all vertices at once, shades every face with one Lambert term, sorts faces *and* the
paths/dots lying on the surface by depth (painter's algorithm), and then issues one short
cairo path per face straight into the camera's cairo context. The paths and dots enter
the same depth order, so the part of a path hidden behind a ridge stays hidden.

Only faces near an outline are anti-aliased (inside, neighbours tile exactly), and a path
piece near a sheet seen edge-on is clipped to its own faces so its stroke cannot hang over
the sheet's edge.

Drawing hooks into manim's Cairo camera through :class:`SurfaceCamera`, which hands any
VMobject with a ``draw_with_cairo`` method the camera's own cairo context. A scene that
shows a mesh passes ``camera_class=SurfaceCamera``. Under a plain ``Camera`` the mesh
falls back to drawing its outline (its VMobject points), which also gives manim and
the layout tests its true on-screen extent.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import cairo
import numpy as np
from manim import TAU, Animation, ManimColor, VMobject, config, linear
from manim.camera.camera import Camera

# Anti-aliased neighbours let the background shine through their shared edge; moving each
# face's edges outward by this many device pixels closes those hairline seams.
SEAM_OVERLAP_PX = 0.6
# Only faces near an outline (the mesh border, or where the surface turns from facing the eye
# to facing away) can show an edge against something of another colour; they alone pay for
# anti-aliasing. Inside, neighbours differ by a shade or two and tile exactly without it.
OUTLINE_RING = 1
# Light floor of the underside: it reads as "the other side" without going dark.
UNDERSIDE_AMBIENT = 0.75
# Near a face seen closer to edge-on than this (cosine), the sheet may be thinner on screen
# than a path's stroke: such path pieces are clipped to the faces around them.
EDGE_ON_COSINE = 0.25
# Depth nudge that orders a path after the faces it lies on (view depth is in world units).
ON_SURFACE_NUDGE = 1e-6


@dataclass(frozen=True)
class View:
    """Where the eye is and where the mesh sits on screen.

    The eye circles the vertical axis (``azimuth``) at ``elevation`` above the horizon and
    looks at the world origin, which lands at ``centre`` (manim units). ``scale`` is manim
    units per world unit; ``eye_distance`` (world units) gives a mild perspective.
    """

    azimuth: float
    elevation: float
    scale: float
    centre: tuple[float, float]
    eye_distance: float | None = 8.0

    def axes(self) -> np.ndarray:
        """Rows: the eye's right, up and toward-the-eye directions, in world coordinates."""
        ca, sa = np.cos(self.azimuth), np.sin(self.azimuth)
        ce, se = np.cos(self.elevation), np.sin(self.elevation)
        # Turning the world by -azimuth about z, then tilting it toward the eye by elevation.
        right = np.array([ca, sa, 0.0])
        forward = np.array([-sa, ca, 0.0])  # horizontal, pointing away from the eye
        up = se * forward + np.array([0.0, 0.0, ce])
        toward_eye = -ce * forward + np.array([0.0, 0.0, se])
        return np.stack([right, up, toward_eye])


def project(points: np.ndarray, view: View) -> tuple[np.ndarray, np.ndarray]:
    """Screen positions (…, 2) in manim units and depths (…) toward the eye (larger = nearer)."""
    eye_coords = points @ view.axes().T
    depth = eye_coords[..., 2]
    if view.eye_distance is None:
        magnify = view.scale
    else:
        magnify = view.scale * view.eye_distance / (view.eye_distance - depth)
    screen = eye_coords[..., :2] * np.asarray(magnify)[..., None]
    return screen + np.asarray(view.centre), depth


@dataclass
class MeshPath:
    """A polyline lying on the surface, cut into short pieces that are depth-sorted with the
    faces (one cairo stroke per piece: short enough to hide behind a ridge piece by piece)."""

    points: np.ndarray  # (N, 3) world points on the surface
    color: ManimColor
    width: float        # manim units
    pieces: list[range] = field(default_factory=list, repr=False)   # point indices per piece
    faces_under: np.ndarray = field(default=None, repr=False)       # (pieces, k) face indices
    faces_carrying: np.ndarray = field(default=None, repr=False)    # (pieces, k) faces it lies on


@dataclass
class MeshDot:
    """A dot on the surface (the flat point), with a thin rim in the background colour."""

    point: np.ndarray   # (3,) world point
    color: ManimColor
    radius: float       # manim units
    rim_color: ManimColor
    faces_under: np.ndarray = field(default=None, repr=False)  # (k,) face indices
    faces_carrying: np.ndarray = field(default=None, repr=False)  # (4,) faces it lies on


def _grow(mask: np.ndarray) -> np.ndarray:
    """A grid mask widened by one cell in each of the four directions."""
    grown = mask.copy()
    grown[1:, :] |= mask[:-1, :]
    grown[:-1, :] |= mask[1:, :]
    grown[:, 1:] |= mask[:, :-1]
    grown[:, :-1] |= mask[:, 1:]
    return grown


NEXT_CORNER, PREVIOUS_CORNER = [1, 2, 3, 0], [3, 0, 1, 2]


def _winding(quads: np.ndarray) -> np.ndarray:
    """+1 for quads wound counter-clockwise on screen, −1 for clockwise (twice the area's sign)."""
    x, y = quads[..., 0], quads[..., 1]
    return np.sign(np.sum(x * y[:, NEXT_CORNER] - x[:, NEXT_CORNER] * y, axis=1))


def _bgr(color: ManimColor) -> np.ndarray:
    """Cairo's ARGB32 pixels sit in manim's RGBA array, so channels go in as B, G, R."""
    return np.asarray(color.to_rgb(), dtype=float)[::-1]


class ShadedMesh(VMobject):
    """A height-field mesh on a regular x-y grid, with paths and dots on it.

    ``vertices`` has shape (rows+1, cols+1, 3), rows along y and columns along x.
    Faces are coloured from ``low_color`` to ``high_color`` by height, lit by one
    directional light fixed relative to the eye, and drawn in ``underside_color`` where
    the eye sees their bottom side.
    """

    def __init__(self, vertices: np.ndarray, view: View, *, low_color: ManimColor,
                 high_color: ManimColor, underside_color: ManimColor,
                 light: tuple[float, float, float] = (-0.45, 0.65, 0.62),
                 ambient: float = 0.5, **kwargs) -> None:
        super().__init__(fill_color=low_color, fill_opacity=1.0, stroke_width=0, **kwargs)
        self.vertices = np.asarray(vertices, dtype=float)
        self.view = view
        self.light = np.asarray(light, dtype=float) / np.linalg.norm(light)
        self.ambient = ambient
        self.paths: list[MeshPath] = []
        self.dots: list[MeshDot] = []
        self._prepare_faces(low_color, high_color, underside_color)
        self.set_view(view)

    # Fixed per mesh: which vertices make each face, its base colour and world normal.
    def _prepare_faces(self, low: ManimColor, high: ManimColor, underside: ManimColor) -> None:
        v = self.vertices
        self.rows, self.cols = v.shape[0] - 1, v.shape[1] - 1
        self.x_edges, self.y_edges = v[0, :, 0], v[:, 0, 1]
        corners = np.stack([v[:-1, :-1], v[:-1, 1:], v[1:, 1:], v[1:, :-1]], axis=2)
        self.face_corners = corners.reshape(-1, 4, 3)
        normal = np.cross(corners[:, :, 2] - corners[:, :, 0], corners[:, :, 3] - corners[:, :, 1])
        normal = normal.reshape(-1, 3)
        self.face_normals = normal / np.linalg.norm(normal, axis=1, keepdims=True)
        z = self.face_corners[:, :, 2].mean(axis=1)
        t = ((z - z.min()) / max(np.ptp(z), 1e-12))[:, None]
        self.top_bgr = (1 - t) * _bgr(low) + t * _bgr(high)
        self.underside_bgr = _bgr(underside)
        self.face_centres = self.face_corners.mean(axis=1)
        border = np.ones((self.rows, self.cols), dtype=bool)
        border[1:-1, 1:-1] = False
        self.on_border = border.ravel()

    def set_view(self, view: View) -> "ShadedMesh":
        """Point the eye anew; the outline (the mobject's points) follows."""
        self.view = view
        edge = np.concatenate([self.vertices[0, :], self.vertices[1:, -1], self.vertices[-1, -2::-1],
                               self.vertices[-2::-1, 0]])
        screen, _ = project(edge, view)
        self.set_points_as_corners(np.column_stack([screen, np.zeros(len(screen))]))
        return self

    def add_path(self, points: np.ndarray, color: ManimColor, width: float,
                 segments_per_piece: int = 2) -> "ShadedMesh":
        """A path on the surface; pieces of ``segments_per_piece`` segments sort separately."""
        points = np.asarray(points, dtype=float)
        starts = range(0, len(points) - 1, segments_per_piece)
        pieces = [range(a, min(a + segments_per_piece, len(points) - 1) + 1) for a in starts]
        around = self.faces_around(points[:, :2])
        # Every piece sorts after all faces near any of its points (padded to equal width).
        width_k = (segments_per_piece + 1) * around.shape[1]
        under = [np.resize(around[list(piece)].ravel(), width_k) for piece in pieces]
        touching = self.faces_touching(points[:, :2])
        carrying = [np.unique(touching[list(piece)]) for piece in pieces]
        width_c = max(len(c) for c in carrying)
        carrying = np.stack([np.resize(c, width_c) for c in carrying])   # repeats change no union
        self.paths.append(MeshPath(points, color, width, pieces, np.stack(under), carrying))
        return self

    def add_dot(self, point: np.ndarray, color: ManimColor, radius: float,
                rim_color: ManimColor) -> "ShadedMesh":
        point = np.asarray(point, dtype=float)
        self.dots.append(MeshDot(point, color, radius, rim_color,
                                 self.faces_around(point[None, :2], ring=2)[0],
                                 self.faces_touching(point[None, :2])[0]))
        return self

    def faces_touching(self, xy: np.ndarray) -> np.ndarray:
        """The faces each x-y point lies on (1, 2 or 4 of them; repeated to fill 4 columns)."""
        eps = 1e-9 * max(np.ptp(self.x_edges), np.ptp(self.y_edges))

        def cells(edges, values, count):
            lo = np.searchsorted(edges, values - eps) - 1
            hi = np.searchsorted(edges, values + eps) - 1
            return np.clip(lo, 0, count - 1), np.clip(hi, 0, count - 1)

        col_lo, col_hi = cells(self.x_edges, xy[:, 0], self.cols)
        row_lo, row_hi = cells(self.y_edges, xy[:, 1], self.rows)
        return np.stack([r * self.cols + c for r in (row_lo, row_hi) for c in (col_lo, col_hi)], axis=1)

    def faces_around(self, xy: np.ndarray, ring: int = 1) -> np.ndarray:
        """Indices of the faces within ``ring`` cells of each x-y point, shape (N, k).

        A path is as wide as a few foreshortened cells; sorting it after this whole
        neighbourhood keeps nearby faces from nibbling at its edges."""
        eps = 1e-9 * max(np.ptp(self.x_edges), np.ptp(self.y_edges))
        col = np.clip(np.searchsorted(self.x_edges, xy[:, 0] - eps) - 1, 0, self.cols - 1)
        row = np.clip(np.searchsorted(self.y_edges, xy[:, 1] - eps) - 1, 0, self.rows - 1)
        # A point on a grid line touches the cells on both sides: widen by one toward +x/+y.
        found = []
        for dr in range(-ring, ring + 2):
            for dc in range(-ring, ring + 2):
                r, c = np.clip(row + dr, 0, self.rows - 1), np.clip(col + dc, 0, self.cols - 1)
                found.append(r * self.cols + c)
        return np.stack(found, axis=1)

    # ---- per frame -------------------------------------------------------------------

    def facing(self, view: View) -> np.ndarray:
        """Per face: cosine between its (upward) normal and the direction to the eye.
        Negative: the eye sees its underside; near zero: seen edge-on."""
        toward_eye = view.axes()[2]
        if view.eye_distance is None:
            return self.face_normals @ toward_eye
        to_eye = view.eye_distance * toward_eye - self.face_centres
        to_eye /= np.linalg.norm(to_eye, axis=1, keepdims=True)
        return np.einsum("ij,ij->i", self.face_normals, to_eye)

    def seen_from_below(self, view: View) -> np.ndarray:
        """Per face: does the eye look at its underside?"""
        return self.facing(view) < 0

    def needs_antialias(self, facing: np.ndarray) -> np.ndarray:
        """Faces on the border, seen nearly edge-on, or within OUTLINE_RING cells of a
        facing flip: where the surface folds over, the outline runs along thin, grazing
        faces that may lie a few cells from where the facing actually flips."""
        below = facing < 0
        grid = below.reshape(self.rows, self.cols)
        flip = (_grow(grid) & ~grid) | (_grow(~grid) & grid)   # a neighbour faces the other way
        for _ in range(OUTLINE_RING):
            flip = _grow(flip)
        return flip.ravel() | self.on_border | (np.abs(facing) < EDGE_ON_COSINE)

    def face_colors(self, view: View, below: np.ndarray | None = None) -> np.ndarray:
        """B, G, R per face: base colour times (ambient + diffuse), underside where seen."""
        n_eye = self.face_normals @ view.axes().T
        seen_from_below = self.seen_from_below(view) if below is None else below
        lit = n_eye @ self.light
        # The top takes the light as it falls; the underside is lit through (|n·l|) and from a
        # brighter floor, so it reads as "the other side" without going dark.
        top = self.ambient + (1 - self.ambient) * np.clip(lit, 0.0, 1.0)
        under = UNDERSIDE_AMBIENT + (1 - UNDERSIDE_AMBIENT) * np.abs(lit)
        shade = np.where(seen_from_below, under, top)
        base = np.where(seen_from_below[:, None], self.underside_bgr, self.top_bgr)
        return np.clip(base * shade[:, None], 0, 1)

    def draw_order(self, view: View, facing: np.ndarray | None = None
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Face screen quads, face depths and the painter's order of every primitive.

        Primitives are numbered faces first, then path pieces, then dots; the order runs
        from farthest to nearest. A path piece or dot sorts just after the nearest face
        around it, so it is painted over its own faces and under anything in front.
        Paths and dots are painted on the top side: where every face they lie on shows the
        eye its underside, they are behind the sheet and left out; and a face nearby that
        shows its underside is on the far side of the sheet from them, so it never pushes
        them later in the order (it is painted over them where they overlap).
        """
        quads, corner_depth = project(self.face_corners, view)
        face_depth = corner_depth.mean(axis=1)
        below = (self.facing(view) if facing is None else facing) < 0
        keys = [face_depth]
        shown = [np.ones(len(face_depth), dtype=bool)]
        top_depth = np.where(below, -np.inf, face_depth)
        for p in self.paths:
            keys.append(top_depth[p.faces_under].max(axis=1) + ON_SURFACE_NUDGE)
            shown.append(~below[p.faces_carrying].all(axis=1))
        for d in self.dots:
            # A dot sits on top of the faces round it and of any path piece crossing them.
            crossing = [k[np.isin(p.faces_carrying, d.faces_under).any(axis=1)]
                        for p, k in zip(self.paths, keys[1:])]
            keys.append(np.array([max([face_depth[d.faces_under].max(), *np.concatenate(crossing + [[]])])
                                  + ON_SURFACE_NUDGE]))
            shown.append(np.array([not below[d.faces_carrying].any()]))
        order = np.argsort(np.concatenate(keys), kind="stable")
        return quads, face_depth, order[np.concatenate(shown)[order]]

    def draw_with_cairo(self, ctx: cairo.Context, camera: Camera) -> None:
        """Paint the whole mesh into the camera's context (user space = manim units)."""
        view = self.view
        facing = self.facing(view)
        quads, _, order = self.draw_order(view, facing)
        winding = _winding(quads)
        # Paths clip to the faces as they are: the widened ones reach past the sheet's edge.
        extras = self._piece_table(view, facing, quads, winding) + self._dot_table(view)
        quads = self._widen(quads, winding, SEAM_OVERLAP_PX * camera.frame_width / camera.pixel_width)
        n_faces = len(quads)
        below = facing < 0
        # One row per face, already in painting order: 4 corners, B, G, R, anti-alias or not.
        is_face = order < n_faces
        table = np.hstack([quads.reshape(n_faces, 8), self.face_colors(view, below),
                           self.needs_antialias(facing)[:, None]])
        faces = table[order[is_face]].tolist()
        others = order[~is_face] - n_faces
        # Where each path piece or dot falls among the faces.
        breaks = (np.flatnonzero(~is_face) - np.arange(len(others))).tolist()
        ctx.save()
        ctx.new_path()  # manim's camera leaves the previous mobject's path in the context
        ctx.set_line_cap(cairo.LINE_CAP_ROUND)
        ctx.set_line_join(cairo.LINE_JOIN_ROUND)
        done = 0
        for at, extra in zip(breaks + [n_faces], others.tolist() + [None]):
            self._fill_faces(ctx, faces[done:at])
            done = at
            if extra is not None:
                draw, args = extras[extra]
                ctx.set_antialias(cairo.ANTIALIAS_DEFAULT)  # paths and dots always smooth
                draw(ctx, *args)
        ctx.restore()

    @staticmethod
    def _fill_faces(ctx: cairo.Context, rows: list) -> None:
        """The hot loop: one quad and one fill per face, nothing else."""
        move_to, line_to, set_rgb, fill = ctx.move_to, ctx.line_to, ctx.set_source_rgb, ctx.fill
        set_antialias, smooth = ctx.set_antialias, None
        for x0, y0, x1, y1, x2, y2, x3, y3, b, g, r, aa in rows:
            if aa != smooth:
                smooth = aa
                set_antialias(cairo.ANTIALIAS_DEFAULT if aa else cairo.ANTIALIAS_NONE)
            move_to(x0, y0)
            line_to(x1, y1)
            line_to(x2, y2)
            line_to(x3, y3)
            set_rgb(b, g, r)
            fill()

    @staticmethod
    def _widen(quads: np.ndarray, winding: np.ndarray, amount: float) -> np.ndarray:
        """Move every edge of each quad ``amount`` outward (mitred corners), closing AA seams.

        Offsetting edges rather than pushing corners from the centre also widens thin,
        foreshortened faces across their narrow side, where seams show first."""
        edges = quads[:, NEXT_CORNER] - quads                            # edge i runs corner i → i+1
        normal = np.stack([edges[..., 1], -edges[..., 0]], axis=-1) * winding[:, None, None]
        normal /= np.maximum(np.linalg.norm(normal, axis=-1, keepdims=True), 1e-12)
        before = normal[:, PREVIOUS_CORNER]                              # the edge ending at corner i
        miter = (before + normal) / np.maximum(1 + np.sum(before * normal, axis=-1, keepdims=True), 0.25)
        return quads + amount * miter

    def _piece_table(self, view: View, facing: np.ndarray, quads: np.ndarray,
                     winding: np.ndarray) -> list[tuple]:
        below, edge_on = facing < 0, facing < EDGE_ON_COSINE
        # Clip outlines wound one way, so a union of faces clips as one region (nonzero rule).
        one_way = np.where((winding < 0)[:, None, None], quads[:, ::-1], quads).reshape(len(quads), 8)
        rows = []
        for path in self.paths:
            screen = project(path.points, view)[0].tolist()
            rgb = tuple(_bgr(path.color))
            # Near an outline (a face nearby seen from below or edge-on) the stroke could hang
            # over the sheet's edge: there it is clipped to the carrying faces seen from above.
            clipped = (edge_on | below)[path.faces_under].any(axis=1).tolist()
            for piece, faces, clip in zip(path.pieces, path.faces_carrying, clipped):
                outline = one_way[faces[~below[faces]]].tolist() if clip else None
                rows.append((self._draw_piece, ([screen[i] for i in piece], path.width, rgb, outline)))
        return rows

    @staticmethod
    def _draw_piece(ctx: cairo.Context, points: list, width: float, rgb, clip_quads) -> None:
        if clip_quads is not None:
            ctx.save()
            for x0, y0, x1, y1, x2, y2, x3, y3 in clip_quads:
                ctx.move_to(x0, y0), ctx.line_to(x1, y1), ctx.line_to(x2, y2), ctx.line_to(x3, y3)
                ctx.close_path()
            ctx.clip()
        ctx.move_to(*points[0])
        for point in points[1:]:
            ctx.line_to(*point)
        ctx.set_line_width(width)
        ctx.set_source_rgb(*rgb)
        ctx.stroke()
        if clip_quads is not None:
            ctx.restore()

    def _dot_table(self, view: View) -> list[tuple]:
        rows = []
        for dot in self.dots:
            (x, y), _ = project(dot.point, view)
            rows.append((self._draw_dot, (x, y, dot.radius, tuple(_bgr(dot.color)), tuple(_bgr(dot.rim_color)))))
        return rows

    @staticmethod
    def _draw_dot(ctx: cairo.Context, x: float, y: float, radius: float, rgb, rim) -> None:
        ctx.new_sub_path()
        ctx.arc(x, y, radius * 1.3, 0, 2 * np.pi)
        ctx.set_source_rgb(*rim)
        ctx.fill()
        ctx.arc(x, y, radius, 0, 2 * np.pi)
        ctx.set_source_rgb(*rgb)
        ctx.fill()


class FullTurn(Animation):
    """The eye circles the mesh once. At ``alpha`` the azimuth has advanced by 2π·alpha, so
    frame k of n shows 2π·k/n and the last frame leads straight back into the first."""

    def __init__(self, mesh: ShadedMesh, **kwargs) -> None:
        self.start_view = mesh.view
        super().__init__(mesh, rate_func=linear, **kwargs)

    def interpolate_mobject(self, alpha: float) -> None:
        turned = replace(self.start_view, azimuth=self.start_view.azimuth + TAU * alpha)
        self.mobject.set_view(turned)


class Rock(Animation):
    """The eye swings to and fro about the mesh's start view: at ``alpha`` the azimuth is
    start + amplitude·sin(2π·(alpha + phase)). Every derivative of the sine is periodic, so the last
    frame leads into the first at the same pace, and the swing passes the start view at its
    fastest there: the loop is in motion through its seam, with no stop and no jump."""

    def __init__(self, mesh: ShadedMesh, amplitude: float, *, phase: float = 0.0, **kwargs) -> None:
        self.start_view = mesh.view
        self.amplitude = amplitude
        self.phase = phase      # share of a swing already done at the first frame (the loop's poster)
        super().__init__(mesh, rate_func=linear, **kwargs)

    def azimuth_at(self, alpha: float) -> float:
        return self.start_view.azimuth + self.amplitude * np.sin(TAU * (alpha + self.phase))

    def interpolate_mobject(self, alpha: float) -> None:
        self.mobject.set_view(replace(self.start_view, azimuth=self.azimuth_at(alpha)))


class SurfaceCamera(Camera):
    """Manim's Cairo camera, plus: a VMobject that can paint itself does so directly."""

    def display_vectorized(self, vmobject: VMobject, ctx: cairo.Context) -> "SurfaceCamera":
        draw = getattr(vmobject, "draw_with_cairo", None)
        if draw is None:
            return super().display_vectorized(vmobject, ctx)
        if not config.dry_run:  # a dry run (stills, layout tests) keeps no pixels: skip the paint
            draw(ctx, self)
        return self
