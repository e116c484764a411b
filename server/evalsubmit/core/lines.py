"""Lines as the LSP and Python's tokenizer count them: split on ``\\r\\n``, ``\\r`` and ``\\n``
only (``str.splitlines`` also splits on form feeds, ``\\x1c``-``\\x1e``, ``\\x85``, ``\\u2028``
and ``\\u2029``, which would shift every later line)."""

from __future__ import annotations

import re

NEWLINE = re.compile(r"\r\n|\r|\n")


def split_lines(text: str) -> list[str]:
    """The lines of ``text`` without their endings; ``""`` is one empty line, and a text ending
    in a newline has an empty last line (as an editor shows it)."""
    return NEWLINE.split(text)


def line_starts(text: str) -> list[int]:
    """The offset in ``text`` where each line of :func:`split_lines` starts."""
    return [0, *(match.end() for match in NEWLINE.finditer(text))]


def position_of(text: str, offset: int) -> tuple[int, int]:
    """(1-based line, code-point column) of a string offset."""
    lines = split_lines(text[:offset])
    return len(lines), len(lines[-1])
