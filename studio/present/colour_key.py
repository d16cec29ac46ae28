"""The colour key: what each theme colour means across the whole lecture, published on the
rehearsal page and in the deck's appendix (studio/present/deck_appendix.py) so the room and the speaker read colours one way.

It is read from config/theme.yaml (``colors`` and ``meanings``), the same file the figures are
drawn from, so the key cannot drift from the pictures.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from lecture_numerics import config_files

KEY_TITLE = "颜色的意思（全讲统一）"
KEY_LEAD = "每种颜色只表示一件事；浅灰表示不活跃或已经释放。"


@dataclass(frozen=True)
class KeyEntry:
    role: str
    line: str       # #RRGGBB, the colour lines and fills are drawn in
    text: str       # #RRGGBB, the darker variant text is set in
    meaning: str


def colour_key() -> list[KeyEntry]:
    """One entry per colour role, in the theme's order (surface fills are not meanings)."""
    theme = config_files.theme()
    return [KeyEntry(role, colour, theme["text_colors"][role], theme["meanings"][role])
            for role, colour in theme["colors"].items() if role not in theme["fills"]]


def colour_key_html() -> str:
    rows = "".join(
        f'<li data-role="{e.role}"><span class="swatch" style="background:{e.line}"></span>'
        f'<span class="meaning" style="color:{e.text}">{escape(e.meaning)}</span></li>' for e in colour_key())
    return (f'<section class="colour-key" id="colour-key"><h2>{KEY_TITLE}</h2>'
            f'<p class="meta">{KEY_LEAD}</p><ul>{rows}</ul></section>')
