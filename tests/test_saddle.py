"""anim-saddle: the saddle's numbers against finite differences and numpy, and the mesh
drawing against independent references (a look-at camera, a z-buffer)."""

from __future__ import annotations

import numpy as np
import pytest

from lecture_numerics import quantity, saddle

STEP = 1e-4


def fd_gradient(x: float, y: float) -> np.ndarray:
    f = saddle.height
    return np.array([(f(x + STEP, y) - f(x - STEP, y)) / (2 * STEP),
                     (f(x, y + STEP) - f(x, y - STEP)) / (2 * STEP)])


def fd_hessian(x: float, y: float, h: float = 1e-3) -> np.ndarray:
    f = saddle.height
    fxx = (f(x + h, y) - 2 * f(x, y) + f(x - h, y)) / h**2
    fyy = (f(x, y + h) - 2 * f(x, y) + f(x, y - h)) / h**2
    fxy = (f(x + h, y + h) - f(x + h, y - h) - f(x - h, y + h) + f(x - h, y - h)) / (4 * h**2)
    return np.array([[fxx, fxy], [fxy, fyy]])


# ---- the numbers --------------------------------------------------------------------------

def test_ground_is_flat_at_the_centre():
    assert np.allclose(fd_gradient(*saddle.CENTRE), 0.0, atol=1e-9)
    assert np.allclose(saddle.gradient(*saddle.CENTRE), 0.0)
    assert quantity("saddle.slope_at_centre").value == 0.0
    assert quantity("saddle.slope_at_centre").display == "0"


@pytest.mark.parametrize("x, y", [(0.3, -0.7), (-0.9, 0.2), (0.55, 0.55)])
def test_gradient_matches_finite_differences_away_from_the_centre(x, y):
    assert np.allclose(saddle.gradient(x, y), fd_gradient(x, y), atol=1e-7)
    assert np.linalg.norm(saddle.gradient(x, y)) > 0.1  # the centre is the only flat point here


@pytest.mark.parametrize("x, y", [(0.0, 0.0), (0.4, -0.3)])
def test_curvatures_are_the_eigenvalues_of_a_finite_difference_hessian(x, y):
    reference = np.linalg.eigvalsh(fd_hessian(x, y))            # ascending
    up, down = saddle.curvatures(x, y)
    assert np.allclose([down, up], reference, atol=1e-5)
    assert up > 0 > down                                         # one direction up, one down: a saddle


def test_ledger_curvatures_are_one_up_one_down():
    reference = np.linalg.eigvalsh(fd_hessian(*saddle.CENTRE))
    assert quantity("saddle.curvature_up").value == pytest.approx(reference[1], abs=1e-5)
    assert quantity("saddle.curvature_down").value == pytest.approx(reference[0], abs=1e-5)
    assert (quantity("saddle.curvature_up").display, quantity("saddle.curvature_down").display) == ("+1", "−1")


@pytest.mark.parametrize("path, sign", [(saddle.rising_path, +1), (saddle.falling_path, -1)])
def test_paths_lie_on_the_surface_and_run_along_the_curvature_directions(path, sign):
    points = path(41)
    x, y, z = points.T
    assert np.allclose(z, (x**2 - y**2) / 2)                     # written out, not saddle.height
    middle = len(points) // 2
    assert np.allclose(points[middle], saddle.flat_point())      # both cross at the flat point
    # The path's direction is the Hessian eigenvector of that sign …
    values, vectors = np.linalg.eigh(fd_hessian(*saddle.CENTRE))
    eigvec = vectors[:, np.argmax(sign * values)]
    tangent = points[middle + 1, :2] - points[middle - 1, :2]
    assert abs(np.dot(tangent / np.linalg.norm(tangent), eigvec)) == pytest.approx(1.0, abs=1e-9)
    # … and the path really rises (red) or falls (green) on both sides of the point.
    assert np.all(sign * (z - z[middle])[np.arange(len(z)) != middle] > 0)


