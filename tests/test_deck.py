"""The PowerPoint deck, read back with python-pptx: a slide per step of the cue sheet, each
clip full-slide with its beat's poster and the timing that starts it by itself, notes that
hold the step's lines and errata at sizes that fit their page, section cards with their own
section, then the appendix. The same deck in LibreOffice: tests/test_deck_clients.py."""

from __future__ import annotations

import hashlib
import io
import json
import stat

import pytest
from lxml import etree

from studio import atomic
from studio.present.deck import DECK_NAME, POSTER_MAX_WIDTH, build_deck
from studio.present.deck_appendix import BOX_BOTTOM, BOX_TOP, BOX_WIDTH, TEXT_PT, paginate, grouped
from studio.present.deck_notes import BODY_BOTTOM, PAGE_H, PAGE_W, erratum_text
from studio.present.deck_text import MARK_FACE, MARKS, text_height_emu
from studio.errors import UsageError
from tests.deck_fixtures import ERRATUM, LONG_LINE, beat_manifest, beat_sheet, sample_ledger
from tests.fixtures_media import HEIGHT, WIDTH, make_still

import pptx  # noqa: E402  (a dependency of the project: a missing one fails, never skips)

P = "{http://schemas.openxmlformats.org/presentationml/2006/main}"
A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    quality_dir = tmp_path_factory.mktemp("out") / "low"
    quality_dir.mkdir()
    beat_manifest(quality_dir)
    sheet = beat_sheet()
    deck_path = build_deck(quality_dir, sheet, sample_ledger())
    return quality_dir, sheet, deck_path, pptx.Presentation(str(deck_path))


def talk(sheet):
    """(cue, step) per slide of the talk, in order."""
    return [(cue, step) for cue in sheet["cues"] for step in cue["steps"]]


def talk_slides(built):
    _, sheet, _, deck = built
    pairs = talk(sheet)
    return list(zip(pairs, list(deck.slides)[:len(pairs)]))


def media_parts(slide, kind: str) -> list:
    return list({rel.target_part.partname: rel.target_part for rel in slide.part.rels.values()
                 if not rel.is_external and rel.target_part.content_type.startswith(kind)}.values())


def movies(slide) -> list:
    return [s for s in slide.shapes if s.shape_type is not None and s.shape_type.name == "MEDIA"]


def slide_text(slide) -> str:
    return "\n".join(shape.text_frame.text for shape in slide.shapes if shape.has_text_frame)


def notes_of(slide) -> str:
    return slide.notes_slide.notes_text_frame.text


# ---- a slide per step ----------------------------------------------------------------------

def test_one_slide_per_step_then_the_appendix(built):
    quality_dir, sheet, deck_path, deck = built
    assert deck_path == quality_dir / DECK_NAME
    steps = talk(sheet)
    assert len(steps) == 9  # cue 1 holds two beats of Ⓐ
    appendix = list(deck.slides)[len(steps):]
    assert [slide_text(s).splitlines()[0] for s in appendix] == [
        "附录：每个数字从哪来", "颜色的意思（全讲统一）", "附录 · 查来的（1 / 1）", "附录 · 推来的（1 / 1）",
        "附录 · 示例取值（1 / 1）", "附录 · 待核（1 / 1）"]
    assert (deck.slide_width, deck.slide_height) == (12_192_000, 6_858_000)


def test_each_step_plays_its_own_clip_full_slide(built):
    quality_dir, *_ = built
    for (cue, step), slide in talk_slides(built):
        clips = media_parts(slide, "video/")
        if not step["file"]:
            assert not clips and not movies(slide), cue["line"]
            continue
        assert [sha(p.blob) for p in clips] == [sha((quality_dir / step["file"]).read_bytes())], step["file"]
        (movie,) = movies(slide)
        assert (movie.left, movie.top, movie.width, movie.height) == (0, 0, 12_192_000, 6_858_000)


