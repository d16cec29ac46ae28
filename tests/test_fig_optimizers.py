"""fig-optimizers, checked on the built scene (no rendering) against the reviews of issue 26 and
of its stills: Ⓑ's ruler in fig-zero's colours with heavy segment borders, 「？」 marks in a
highlight role that no border runs through, gathered into the question's own mark, and the
three ⭐⭐⭐ lines (question, 「同一条判据」, criterion) as the panel's takeaways; Ⓐ's levels on
the kit's plot, RMSProp dated by fig-lineage's own year, the climb's label clear of the nodes, and Muon's
caption only once the v cells have left an emptied slot marked 「− v」 beside 「16 → 12 字节」."""

from __future__ import annotations

import numpy as np
import pytest
from manim import Circle, DashedVMobject, Rectangle, VMobject

from lecture_numerics import lineage, optimizer_state, quantity
from scenes import fig_optimizers, fig_zero
from scenes.kit import theme
from scenes.kit.plots import Plot
from studio.engine.stills import build_scene_class
from tests.legibility_checks import drawn_string, texts_in

RULER_BYTES = int(optimizer_state.PER_PARAM_TOTAL.value)
MARK = "？"
ANY_MARK = (MARK, "?")   # the ASCII one is found too, so the tests below can say what is wrong with it
PX = 8 / 720            # scene units per pixel at 1280×720
CLIMB = "一路往上加"      # the climb's label, the speaker's 「三十年一路往上加」


class Recorded(fig_optimizers.FigOptimizers):
    """The scene, with a copy of what is on screen after every play."""

    def setup(self) -> None:
        super().setup()
        self.after_plays: list[list] = []

    def play(self, *args, **kwargs) -> None:
        super().play(*args, **kwargs)
        self.after_plays.append([m.copy() for m in self.mobjects])   # as it was: later plays change them


@pytest.fixture(scope="module")
def scene():
    return build_scene_class(Recorded, capture_stills=True)


@pytest.fixture(scope="module")
def stills(scene):
    return {s.name: s.mobjects for s in scene.section_stills}


def _family(mobjects) -> list:
    """Everything drawn, once each, in drawing order."""
    return list({id(p): p for m in mobjects for p in m.get_family()}.values())


def _cells(mobjects) -> list[Rectangle]:
    """A ruler's byte cells on screen, left to right: the most numerous set of equal filled
    rectangles (segment frames are unfilled, and wider)."""
    rects = [p for p in _family(mobjects) if isinstance(p, Rectangle) and p.get_fill_opacity() > 0.05]
    sizes: dict[tuple[float, float], list] = {}
    for r in rects:
        sizes.setdefault((round(r.width, 2), round(r.height, 2)), []).append(r)
    return sorted(max(sizes.values(), key=len), key=lambda r: r.get_x()) if sizes else []


def _segments(cells) -> list[list[Rectangle]]:
    bounds = np.cumsum([0] + [q.value for _, q, _ in optimizer_state.RULER])
    return [cells[lo:hi] for lo, hi in zip(bounds, bounds[1:])]


def _group_box(mobs) -> tuple[float, float, float, float]:
    boxes = np.array([_box(m) for m in mobs])
    return boxes[:, 0].min(), boxes[:, 1].min(), boxes[:, 2].max(), boxes[:, 3].max()


def _visible(mob) -> bool:
    return mob.get_fill_opacity() > 0.05 or mob.get_stroke_opacity() > 0.05


def _box(mob) -> tuple[float, float, float, float]:
    (x0, y0, _), (x1, y1, _) = mob.get_corner(np.array([-1, -1, 0])), mob.get_corner(np.array([1, 1, 0]))
    return x0, y0, x1, y1


def _contains(outer, inner) -> bool:
    return outer[0] <= inner[0] and outer[1] <= inner[1] and outer[2] >= inner[2] and outer[3] >= inner[3]


def _last_still(stills, panel: str):
    return stills[max((n for n in stills if n.startswith(panel + ".")), key=lambda n: int(n.split(".")[1]))]


def test_the_ruler_uses_fig_zeros_roles_for_the_same_bytes(stills):
    """2 + 2 + 12 are weights, gradients, optimizer state, as fig-zero draws them."""
    weights, gradients, optimizer = (theme.color(r).to_hex() for r in fig_zero.SEGMENT_COLORS)
    expected = [weights, gradients, optimizer, optimizer, optimizer]
    cells = _cells(_last_still(stills, "B"))
    assert len(cells) == RULER_BYTES
    drawn = [{c.get_fill_color().to_hex() for c in segment} for segment in _segments(cells)]
    assert drawn == [{e} for e in expected]


def test_segment_borders_are_heavier_than_cell_borders(stills):
    """「三份 fp32、两份 bf16」 counts segments: each has its own frame, heavier than a cell's."""
    mobjects = _last_still(stills, "B")
    cells = _cells(mobjects)
    cell_stroke = max(c.get_stroke_width() for c in cells)
    frames = [p for p in _family(mobjects) if isinstance(p, Rectangle) and p.get_stroke_width() > cell_stroke]
    for j, segment in enumerate(_segments(cells)):
        assert any(np.allclose(_box(f), _group_box(segment), atol=0.03) for f in frames), f"segment {j} has no frame"