def test_grid_vertices_lie_on_the_surface_with_both_paths_on_grid_lines():
    vertices = saddle.grid(8)
    x, y, z = np.moveaxis(vertices, -1, 0)
    assert np.allclose(z, (x**2 - y**2) / 2)
    assert np.isclose(x[0, 4], 0.0) and np.isclose(y[4, 0], 0.0)


# ---- the mesh drawing ---------------------------------------------------------------------

def look_at_reference(points, azimuth, elevation, scale, centre, eye_distance):
    """A textbook look-at camera: the eye sits on a sphere round the origin (azimuth 0 = on
    the −y side, turning counter-clockwise seen from above) and looks at the origin, z up."""
    eye_dir = np.array([np.sin(azimuth) * np.cos(elevation), -np.cos(azimuth) * np.cos(elevation),
                        np.sin(elevation)])
    eye = eye_distance * eye_dir
    forward = -eye / np.linalg.norm(eye)
    right = np.cross(forward, [0.0, 0.0, 1.0])
    right /= np.linalg.norm(right)
    up = np.cross(right, forward)
    rel = points - eye
    along = rel @ forward                                       # distance in front of the eye
    magnify = scale * eye_distance / along
    screen = np.column_stack([rel @ right, rel @ up]) * magnify[:, None] + centre
    return screen, eye_distance - along                          # depth toward the eye


@pytest.mark.parametrize("azimuth", [0.0, 0.7, 2.4, -1.9])
def test_projection_matches_a_look_at_camera(azimuth):
    from scenes.kit.surface import View, project

    points = np.random.default_rng(1).uniform(-1, 1, (50, 3))
    view = View(azimuth=azimuth, elevation=np.radians(30), scale=2.5, centre=(-2.0, 0.5), eye_distance=7.0)
    screen, depth = project(points, view)
    ref_screen, ref_depth = look_at_reference(points, azimuth, view.elevation, 2.5, np.array([-2.0, 0.5]), 7.0)
    assert np.allclose(screen, ref_screen)
    assert np.allclose(depth, ref_depth)


def _tiny_mesh(azimuth: float, elevation: float, cells: int = 10):
    from scenes.kit.surface import ShadedMesh, View
    from manim import BLUE, GRAY, RED, WHITE

    view = View(azimuth=azimuth, elevation=elevation, scale=1.0, centre=(0.0, 0.0), eye_distance=None)
    mesh = ShadedMesh(saddle.grid(cells), view, low_color=BLUE, high_color=WHITE, underside_color=GRAY)
    mesh.add_path(saddle.falling_path(2 * cells + 1), RED, 0.02)
    return mesh, view


def _pixel_grid(n: int = 240):
    s = np.linspace(-1.8, 1.8, n)
    px, py = np.meshgrid(s, s)
    return px.ravel(), py.ravel()


def _triangles(quads, depth):
    """Each projected quad as two triangles (screen xy, depth)."""
    for corners in ((0, 1, 2), (0, 2, 3)):
        idx = list(corners)
        yield quads[:, idx], depth[:, idx]


def _barycentric(tri, px, py):
    (ax, ay), (bx, by), (cx, cy) = tri
    det = (by - cy) * (ax - cx) + (cx - bx) * (ay - cy)
    if abs(det) < 1e-12:
        return None
    l1 = ((by - cy) * (px - cx) + (cx - bx) * (py - cy)) / det
    l2 = ((cy - ay) * (px - cx) + (ax - cx) * (py - cy)) / det
    return np.stack([l1, l2, 1 - l1 - l2])


