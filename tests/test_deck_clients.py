"""The deck in a real client: LibreOffice Impress converts it (to PDF with its notes pages,
and back to PPTX to see how it read the movies), and poppler reads the result.

- every slide is a page, and so is every notes page;
- no notes page loses a line: the whole talk's notes (the real notes, one step per view)
  are on their pages, every word above the foot of the notes box;
- the marks ⭐ ⛔ 🖥 ⚠ are drawn with a face that has them (not a box, not blank);
- Impress reads each movie as starting with its slide, not on a click;
- the appendix slides are there and every word of them is inside its slide.

LibreOffice (``libreoffice-impress``) and poppler (``poppler-utils``) are Debian packages that
``scripts/setup.sh test`` installs; a missing one fails these tests, it never skips them.
One conversion takes a few seconds (``make check-clients`` runs only these client tests).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pptx
import pytest
from lxml import etree

from studio.present.deck import build_deck
from studio.present.deck_appendix import BOX_BOTTOM, BOX_LEFT, BOX_WIDTH, TEXT_PT
from studio.present.deck_notes import BODY_BOTTOM
from studio.present.deck_text import EMU_PER_PT
from tests.deck_fixtures import beat_manifest, beat_sheet, real_notes_sheet, sample_ledger

P = "{http://schemas.openxmlformats.org/presentationml/2006/main}"
NOTES_EXPORT = 'pdf:impress_pdf_Export:{"ExportNotesPages":{"type":"boolean","value":"true"}}'
SLIDE_PT, NOTES_PT = (960, 540), (540, 720)
# Slack for how poppler boxes a word (its box includes the face's full descent).
SLACK_PT = 3


def tool(name: str, package: str) -> str:
    found = shutil.which(name)
    assert found, f"{name} is needed for the client tests (Debian package {package}; scripts/setup.sh test)"
    return found


@dataclass
class Word:
    x0: float
    y0: float
    x1: float
    y1: float
    text: str


@dataclass
class Page:
    width: float
    height: float
    words: list[Word]

    @property
    def text(self) -> str:
        return "".join(w.text for w in self.words)


def pages_of(pdf: Path) -> list[Page]:
    xml = subprocess.run([tool("pdftotext", "poppler-utils"), "-bbox", str(pdf), "-"],
                         capture_output=True, text=True, check=True).stdout
    pages = []
    for match in re.finditer(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', xml, re.S):
        words = [Word(float(a), float(b), float(c), float(d), etree.fromstring(f"<w>{t}</w>").text or "")
                 for a, b, c, d, t in re.findall(
                     r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>', match[3])]
        pages.append(Page(float(match[1]), float(match[2]), words))
    return pages


class Impress:
    """soffice --headless with a profile of its own (none of the user's settings, and two
    test runs never share one)."""

    def __init__(self, profile: Path):
        self.binary = tool("soffice", "libreoffice-impress")
        self.profile = profile

    def convert(self, deck: Path, target: str, out: Path) -> Path:
        result = subprocess.run(
            [self.binary, f"-env:UserInstallation={self.profile.as_uri()}", "--headless",
             "--convert-to", target, "--outdir", str(out), str(deck)],
            capture_output=True, text=True, timeout=600)
        produced = out / f"{deck.stem}.{target.split(':')[0]}"
        assert result.returncode == 0 and produced.is_file(), result.stdout + result.stderr
        return produced


@pytest.fixture(scope="module")
def impress(tmp_path_factory):
    return Impress(tmp_path_factory.mktemp("lo-profile"))


@pytest.fixture(scope="module")
def whole_talk(tmp_path_factory, impress):
    """The real notes and the real ledger, converted with notes pages."""
    from lecture_numerics.ledger import ledger_entries
    from studio.engine import registry

    quality_dir = tmp_path_factory.mktemp("talk")
    sheet = real_notes_sheet()
    ledger = ledger_entries({sid: e.ledger_keys for sid, e in registry.discover().items()})
    deck_path = build_deck(quality_dir, sheet, ledger)
    pdf = impress.convert(deck_path, NOTES_EXPORT, quality_dir / "pdf")
    return sheet, pptx.Presentation(str(deck_path)), pages_of(pdf)


@pytest.fixture(scope="module")
def clips_deck(tmp_path_factory, impress):
    """The small deck with real clips and beats."""
    quality_dir = tmp_path_factory.mktemp("clips") / "low"
    quality_dir.mkdir()
    beat_manifest(quality_dir)
    deck_path = build_deck(quality_dir, beat_sheet(), sample_ledger())
    return deck_path, pptx.Presentation(str(deck_path)), impress


def squeeze(text: str) -> str:
    return re.sub(r"\s+", "", text)


def test_every_slide_and_every_notes_page_is_a_page(whole_talk):
    sheet, deck, pages = whole_talk
    slides = len(deck.slides)
    assert slides > sum(len(c["steps"]) for c in sheet["cues"]) + 20  # the talk, then a long appendix
    assert len(pages) == 2 * slides
    assert {(round(p.width), round(p.height)) for p in pages[:slides]} == {SLIDE_PT}
    assert {(round(p.width), round(p.height)) for p in pages[slides:]} == {NOTES_PT}


def test_no_notes_page_loses_a_line(whole_talk):
    sheet, deck, pages = whole_talk
    foot = BODY_BOTTOM / EMU_PER_PT + SLACK_PT
    notes_pages = pages[len(deck.slides):]
    for number, (slide, page) in enumerate(zip(deck.slides, notes_pages), start=1):
        drawn = squeeze(page.text)
        for paragraph in slide.notes_slide.notes_text_frame.paragraphs:
            # poppler may read a run after a wide gap (　) as a column of its own: look for
            # each gap-separated piece, not the paragraph in one piece
            for piece in paragraph.text.split():
                assert piece in drawn, f"notes page {number} lost 「{piece}」 of 「{paragraph.text[:30]}…」"
        page_number = page.words[-1]  # the footer's page number, drawn last
        assert page_number.text == str(number)
        lowest = max(w.y1 for w in page.words[:-1])
        assert lowest <= foot, f"notes page {number}: text runs to {lowest:.0f} pt, below the notes box ({foot:.0f} pt)"


def test_the_longest_notes_stay_at_least_7_pt_and_most_keep_12_pt(whole_talk):
    _, deck, _ = whole_talk
    sizes = [slide.notes_slide.notes_text_frame.paragraphs[0].runs[0].font.size.pt for slide in deck.slides]
    assert min(sizes) >= 7
    assert sizes.count(12) > 0.8 * len(sizes)


def fonts_of_page(pdf: Path, number: int) -> str:
    return subprocess.run([tool("pdffonts", "poppler-utils"), "-f", str(number), "-l", str(number), str(pdf)],
                          capture_output=True, text=True, check=True).stdout


def test_the_marks_are_drawn_with_a_face_that_has_them(clips_deck, tmp_path):
    deck_path, deck, impress = clips_deck
    pdf = impress.convert(deck_path, NOTES_EXPORT, tmp_path)
    pages = pages_of(pdf)
    slides = len(deck.slides)
    for mark in ("⭐", "⛔", "🖥", "⚠"):
        number = next(i for i, p in enumerate(pages[slides:], start=slides + 1) if mark in p.text)
        fonts = fonts_of_page(pdf, number)
        assert "Symbola" in fonts, f"{mark} on page {number} drawn without a symbol face:\n{fonts}"
    every_font = fonts_of_page(pdf, 1) + "".join(fonts_of_page(pdf, n) for n in range(slides + 1, len(pages) + 1))
    assert "NotoColorEmoji" not in every_font  # Impress 7.4 exports its glyphs blank


def starts_with_the_slide(slide) -> list[str]:
    """The movies (spids) that Impress's own PPTX plays without a click: the main sequence's
    steps that begin at once (no 'indefinite' start, which is a click) and call playFrom."""
    timing = slide._element.find(f"{P}timing")
    played = []
    for main in ([] if timing is None else timing.iter(f"{P}cTn")):
        if main.get("nodeType") != "mainSeq":
            continue
        for step in main.find(f"{P}childTnLst").findall(f"{P}par"):
            delays = [c.get("delay") for c in step.find(f"{P}cTn/{P}stCondLst")]
            if "indefinite" in delays:
                continue
            played += [cmd.find(f".//{P}spTgt").get("spid") for cmd in step.iter(f"{P}cmd")
                       if cmd.get("cmd", "").startswith("playFrom")]
    return played


def test_impress_reads_every_movie_as_starting_with_its_slide(clips_deck, tmp_path):
    deck_path, deck, impress = clips_deck
    saved = pptx.Presentation(str(impress.convert(deck_path, "pptx:Impress MS PowerPoint 2007 XML", tmp_path)))
    with_movies = 0
    for ours, theirs in zip(deck.slides, saved.slides):
        theirs_movies = [s for s in theirs.shapes if s.shape_type is not None and s.shape_type.name == "MEDIA"]
        ours_movies = [s for s in ours.shapes if s.shape_type is not None and s.shape_type.name == "MEDIA"]
        assert len(theirs_movies) == len(ours_movies)
        if theirs_movies:
            with_movies += 1
            assert starts_with_the_slide(theirs) == [str(theirs_movies[0].shape_id)]
    assert with_movies == 5


def test_movie_slides_show_their_poster(clips_deck, tmp_path):
    deck_path, deck, impress = clips_deck
    pdf = impress.convert(deck_path, "pdf", tmp_path)
    listing = subprocess.run([tool("pdfimages", "poppler-utils"), "-list", str(pdf)],
                             capture_output=True, text=True, check=True).stdout.splitlines()[2:]
    pages_with_images = {int(row.split()[0]) for row in listing}
    has_movie = {n for n, s in enumerate(deck.slides, start=1)
                 if any(sh.shape_type is not None and sh.shape_type.name == "MEDIA" for sh in s.shapes)}
    assert has_movie and has_movie <= pages_with_images


def test_the_appendix_slides_are_there_and_inside_their_slide(whole_talk):
    sheet, deck, pages = whole_talk
    slides = list(deck.slides)
    first = next(i for i, s in enumerate(slides)
                 if any(sh.has_text_frame and sh.text_frame.text == "附录：每个数字从哪来" for sh in s.shapes))
    assert first == sum(len(c["steps"]) for c in sheet["cues"])  # right after the talk
    titles = [squeeze(p.text)[:12] for p in pages[first:len(slides)]]
    for kind in ("查来的", "推来的", "示例取值", "待核"):
        assert any(t.startswith(f"附录·{kind}") for t in titles), kind
    # A CJK comma or full stop may hang one character past the end of a line.
    right = (BOX_LEFT + BOX_WIDTH) / EMU_PER_PT + TEXT_PT
    bottom = BOX_BOTTOM / EMU_PER_PT + SLACK_PT
    for number, page in enumerate(pages[first:len(slides)], start=first + 1):
        assert max(w.y1 for w in page.words) <= bottom, f"appendix slide {number} runs below its box"
        assert max(w.x1 for w in page.words) <= right, f"appendix slide {number} runs past its box"



def test_the_notes_pages_carry_each_steps_numbers_and_the_appendix_where_they_are_shown(clips_deck, tmp_path):
    """「本屏数字」 on the notes page of the step that shows them, each with its kind and source,
    as Impress draws it; the appendix names the slide and beat where each is first shown."""
    deck_path, deck, impress = clips_deck
    pages = pages_of(impress.convert(deck_path, NOTES_EXPORT, tmp_path))
    slides = len(deck.slides)
    steps = [step for cue in beat_sheet()["cues"] for step in cue["steps"]]
    shown = 0
    for number, step in enumerate(steps):
        notes = squeeze(pages[slides + number].text)
        if not step.get("numbers"):
            assert "本屏数字" not in notes, f"notes page {number + 1} lists numbers it does not show"
            continue
        shown += 1
        for line in ("本屏数字：", "1. 4.07 TiB〔推来的〕—— 公式：Σ 每个算子的字节 × 层数 ÷ 2⁴⁰",
                     "2. 1×10⁻³〔待核〕—— 出处（未核实）：ST-MoE 表 4（转写，未读原文）"):
            assert squeeze(line) in notes, f"notes page {number + 1} lost 「{line}」"
    assert shown == 1
    appendix = "".join(squeeze(page.text) for page in pages[len(steps):slides])
    assert squeeze("首次出现：第 3 页 · L10 fig-circuit Ⓐ 第 2 拍") in appendix