def test_two_beats_of_one_panel_are_two_slides_one_after_the_other(built):
    pairs = talk_slides(built)
    files = [step["file"] for (cue, step), _ in pairs if cue["line"] == 10]
    assert files == ["fig-circuit/A/1.mp4", "fig-circuit/A/2.mp4"]


def test_the_poster_is_the_steps_own_jpeg_and_png_posters_are_converted(built):
    from PIL import Image, ImageChops, ImageStat

    quality_dir, *_ = built
    for (cue, step), slide in talk_slides(built):
        if not step["file"]:
            continue
        (image,) = media_parts(slide, "image/")
        assert image.content_type == "image/jpeg", step["poster"]
        if step["poster"].endswith(".jpg"):  # a beat poster: embedded as published, byte for byte
            assert sha(image.blob) == sha((quality_dir / step["poster"]).read_bytes())
        else:                                # the whole clip's PNG poster: the same picture as JPEG
            with Image.open(io.BytesIO(image.blob)) as got, Image.open(quality_dir / step["poster"]) as want:
                assert got.size == want.size == (WIDTH, HEIGHT)
                difference = ImageChops.difference(got.convert("L"), want.convert("L"))
                assert ImageStat.Stat(difference).mean[0] < 6  # mean grey-level error of a good JPEG
    _, _, _, deck = built
    assert not [p for p in deck.part.package.iter_parts() if p.content_type == "image/png"]


def test_a_step_without_a_poster_shows_its_clips_last_frame(built, tmp_path):
    """A render from before beats publishes panel steps with no poster."""
    from PIL import Image, ImageChops, ImageStat
    from tests.deck_fixtures import last_frame_jpeg

    quality_dir, sheet, _, _ = built
    bare = json.loads(json.dumps(sheet))
    step = bare["cues"][2]["steps"][0]
    step["poster"] = None
    deck = pptx.Presentation(str(build_deck(quality_dir, bare, sample_ledger())))
    (image,) = media_parts(deck.slides[3], "image/")
    assert image.content_type == "image/jpeg"
    want = last_frame_jpeg(quality_dir / step["file"], tmp_path / "last.jpg")
    first = make_still(quality_dir / step["file"], tmp_path / "first.png")
    with Image.open(io.BytesIO(image.blob)) as got, Image.open(want) as last, Image.open(first) as opening:
        error_last = ImageStat.Stat(ImageChops.difference(got.convert("L"), last.convert("L"))).mean[0]
        error_first = ImageStat.Stat(ImageChops.difference(got.convert("L"), opening.convert("L"))).mean[0]
    assert error_last < 6 < error_first


def test_a_wide_poster_is_stored_scaled_down_as_jpeg(tmp_path):
    from PIL import Image
    from studio.present.deck import compact_jpeg

    wide = tmp_path / "wide.png"
    Image.new("RGB", (1920, 1080), "#3366cc").save(wide)
    stored = compact_jpeg(wide, tmp_path / "stored.jpg")
    with Image.open(stored) as image:
        assert image.format == "JPEG" and image.size == (POSTER_MAX_WIDTH, 720)
    small = tmp_path / "small.jpg"
    Image.new("RGB", (854, 480), "#3366cc").save(small, "JPEG")
    assert compact_jpeg(small, tmp_path / "unused.jpg") == small


# ---- movies start by themselves --------------------------------------------------------------