def zbuffer_ids(quads, depth, px, py):
    """Reference visibility: per pixel, the face whose surface is nearest the eye."""
    best = np.full(px.shape, -np.inf)
    ids = np.full(px.shape, -1)
    for tris, tri_depths in _triangles(quads, depth):
        for face, (tri, tri_depth) in enumerate(zip(tris, tri_depths)):
            lam = _barycentric(tri, px, py)
            if lam is None:
                continue
            inside = np.all(lam >= 0, axis=0)
            d = np.where(inside, tri_depth @ lam, -np.inf)
            nearer = d > best
            best[nearer], ids[nearer] = d[nearer], face
    return ids


def painter_ids(quads, order, px, py):
    """What painting faces in ``order`` leaves visible, per pixel."""
    ids = np.full(px.shape, -1)
    for face in order:
        for corners in ((0, 1, 2), (0, 2, 3)):
            lam = _barycentric(quads[face, list(corners)], px, py)
            if lam is not None:
                ids[np.all(lam >= 0, axis=0)] = face
    return ids


@pytest.mark.parametrize("azimuth, elevation", [(0.3, np.radians(30)), (1.9, np.radians(30)),
                                                (-2.6, np.radians(12))])
def test_painters_order_agrees_with_a_zbuffer(azimuth, elevation):
    from scenes.kit.surface import project

    mesh, view = _tiny_mesh(azimuth, elevation)
    quads, face_depth, order = mesh.draw_order(view)
    _, corner_depth = project(mesh.face_corners, view)
    n_faces = len(face_depth)
    face_order = [i for i in order.tolist() if i < n_faces]
    px, py = _pixel_grid()
    reference = zbuffer_ids(quads, corner_depth, px, py)
    covered = reference >= 0
    agree = np.mean(painter_ids(quads, face_order, px, py)[covered] == reference[covered])
    # The test can fail: painting nearest-first disagrees with the z-buffer wherever faces overlap.
    wrong_way = np.mean(painter_ids(quads, face_order[::-1], px, py)[covered] == reference[covered])
    assert agree > 0.995, f"painter's order matches the z-buffer on {agree:.1%} of pixels"
    assert wrong_way < agree - 0.02


def test_path_pieces_show_exactly_where_the_zbuffer_sees_the_path():
    """Low eye, so part of the green path hides behind the rising red ridge."""
    from scenes.kit.surface import project

    mesh, view = _tiny_mesh(0.0, np.radians(12), cells=24)
    quads, _, order = mesh.draw_order(view)
    _, corner_depth = project(mesh.face_corners, view)
    n_faces = len(quads)
    rank = np.full(n_faces + len(mesh.paths[0].pieces), -1)   # -1: left out (behind the sheet)
    rank[order] = np.arange(len(order))
    path = mesh.paths[0]
    agree = []
    for k, piece in enumerate(path.pieces):
        middle = path.points[list(piece)].mean(axis=0)
        (x, y), d = project(middle, view)
        px, py = np.array([x]), np.array([y])
        # Reference: is a surface nearer than the path point at its pixel (beyond a hair)?
        hidden_by_zbuffer = _nearest_depth(quads, corner_depth, px, py) > d + 0.05
        # Painter: is any face covering that pixel painted after the piece?
        covering = [f for f in range(n_faces) if _covers(quads[f], x, y)]
        hidden_by_painter = rank[n_faces + k] < 0 or any(rank[f] > rank[n_faces + k] for f in covering)
        agree.append(hidden_by_zbuffer == hidden_by_painter)
    assert np.mean(agree) >= 0.9
    assert any(_nearest_depth(quads, corner_depth, *[np.array([c]) for c in project(p, view)[0]])
               > project(p, view)[1] + 0.05 for p in path.points), "the view should hide part of the path"


def _nearest_depth(quads, depth, px, py) -> float:
    best = -np.inf
    for tris, tri_depths in _triangles(quads, depth):
        for tri, tri_depth in zip(tris, tri_depths):
            lam = _barycentric(tri, px, py)
            if lam is not None and np.all(lam >= 0):
                best = max(best, float(tri_depth @ lam[:, 0]))
    return best


