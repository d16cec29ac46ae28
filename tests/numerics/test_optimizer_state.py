"""fig-optimizers: the byte ruler and the state copies, against hand tables written here."""

from lecture_numerics import load_all
from lecture_numerics import optimizer_state as os_
from lecture_numerics.models import TIB

# Written out by hand from ZeRO §3.1 (2 + 2 + K, K = 12 = three fp32 copies).
HAND_BYTES = {"bf16 weight": 2, "bf16 gradient": 2, "fp32 master": 4, "fp32 m": 4, "fp32 v": 4}
# Counted by hand from each update rule: the parameter-sized tensors it must remember.
HAND_COPIES = {"sgd": 0, "momentum": 1, "adagrad": 1, "rmsprop": 1, "adam": 2, "adamw": 2, "muon": 1}


def test_ruler_totals_match_a_hand_table():
    assert os_.PER_PARAM_TOTAL.value == sum(HAND_BYTES.values()) == 16
    assert os_.OPTIMIZER_SUM.value == 4 + 4 + 4
    assert [q.value for _, q, _ in os_.RULER] == list(HAND_BYTES.values())


def test_optimizer_over_weights_is_six():
    assert os_.OPTIMIZER_OVER_WEIGHTS.value == 12 / 2
    assert os_.OPTIMIZER_OVER_WEIGHTS.display == "六"


def test_the_optimizers_twelve_bytes_are_declared_once():
    # bill's optimizer bytes and ZeRO's K are master + m + v, read from that one sum (issue 24).
    from lecture_numerics.bill import OPTIMIZER_BYTES
    from lecture_numerics.provenance import Sourced
    from lecture_numerics.zero import K
    assert OPTIMIZER_BYTES is os_.OPTIMIZER_SUM
    assert dict(K.inputs) == {"optimizer": os_.OPTIMIZER_SUM} and K.value == 12
    twelves = [q.key for q in load_all().values() if isinstance(q, Sourced) and q.unit == "B/param" and q.value == 12]
    assert not twelves, f"12 bytes per parameter typed as a looked-up fact: {twelves}"


def test_state_copies_match_hand_count():
    for name, copies in HAND_COPIES.items():
        assert os_.STATE_COPIES[name].value == copies, name
        assert os_.state_copies(name, shape=(7,)) == copies      # any parameter shape


def test_levels_and_muon_bytes():
    assert os_.STATE_LEVELS.value == (0, 1, 2)
    assert os_.MUON_BYTES.value == 16 - 4


def test_scaled_by_671b_matches_storyboard():
    assert round(671e9 * 2 / TIB, 4) == 1.2205
    assert round(671e9 * 12 / TIB, 4) == 7.3233


def test_every_year_is_read_muons_in_its_repository_citation():
    """Muon's 2024 was 待核 until read in KellerJordan/Muon's README (its BibTeX: year = {2024})."""
    assert all(os_.YEARS[n].status == "" for n in ("momentum", "adagrad", "adam", "adamw", "muon"))
    assert "year = {2024}" in os_.YEARS["muon"].citation and "KellerJordan/Muon" in os_.YEARS["muon"].citation


def test_segment_counts_by_hand():
    assert os_.FP32_SEGMENTS.value == sum(1 for n in HAND_BYTES if n.startswith("fp32")) == 3
    assert os_.BF16_SEGMENTS.value == sum(1 for n in HAND_BYTES if n.startswith("bf16")) == 2
    assert (os_.FP32_SEGMENTS.display, os_.BF16_SEGMENTS.display) == ("三", "两")
