"""Load and validate the YAML files under config/ (safe loader, schema-checked).

The bottom of the project: numerics, kit and studio all read config through here, so no
layer reaches up for it. Errors name the file and line, so a typo the night before the talk
is a one-line fix; they are :class:`ConfigError`, which the studio reports as bad input.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import Any

import jsonschema
import yaml

# libyaml's safe loader where PyYAML was built with it: the same documents, a tenth of the time.
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

PROJECT_ROOT = Path(__file__).resolve().parent.parent
CONFIG_DIR = PROJECT_ROOT / "config"


class ConfigError(Exception):
    """A config file that cannot be read, does not parse, or breaks its schema."""


_HEX = r"^#[0-9A-Fa-f]{6}$"
_COLOUR = {"type": "string", "pattern": _HEX}
_POSITIVE_INT = {"type": "integer", "minimum": 1}
_POSITIVE = {"type": "number", "exclusiveMinimum": 0}
_NAME = {"type": "string", "pattern": r"^[a-z][a-z0-9_]*$"}

PRESET_SCHEMA = {
    "type": "object",
    "minProperties": 1,
    "additionalProperties": {
        "type": "object",
        "required": ["width", "height", "fps"],
        "additionalProperties": False,
        "properties": {
            "width": {"type": "integer", "minimum": 16, "maximum": 7680, "multipleOf": 2},
            "height": {"type": "integer", "minimum": 16, "maximum": 4320, "multipleOf": 2},
            "fps": {"type": "integer", "minimum": 1, "maximum": 120},
        },
    },
}

# A scale is a few named steps in manim units (spacing: gaps and buffs; strokes: line widths).
_SCALE = {"type": "object", "minProperties": 1, "additionalProperties": _POSITIVE,
          "propertyNames": {"pattern": r"^[a-z][a-z0-9_]*$"}}

THEME_SCHEMA = {
    "type": "object",
    "required": ["font", "formula_font", "background", "colors", "meanings", "text_colors", "fills", "aliases",
                 "sizes", "takeaway_styles", "spacing", "strokes"],
    "additionalProperties": False,
    "properties": {
        "font": {"type": "string", "minLength": 1},
        "formula_font": {"type": "string", "minLength": 1},
        "background": _COLOUR,
        "colors": {"type": "object", "additionalProperties": _COLOUR, "minProperties": 1},
        "meanings": {"type": "object", "additionalProperties": {"type": "string", "minLength": 1}},
        "text_colors": {"type": "object", "additionalProperties": _COLOUR, "minProperties": 1},
        "fills": {"type": "array", "items": _NAME, "uniqueItems": True},
        "aliases": {"type": "object", "additionalProperties": _NAME},
        "sizes": {"type": "object", "additionalProperties": {"type": "number", "minimum": 18, "maximum": 120}},
        "takeaway_styles": {"type": "object", "additionalProperties": {
            "type": "object", "required": ["size", "bold", "color"], "additionalProperties": False,
            "properties": {"size": _NAME, "bold": {"type": "boolean"}, "color": _NAME, "band": {"type": "boolean"}}}},
        "spacing": _SCALE,
        "strokes": _SCALE,
    },
}

LECTURE_SCHEMA = {
    "type": "object",
    "required": ["order"],
    "properties": {
        "order": {"type": "array", "items": {"type": "string", "pattern": r"^[a-z0-9-]+$"}, "uniqueItems": True},
    },
}

MEMTIME_SCHEMA = {
    "type": "object",
    "required": ["model", "seq_len", "batch", "recompute", "bytes_per_param"],
    "additionalProperties": False,
    "properties": {
        "model": {"enum": ["deepseek-v3", "gpt3-175b"]},
        "seq_len": _POSITIVE_INT,
        "batch": _POSITIVE_INT,
        "recompute": {"enum": ["full", "none"]},
        "bytes_per_param": _POSITIVE_INT,
    },
}

# fig-momentum's loss f(x) = height·((x/width)² − 1)² + tilt·x/width and its two runs.
MOMENTUM_SCHEMA = {
    "type": "object",
    "required": ["height", "tilt", "width", "start", "lr", "steps", "deeper_bump_height", "deeper_bump_width"],
    "additionalProperties": False,
    "properties": {
        "height": _POSITIVE,
        "tilt": {"type": "number"},
        "width": _POSITIVE,
        "start": {"type": "number"},
        "lr": _POSITIVE,
        "steps": _POSITIVE_INT,
        "deeper_bump_height": _POSITIVE,
        "deeper_bump_width": _POSITIVE,
    },
}

SCENARIO_SCHEMA = {
    "type": "object",
    "required": ["memtime"],
    "properties": {"memtime": MEMTIME_SCHEMA, "momentum": MOMENTUM_SCHEMA},
}

SCHEMAS = {"scenarios.yaml": SCENARIO_SCHEMA, "presets.yaml": PRESET_SCHEMA, "theme.yaml": THEME_SCHEMA,
           "lecture.yaml": LECTURE_SCHEMA}


def _line_of(text: str, error_path: list[Any]) -> int | None:
    """Line (1-based) of the YAML node an error points at, found by walking the node tree."""
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return None
    for step in error_path:
        if isinstance(node, yaml.MappingNode):
            match = [v for k, v in node.value if k.value == str(step)]
            if not match:
                break
            node = match[0]
        elif isinstance(node, yaml.SequenceNode) and isinstance(step, int) and step < len(node.value):
            node = node.value[step]
        else:
            break
    return node.start_mark.line + 1 if node is not None else None


def _describe(error: jsonschema.ValidationError) -> str:
    where = ".".join(str(p) for p in error.absolute_path) or "top level"
    if error.validator == "pattern" and error.schema.get("pattern") == _HEX:
        return f"{where}: colour {error.instance!r} is not a #RRGGBB hex colour"
    return f"{where}: {error.message}"


def load_yaml(path: Path, schema: dict[str, Any] | None = None) -> Any:
    """Parse ``path`` with the safe loader and check it against ``schema``."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise ConfigError(f"{path}: cannot read config ({error.strerror})") from None
    try:
        data = yaml.load(text, Loader=SAFE_LOADER)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = f":{mark.line + 1}" if mark is not None else ""
        problem = getattr(error, "problem", None) or str(error).splitlines()[0]
        raise ConfigError(f"{path}{line}: YAML does not parse: {problem}") from None
    if schema is not None:
        errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(data), key=lambda e: list(e.absolute_path))
        if errors:
            first = errors[0]
            line = _line_of(text, list(first.absolute_path))
            where = f"{path}:{line}" if line else str(path)
            raise ConfigError(f"{where}: invalid config: {_describe(first)}")
    return data