def _question_still(stills):
    """The still with a 「？」 on every segment of the ruler."""
    found = next((m for n, m in stills.items() if n.startswith("B.")
                  and sum(drawn_string(t) in ANY_MARK for t in texts_in(m)) == len(optimizer_state.RULER)), None)
    assert found is not None, "no beat shows a question mark on every segment"
    return found


def _question(mobjects):
    return next(t for t in texts_in(mobjects) if drawn_string(t).startswith("为什么"))


def test_no_cell_border_runs_through_a_question_mark(stills):
    """Each 「？」 either clears every cell edge or sits on an opaque disc drawn over the bar."""
    question_still = _question_still(stills)
    order = _family(question_still)
    cells = _cells(question_still)
    bar_box = _group_box(cells)
    last_cell = max(order.index(c) for c in cells)
    glyphs = {id(g) for t in texts_in(question_still) for g in t.get_family()}
    edges = sorted({round(x, 3) for c in cells for x in (c.get_left()[0], c.get_right()[0])})
    crossed = []
    for mark in (t for t in texts_in(question_still) if drawn_string(t) in ANY_MARK):
        x0, y0, x1, y1 = _box(mark)
        through = any(x0 < x < x1 for x in edges) and y0 < bar_box[3] and y1 > bar_box[1]
        covers = [p for p in order[last_cell + 1:]
                  if isinstance(p, VMobject) and len(p.points) and p.get_fill_opacity() > 0.99
                  and id(p) not in glyphs and _contains(_box(p), (x0, y0, x1, y1))]
        if through and not covers:
            crossed.append(mark.get_center()[:2].round(2).tolist())
    assert not crossed, f"cell borders run through the 「?」 at {crossed}"


def test_the_state_levels_are_the_kits_plot(stills):
    assert any(isinstance(p, Plot) for p in _family(_last_still(stills, "A")))


def test_rmsprop_is_dated_by_fig_lineages_year(stills):
    """One declaration: the year under RMSProp is fig-lineage's quantity, drawn with the others."""
    assert optimizer_state.YEARS["rmsprop"] is lineage.YEAR_RMSPROP
    texts = texts_in(_last_still(stills, "A"))
    name = next(t for t in texts if drawn_string(t) == "RMSProp")
    year = quantity("lineage.year_rmsprop").display
    below = [t for t in texts if drawn_string(t) == year and abs(t.get_x() - name.get_x()) < 0.3
             and t.get_y() < name.get_y()]
    assert below, f"no {year} under RMSProp"


def _visible_cells(mobjects) -> list[Rectangle]:
    on_screen = _family(mobjects)
    return [c for c in _cells(on_screen) if _visible(c)]


def test_muons_caption_comes_after_the_v_cells_leave(scene):
    """「把二阶矩那一整份拿掉了」 is said of cells already gone: no frame shows both."""
    panel_a = scene.after_plays[[i for i, m in enumerate(scene.after_plays)
                                 if any("按每个参数" in drawn_string(t) for t in texts_in(m))][0]:]
    seen_v, captioned = False, 0
    for mobjects in panel_a:
        v_shown = len(_visible_cells(mobjects)) == RULER_BYTES      # the whole ruler: v still in it
        seen_v |= v_shown
        if any("拿掉" in drawn_string(t) for t in texts_in(mobjects) if _visible(t)):
            captioned += 1
            assert seen_v and not v_shown, "the caption is on screen while the v cells are"
    assert captioned, "Muon's caption never shows"


def test_the_question_counts_stored_copies(stills):
    """On screen the question counts copies (份): the cells are bytes, so 「格」 would miscount."""
    d = {k: quantity(k).display for k in ("optimizers.ruler.fp32_segments", "optimizers.ruler.bf16_segments",
                                         "format.fp32.total_bits", "format.bf16.total_bits")}
    expected = (f"为什么{d['optimizers.ruler.fp32_segments']}份fp{d['format.fp32.total_bits']}、"
                f"{d['optimizers.ruler.bf16_segments']}份bf{d['format.bf16.total_bits']}{MARK}")
    assert drawn_string(_question(_question_still(stills))) == expected


def test_the_question_marks_are_not_the_gradients_red(stills):
    """Red is the gradient segment's colour on this ruler: a 「？」 badge must not borrow it."""
    mobjects = _question_still(stills)
    neutral = {theme.text_color(r).to_hex() for r in ("ink", "muted", "accent")}
    marks = [t for t in texts_in(mobjects) if drawn_string(t) in ANY_MARK]
    assert {t.get_fill_color().to_hex() for t in marks} <= neutral
    red = theme.color("backward").to_hex()
    discs = [p for p in _family(mobjects) if isinstance(p, Circle)]
    assert discs and all(d.get_stroke_color().to_hex() != red for d in discs)


