"""Beats: stops inside a panel, each tied to the sentence the speaker says there.

The rules (tests/beat_checks.py) run on every lecture scene in tests/test_scene_legibility.py,
which builds each scene's stills once for them and the legibility checks. Here: fig-vote's
beats against its notes, and small scenes made here show each rule can fail.
"""

from __future__ import annotations

import pytest
from manim import FadeIn, Square

from scenes.kit.base import LectureScene
from scenes.kit.text import words
from studio.track import beats
from studio.engine import registry
from tests import beat_checks
from studio.engine.stills import build_scene, build_scene_class

# The lecture's walkthroughs: the scenes whose beats quote the speaker.
QUOTING = [sid for sid, entry in registry.discover().items() if "says=" in entry.path.read_text(encoding="utf-8")]


def test_walkthroughs_in_beats_include_fig_vote():
    assert "fig-vote" in QUOTING


def test_fig_vote_beats_follow_the_notes():
    scene = build_scene("fig-vote")
    per_panel = {p: [b.n for b in scene.beats if b.panel == p] for p in "ABC"}
    assert {p: len(ns) for p, ns in per_panel.items()} == {"A": 5, "B": 9, "C": 7}
    # The question is put to the room before its answer, each on its own step.
    says = [b.says for b in scene.beats]
    assert says.index("要是从头到尾只听第一个人的，这个网络最后会学会什么？") + 1 == says.index("不管你问什么，它都答「的」")


# ---- the rules bite: a small scene breaking each --------------------------------------

class Beats(LectureScene):
    scene_id = "beats-demo"

    def construct(self):
        self.panel("A", says="first", takeaway="甲")
        self.play(FadeIn(Square()), run_time=0.2)
        self.beat(says="second", takeaway="乙")
        self.play(FadeIn(words("丙")), run_time=0.2)
        self.beat(says="third", takeaway="丁", replaces=True)
        self.panel("B")
        self.clear()
        self.play(FadeIn(words("戊")), run_time=0.2)


def test_each_beat_gets_a_still_and_a_section():
    scene = build_scene_class(Beats, capture_stills=True)
    assert [s.name for s in scene.section_stills] == ["A.1", "A.2", "A.3", "B.1"]
    assert [b.name for b in scene.beats] == ["A.1", "A.2", "A.3", "B.1"]
    shown = {s.name: beat_checks.takeaways_on_screen(s.mobjects) for s in scene.section_stills}
    assert shown["A.1"] == {"A.1"} and shown["A.2"] == {"A.1", "A.2"}
    assert shown["A.3"] == {"A.1", "A.3"}, "a replacing beat swaps the newest takeaway, keeps the rest"
    assert shown["B.1"] == set()


def test_takeaways_stack_without_overlap():
    scene = build_scene_class(Beats, capture_stills=True)
    lines = [m for m in scene.section_stills[1].mobjects if getattr(m, "takeaway_of", None)]
    first, second = sorted(lines, key=lambda m: -m.get_center()[1])
    assert first.get_bottom()[1] > second.get_top()[1], "takeaways overlap"
    assert [first.takeaway_of, second.takeaway_of] == ["A.1", "A.2"], "takeaways are not in the order said"


def test_a_beat_before_any_panel_is_an_error():
    class Early(LectureScene):
        def construct(self):
            self.beat(says="too soon")

    with pytest.raises(RuntimeError, match="before any panel"):
        build_scene_class(Early)


def test_quotes_out_of_order_are_not_found():
    lines = [(10, "先看红色。它每弹一次幅度更大"), (11, "再看蓝色")]
    first = beats.locate("再看蓝色", lines)
    assert first == beats.Place(11, 0)
    assert beats.locate("先看红色", lines, after=first) is None
    assert beats.locate("它每弹 一次", lines) == beats.Place(10, 5), "spaces in the notes are not words"


def test_a_takeaway_cleared_before_its_panel_ends_is_found():
    class Cleared(LectureScene):
        scene_id = "cleared-demo"

        def construct(self):
            self.panel("A", says=STARRED[0], takeaway="甲")
            self.play(FadeIn(Square()), run_time=0.2)
            self.beat(says="second")
            self.clear()
            self.play(FadeIn(words("乙")), run_time=0.2)

    scene = build_scene_class(Cleared, capture_stills=True)
    assert beat_checks.lost_takeaways("cleared-demo", scene) == [
        "cleared-demo A.1: its takeaway is gone from A's final frame"]
    assert beat_checks.silent_beats(scene) == []


# Sentences of the real notes and how they are marked there.
STARRED = ("而这台调音台有三千亿个推子",          # ⭐⭐⭐ on its own line
           "所以记住：梯度不是一个数，是三千亿个数",   # ⛔
           "那这个推子的导数就是")                    # ⭐
