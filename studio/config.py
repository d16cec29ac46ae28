"""Config for the studio: the loader and schemas of ``lecture_numerics.config_files``,
with its errors raised as :class:`~studio.errors.UsageError` (one line, exit code 2)."""

from __future__ import annotations

import functools
from typing import Callable

from lecture_numerics import config_files as _bottom
from lecture_numerics.config_files import (  # noqa: F401  (re-exported for the studio)
    CONFIG_DIR, NOT_RENDER_INPUTS, PROJECT_ROOT, SCHEMAS, config_dir, config_files,
)
from studio.errors import UsageError


def _as_usage_error(function: Callable) -> Callable:
    """The same function, with a config error raised as bad input."""
    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        try:
            return function(*args, **kwargs)
        except _bottom.ConfigError as error:
            raise UsageError(str(error)) from None

    return wrapper


load_yaml = _as_usage_error(_bottom.load_yaml)
load = _as_usage_error(_bottom.load)
theme = _as_usage_error(_bottom.theme)
presets = _as_usage_error(_bottom.presets)
lecture_order = _as_usage_error(_bottom.lecture_order)
scenario = _as_usage_error(_bottom.scenario)
