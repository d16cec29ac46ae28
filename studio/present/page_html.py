"""HTML building blocks of the rehearsal page: escaping, file links, the page shell.

Every string that comes from data (titles, ledger text, file names) passes through
``esc`` or ``url`` here; CSS and JS from page_assets/ are inlined so pages work from file://.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import quote

from studio import config

ASSETS_DIR = Path(__file__).with_name("page_assets")
LEDGER_FILE = "ledger.html"


def esc(value: Any) -> str:
    return "" if value is None else html.escape(str(value), quote=True)


# The notes' marks, drawn by the page's own CSS (page.css, ".mark-…") so they never depend
# on an emoji font: the character stays in the text (copying and searching keep it) but is
# not painted, and the shape is. Keep in step with MARKS in page_assets/track.js.
MARKS = {"⭐": "star", "⛔": "stop", "🖥": "screen", "⚠": "warn", "🎯": "target", "✅": "done"}
MARK_PATTERN = re.compile("(" + "|".join(MARKS) + ")\ufe0f?")


def marked(value: Any) -> str:
    """``esc(value)`` with each mark wrapped in the span that draws it."""
    return MARK_PATTERN.sub(lambda m: f'<span class="mark mark-{MARKS[m.group(1)]}">{m.group(0)}</span>',
                            esc(value))


def url_path(path: Any) -> str:
    """A manifest-relative file path as a relative URL (spaces, '#', '?' percent-encoded)."""
    return quote(str(path or ""), safe="/")


def url(path: Any) -> str:
    """A manifest-relative file path as an escaped attribute value."""
    return esc(url_path(path))


def anchor(key: str) -> str:
    """The element id of a ledger entry (ids may not hold whitespace)."""
    return "n-" + re.sub(r"\s", "_", str(key))


def entry_href(key: str, page: str = LEDGER_FILE) -> str:
    """Link to a ledger entry; ``page=""`` links within the ledger page itself."""
    return esc(f"{page}#{quote(anchor(key), safe='')}")


def script_json(data: Any) -> str:
    """JSON safe inside <script>: no '<', '>' or '&' can close the element early."""
    text = json.dumps(data, ensure_ascii=False)
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def asset(name: str) -> str:
    return (ASSETS_DIR / name).read_text(encoding="utf-8")


def css_word(value: Any) -> str:
    """Inside <style> entities are not decoded, so keep only characters CSS cannot misread."""
    return re.sub(r"[^A-Za-z0-9#_ -]", "", str(value))


def theme_css() -> str:
    """The theme's colours as CSS variables, so the page matches the videos: ``--role`` is a
    role's line colour, ``--role-text`` its text variant (readable on the background; the
    page's links and buttons use ``--accent-text``)."""
    theme = config.theme()
    texts = {f"{name}-text": value for name, value in theme["text_colors"].items()}
    colours = {**theme["colors"], **texts, "background": theme["background"]}
    lines = [f"--{css_word(name)}: {css_word(value)};" for name, value in colours.items()]
    return ":root {" + " ".join(lines) + f' --font: "{css_word(theme["font"])}"; }}'


def document(title: str, body: str, script: str = "") -> str:
    """A complete page: inlined styles, the body, then its script (if any)."""
    style = theme_css() + "\n" + asset("page.css")
    tail = f"<script>\n{script}\n</script>\n" if script else ""
    return (
        "<!DOCTYPE html>\n<html lang=\"zh-CN\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        f"<title>{esc(title)}</title>\n<style>\n{style}\n</style>\n</head>\n"
        f"<body>\n{body}\n{tail}</body>\n</html>\n"
    )
