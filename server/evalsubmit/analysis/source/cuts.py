"""Where a module's text is cut into top-level statements, each parsed alone (:mod:`.chunks`).

A cut comes before every line that starts a new top-level statement: a code line in column 0
that is not ``else:``/``except``/…, a closing bracket, or the ``def`` under a decorator. The
scan reads lines only (no tokenizer); a wrong cut costs a whole-text parse, never a wrong tree.
"""

from __future__ import annotations

from collections.abc import Callable

_CONTINUATIONS = ("else", "elif", "except", "finally")
_CLOSERS = (")", "]", "}")


def split(lines: list[str]) -> list[tuple[int, int]]:
    """1-based inclusive line ranges of the top-level statements (comments ride along)."""
    return split_from(lines, 1, lambda _: False)[0]


def split_from(
    lines: list[str], first: int, resync: Callable[[int], bool]
) -> tuple[list[tuple[int, int]], int | None]:
    """The ranges from line ``first`` (a cut) on, stopping at a cut where ``resync`` says the
    rest is known (returned as the second item; ``None`` when the scan reached the end)."""
    ranges: list[tuple[int, int]] = []
    start = first
    last_code = ""
    quote: str | None = None
    for number in range(first, len(lines) + 1):
        line = lines[number - 1]
        if (
            number > first
            and quote is None
            and _starts_statement(line)
            and not last_code.startswith("@")
        ):
            ranges.append((start, number - 1))
            start = number
            if resync(number):
                return ranges, number
        if '"""' in line or "'''" in line:
            quote = _open_triple_quote(line, quote)
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            last_code = line
    if lines:
        ranges.append((start, len(lines)))
    return ranges, None


def _open_triple_quote(line: str, quote: str | None) -> str | None:
    """The triple quote still open at the end of ``line`` (a cheap scan that ignores escapes:
    a wrong answer only costs a whole-text parse, never a wrong tree)."""
    index = 0
    while True:
        if quote is None:
            found = [(line.find(mark, index), mark) for mark in ('"""', "'''", "#")]
            hits = [(position, mark) for position, mark in found if position >= 0]
            if not hits:
                return None
            position, mark = min(hits)
            if mark == "#":
                return None
            quote, index = mark, position + 3
        else:
            position = line.find(quote, index)
            if position < 0:
                return quote
            quote, index = None, position + 3


def _starts_statement(line: str) -> bool:
    if not line or line[0] in " \t\r\n#\f" or line.startswith(_CLOSERS):
        return False
    words = line.split(None, 1)
    if not words:  # only characters str.split() treats as whitespace (\x1c, \u2028, ...)
        return False
    return words[0].rstrip(":") not in _CONTINUATIONS
