"""Errors the CLI turns into a one-line reason and exit code 2 (no traceback)."""


class UsageError(Exception):
    """Bad input from the user: unknown id, bad config, unwritable folder, missing tool."""