PLAIN_SAID = "读作：你动一格，它动三格"


class Stack(LectureScene):
    """Four takeaways in one panel: plain, ⭐, plain, then ⭐⭐⭐."""
    scene_id = "stack-demo"

    def construct(self):
        self.panel("A", says=PLAIN_SAID, takeaway="开头平常的话")
        self.beat(says=STARRED[2], takeaway="接着带星的话")
        self.beat(says="二乘零点五乘三", takeaway="然后平常的话")
        self.beat(says=STARRED[0], takeaway="最后最重的话")


def _lines(still):
    return [m for m in still.mobjects if getattr(m, "takeaway_of", None)]


def test_at_most_two_takeaways_at_full_strength_and_older_starred_ones_fold_into_a_recap():
    scene = build_scene_class(Stack, capture_stills=True)
    final = scene.section_stills[-1]
    assert len(_lines(final)) == 2
    assert sorted(m.takeaway_of for m in _lines(final)) == ["A.3", "A.4"]
    recaps = [m for m in final.mobjects if getattr(m, "recap_of", None)]
    assert [r.recap_of for r in recaps] == [["A.2"]], "the ⭐ line folds into the recap, the plain one leaves"
    assert recaps[0].get_bottom()[1] > max(m.get_top()[1] for m in _lines(final)), "an older line stands above"


def test_a_three_star_takeaway_is_the_largest_text_and_the_rest_step_back():
    from scenes.kit import theme

    scene = build_scene_class(Stack, capture_stills=True)
    final = scene.section_stills[-1]
    key = next(m for m in _lines(final) if m.takeaway_of == "A.4")
    other = next(m for m in _lines(final) if m.takeaway_of == "A.3")
    assert key.height >= 1.15 * other.height
    muted = theme.text_color("muted").to_hex().upper()
    assert other.get_color().to_hex().upper() == muted
    assert scene.beats[-1].emphasis.stars == 3


def test_a_warning_takeaway_stands_on_a_highlight_band_in_ink():
    """⛔ is marked by a pale band of the accent (the key's 强调), never by a bar a viewer reads
    as a stray 「|」, and the sentence itself stays in ink."""
    from manim import Line
    from scenes.kit import theme

    class Warned(LectureScene):
        scene_id = "warned-demo"

        def construct(self):
            self.panel("A", says=STARRED[1], takeaway="梯度不是一个数")

    scene = build_scene_class(Warned, capture_stills=True)
    line = _lines(scene.section_stills[-1])[0]
    bands = [m for m in line.get_family() if getattr(m, "warning_band", False)]
    assert len(bands) == 1
    band = bands[0]
    assert band.get_fill_color().to_hex().upper() == theme.color("accent").to_hex().upper()
    assert 0 < band.get_fill_opacity() < 0.5, "a pale band: the ink text on it keeps its contrast"
    text = [m for m in line.submobjects if m is not band][0]
    assert band.width > text.width and band.height > text.height, "the band sits around the sentence"
    assert not any(isinstance(part, Line) for part in line.get_family())


def test_the_line_before_the_newest_steps_back_however_the_notes_marked_it():
    """The sentence being said leads: the line before it turns muted and smaller, a ⭐⭐⭐ one too
    (kept at its size under a newer line, it was read first)."""
    from scenes.kit import theme

    muted = theme.text_color("muted").to_hex().upper()

    class Led(LectureScene):
        scene_id = "led-demo"

        def construct(self):
            self.panel("A", says=STARRED[2], takeaway="先带星的话")
            self.beat(says=PLAIN_SAID, takeaway="再平常的话")
            self.beat(says=STARRED[0], takeaway="最重的话")
            self.beat(says="二乘零点五乘三", takeaway="最后平常的话")

    scene = build_scene_class(Led, capture_stills=True)
    for index, (before, newest) in enumerate((("A.1", "A.2"), ("A.2", "A.3"), ("A.3", "A.4")), start=1):
        shown = {m.takeaway_of: m for m in _lines(scene.section_stills[index])}
        assert shown[before].get_color().to_hex().upper() == muted, f"{before} steps back under {newest}"
        assert shown[newest].get_color().to_hex().upper() != muted, f"{newest} leads"
        assert shown[newest].height > shown[before].height, f"{newest} is the larger line"
    assert scene.beats[2].emphasis.stars == 3, "the stepped-back line of the last beat is a ⭐⭐⭐ one"