def _covers(quad, x, y) -> bool:
    for corners in ((0, 1, 2), (0, 2, 3)):
        lam = _barycentric(quad[list(corners)], np.array([x]), np.array([y]))
        if lam is not None and np.all(lam >= 0):
            return True
    return False


def test_one_full_turn_ends_on_the_view_it_started_from():
    from scenes.kit.surface import FullTurn, project

    mesh, start = _tiny_mesh(0.4, np.radians(30))
    turn = FullTurn(mesh, run_time=9)
    turn.interpolate_mobject(1.0)
    end = mesh.view
    assert end.azimuth == pytest.approx(start.azimuth + 2 * np.pi)
    assert np.allclose(project(mesh.vertices, end)[0], project(mesh.vertices, start)[0])
    turn.interpolate_mobject(0.25)
    assert mesh.view.azimuth == pytest.approx(start.azimuth + np.pi / 2)


def test_the_rock_closes_at_the_pace_it_moves():
    """Seam: the view at alpha = 1 is the start view, and the step from the last frame into
    the first is as large as the steps beside it (no stop, no jump, no repeated frame)."""
    from scenes.kit.surface import Rock

    mesh, start = _tiny_mesh(0.4, np.radians(30))
    rock = Rock(mesh, np.radians(14), run_time=9)
    frames = 540
    azimuths = [rock.azimuth_at(k / frames) for k in range(frames + 1)]
    assert azimuths[-1] == pytest.approx(start.azimuth) and azimuths[0] == pytest.approx(start.azimuth)
    steps = np.diff(azimuths)
    seam_step, before, after = steps[-1], steps[-2], steps[0]
    assert seam_step > 0 and seam_step == pytest.approx(before, rel=1e-3) == pytest.approx(after, rel=1e-3)
    rock.interpolate_mobject(0.25)
    assert mesh.view.azimuth == pytest.approx(start.azimuth + np.radians(14))
    assert mesh.view.elevation == start.elevation


def _swing_azimuths(full_turn: bool, count: int = 24):
    from scenes import anim_saddle

    start = anim_saddle.START_VIEW.azimuth
    if full_turn:
        return [start + 2 * np.pi * k / count for k in range(count)]
    return [start + anim_saddle.ROCK_AMPLITUDE * np.sin(2 * np.pi * k / count) for k in range(count)]


def test_the_swing_looks_across_each_path_at_one_of_its_ends():
    """「把它转起来」: the swing must show the red path rising on both sides and the green one
    falling on both sides, so at some point it looks straight across each (within 20° of
    square to it). Reference: the look-at camera's horizontal eye direction."""
    from scenes import anim_saddle

    def square_to(path) -> float:
        along = path[-1, :2] - path[0, :2]
        along /= np.linalg.norm(along)
        offs = []
        for azimuth in _swing_azimuths(False, 72):
            eye = np.array([np.sin(azimuth), -np.cos(azimuth)])
            offs.append(np.degrees(np.arcsin(min(1.0, abs(eye @ along)))))
        return min(offs)

    assert square_to(saddle.rising_path(9)) <= 20, "the swing never looks across the red path"
    assert square_to(saddle.falling_path(9)) <= 20, "the swing never looks across the green path"
    assert anim_saddle.ROCK_AMPLITUDE >= np.radians(60)


def _underside_share(azimuth: float, elevation: float | None = None) -> float:
    """Share of the mesh's pixels that show the sheet's underside, painted in a test colour."""
    from dataclasses import replace

    from manim import tempconfig

    from scenes import anim_saddle
    from scenes.kit import theme
    from scenes.kit.surface import SurfaceCamera

    with tempconfig({"pixel_width": 320, "pixel_height": 180, "dry_run": False}):
        mesh = anim_saddle.saddle_mesh()
        mesh.underside_bgr = np.array([1.0, 0.0, 1.0])            # magenta: no other face has it
        mesh.set_view(replace(mesh.view, azimuth=azimuth, elevation=mesh.view.elevation if elevation is None
                              else elevation))
        camera = SurfaceCamera(background_color=theme.background())
        camera.capture_mobjects([mesh])
        image = camera.pixel_array[:, :, :3].astype(int)
    drawn = np.any(image != np.array(theme.background().to_rgb()) * 255, axis=2)
    under = (image[..., 0] > 140) & (image[..., 2] > 140) & (image[..., 1] < 70)
    return under.sum() / drawn.sum()


