"""How the notes are read aloud: their pause words (停三秒), screen budgets (一分钟后就切走),
Chinese numerals in those, the characters that are spoken, and the names of a cue's views.
Shared by the cue sheet (studio/track/cues.py) and its steps (studio/track/cue_steps.py)."""

from __future__ import annotations

import re
import unicodedata

from lecture_numerics.zh import parse_zh

NUMBER = r"[零一二两三四五六七八九十百半\d]+"
# Silence the notes ask for, in seconds: added to the cue's speaking time.
PAUSE = re.compile(rf"(?:停|想|整张投)(?P<n>{NUMBER})(?P<unit>秒|分钟)")
# How long the cue line keeps its screen up: the cue lasts at least that long.
BUDGET = re.compile(rf"(?P<n>{NUMBER})(?P<unit>分钟)(?:后就切走|全靠嘴)")

VIEW_WHOLE = "whole"
VIEW_FIRST = "first"   # the figure as it opens: its first panel, or the whole clip when it has none


def zh_number(text: str) -> float:
    """「三」 3, 「十五」 15, 「一百」 100, 「半」 0.5, digits as digits: the notes' own parser
    (lecture_numerics.zh), with the two forms a pause is also said in."""
    if text.isdigit():
        return float(text)
    if text == "半":
        return 0.5
    return parse_zh(text)


def seconds_of(match: re.Match) -> float:
    return zh_number(match["n"]) * (60 if match["unit"] == "分钟" else 1)


def speech_chars(text: str) -> int:
    """What is said aloud: letters and digits (CJK characters are letters); punctuation,
    spaces and the ⭐/⛔ marks are not."""
    return sum(1 for ch in text if unicodedata.category(ch)[0] in "LN")