def autostart_effects(slide) -> list[tuple[str, str]]:
    """(spid, nodeType) of each media effect in the slide's main sequence that begins with
    the slide itself: a top-level step of the sequence whose start condition is the sequence's
    own onBegin (not a click), holding a mediacall playFrom after or with the previous effect."""
    timing = slide._element.find(f"{P}timing")
    if timing is None:
        return []
    found = []
    for seq in timing.iter(f"{P}seq"):
        main = seq.find(f"{P}cTn")
        if main.get("nodeType") != "mainSeq":
            continue
        for step in main.find(f"{P}childTnLst").findall(f"{P}par"):
            conditions = step.find(f"{P}cTn/{P}stCondLst")
            on_begin = [c for c in conditions if c.get("evt") == "onBegin" and c.get("delay") == "0"
                        and c.find(f"{P}tn").get("val") == main.get("id")]
            if not on_begin:
                continue
            for effect in step.iter(f"{P}cTn"):
                command = effect.find(f"{P}childTnLst/{P}cmd")
                if (effect.get("presetClass") == "mediacall" and command is not None
                        and command.get("cmd").startswith("playFrom")
                        and effect.find(f"{P}stCondLst/{P}cond").get("delay") == "0"):
                    found.append((command.find(f".//{P}spTgt").get("spid"), effect.get("nodeType")))
    return found


def test_every_movie_starts_automatically_when_its_slide_is_entered(built):
    for (cue, step), slide in talk_slides(built):
        if not step["file"]:
            continue
        (movie,) = movies(slide)
        assert autostart_effects(slide) == [(str(movie.shape_id), "afterEffect")], step["file"]
        xml = etree.tostring(slide._element).decode()
        assert 'nodeType="clickEffect"' not in xml
        node = slide._element.find(f"{P}timing//{P}video/{P}cMediaNode")
        assert node.find(f"{P}tgtEl/{P}spTgt").get("spid") == str(movie.shape_id)
        assert (node.find(f"{P}cTn").get("repeatCount") == "indefinite") == step["loop"], step["file"]


def test_the_play_command_lasts_as_long_as_the_clip(built):
    from studio.media.encode import probe

    quality_dir, *_ = built
    for (cue, step), slide in talk_slides(built):
        if step["file"]:
            command = slide._element.find(f"{P}timing//{P}cmd/{P}cBhvr/{P}cTn")
            assert int(command.get("dur")) == round(probe(quality_dir / step["file"])["duration_s"] * 1000)


def test_python_pptx_alone_would_wait_for_a_click(tmp_path):
    """The reference the check above is built to reject: python-pptx's own movie timing."""
    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[6])
    from tests.fixtures_media import make_clip

    clip = make_clip(tmp_path / "c.mp4", 0.4)
    slide.shapes.add_movie(str(clip), 0, 0, 100, 100, mime_type="video/mp4")
    assert autostart_effects(slide) == []


# ---- notes ---------------------------------------------------------------------------------

def test_notes_hold_the_steps_lines_in_order_and_the_hints_on_its_first_step(built):
    for (cue, step), slide in talk_slides(built):
        notes = notes_of(slide)
        assert notes.startswith(f"🖥 {cue['screen']}\n")
        assert f"讲稿第 {cue['line']} 行" in notes and "估算" in notes
        paragraphs = [p.text for p in slide.notes_slide.notes_text_frame.paragraphs]
        head, body = paragraphs[:paragraphs.index("")], paragraphs[paragraphs.index("") + 1:]
        assert body == [cue["script"][i].get("say") or cue["script"][i]["note"] for i in step["lines"]], cue["line"]
        assert ("排练 1 分 11 秒" in head[1]) == (step.get("rehearsed_s") is not None), head[1]  # 71.4 s
        first = step is cue["steps"][0]
        for hint in cue["hints"]:
            assert head.count(hint) == (1 if first else 0), (cue["line"], hint)


def test_an_erratum_is_at_the_top_of_its_steps_notes_in_red_and_nowhere_else(built):
    marked = erratum_text(ERRATUM)
    assert marked.startswith("⚠ 讲稿勘误：L14 讲稿说 4.15 TiB，应为 4.07 TiB")
    for (cue, step), slide in talk_slides(built):
        paragraphs = slide.notes_slide.notes_text_frame.paragraphs
        texts = [p.text for p in paragraphs]
        if step["errata"]:
            assert texts[2] == marked  # after the cue line and where the slide stands, before the lines
            assert all(r.font.bold and str(r.font.color.rgb) == "C00000" for r in paragraphs[2].runs)
        else:
            assert marked not in texts