def test_the_marks_step_back_on_their_segments(stills):
    """After 「不用一格一格记」 the five 「？」 stay on their segments, stepped back to muted (fig-precision
    Ⓒ answers them one by one; nothing flies across the takeaways); no ASCII 「?」 ever."""
    panel_b = [n for n in stills if n.startswith("B.")]
    assert all("?" not in drawn_string(t) for n in panel_b for t in texts_in(stills[n]))
    ordered = sorted(panel_b, key=lambda n: int(n.split(".")[1]))
    asked = next(n for n in ordered if stills[n] is _question_still(stills))
    after = ordered[ordered.index(asked) + 1:]
    assert after, "no beat after the question"
    muted = str(theme.text_color("muted")).upper()
    for name in [asked, *after]:
        marks = [t for t in texts_in(stills[name]) if _visible(t) and drawn_string(t) == MARK]
        assert len(marks) == len(optimizer_state.RULER), f"{name}: the segments' marks are not all there"
        stepped_back = [t.get_color().to_hex().upper() == muted.upper() for t in marks]
        assert all(stepped_back) if name != asked else not any(stepped_back), name


def test_the_three_key_lines_end_the_panel_question_above_answer(stills):
    """The three ⭐⭐⭐ lines are the panel's takeaways, in the order said: the question (folded into
    the muted recap), 「不用一份一份记」 stepped back, and the criterion, the largest text, at the
    bottom; nothing stands between the question and the criterion."""
    mobjects = _last_still(stills, "B")
    texts = [t for t in texts_in(mobjects) if _visible(t)]
    stack = sorted((t for t in texts if getattr(t, "takeaway_of", None) or getattr(t, "recap_of", None)),
                   key=lambda t: -t.get_y())
    question, rule, criterion = stack
    assert drawn_string(question) == drawn_string(_question(mobjects))
    assert [drawn_string(t) for t in (rule, criterion)] == ["不用一份一份记：同一条判据", "看这个量，老的贡献走不走"]
    assert criterion.font_size > max(t.font_size for t in texts if t is not criterion)
    between = [drawn_string(t) for t in texts if criterion.get_top()[1] < t.get_y() < question.get_bottom()[1]
               and t is not rule]
    assert not between, f"{between} between the question and the criterion"


def test_the_climb_label_stands_clear_above_the_staircase(stills):
    """「一路往上加」 sits in the open space above the nodes, clear of every name and year."""
    still = next(m for n, m in stills.items() if n.startswith("A.")
                 and any(drawn_string(t) == CLIMB for t in texts_in(m)))
    texts = texts_in(still)
    label = next(t for t in texts if drawn_string(t) == CLIMB)
    x0, y0, x1, y1 = _box(label)
    for t in texts:
        if t is label or drawn_string(t) not in {*fig_optimizers.NAMES.values()} | {
                optimizer_state.YEARS[n].display for n in fig_optimizers.DATED}:
            continue
        tx0, ty0, tx1, ty1 = _box(t)
        if tx1 > x0 and tx0 < x1:          # in the label's columns: a clear gap above or below
            assert ty0 - y1 >= 20 * PX or y0 - ty1 >= 20 * PX, f"「{CLIMB}」 crowds 「{drawn_string(t)}」"


def _mini_ruler_parts(stills):
    mobjects = _last_still(stills, "A")
    kept = _visible_cells(mobjects)
    slots = [p for p in _family(mobjects) if isinstance(p, DashedVMobject) and _visible(p)]
    return mobjects, kept, slots


def test_the_removed_v_leaves_a_labelled_slot_and_the_count(stills):
    """After v leaves, an empty dashed slot of v's size stands where it was, marked 「− v」, and
    the count beside it reads 「16 → 12 字节」."""
    mobjects, kept, slots = _mini_ruler_parts(stills)
    assert len(kept) == RULER_BYTES - optimizer_state.VARIANCE_BYTES.value
    x0, y0, end, y1 = _group_box(kept)
    cell_w = kept[0].width
    slot = [s for s in slots if abs(s.get_left()[0] - end) < 0.05 and abs(s.get_y() - (y0 + y1) / 2) < 0.05
            and abs(s.width - optimizer_state.VARIANCE_BYTES.value * cell_w) < 0.05]
    assert slot, "no empty v slot at the end of the kept cells"
    texts = texts_in(mobjects)
    assert any(drawn_string(t) == "−v" and _contains(_box(slot[0]), _box(t)) for t in texts), "the slot is unmarked"
    count = quantity("bytes.per_param_total").display + "→" + quantity("bytes.muon_per_param").display + "字节"
    after = [t for t in texts if drawn_string(t) == count and y0 < t.get_y() < y1
             and 0 <= t.get_left()[0] - slot[0].get_right()[0] < 0.4]
    assert after, f"no 「{count}」 beside the emptied slot"


def test_the_mini_ruler_has_room_above_its_footnote(stills):
    mobjects, kept, _ = _mini_ruler_parts(stills)
    footnote = next(t for t in texts_in(mobjects) if drawn_string(t).startswith("Muon只管"))
    gap = _group_box(kept)[1] - footnote.get_top()[1]
    assert gap >= 20 * PX, f"the mini ruler is {gap / PX:.0f} px above its footnote"
