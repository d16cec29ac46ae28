"""Trip counts against an independent reference: build the full Jacobian of a random
linear chain in numpy from forward-mode products (J·v) or reverse-mode products (uᵀ·J),
one trip per product, and count how many trips it takes before the Jacobian is pinned down."""

from __future__ import annotations

import numpy as np
import pytest

from lecture_numerics.trips import trip_schedule, trips_for_full_jacobian


def random_chain(n_inputs: int, n_outputs: int, rng: np.random.Generator, depth: int = 4) -> list[np.ndarray]:
    widths = [n_inputs] + list(rng.integers(n_inputs + n_outputs, 2 * (n_inputs + n_outputs), size=depth - 1)) + [n_outputs]
    return [rng.standard_normal((widths[k + 1], widths[k])) for k in range(depth)]


def jvp(chain, tangent):
    """One forward trip: push an input direction through every stage, first to last."""
    for stage in chain:
        tangent = stage @ tangent
    return tangent


def vjp(chain, cotangent):
    """One backward trip: pull an output direction through every stage, last to first."""
    for stage in reversed(chain):
        cotangent = cotangent @ stage
    return cotangent


def trips_until_determined(chain, n_inputs, n_outputs, mode, rng):
    """Make trips with random seeds until the seeds span their space (the Jacobian is then
    the unique solution of the observed products). Returns (trips, reconstructed Jacobian)."""
    size = n_inputs if mode == "forward" else n_outputs
    seeds, results = [], []
    while np.linalg.matrix_rank(np.array(seeds).reshape(-1, size)) < size:
        seed = rng.standard_normal(size)
        seeds.append(seed)
        results.append(jvp(chain, seed) if mode == "forward" else vjp(chain, seed))
    S, R = np.array(seeds), np.array(results)
    if mode == "forward":        # R = S Jᵀ  ->  Jᵀ = S⁻¹ R
        jacobian = np.linalg.solve(S, R).T
    else:                        # R = S J   ->  J = S⁻¹ R
        jacobian = np.linalg.solve(S, R)
    return len(seeds), jacobian


@pytest.mark.parametrize("n_inputs,n_outputs", [(8, 1), (3, 5), (10, 40), (1, 1), (12, 2)])
@pytest.mark.parametrize("mode", ["forward", "reverse"])
def test_trip_count_matches_jacobian_reconstruction(n_inputs, n_outputs, mode):
    rng = np.random.default_rng(n_inputs * 100 + n_outputs)
    chain = random_chain(n_inputs, n_outputs, rng)
    dense = np.linalg.multi_dot(chain[::-1]) if len(chain) > 1 else chain[0]
    trips, jacobian = trips_until_determined(chain, n_inputs, n_outputs, mode, rng)
    np.testing.assert_allclose(jacobian, dense, rtol=1e-8, atol=1e-8)
    assert trips_for_full_jacobian(n_inputs, n_outputs, mode) == trips


def test_one_trip_fewer_leaves_the_jacobian_undetermined():
    # With n−1 forward trips on the scene's chain (8 in, 1 out), a different Jacobian fits
    # every observed product: add any row orthogonal to all seeds.
    rng = np.random.default_rng(7)
    chain = random_chain(8, 1, rng)
    seeds = rng.standard_normal((trips_for_full_jacobian(8, 1, "forward") - 1, 8))
    observed = np.array([jvp(chain, s) for s in seeds])
    _, _, vt = np.linalg.svd(seeds)
    impostor = np.linalg.multi_dot(chain[::-1]) + vt[-1]
    np.testing.assert_allclose(seeds @ impostor.T, observed, atol=1e-9)


def test_narrow_end_wins_either_way():
    # The notes' counter-example: ten parameters, a huge output -> forward mode is cheaper.
    assert trips_for_full_jacobian(10, 1_000_000, "forward") < trips_for_full_jacobian(10, 1_000_000, "reverse")
    assert trips_for_full_jacobian(300_000_000_000, 1, "reverse") == 1


def test_schedules_hand_over_every_gradient_exactly_once():
    forward, reverse = trip_schedule(8, "forward"), trip_schedule(8, "reverse")
    assert [t.gradients_in_order for t in forward] == [(i,) for i in range(8)]
    assert [t.seed for t in forward] == list(range(8))
    assert len(reverse) == 1 and reverse[0].seed == "loss"
    assert reverse[0].gradients_in_order == (7, 6, 5, 4, 3, 2, 1, 0)   # right to left, as the ball passes
    assert reverse[0].along_the_way and not any(t.along_the_way for t in forward)


def test_ledger_trips_equal_the_reference_count():
    from lecture_numerics import quantity

    n, m = quantity("trips.parameters").value, quantity("trips.outputs").value
    rng = np.random.default_rng(0)
    chain = random_chain(n, m, rng)
    assert quantity("trips.forward").value == trips_until_determined(chain, n, m, "forward", rng)[0]
    assert quantity("trips.reverse").value == trips_until_determined(chain, n, m, "reverse", rng)[0]
    assert (quantity("trips.forward").display, quantity("trips.reverse").display) == ("8", "1")


def test_bad_input_is_refused():
    with pytest.raises(ValueError):
        trips_for_full_jacobian(0, 1, "forward")
    with pytest.raises(ValueError):
        trips_for_full_jacobian(2, 1, "sideways")