def test_every_notes_run_has_its_size_and_the_notes_fit_their_page(built):
    from studio.present.deck_notes import BODY_WIDTH, choose_layout, notes_paragraphs

    for (cue, step), slide in talk_slides(built):
        body = slide.notes_slide.notes_placeholder
        runs = [r for p in body.text_frame.paragraphs for r in p.runs]
        sizes = {r.font.size.pt for r in runs}
        assert len(sizes) == 1 and 7 <= sizes.pop() <= 12, cue["line"]
        assert body.left >= 0 and body.left + body.width <= PAGE_W and body.top + body.height <= BODY_BOTTOM <= PAGE_H
    long_cue, long_step = next((c, s) for c, s in talk(built[1]) if c["line"] == 10 and s["beat"] == 2)
    layout = choose_layout(notes_paragraphs(long_cue, long_step, (2, 2), 8))
    assert text_height_emu(notes_paragraphs(long_cue, long_step, (2, 2), 8), BODY_WIDTH, layout.size_pt) <= layout.body_height


def test_long_notes_shrink_the_picture_before_the_type_goes_below_10_pt():
    from studio.present.deck_notes import choose_layout
    from studio.present.deck_text import para

    short = choose_layout([para("一句话。")])
    assert (short.picture_width, short.size_pt) == (4_572_000, 12)
    long = choose_layout([para(LONG_LINE)] * 8)
    assert long.size_pt >= 10 and long.picture_width < 4_572_000
    longest = choose_layout([para(LONG_LINE)] * 12)
    assert longest.size_pt < 10


def test_the_marks_take_a_symbol_face_and_the_rest_the_theme_font(built):
    from studio import config

    _, _, _, deck = built
    font = config.theme()["font"]
    seen = set()
    for slide in deck.slides:
        for paragraph in slide.notes_slide.notes_text_frame.paragraphs:
            for run in paragraph.runs:
                faces = {e.get("typeface") for e in run._r.rPr if e.tag in (f"{A}latin", f"{A}ea", f"{A}cs")}
                has_mark = any(ch in MARKS for ch in run.text)
                assert faces == ({MARK_FACE} if has_mark else {font}), run.text
                seen |= {ch for ch in run.text if ch in MARKS}
    assert {"⭐", "⛔", "🖥", "⚠"} <= seen


def test_section_cards_carry_their_own_section(built):
    for (cue, step), slide in talk_slides(built):
        if cue["kind"] != "section":
            continue
        text, notes = slide_text(slide), notes_of(slide)
        assert cue["title"] in text and ("全讲完" in text) == (cue["opens"] is None)
        assert notes.startswith(f"🖥 {cue['screen']}")
        assert [p.text for p in slide.notes_slide.notes_text_frame.paragraphs][-len(cue["script"]):] == [
            s["say"] for s in cue["script"]]


def test_title_card_and_a_figure_not_built_yet(built):
    for (cue, step), slide in talk_slides(built):
        text = slide_text(slide)
        if cue["kind"] == "title":
            assert cue["title"] in text
        elif cue["kind"] == "figure" and not step["file"]:
            assert cue["scene"] in text and "还没有做好" in text and "Ⓐ" in text


# ---- the appendix ------------------------------------------------------------------------

def appendix_text(deck, kind: str) -> str:
    return "\n".join(slide_text(s) for s in deck.slides if slide_text(s).startswith(f"附录 · {kind}"))


def test_the_appendix_lists_each_number_under_its_kind_and_section_with_its_source(built):
    _, _, _, deck = built
    sourced, derived, chosen, unconfirmed = (appendix_text(deck, k) for k in ("查来的", "推来的", "示例取值", "待核"))
    assert "model.v3.layers" in sourced and "出处：DeepSeek-V3 技术报告 §4.2" in sourced
    # an input no scene draws sits in the section where the number made from it is shown
    assert sourced.index("第零节　开场") < sourced.index("model.v3.layers")
    assert "4.07 TiB" in derived and "公式：Σ 每个算子的字节 × 层数 ÷ 2⁴⁰" in derived and "layers = 61" in derived
    assert "理由：讲者的例子" in chosen and "「一千个输入」" in chosen and "第一节　电路" in chosen
    # a number only the notes say sits in the section whose script says it
    assert chosen.index("第一节　电路") < chosen.index("spoken.reverse_once")
    assert "未在任何一节出现" not in chosen
    assert "出处（未核实）：ST-MoE 表 4" in unconfirmed and "stability.zloss" not in sourced


