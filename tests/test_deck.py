"""The PowerPoint deck, read back with python-pptx: one slide per cue in the notes' order,
every clip a cue shows embedded as a movie with a poster, every line in the slide's notes."""

from __future__ import annotations

import hashlib
import json
import stat
from pathlib import Path

import pytest

from studio import atomic
from studio.deck import DECK_NAME, build_deck, notes_text
from tests.fixtures_media import HEIGHT, WIDTH, make_synthetic_output
from tests.render_helpers import manifest as read_manifest, render

import pptx  # noqa: E402  (a dependency of the project: a missing one fails, never skips)


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    quality_dir = make_synthetic_output(tmp_path_factory.mktemp("out") / "low")
    sheet = json.loads((quality_dir / "cues.json").read_text(encoding="utf-8"))
    deck_path = build_deck(quality_dir, sheet)
    return quality_dir, sheet, deck_path, pptx.Presentation(str(deck_path))


def video_parts(slide) -> list:
    """The media parts a slide's movies play (each movie links its part twice: as video for
    older readers and as media for PowerPoint 2010 on)."""
    parts = {rel.target_part.partname: rel.target_part for rel in slide.part.rels.values()
             if not rel.is_external and rel.target_part.content_type.startswith("video/")}
    return list(parts.values())


def slide_text(slide) -> str:
    return "\n".join(shape.text_frame.text for shape in slide.shapes if shape.has_text_frame)


def test_one_slide_per_cue(rendered):
    quality_dir, sheet, deck_path, deck = rendered
    assert deck_path == quality_dir / DECK_NAME
    assert len(deck.slides) == len(sheet["cues"]) == 65
    assert (deck.slide_width, deck.slide_height) == (12_192_000, 6_858_000)


def test_every_clip_a_cue_shows_is_embedded_on_its_slide(rendered):
    quality_dir, sheet, _, deck = rendered
    shown = {m["file"] for c in sheet["cues"] if c["kind"] == "figure" for m in c["media"] if m.get("file")}
    assert shown == {"fig-circuit/A.mp4", "fig-circuit/B.mp4", "fig-circuit/C.mp4", "anim-reverse.mp4"}
    in_deck = {sha(p.blob) for p in deck.part.package.iter_parts() if p.content_type.startswith("video/")}
    assert in_deck == {sha((quality_dir / f).read_bytes()) for f in shown}  # each once, shared by its slides
    for cue, slide in zip(sheet["cues"], deck.slides):
        files = [m["file"] for m in cue.get("media") or [] if m.get("file")]
        assert [sha(p.blob) for p in video_parts(slide)] == [sha((quality_dir / f).read_bytes()) for f in files], cue["line"]
        movies = [s for s in slide.shapes if s.shape_type is not None and s.shape_type.name == "MEDIA"]
        assert len(movies) == len(files), cue["line"]


def test_movies_have_poster_frames_of_the_clip(rendered):
    from PIL import Image
    import io

    _, sheet, _, deck = rendered
    for cue, slide in zip(sheet["cues"], deck.slides):
        if not video_parts(slide):
            continue
        images = [rel.target_part for rel in slide.part.rels.values()
                  if not rel.is_external and rel.target_part.content_type.startswith("image/")]
        assert images, f"L{cue['line']}: movie without a poster"
        with Image.open(io.BytesIO(images[0].blob)) as poster:
            assert poster.size == (WIDTH, HEIGHT)


def test_every_cue_line_and_hint_is_in_its_notes(rendered):
    _, sheet, _, deck = rendered
    for cue, slide in zip(sheet["cues"], deck.slides):
        notes = slide.notes_slide.notes_text_frame.text
        assert notes == notes_text(cue, len(sheet["cues"]))
        assert f"🖥 {cue['text']}" in notes and f"讲稿第 {cue['line']} 行" in notes and "估算" in notes
        for text in [*cue["lines"], *cue["hints"]]:
            assert text in notes, f"L{cue['line']}: {text!r} not in the notes"
    spoken = sum(len(c["lines"]) for c in sheet["cues"])
    assert spoken > 500  # the whole talk is in the deck's notes


def test_cards_for_sections_titles_and_figures_not_built(rendered):
    _, sheet, _, deck = rendered
    for cue, slide in zip(sheet["cues"], deck.slides):
        text = slide_text(slide)
        if cue["kind"] == "section":
            assert cue["title"] in text and ("全讲完" in text) == (cue["opens"] is None)
        elif cue["kind"] == "title":
            assert cue["title"] in text
        elif not cue["rendered"]:
            assert cue["scene"] in text and "还没有做好" in text and not video_parts(slide)


def test_deck_is_published_whole_and_readable(rendered):
    quality_dir, *_ = rendered
    assert stat.S_IMODE((quality_dir / DECK_NAME).stat().st_mode) == atomic.published_mode()
    assert not list(quality_dir.glob(f".*{atomic.TMP_SUFFIX}"))


def test_a_listed_clip_that_is_missing_is_a_clear_error(rendered, tmp_path):
    from studio.errors import UsageError

    quality_dir, sheet, _, _ = rendered
    broken = json.loads(json.dumps(sheet))
    cue = next(c for c in broken["cues"] if c["line"] == 176)
    cue["media"][0]["file"] = "fig-circuit/Z.mp4"
    with pytest.raises(UsageError, match=r"fig-circuit/Z.mp4 is listed in manifest.json but missing"):
        build_deck(quality_dir, broken)


@pytest.mark.render
def test_render_py_pptx_writes_the_deck_next_to_the_videos(tmp_path):
    out = tmp_path / "out"
    result = render("tiny", "--quality", "low", "--out", str(out), "--pptx")
    assert result.returncode == 0, result.stderr + result.stdout
    qdir = out / "low"
    sheet = json.loads((qdir / "cues.json").read_text(encoding="utf-8"))
    deck = pptx.Presentation(str(qdir / DECK_NAME))
    assert len(deck.slides) == len(sheet["cues"]) == 65
    assert f"{len(sheet['cues'])} slides" in result.stdout
    assert read_manifest(qdir)["scenes"][0]["id"] == "tiny"
    for name in ("index.html", "ledger.html", "manifest.json", "cues.json", DECK_NAME):
        assert stat.S_IMODE((qdir / name).stat().st_mode) == atomic.published_mode(), name


def test_a_cue_with_two_views_holds_both_clips_in_order(rendered):
    quality_dir, sheet, _, _ = rendered
    two = json.loads(json.dumps(sheet))
    cue = next(c for c in two["cues"] if c["line"] == 590)  # 「平移到 Ⓑ，再到 Ⓒ」
    assert cue["views"] == ["B", "C"]
    cue["media"] = [{"view": v, "file": f"fig-circuit/{v}.mp4", "loop": False, "whole": False} for v in "BC"]
    cue["rendered"] = True
    deck = pptx.Presentation(str(build_deck(quality_dir, two)))
    slide = deck.slides[cue["index"]]
    movies = sorted((s for s in slide.shapes if s.shape_type.name == "MEDIA"), key=lambda s: s.left)
    assert len(movies) == 2 and movies[0].left + movies[0].width <= movies[1].left
    assert {sha(p.blob) for p in video_parts(slide)} == {sha((quality_dir / f"fig-circuit/{v}.mp4").read_bytes()) for v in "BC"}
    assert "Ⓑ" in slide_text(slide) and "Ⓒ" in slide_text(slide)