def config_dir() -> Path:
    """The config folder; tests point LECTURE_CONFIG_DIR at a copy to try bad input."""
    return Path(os.environ.get("LECTURE_CONFIG_DIR", CONFIG_DIR))


def load(name: str) -> Any:
    """Load ``config/<name>`` with its schema (if it has one)."""
    return load_yaml(config_dir() / name, SCHEMAS.get(name))


@lru_cache(maxsize=None)
def theme() -> dict[str, Any]:
    return load("theme.yaml")


def presets() -> dict[str, dict[str, int]]:
    return load("presets.yaml")


def lecture_order() -> list[str]:
    return load("lecture.yaml")["order"]


def scenario(name: str) -> dict[str, Any]:
    """One scenario block from config/scenarios.yaml (e.g. ``memtime``)."""
    blocks = load("scenarios.yaml")
    if name not in blocks:
        raise ConfigError(f"{config_dir() / 'scenarios.yaml'}: invalid config: no block {name!r}")
    return blocks[name]


# Config that shapes no frame: the lecture track's speaking rate and cue overrides. Keeping
# it out of cache keys means tuning the track never re-renders a scene.
NOT_RENDER_INPUTS = frozenset({"cues.yaml"})


def config_files() -> list[Path]:
    """Every config file a render depends on, for cache keys."""
    return sorted(p for p in config_dir().glob("*.yaml") if p.name not in NOT_RENDER_INPUTS)