def test_appendix_text_is_14_pt_and_pages_fit_their_box():
    sheet = beat_sheet()
    base = sample_ledger()["act_bill.total"]
    many = {f"act_bill.item{i}": {**base, "key": f"act_bill.item{i}", "formula": LONG_LINE[: 40 + i]}
            for i in range(60)}
    pages = paginate(grouped(many, sheet)["推来的"])
    assert len(pages) > 3
    for page in pages:
        assert text_height_emu(page, BOX_WIDTH, TEXT_PT) <= BOX_BOTTOM - BOX_TOP
        assert page[0].text.startswith("第零节　开场")  # every page says which section it is in
    assert pages[1][0].text == "第零节　开场（续）"
    listed = "\n".join(p.text for page in pages for p in page)
    assert all(key in listed for key in many)


def test_appendix_runs_are_at_least_14_pt(built):
    _, sheet, _, deck = built
    for slide in list(deck.slides)[len(talk(sheet)):]:
        for shape in slide.shapes:
            for paragraph in shape.text_frame.paragraphs:
                assert all(run.font.size.pt >= 14 for run in paragraph.runs), paragraph.text


def test_the_appendix_of_the_real_ledger(built, tmp_path):
    """Every entry of the lecture's ledger is on an appendix slide, under its own kind."""
    from lecture_numerics.ledger import ledger_entries
    from studio.present.deck_appendix import kind_of
    from studio.engine import registry

    entries = ledger_entries({sid: e.ledger_keys for sid, e in registry.discover().items()})
    quality_dir, sheet, _, _ = built
    deck = pptx.Presentation(str(build_deck(quality_dir, sheet, entries)))
    for key, entry in entries.items():
        assert f"\u3000{key}" in appendix_text(deck, kind_of(entry)), key


# ---- publishing and bad input ----------------------------------------------------------------

def test_deck_is_published_whole_and_readable(built):
    quality_dir, *_ = built
    assert stat.S_IMODE((quality_dir / DECK_NAME).stat().st_mode) == atomic.published_mode()
    assert not list(quality_dir.glob(f".*{atomic.TMP_SUFFIX}"))


@pytest.mark.parametrize("field, value, message", [
    ("file", "fig-circuit/A/9.mp4", r"fig-circuit/A/9.mp4 is listed in cues.json but missing"),
    ("poster", "fig-circuit/A/9.jpg", r"fig-circuit/A/9.jpg is listed in cues.json but missing"),
])
def test_a_listed_file_that_is_missing_is_a_clear_error_and_the_deck_stays(built, field, value, message):
    quality_dir, sheet, deck_path, _ = built
    before = deck_path.read_bytes()
    broken = json.loads(json.dumps(sheet))
    broken["cues"][1]["steps"][0][field] = value
    with pytest.raises(UsageError, match=message):
        build_deck(quality_dir, broken, sample_ledger())
    assert deck_path.read_bytes() == before


def test_a_figure_cue_without_steps_is_a_clear_error(built):
    quality_dir, sheet, _, _ = built
    broken = json.loads(json.dumps(sheet))
    del broken["cues"][2]["steps"]
    with pytest.raises(UsageError, match=r"notes line 16 has no steps"):
        build_deck(quality_dir, broken, sample_ledger())


# ---- against the real cue sheet ---------------------------------------------------------