@pytest.mark.parametrize("low_eye", [False, True])
def test_the_swing_shows_little_of_the_underside(low_eye):
    """At most 5 % of the sheet shows its back anywhere in the swing; the same swing from an
    eye 20° above the horizon shows far more at its worst angle, so the check bites."""
    elevation = np.radians(20) if low_eye else None
    worst = max(_underside_share(a, elevation) for a in _swing_azimuths(False, 8))
    if low_eye:
        assert worst > 0.06
    else:
        assert worst <= 0.05, f"underside on {worst:.1%} of the sheet"


def test_a_rendered_frame_shows_surface_paths_and_dot():
    """Paint the scene's mesh through the camera hook at a small size and look at pixels."""
    from manim import tempconfig

    from scenes import anim_saddle
    from scenes.kit import theme
    from scenes.kit.surface import SurfaceCamera, project

    with tempconfig({"pixel_width": 480, "pixel_height": 270, "dry_run": False}):
        camera = SurfaceCamera(background_color=theme.background())
        mesh = anim_saddle.saddle_mesh()
        camera.capture_mobjects([mesh])
        image = camera.pixel_array[:, :, :3].astype(int)
        (x, y), _ = project(saddle.flat_point(), mesh.view)
        col = int(round((x / camera.frame_width + 0.5) * camera.pixel_width))
        row = int(round((0.5 - y / camera.frame_height) * camera.pixel_height))

    def count(color):
        rgb = np.array(color.to_rgb()) * 255
        return int(np.sum(np.all(np.abs(image - rgb) < 12, axis=2)))

    assert np.all(np.abs(image[row, col] - np.array(theme.color("ink").to_rgb()) * 255) < 12)
    assert count(theme.color("bad")) > 100 and count(theme.color("good")) > 100
    background = np.all(image == np.array(theme.background().to_rgb()) * 255, axis=2)
    assert 0.1 < 1 - background.mean() < 0.6        # a sizeable, shaded surface, not a blank frame
    assert len(np.unique(image[~background].reshape(-1, 3), axis=0)) > 200   # shaded, not flat


def test_the_turning_mesh_never_meets_a_text_or_the_frame_edge():
    """The legibility test sees only the last frame; the mesh moves, so check the whole swing
    (and, with room to spare, the whole turn around it)."""
    from dataclasses import replace

    from manim import Text, config

    from scenes.kit.surface import ShadedMesh, project
    from studio.engine.stills import section_stills

    shown = section_stills("anim-saddle")[-1].mobjects
    mesh = next(m for m in shown if isinstance(m, ShadedMesh))
    texts = [part for m in shown for part in m.get_family() if isinstance(part, Text)]
    boxes = [(t.get_critical_point([-1, -1, 0])[:2], t.get_critical_point([1, 1, 0])[:2]) for t in texts]
    half = np.array([config.frame_width, config.frame_height]) / 2
    gap = 0.1   # manim units of clear space around every text
    for k in range(120):
        view = replace(mesh.view, azimuth=mesh.view.azimuth + 2 * np.pi * k / 120)
        screen, _ = project(mesh.vertices.reshape(-1, 3), view)
        assert np.all(np.abs(screen) < half), f"mesh leaves the frame at step {k}"
        for (lo, hi), text in zip(boxes, texts):
            inside = np.all((screen > lo - gap) & (screen < hi + gap), axis=1)
            assert not inside.any(), f"mesh reaches {text.text!r} at step {k}"
