"""Whether to colour the output, and the few ANSI styles the text formats use.

The decision follows CPython 3.13's own (``_colorize.can_colorize``) and no-color.org:
``NO_COLOR`` set and not empty turns colour off; else ``FORCE_COLOR`` set and not empty turns
it on (also into a file or a pipe); else ``TERM=dumb`` turns it off; else colour only when the
stream is a terminal.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TextIO

RESET = "\x1b[0m"
BOLD = "\x1b[1m"
RED = "\x1b[1;31m"
YELLOW = "\x1b[1;33m"
CYAN = "\x1b[1;36m"
BLUE = "\x1b[1;34m"
SEVERITY = {"error": RED, "warning": YELLOW, "information": CYAN}


def use_color(stream: TextIO | None, environ: Mapping[str, str] | None = None) -> bool:
    """Whether text written to ``stream`` (None: a file) should carry ANSI colours."""
    env = os.environ if environ is None else environ
    if env.get("NO_COLOR"):
        return False
    if env.get("FORCE_COLOR"):
        return True
    if env.get("TERM") == "dumb" or stream is None:
        return False
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except (OSError, ValueError):  # a closed or detached stream
        return False


class Paint:
    """Wraps text in a style when colour is on; the identity otherwise."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def __call__(self, style: str, text: str) -> str:
        return f"{style}{text}{RESET}" if self.enabled and text else text
