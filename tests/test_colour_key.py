"""The colour key is published on the page and in the deck, from the theme the figures use."""

from __future__ import annotations

from lecture_numerics import config_files
from studio.present.colour_key import colour_key, colour_key_html
from studio.present.deck_appendix import add_colour_key


def test_every_colour_role_is_in_the_key_with_its_meaning():
    theme = config_files.theme()
    roles = [r for r in theme["colors"] if r not in theme["fills"]]
    assert [e.role for e in colour_key()] == roles
    html = colour_key_html()
    for entry in colour_key():
        assert f'background:{entry.line}' in html and entry.meaning in html


def test_the_page_shows_the_key_on_screen_and_on_paper():
    from studio.present.page import index_html

    page = index_html({"scenes": []}, {"k": {"kind": "chosen", "value": 1, "display": "1"}}, None)
    assert page.count('class="colour-key"') >= 1
    assert "梯度与一切反向的值" in page


def test_the_deck_has_a_key_slide_with_a_swatch_per_colour():
    from pptx import Presentation

    deck = Presentation()
    add_colour_key(deck, deck.slide_layouts[6])
    slide = deck.slides[0]
    fills = {str(s.fill.fore_color.rgb) for s in slide.shapes if s.shape_type == 1}   # autoshapes
    assert fills == {e.line[1:].upper() for e in colour_key()}
    texts = {s.text_frame.text for s in slide.shapes if s.has_text_frame}
    assert {e.meaning for e in colour_key()} <= texts
