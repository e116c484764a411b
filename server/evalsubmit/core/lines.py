"""Lines as the LSP and Python's tokenizer see them: broken only at ``\\r\\n``, ``\\r``, ``\\n``.

``str.splitlines()`` also breaks at ``\\v``, ``\\f``, ``\\x1c``-``\\x1e``, ``\\x85``, ``\\u2028``
and ``\\u2029``. A form feed is legal Python whitespace and some formatters emit it; splitting there
shifts every later line by one, so an editor's position (or a finding's line) lands on the wrong
text. Everything in evalsubmit that turns text into lines uses this module instead.

Standard library only.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from itertools import accumulate
from typing import overload

LINE_BREAK = re.compile(r"\r\n|\r|\n")
"""The only line terminators of the LSP (3.17, "Position") and of Python source."""
_NOT_LINE_BREAKS = ("\v", "\f", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")
"""What else ``str.splitlines()`` breaks at."""


def split_lines(text: str) -> list[str]:
    """The lines of ``text`` without their terminators; always at least one (maybe empty) line.

    ``"a\\nb"`` -> ``["a", "b"]``; ``"a\\n"`` -> ``["a", ""]`` (the empty last line is where an
    editor's cursor can be); ``"a\\fb"`` -> ``["a\\fb"]``.
    """
    if "\r" not in text:  # the same result, an order of magnitude faster (per edit, per file)
        return text.split("\n")
    return LINE_BREAK.split(text)


def split_lines_keepends(text: str) -> list[str]:
    """The lines of ``text`` with their terminators, like ``str.splitlines(True)`` but breaking
    only at LSP line breaks. Joined, they give ``text`` back. No empty last line is added."""
    if not any(mark in text for mark in _NOT_LINE_BREAKS):
        # then str.splitlines breaks exactly at the LSP's line breaks, in C (every keystroke)
        return text.splitlines(keepends=True)
    if "\r" not in text:  # the same result without a match object per line
        pieces = text.split("\n")
        last = pieces.pop()
        return [*(piece + "\n" for piece in pieces), *((last,) if last else ())]
    lines: list[str] = []
    start = 0
    for match in LINE_BREAK.finditer(text):
        lines.append(text[start : match.end()])
        start = match.end()
    if start < len(text):
        lines.append(text[start:])
    return lines


def line_starts(text: str) -> list[int]:
    """Offset (in code points) where each line of :func:`split_lines` begins."""
    if "\r" not in text:  # the same result without a match object per line
        ends = text.split("\n")
        ends.pop()
        return [0, *accumulate(map((1).__add__, map(len, ends)))]
    return [0, *(match.end() for match in LINE_BREAK.finditer(text))]


def line_text(lines: Sequence[str], number: int) -> str:
    """Line ``number`` (1-based) of ``lines``; empty when there is no such line (a finding on
    the line after the last one, or a span kept from a longer text)."""
    return lines[number - 1] if 0 < number <= len(lines) else ""


def offset_at(text: str, starts: Sequence[int], line: int, column: int) -> int:
    """The offset of 0-based ``line`` and code-point ``column``, clamped into the text: a column
    past the end of its line stops before the line's terminator, a line past the end of the text
    is the end of the text (the LSP asks servers to clamp, never to fail)."""
    if line < 0:
        return 0
    if line >= len(starts):
        return len(text)
    start = starts[line]
    end = starts[line + 1] if line + 1 < len(starts) else len(text)
    content_end = end
    while content_end > start and text[content_end - 1] in "\r\n":
        content_end -= 1
    return start + max(0, min(column, content_end - start))


def position_of(text: str, offset: int) -> tuple[int, int]:
    """(1-based line, code-point column) of a string offset."""
    lines = split_lines(text[:offset])
    return len(lines), len(lines[-1])


class LineStarts(Sequence[int]):
    """:func:`line_starts` of a text kept from one edit to the next: ``base`` with ``by`` added
    to every start from index ``shift_from`` on. An edit writes the starts of the lines it
    touches (and of those between it and the previous edit) and moves every later line by
    changing ``by``, not by writing each of their starts again (thousands of new integers per
    keystroke). Immutable: each edit makes a new one (:meth:`replaced`)."""

    __slots__ = ("_base", "_by", "_from")

    def __init__(self, base: list[int], shift_from: int | None = None, by: int = 0) -> None:
        self._base = base
        self._from = len(base) if shift_from is None else shift_from
        self._by = by

    def __len__(self) -> int:
        return len(self._base)

    @overload
    def __getitem__(self, index: int) -> int: ...

    @overload
    def __getitem__(self, index: slice) -> list[int]: ...

    def __getitem__(self, index: int | slice) -> int | list[int]:
        if isinstance(index, slice):
            return list(self)[index]
        value = self._base[index]
        if index < 0:
            index += len(self._base)
        return value + self._by if index >= self._from else value

    def __iter__(self) -> Iterator[int]:
        base, at, by = self._base, self._from, self._by
        return iter([*base[:at], *(value + by for value in base[at:])])

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LineStarts | list):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # like the list it stands for

    def replaced(self, head: int, tail: int, window: list[int], delta: int) -> LineStarts:
        """These starts with those of lines ``head`` to ``tail - 1`` replaced by ``window``
        (starts in the new text) and those from ``tail`` on moved by ``delta``."""
        base, at, by = self._base, self._from, self._by
        if at < head and by:  # moved by the pending shift, and not by this edit: write them
            starts = [*base[:at], *(value + by for value in base[at:head])]
        else:
            starts = base[:head]
        starts += window
        if tail >= len(base):
            return LineStarts(starts)
        if at > tail and by:  # not moved by the pending shift, moved by this one (below)
            starts += (value - by for value in base[tail:at])
            starts += base[at:]
        else:
            starts += base[tail:]
        return LineStarts(starts, head + len(window), by + delta)


class TextLines(Sequence[str]):
    """The lines of ``text`` as :func:`split_lines` gives them, each cut from the text when it is
    asked for, at ``starts`` (its :func:`line_starts`, which the caller already has): the
    server's document keeps them from one edit to the next, so a result's lines cost no split
    of the whole text on each keystroke (a diagnostic needs only the lines it spans)."""

    __slots__ = ("_starts", "_text")

    def __init__(self, text: str, starts: Sequence[int]) -> None:
        self._text = text
        self._starts = starts

    def __len__(self) -> int:
        return len(self._starts)

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            return split_lines(self._text)[index]
        starts = self._starts
        count = len(starts)
        if index < 0:
            index += count
        if not 0 <= index < count:
            raise IndexError("line index out of range")
        end = starts[index + 1] if index + 1 < count else len(self._text)
        # each line but the last ends with exactly one terminator, and holds no other
        return self._text[starts[index] : end].rstrip("\r\n")

    def __iter__(self) -> Iterator[str]:
        return iter(split_lines(self._text))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, TextLines):
            return self._text == other._text
        return isinstance(other, list) and split_lines(self._text) == other

    __hash__ = None  # type: ignore[assignment]  # like the list it stands for
