"""The kit's rules that make a figure right by construction: concept colours with readable
text variants, and scenes that name roles instead of colours."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCENE_FILES = sorted((ROOT / "scenes").glob("*.py"))
# manim's named colours (RED, BLUE_E, DARK_GREY, PURE_GREEN …): a scene names a theme role instead.
MANIM_COLOUR = re.compile(r"^(?:(?:DARK|LIGHT|LIGHTER|DARKER|PURE)_)?(?:RED|BLUE|GREEN|YELLOW|ORANGE|PURPLE|"
                          r"GREY|GRAY|WHITE|BLACK|TEAL|PINK|GOLD|MAROON|LOGO_\w+)(?:_[A-E])?$")
HEX = re.compile(r"#[0-9A-Fa-f]{6}\b|#[0-9A-Fa-f]{3}\b|0x[0-9A-Fa-f]{6}\b")


def wcag_contrast(foreground: str, background: str) -> float:
    """WCAG 2 contrast ratio of two #RRGGBB colours (relative luminance, sRGB linearised)."""
    def luminance(hex_colour: str) -> float:
        channels = [int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
        r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    light, dark = sorted((luminance(foreground), luminance(background)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_contrast_formula_matches_known_pairs():
    assert wcag_contrast("#000000", "#FFFFFF") == pytest.approx(21.0)
    assert wcag_contrast("#FFFFFF", "#FFFFFF") == pytest.approx(1.0)
    assert wcag_contrast("#777777", "#FFFFFF") == pytest.approx(4.48, abs=0.01)   # WebAIM's grey


@pytest.fixture(scope="module")
def theme_yaml():
    from lecture_numerics import config_files

    return config_files.theme()


def test_every_role_has_a_readable_text_colour(theme_yaml):
    from scenes.kit import theme

    background = theme_yaml["background"]
    for role in theme.roles():
        text = theme_yaml["text_colors"].get(role)
        assert text, f"role {role!r} has no text variant"
        assert wcag_contrast(text, background) >= 4.5, f"{role} text {text}: below 4.5:1"


def test_aliases_name_roles(theme_yaml):
    from scenes.kit import theme

    for alias, role in theme_yaml["aliases"].items():
        assert role in theme.roles(), f"alias {alias!r} → {role!r}, which is not a role"
        assert theme.color(alias) == theme.color(role)


def test_text_helpers_draw_in_the_text_variant():
    from scenes.kit import theme
    from scenes.kit.text import formula, words

    for mob in (words("梯度", color="gradients"), formula("x²", color="model_small")):
        role = "gradients" if mob.kind == "words" else "model_small"
        assert mob.color.to_hex().upper() == theme.text_color(role).to_hex().upper()
    assert theme.text_color("model_small") != theme.color("model_small")


def _scene_names(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "manim":
            found += [(node.lineno, a.name) for a in node.names if MANIM_COLOUR.match(a.name)]
        elif isinstance(node, ast.Attribute) and MANIM_COLOUR.match(node.attr) \
                and isinstance(node.value, ast.Name) and node.value.id == "manim":
            found.append((node.lineno, node.attr))
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and MANIM_COLOUR.match(node.id):
            found.append((node.lineno, f"{node.id} (a colour name for a role)"))
    return found


@pytest.mark.parametrize("path", SCENE_FILES, ids=lambda p: p.stem)
def test_scenes_name_roles_not_colours(path):
    names = _scene_names(path)
    assert not names, f"{path.name}: manim colour names {names}: name a theme role instead"
    hexes = [(n, m.group()) for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             for m in HEX.finditer(line)]
    assert not hexes, f"{path.name}: colour literals {hexes}: name a theme role instead"


def test_the_colour_rule_bites(tmp_path):
    bad = tmp_path / "fig_bad.py"
    bad.write_text('from manim import RED, Line\nRED, BLUE = "backward", "accent"\nx = "#FF7F0E"\n')
    assert {name.split()[0] for _, name in _scene_names(bad)} == {"RED", "BLUE"}
    assert HEX.search(bad.read_text())


def test_unconfirmed_is_one_mark_and_one_footnote_per_panel():
    """Inside panels, only the first 待核 text carries the mark; the panel's footnote explains
    it once, and the legibility check accepts the pair (and refuses the mark alone)."""
    from scenes.kit import text
    from tests import legibility_checks as checks

    key = "history.polyak.beta_low"      # 待核: Polyak's paper not read (any unconfirmed key would do)
    text._panel_marks.update(open=False, marked=False, taken=False)   # as before any scene opens a panel
    outside = text.number(key)                              # no panel open: spelt out
    assert "待核" in checks.drawn_string(outside)
    try:
        text.begin_panel()
        first, second = text.number(key), text.ledger_text("又是 {" + key + "}")
        note = text.take_footnote()
        assert checks.drawn_string(first).endswith(text.UNCONFIRMED_MARK)
        assert "待核" not in checks.drawn_string(first) + checks.drawn_string(second)
        assert note is not None and text.take_footnote() is None
        assert "待核" in checks.drawn_string(note)
        assert not checks.outside_safe_area("footnote", [note])
        from lecture_numerics.ledger import ledger_entries

        ledger = ledger_entries({"probe": (key,)})
        args = (ledger, (key,), ())
        assert not checks.numbers_off_ledger("with", [first, second, note], *args)
        assert checks.numbers_off_ledger("without", [first, second], *args)
        text.begin_panel()
        assert text.take_footnote() is None                  # a new panel starts unmarked
    finally:
        text._panel_marks.update(open=False, marked=False, taken=False)


# What only the kit draws: arrows (scenes.kit.arrows), axes and number lines (scenes.kit.plots).
KIT_ONLY = {"Arrow": "scenes.kit.arrows.arrow", "DoubleArrow": "scenes.kit.arrows.arrow(both=True)",
            "Vector": "scenes.kit.arrows.arrow", "Axes": "scenes.kit.plots.Plot",
            "NumberLine": "scenes.kit.plots.NumberAxis", "NumberPlane": "scenes.kit.plots.Plot"}


def kit_bypasses(path: Path) -> list[str]:
    """Calls in a scene file to manim classes that the kit draws instead."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [f"line {node.lineno}: {node.func.id}(…) — use {KIT_ONLY[node.func.id]}" for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in KIT_ONLY]


@pytest.mark.parametrize("path", SCENE_FILES, ids=lambda p: p.stem)
def test_scenes_draw_no_arrows_or_axes_of_their_own(path):
    found = kit_bypasses(path)
    assert not found, f"{path.name}: " + "; ".join(found)


def test_the_bypass_rule_bites(tmp_path):
    bad = tmp_path / "fig_bad.py"
    bad.write_text("from manim import Arrow, Axes\nArrow([0, 0, 0], [1, 0, 0])\nAxes()\nCurvedArrow = None\n")
    assert [f.split(":")[0] for f in kit_bypasses(bad)] == ["line 2", "line 3"]


# ---- one meaning per colour ------------------------------------------------------------

def cielab(hex_colour: str) -> tuple[float, float, float]:
    """sRGB #RRGGBB → CIELAB (D65), the textbook conversion."""
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(int(hex_colour[i:i + 2], 16) / 255) for i in (1, 3, 5))
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def delta_e(a: str, b: str) -> float:
    """CIE76 colour difference: Euclidean distance in CIELAB."""
    return sum((p - q) ** 2 for p, q in zip(cielab(a), cielab(b))) ** 0.5


MIN_DELTA_E = 20


def test_delta_e_matches_published_values():
    # CIELAB of pure sRGB red, green and blue as tabulated (e.g. Bruce Lindbloom's calculator).
    for colour, lab in (("#FF0000", (53.24, 80.09, 67.20)), ("#00FF00", (87.73, -86.18, 83.18)),
                        ("#0000FF", (32.30, 79.19, -107.86)), ("#FFFFFF", (100.0, 0.0, 0.0))):
        assert cielab(colour) == pytest.approx(lab, abs=0.05)
    assert delta_e("#FF7F0E", "#FF7F0E") == 0
    assert delta_e("#1F77B4", "#4C72B0") == pytest.approx(8.9, abs=0.1)   # the old accent vs weights


@pytest.mark.parametrize("variant", ["colors", "text_colors"])
def test_no_two_meanings_share_a_colour(theme_yaml, variant):
    """Any two roles of different meaning are at least ΔE 20 apart (aliases name one role)."""
    from itertools import combinations

    colours = {r: c for r, c in theme_yaml[variant].items() if r not in theme_yaml["fills"]}
    close = [f"{a}/{b} ΔE {delta_e(colours[a], colours[b]):.1f}" for a, b in combinations(colours, 2)
             if delta_e(colours[a], colours[b]) < MIN_DELTA_E]
    assert not close, f"{variant}: roles closer than ΔE {MIN_DELTA_E}: {close}"


def test_the_delta_e_rule_bites(theme_yaml):
    """The old palette (warm = model_small's orange, accent ≈ weights) fails the check."""
    old = {"accent": "#1F77B4", "weights": "#4C72B0", "warm": "#FF7F0E", "model_small": "#FF7F0E"}
    assert delta_e(old["accent"], old["weights"]) < MIN_DELTA_E
    assert delta_e(old["warm"], old["model_small"]) < MIN_DELTA_E


def test_every_role_has_a_meaning_for_the_colour_key(theme_yaml):
    from scenes.kit import theme

    for role in theme.roles():
        assert theme.meaning(role), f"{role} has no meaning in theme.yaml's meanings"


def test_pale_means_inactive_only(theme_yaml):
    """No role is a pale tint (light and greyish: CIELAB L ≥ 70 with chroma under 40): pale is
    kept for inactive or gone, which is `muted` and its fades, so a tint never reads as a concept."""
    def pale(colour: str) -> bool:
        lightness, a, b = cielab(colour)
        return lightness >= 70 and (a * a + b * b) ** 0.5 < 40

    pale = [r for r, c in theme_yaml["colors"].items() if r not in theme_yaml["fills"] and pale(c)]
    assert not pale, f"roles lighter than muted's meaning allows: {pale}"


# ---- scenes draw through the kit -----------------------------------------------------

# Shapes only the kit builds (scenes.kit.marks and scenes.kit.widgets): a scene hands data to
# a widget and never constructs a manim shape or sets a stroke width of its own.
HAND_DRAWN = ("Brace", "BraceBetweenPoints", "RoundedRectangle", "Rectangle", "SurroundingRectangle",
              "ArcBetweenPoints", "Line", "DashedLine", "Dot", "Circle", "Square", "DashedVMobject",
              "Polygon", "Triangle", "Arc", "Annulus")
MOST_HAND_DRAWN = 5          # in all scene files together


def hand_drawn(path: Path) -> list[str]:
    """Calls in a scene file that build a manim shape, call .add_tip(), or pass an integer
    stroke width."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
        if name in HAND_DRAWN or name == "add_tip":
            found.append(f"line {node.lineno}: {name}(…)")
    return found


def integer_strokes(path: Path) -> list[str]:
    return [f"line {node.lineno}: stroke_width={node.value.value}" for node in ast.walk(ast.parse(path.read_text()))
            if isinstance(node, ast.keyword) and node.arg == "stroke_width"
            and isinstance(node.value, ast.Constant) and type(node.value.value) is int]


def test_scenes_hand_draw_at_most_five_primitives_in_all():
    found = {p.name: hand_drawn(p) for p in SCENE_FILES}
    total = sum(len(f) for f in found.values())
    listing = "; ".join(f"{name}: {', '.join(f)}" for name, f in found.items() if f)
    assert total <= MOST_HAND_DRAWN, f"{total} hand-drawn shapes in scene files (at most {MOST_HAND_DRAWN}): {listing}"


@pytest.mark.parametrize("path", SCENE_FILES, ids=lambda p: p.stem)
def test_scenes_set_no_integer_stroke_widths(path):
    found = integer_strokes(path)
    assert not found, f"{path.name}: {found}: name a theme stroke (theme.stroke(...)) or use a kit widget"


def test_the_hand_drawn_rule_bites(tmp_path):
    bad = tmp_path / "fig_bad.py"
    bad.write_text("from manim import Brace, Line\nBrace(x)\nLine(a, b, stroke_width=3)\n"
                   "ArcBetweenPoints(a, b).add_tip()\nm.set_stroke(width=2.5)\n")
    assert [f.split(":")[0] for f in hand_drawn(bad)] == ["line 2", "line 3", "line 4", "line 4"]
    assert integer_strokes(bad) == ["line 3: stroke_width=3"]
