"""A quote's emphasis is read from the notes' own marks, on its line or on the direction before it."""

from __future__ import annotations

from lecture_numerics.emphasis import MARKED_IN_WORDS, PLAIN, emphasis_of
from lecture_numerics.notes_file import notes_lines

NOTES = (
    "⭐⭐⭐ 这句是这一节的地基，念完停一下：",
    "",
    "「所以反向传播真正解决的问题，不是「怎么求导」 ——  求导是高中的事。",
    "它解决的是：怎么把三千亿次前向，压成一次。」",
    "",
    "🖥 屏幕：平移到 Ⓑ。 ⭐ 指着那排推子讲。",
    "",
    "「那「偏导数」的「偏」是什么意思？就三个字：按住不动。",
    "⭐⭐⭐ 而这台调音台有三千亿个推子。",
    "⛔ 所以记住：梯度不是一个数，是三千亿个数。」",
    "",
    "⭐ ⭐ 收这一格，只要一句：",
    "「链式法则就这一件事，没有别的。」",
)


def test_marks_on_the_quotes_own_line():
    assert emphasis_of("而这台调音台有三千亿个推子", NOTES).stars == 3
    warning = emphasis_of("梯度不是一个数，是三千亿个数", NOTES)
    assert warning.warning and warning.level == "warning" and warning.line == 10


def test_a_direction_before_a_speech_block_marks_the_whole_block():
    assert emphasis_of("它解决的是：怎么把三千亿次前向，压成一次", NOTES).stars == 3
    assert emphasis_of("链式法则就这一件事", NOTES).stars == 2      # 「⭐ ⭐」 is one run


def test_a_directions_marks_stop_at_the_first_line_with_marks_of_its_own():
    notes = ("⭐⭐⭐ 然后给那个比喻：", "「人民币换港币一个汇率，", "当然是乘起来。", "⭐⭐ 链式法则就这一件事。",
             "结果完全一样，可代价 —— 差一万年。」")
    assert emphasis_of("当然是乘起来", notes).stars == 3
    assert emphasis_of("链式法则就这一件事", notes).stars == 2
    assert emphasis_of("差一万年", notes) == PLAIN


def test_a_screen_line_does_not_mark_the_speech_after_it():
    assert emphasis_of("就三个字：按住不动", NOTES) == PLAIN


def test_a_moved_mark_moves_the_emphasis():
    moved = list(NOTES)
    moved[8] = moved[8].replace("⭐⭐⭐ ", "")
    moved[7] = "⭐⭐⭐ " + moved[7]
    assert emphasis_of("而这台调音台有三千亿个推子", tuple(moved)) == PLAIN
    assert emphasis_of("就三个字：按住不动", tuple(moved)).stars == 3


def test_unknown_or_missing_quotes_are_plain():
    assert emphasis_of(None, NOTES) == PLAIN
    assert emphasis_of("这句不在讲稿里", NOTES) == PLAIN


def test_the_real_notes():
    lines = notes_lines()
    assert emphasis_of("而这台调音台有三千亿个推子", lines).stars == 3
    assert emphasis_of("它解决的是：怎么把三千亿次前向，压成一次", lines).stars == 3
    assert emphasis_of("所以记住：梯度不是一个数，是三千亿个数", lines).warning


def test_sentences_marked_in_words_stand_on_the_line_that_points_at_them():
    """Each entry's pointing words are in the notes, on a line at or before its sentence; the
    sentence takes that entry's stars, and the ⭐ the quote block carries elsewhere does not."""
    lines = notes_lines()
    for piece, (stars, pointer) in MARKED_IN_WORDS.items():
        sentence_line = next(i + 1 for i, text in enumerate(lines) if piece in text.replace(" ", ""))
        marked = emphasis_of(piece, lines)
        assert marked.stars == stars and marked.line is not None, piece
        assert pointer.replace(" ", "") in lines[marked.line - 1].replace(" ", ""), piece
        assert marked.line <= sentence_line, piece


def test_a_pointer_gone_from_the_notes_leaves_the_sentence_unmarked():
    lines = tuple(text.replace("都从这一句长出来", "") for text in notes_lines())
    assert emphasis_of("激活不是框架顺手缓存的东西。是反向的数学，要求它在场", lines) == PLAIN
