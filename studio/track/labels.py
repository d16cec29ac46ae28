"""How the track names a view and a length in Chinese: 「Ⓐ」, 「整张」, 「1 分 05 秒」. Shared by
the page, the deck and the numbers' sources, so each says a cue the same way."""

from __future__ import annotations

from typing import Any

PANEL_MARKS = {chr(ord("A") + i): chr(ord("Ⓐ") + i) for i in range(26)}


def clock(total_s: Any) -> str:
    try:  # half up, as the page's script rounds (Python's round() would make 34.5 → 34)
        minutes, secs = divmod(int(float(total_s) + 0.5), 60)
    except (TypeError, ValueError):
        return "—"
    return f"{minutes} 分 {secs:02d} 秒" if minutes else f"{secs} 秒"


def view_label(view: str) -> str:
    return {"whole": "整张", "first": "开头"}.get(view, PANEL_MARKS.get(view, view))
