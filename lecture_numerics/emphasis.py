"""How strongly the notes mark a quoted sentence: its ⭐ level and whether it is a ⛔ line.

The speaker's notes mark their key sentences themselves. A figure's beat quotes a sentence
verbatim; its emphasis is read from the notes, never typed in the scene:

- the marks on the quote's own line, the last run of ⭐ or ⛔ before the quote on that line
  (「⭐⭐⭐ 而这台调音台有三千亿个推子。」 is level 3);
- otherwise, when the quote is speech (a 「…」 block) and the stage direction just before
  that block opens with a mark run, that run marks the block's lines up to the first one
  that carries marks of its own (「⭐⭐⭐ 这句是这一节的地基，念完停一下：」 marks the
  「所以反向传播真正解决的问题…」 that follows; 「⭐⭐⭐ 然后给那个比喻」 marks the 换汇 lines
  before the block's own 「⭐⭐ 链式法则就这一件事」).
  A 🖥 screen line is a cue, not a direction about the speech after it.

Marks inside a line written with spaces (「⭐ ⭐ 收这一格」) count as one run.

A few sentences the notes mark in words, pointing at them from a direction that the rules
above do not reach (MARKED_IN_WORDS): each entry names the words that do the pointing, and
the emphasis stands on the line those words are on, so a test can find them there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from lecture_numerics.notes_file import notes_lines, quote_pieces

STAR, STOP, SCREEN = "⭐", "⛔", "🖥"
_RUN = re.compile(rf"[{STAR}{STOP}]+")
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class Emphasis:
    stars: int = 0          # 0 … 3: the notes' ⭐ count
    warning: bool = False   # a ⛔ line: a misreading the speaker heads off
    line: int | None = None  # the notes line the marks stand on (None: unmarked)

    @property
    def level(self) -> str:
        """The kit's name for how a takeaway of this sentence is set."""
        if self.warning:
            return "warning"
        return ("plain", "star", "star2", "star3")[min(self.stars, 3)]


PLAIN = Emphasis()

# sentence (a piece of it) → (stars, the notes' words that point at it)
MARKED_IN_WORDS = {
    # 「⭐⭐⭐ 然后是这一格的真正用处 … 都从这一句长出来」 stands before the 🖥 line of Ⓒ, and the ⭐
    # on 「把这一个门乘以…」 inside the quote comes between it and the sentence it means.
    "激活不是框架顺手缓存的东西": (3, "这一整讲后面所有关于「激活」的话，都从这一句长出来"),
    # 「所以这一格真正要留下的是这句：」 on the sentence's own line, with no ⭐.
    "被指数放大的不是梯度": (1, "所以这一格真正要留下的是这句"),
}


def _squeezed(text: str) -> str:
    return _SPACE.sub("", text)


def _from_run(run: str, line: int) -> Emphasis:
    """A mark run read as emphasis: ⛔ wins over ⭐ in a mixed run (both are rare)."""
    if STOP in run:
        return Emphasis(0, True, line)
    return Emphasis(run.count(STAR), False, line)


def _own_marks(text: str, offset: int, line: int) -> Emphasis | None:
    """The last mark run on the line before the quote's start (squeezed offsets)."""
    runs = [m for m in _RUN.finditer(_squeezed(text)) if m.start() < offset]
    return _from_run(runs[-1].group(0), line) if runs else None


def _block_start(lines: tuple[str, ...], index: int) -> int | None:
    """0-based index of the line opening the 「…」 block that line ``index`` is in, or None
    when that line is not speech."""
    for i in range(index, -1, -1):
        text = lines[i].strip()
        if not text or (i < index and text.endswith("」")):
            return None
        if text.startswith("「"):
            return i
    return None


def _direction_before(lines: tuple[str, ...], start: int) -> Emphasis | None:
    """The leading mark run of the stage direction just above a speech block."""
    i = start - 1
    while i >= 0 and not lines[i].strip():
        i -= 1
    if i < 0:
        return None
    text = _squeezed(lines[i])
    if text.startswith(SCREEN) or text.startswith("「") or text.endswith("」"):
        return None
    leading = _RUN.match(text)
    return _from_run(leading.group(0), i + 1) if leading else None


def _place(quote: str, lines: tuple[str, ...]) -> tuple[int, int] | None:
    """(0-based line, squeezed offset on it) where the quote's first piece starts."""
    piece = _squeezed(quote_pieces(quote)[0]) if quote_pieces(quote) else ""
    if not piece:
        return None
    for index, text in enumerate(lines):
        at = _squeezed(text).find(piece)
        if at >= 0:
            return index, at
    # A quote that runs across a line break: find it in the joined text.
    flat, owners, starts = "", [], []
    for index, text in enumerate(lines):
        starts.append(len(flat))
        squeezed = _squeezed(text)
        flat += squeezed
        owners += [index] * len(squeezed)
    at = flat.find(piece)
    if at < 0:
        return None
    return owners[at], at - starts[owners[at]]


def _marked_in_words(quote: str, lines: tuple[str, ...]) -> Emphasis | None:
    """A MARKED_IN_WORDS entry the quote holds, on the line its pointing words stand on."""
    for piece, (stars, pointer) in MARKED_IN_WORDS.items():
        if piece in _squeezed(quote):
            line = next((i + 1 for i, text in enumerate(lines) if _squeezed(pointer) in _squeezed(text)), None)
            return Emphasis(stars, False, line) if line else None
    return None


@lru_cache(maxsize=4096)
def emphasis_of(quote: str | None, lines: tuple[str, ...] | None = None) -> Emphasis:
    """The notes' emphasis of ``quote`` (PLAIN when it is unmarked or not in the notes)."""
    if not quote:
        return PLAIN
    lines = lines if lines is not None else notes_lines()
    place = _place(quote, lines)
    if place is None:
        return PLAIN
    index, offset = place
    own = _own_marks(lines[index], offset, index + 1)
    if own is not None:
        return own
    in_words = _marked_in_words(quote, lines)
    if in_words is not None:
        return in_words
    start = _block_start(lines, index)
    if start is None or any(_RUN.search(lines[i]) for i in range(start, index)):
        return PLAIN
    return _direction_before(lines, start) or PLAIN


__all__ = ["Emphasis", "MARKED_IN_WORDS", "PLAIN", "emphasis_of"]