def test_dim_takeaways_steps_every_shown_takeaway_back():
    from scenes.kit import theme

    class Dimmed(LectureScene):
        scene_id = "dimmed-demo"

        def construct(self):
            self.panel("A", says="first", takeaway="甲")
            self.play(FadeIn(Square()), run_time=0.2)
            self.beat(says="second", takeaway="乙")
            self.show_takeaway()
            self.play(*self.dim_takeaways(), run_time=0.2)

    scene = build_scene_class(Dimmed, capture_stills=True)
    lines = [m for m in scene.section_stills[-1].mobjects if getattr(m, "takeaway_of", None)]
    muted = theme.text_color("muted").to_hex().upper()
    assert len(lines) == 2 and all(m.get_color().to_hex().upper() == muted for m in lines)


def test_a_question_to_the_room_leads_even_under_a_key_sentence():
    from scenes.kit import theme

    class Asked(LectureScene):
        scene_id = "asked-demo"

        def construct(self):
            self.panel("A", says=STARRED[0], takeaway="最重的话")
            self.beat(says="二乘零点五乘三", takeaway="为什么反过来了？")

    scene = build_scene_class(Asked, capture_stills=True)
    last = {m.takeaway_of: m for m in _lines(scene.section_stills[-1])}
    assert last["A.1"].get_color().to_hex().upper() == theme.text_color("muted").to_hex().upper()
    assert last["A.2"].height >= last["A.1"].height


def test_dimming_a_warning_line_fades_its_band_instead_of_greying_it():
    from scenes.kit import theme

    class DimmedWarning(LectureScene):
        scene_id = "dimmed-warning-demo"

        def construct(self):
            self.panel("A", says=STARRED[1], takeaway="梯度不是一个数")
            self.beat(says="second", takeaway="乙")
            self.play(*self.dim_takeaways(), run_time=0.2)

    scene = build_scene_class(DimmedWarning, capture_stills=True)
    line = next(m for m in _lines(scene.section_stills[0]) if m.takeaway_of == "A.1")
    band = next(m for m in line.get_family() if getattr(m, "warning_band", False))
    assert band.get_fill_opacity() > 0
    # The final frame: the warning line was dimmed while A.2 was open.
    line = next(m for m in _lines(scene.section_stills[-1]) if m.takeaway_of == "A.1")
    bands = [m for m in line.get_family() if getattr(m, "warning_band", False)]
    assert all(b.get_fill_opacity() == 0 for b in bands), "the band fades, it does not turn grey"
    muted = theme.text_color("muted").to_hex().upper()
    words = [m for m in line.submobjects if not getattr(m, "warning_band", False)]
    assert all(w.get_color().to_hex().upper() == muted for w in words)


def test_clear_takeaways_leaves_the_new_line_alone_and_counts_as_replacing():
    class Cleared(LectureScene):
        scene_id = "cleared-stack-demo"

        def construct(self):
            self.panel("A", says=STARRED[2], takeaway="先带星的话")
            self.beat(says=STARRED[1], takeaway="梯度不是一个数")
            self.beat(says="second", takeaway="只剩这一句")
            self.play(*self.clear_takeaways(), run_time=0.2)

    scene = build_scene_class(Cleared, capture_stills=True)
    assert [m.takeaway_of for m in _lines(scene.section_stills[-1])] == ["A.3"]
    assert not [m for m in scene.section_stills[-1].mobjects if getattr(m, "recap_of", None)]
    assert beat_checks.lost_takeaways("cleared-stack-demo", scene) == []


def test_each_beat_lists_the_ledger_numbers_visible_as_it_ends():
    """The numbers a beat shows, as the kit drew them: a number faded out is gone from the list,
    one drawn inside a sentence is in it, and the list is what the still shows."""
    from manim import FadeOut

    from scenes.kit.text import line, number
    from tests import legibility_checks as checks

    class Numbers(LectureScene):
        scene_id = "numbers-demo"

        def construct(self):
            self.panel("A", says="first")
            push = number("slider.push")
            self.play(FadeIn(push), FadeIn(line("读数 {slider.readout_before}").shift(UP)), run_time=0.2)
            self.beat(says="second")
            self.play(FadeOut(push), run_time=0.2)

    from manim import UP

    scene = build_scene_class(Numbers, capture_stills=True)
    first, second = scene.beats
    assert first.numbers_shown == ["slider.push", "slider.readout_before"]
    assert second.numbers_shown == ["slider.readout_before"]
    from lecture_numerics import quantity

    drawn = " ".join(checks.drawn_string(t) for t in checks.texts_in(scene.section_stills[-1].mobjects)
                     if checks.visible(t))
    assert quantity("slider.readout_before").display in drawn and quantity("slider.push").display not in drawn
