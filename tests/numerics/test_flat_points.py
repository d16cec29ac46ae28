"""fig-saddle: the three flat points against finite differences, and anim-saddle's surface."""

import numpy as np

from lecture_numerics import flat_points as flat
from lecture_numerics import saddle

H = 1e-4


def fd_gradient(f, x=0.0, y=0.0):
    return np.array([(f(x + H, y) - f(x - H, y)) / (2 * H), (f(x, y + H) - f(x, y - H)) / (2 * H)])


def fd_hessian(f):
    hxx = (f(H, 0) - 2 * f(0, 0) + f(-H, 0)) / H ** 2
    hyy = (f(0, H) - 2 * f(0, 0) + f(0, -H)) / H ** 2
    hxy = (f(H, H) - f(H, -H) - f(-H, H) + f(-H, -H)) / (4 * H ** 2)
    return np.array([[hxx, hxy], [hxy, hyy]])


def test_every_kind_is_flat_at_the_centre():
    for kind in flat.KINDS:
        assert np.allclose(fd_gradient(lambda x, y: flat.height(kind, x, y)), 0, atol=1e-9)
    assert flat.SLOPES.value == (0.0, 0.0, 0.0)


def test_curvature_signs_and_up_fractions_from_a_numerical_hessian():
    expected_signs = {"valley": (1, 1), "peak": (-1, -1), "pass": (-1, 1)}   # eigvalsh sorts ascending
    for kind in flat.KINDS:
        eig = np.linalg.eigvalsh(fd_hessian(lambda x, y: flat.height(kind, x, y)))
        assert tuple(np.sign(np.round(eig, 6)).astype(int)) == expected_signs[kind]
    ref = tuple(float(np.mean(np.linalg.eigvalsh(fd_hessian(lambda x, y: flat.height(k, x, y))) > 0))
                for k in flat.KINDS)
    assert flat.UP_FRACTIONS.value == ref == (1.0, 0.0, 0.5)
    assert flat.AXIS_TICKS.value == [0.0, 0.5, 1.0]


def test_the_pass_is_anim_saddles_surface():
    s = np.linspace(-1, 1, 9)
    x, y = np.meshgrid(s, s)
    assert np.allclose(flat.height("pass", x, y), saddle.height(x, y))


def test_cut_colours_follow_the_shared_code():
    for kind, (a, b) in flat.SIGNS.items():
        s, along_x, along_y = flat.cuts(kind)
        assert (along_x[0] > along_x[len(s) // 2]) == (a > 0)    # red (rises) exactly where curvature > 0
        assert (along_y[0] > along_y[len(s) // 2]) == (b > 0)


def test_one_parameter_has_two_directions():
    assert flat.DIRECTIONS_1D.value == 2 and flat.DIRECTIONS_1D.display == "两"


def test_the_unread_measurement_is_unconfirmed_and_names_a_true_floors_share():
    assert flat.NEVER_ONE.value == flat.UP_FRACTIONS.value[0] and flat.NEVER_ONE.status == "待核"
