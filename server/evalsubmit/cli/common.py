"""What the commands share: exit codes, ``--python``, a file's project root, ``PATH:LINE[:COL]``."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


def python_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--python",
        metavar="PATH",
        help="the Python (an interpreter or its virtualenv folder) whose installed packages "
        "imports are read from and whose SDK version is compared; read, never imported "
        "(default: the active $VIRTUAL_ENV, else the Python running evalsubmit)",
    )


def interpreter(value: str | None) -> Path | None:
    """The interpreter of ``--python`` (None and a message when it does not exist)."""
    from evalsubmit.workspace.interpreter import default_interpreter, interpreter_from_setting

    if value is None:
        return default_interpreter()
    python = interpreter_from_setting(value, Path.cwd())
    if python is None or not python.is_file():
        print(f"evalsubmit: --python: no Python interpreter at {value}", file=sys.stderr)
        return None
    return python


def resolved(path: Path) -> Path:
    """The file's real path; as given when it cannot be resolved (a loop, a path too long)."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return path.absolute()


def project_root(path: Path) -> Path:
    folder = resolved(path).parent
    for candidate in (folder, *folder.parents):
        markers = ("pyproject.toml", ".git", "setup.py")
        if any(os.path.exists(candidate / marker) for marker in markers):
            return candidate
    return folder


def parse_location(location: str) -> tuple[Path, int, int] | None:
    """``PATH:LINE[:COL]`` (1-based) as (path, line, 0-based column or -1); None if malformed."""
    parts = location.rsplit(":", 2)
    try:
        if len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit():
            return Path(parts[0]), int(parts[1]), int(parts[2]) - 1
        path_text, line_text = location.rsplit(":", 1)
        return Path(path_text), int(line_text), -1
    except ValueError:
        return None
