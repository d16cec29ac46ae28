"""bench/encoder.py's choice, on synthetic measurements: the cheapest setting at least as good
as stock manim's on every scene, within the size cap, and the comment it records."""

from __future__ import annotations

import yaml

from bench import encoder


def scene(scene_id: str, **candidates: tuple[float, int, float]) -> dict:
    """candidates: name → (CPU s, bytes, SSIM); names use _ for the colon (medium_23)."""
    return {"id": scene_id, "candidates": {
        name.replace("_", ":"): {"preset": name.split("_")[0], "crf": float(name.split("_")[1]),
                                 "cpu_s": cpu, "bytes": size, "ssim": ssim}
        for name, (cpu, size, ssim) in candidates.items()}}


SCENES = [
    scene("fig-a", medium_23=(50.0, 100, 0.9990), superfast_23=(20.0, 130, 0.9991),
          ultrafast_23=(10.0, 350, 0.9995), veryfast_23=(24.0, 90, 0.9991), faster_23=(12.0, 100, 0.9992)),
    scene("anim-b", medium_23=(16.0, 100, 0.9980), superfast_23=(6.0, 140, 0.9981),
          ultrafast_23=(3.0, 350, 0.9984), veryfast_23=(9.0, 90, 0.9970), faster_23=(4.0, 170, 0.9985)),
]


def test_the_cheapest_setting_as_good_as_stock_everywhere_within_the_size_cap():
    decision = encoder.choose(SCENES)
    totals = decision["totals"]
    assert decision["choice"] == "superfast:23"
    assert totals["ultrafast:23"]["size_ratio"] == 3.5 and not totals["ultrafast:23"]["qualifies"]   # over 1.5×
    # 1.35× in total, but 1.7× on anim-b: the cap holds scene by scene.
    assert totals["faster:23"]["size_ratio"] == 1.35 and totals["faster:23"]["worst_size_ratio"] == 1.7
    assert not totals["faster:23"]["qualifies"]
    assert totals["veryfast:23"]["worst_ssim_margin"] < 0 and not totals["veryfast:23"]["qualifies"]  # worse on anim-b
    assert totals["medium:23"]["qualifies"]                                  # stock qualifies against itself
    assert encoder.choose(SCENES, size_cap=4.0)["choice"] == "ultrafast:23"  # a looser cap: the cheapest of all


def test_stock_is_chosen_when_nothing_cheaper_qualifies():
    scenes = [scene("fig-a", medium_23=(50.0, 100, 0.9990), superfast_23=(20.0, 130, 0.9989))]
    assert encoder.choose(scenes)["choice"] == "medium:23"


def test_the_recorded_choice_is_valid_config_with_its_evidence(tmp_path):
    from studio.media import encode

    path = tmp_path / "encoder.yaml"
    decision = encoder.choose(SCENES)
    encoder.write_choice(SCENES, decision, "bench/encoder.py --scenes fig-a anim-b", path)
    assert yaml.safe_load(path.read_text()) == {"x264": {"preset": "superfast", "crf": 23}}
    assert encode.encoder_options(path) == {"preset": "superfast", "crf": "23"}
    text = path.read_text()
    assert "bench/encoder.py --scenes fig-a anim-b" in text
    assert "superfast:23" in text and "<- chosen" in text and "0.99910" in text


def test_a_setting_with_x264_options_is_parsed_labelled_and_recorded(tmp_path):
    from studio.media import encode

    setting = encoder.parse_setting("ultrafast:24+cabac=1")
    assert setting == ("ultrafast", 24.0, "cabac=1")
    assert encoder.label(setting) == "ultrafast:24+cabac=1"
    assert ":" not in encoder.file_name(setting) and "=" not in encoder.file_name(setting)
    assert encoder.x264_options(setting) == {"preset": "ultrafast", "crf": "24", "x264-params": "cabac=1"}
    scenes = [{"id": "fig-a", "candidates": {
        "medium:23": {"cpu_s": 50.0, "bytes": 100, "ssim": 0.9990},
        "ultrafast:24+cabac=1": {"cpu_s": 12.0, "bytes": 140, "ssim": 0.9991}}}]
    decision = encoder.choose(scenes)
    assert decision["choice"] == "ultrafast:24+cabac=1"
    path = tmp_path / "encoder.yaml"
    encoder.write_choice(scenes, decision, "bench/encoder.py --scenes fig-a", path)
    assert encode.encoder_options(path) == {"preset": "ultrafast", "crf": "24", "x264-params": "cabac=1"}


def test_a_new_choice_keeps_the_named_alternatives(tmp_path):
    from studio.media import encode

    path = tmp_path / "encoder.yaml"
    path.write_text("# old\nx264:\n  preset: medium\n  crf: 23\n# Named alternatives, for --encoder:\n"
                    "alternatives:\n  fast:\n    preset: ultrafast\n    crf: 24\n")
    encoder.write_choice(SCENES, encoder.choose(SCENES), "bench/encoder.py --scenes fig-a anim-b", path)
    assert yaml.safe_load(path.read_text()) == {"x264": {"preset": "superfast", "crf": 23},
                                                "alternatives": {"fast": {"preset": "ultrafast", "crf": 24}}}
    assert "# Named alternatives, for --encoder:" in path.read_text() and "# old" not in path.read_text()
    assert encode.encoder_options(path, name="fast") == {"preset": "ultrafast", "crf": "24"}