def test_the_real_cue_sheet_against_a_render_with_beats(tmp_path):
    """The notes' own cue sheet (studio.track.cues) against a render with beats: a slide per step,
    beats on consecutive slides, and every erratum the sheet gives a step on that slide."""
    from studio.track import cues

    quality_dir = tmp_path / "low"
    quality_dir.mkdir()
    sheet = cues.publish(quality_dir, beat_manifest(quality_dir))
    deck = pptx.Presentation(str(build_deck(quality_dir, sheet, sample_ledger())))
    steps = talk(sheet)
    assert len(deck.slides) == len(steps) + 6     # the appendix: opener, colour key, one page per kind
    shown = [step["file"] for _, step in steps if step["file"]]
    first = shown.index("fig-circuit/A/1.mp4")
    assert shown[first:first + 3] == ["fig-circuit/A/1.mp4", "fig-circuit/A/2.mp4", "fig-circuit/B/1.mp4"]
    errata = 0
    for (cue, step), slide in zip(steps, deck.slides):
        notes = [p.text for p in slide.notes_slide.notes_text_frame.paragraphs]
        for erratum in step["errata"]:
            assert erratum_text(erratum) in notes, (cue["line"], erratum["key"])
            errata += 1
        if step["file"]:
            assert autostart_effects(slide), step["file"]
        if cue["kind"] == "section":  # its card and its notes are about the same section
            opening = notes[0]
            assert cue["title"] in slide_text(slide) and cue["title"].split("\u3000")[0] in opening, opening
    assert errata == sum(len(c["errata"]) for c in sheet["cues"]) > 0


@pytest.mark.render
def test_render_py_pptx_writes_the_deck_next_to_the_videos(tmp_path):
    from tests.render_helpers import manifest as read_manifest, render

    out = tmp_path / "out"
    result = render("tiny", "--quality", "low", "--out", str(out), "--pptx", "--deck-quality", "low")
    assert result.returncode == 0, result.stderr + result.stdout
    qdir = out / "low"
    sheet = json.loads((qdir / "cues.json").read_text(encoding="utf-8"))
    deck = pptx.Presentation(str(qdir / DECK_NAME))
    steps = sum(len(c["steps"]) for c in sheet["cues"])
    titles = [slide_text(s).splitlines()[0] for s in list(deck.slides)[steps:]]
    assert titles[0] == "附录：每个数字从哪来" and len(deck.slides) > steps + 4
    assert read_manifest(qdir)["scenes"][0]["id"] == "tiny"
    for name in ("index.html", "manifest.json", "cues.json", DECK_NAME):
        assert stat.S_IMODE((qdir / name).stat().st_mode) == atomic.published_mode(), name


@pytest.mark.render
def test_the_deck_is_made_at_the_projectors_size_by_default(tmp_path):
    """--quality low --pptx: the videos at low, the deck from a 1280×720 render (rendered once,
    cached after), so a deck never carries pixels the room does not see."""
    from tests.render_helpers import probe, render

    out = tmp_path / "out"
    result = render("tiny", "--quality", "low", "--out", str(out), "--pptx")
    assert result.returncode == 0, result.stderr + result.stdout
    assert (out / "low" / "tiny.mp4").is_file() and not (out / "low" / DECK_NAME).exists()
    assert pptx.Presentation(str(out / "medium" / DECK_NAME)).slides     # the deck sits with its clips
    stream = probe(out / "medium" / "tiny.mp4")["streams"][0]
    assert (stream["width"], stream["height"]) == (1280, 720)
    again = render("tiny", "--quality", "low", "--out", str(out), "--pptx")
    assert again.returncode == 0 and "2 rendered" not in again.stdout and "1 rendered" not in again.stdout


def test_an_unknown_deck_quality_is_refused_before_rendering(tmp_path):
    from tests.render_helpers import render

    result = render("tiny", "--out", str(tmp_path / "out"), "--pptx", "--deck-quality", "8k")
    assert result.returncode == 2 and "unknown --deck-quality '8k'" in result.stderr
    assert not (tmp_path / "out").exists()
