"""The lines of an edited text, split only where the edit is: the lines before and after it
are the last text's (the same string objects), found by comparing the two texts a block of
characters at a time (C speed) instead of splitting the whole text and comparing it line by
line (both proportional to the module, on every keystroke). :func:`same_ends` counts the
items two sequences of lines or chunks share at each end, a block at a time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from evalsubmit.core.lines import split_lines_keepends

if TYPE_CHECKING:
    from evalsubmit.analysis.source.chunks import Chunk

_BLOCK = 2048


def edited_lines(old: str, old_lines: list[str], new: str) -> tuple[list[str], int, int] | None:
    """``split_lines_keepends(new)``, with how many leading and how many trailing lines it
    shares with ``old_lines`` (``old``'s lines), as :func:`same_ends` counts
    them (the two runs do not overlap). None when a text holds ``\\r`` (line breaks of more
    than one character: then the whole text is split)."""
    if "\r" in old or "\r" in new:
        return None
    if old == new:
        return list(old_lines), len(old_lines), 0
    n_old, n_new = len(old), len(new)
    limit = min(n_old, n_new)
    prefix = _common_prefix(old, new, limit)
    suffix = _common_suffix(old, new, limit - prefix)
    start = old.rfind("\n", 0, prefix) + 1  # where the line of the first difference starts
    tail_start = _tail_start(old, new, suffix)  # where the lines ending both texts start
    # Lines counted by their breaks: those of the edited run, and those of the shorter of
    # the common prefix and suffix (the longer one's follow from the line count).
    count_old = len(old_lines)
    if tail_start < n_old:  # the lines from ``start`` up to the trailing ones
        edited_run = old.count("\n", start, tail_start)
    else:  # the lines from ``start`` to the end
        edited_run = 1 + old.count("\n", start, n_old - 1) if start < n_old else 0
    if prefix <= n_old - tail_start:
        head = old.count("\n", 0, start)
        tail = count_old - head - edited_run
    else:
        tail = old.count("\n", tail_start, n_old - 1) + 1 if tail_start < n_old else 0
        head = count_old - tail - edited_run
    length = n_old - tail_start
    count_new = (
        count_old
        + new.count("\n", prefix, n_new - suffix)
        - old.count("\n", prefix, n_old - suffix)
        + _open_end(new)
        - _open_end(old)
    )
    room = min(count_old, count_new) - head
    if tail >= room or _shorter_ends_the_longer(old, new, start, count_old <= count_new):
        # the trailing lines reach line ``head`` of the text with fewer lines (the common
        # suffix counted only characters after the common prefix)
        tail = room
        length = (n_old if count_old <= count_new else n_new) - start
    middle = split_lines_keepends(new[start : n_new - length])
    return [*old_lines[:head], *middle, *old_lines[count_old - tail :]], head, tail


def _tail_start(old: str, new: str, suffix: int) -> int:
    """Where in ``old`` the first whole line of the common ``suffix`` begins (a line there
    begins after a line break of the suffix, or where the suffix begins when both texts
    break a line just before it); ``len(old)`` when none does."""
    n_old, n_new = len(old), len(new)
    if not suffix:
        return n_old
    first_old, first_new = n_old - suffix, n_new - suffix
    if (first_old == 0 or old[first_old - 1] == "\n") and (
        first_new == 0 or new[first_new - 1] == "\n"
    ):
        return first_old
    found = old.find("\n", first_old, n_old - 1)  # (a last line break starts no line)
    return found + 1 if found >= 0 else n_old


def _shorter_ends_the_longer(old: str, new: str, start: int, old_is_shorter: bool) -> bool:
    """Whether the lines of the text with fewer lines from ``start`` (a line start in both)
    to its end are the last lines of the other text."""
    short, long = (old, new) if old_is_shorter else (new, old)
    run = short[start:]
    at = len(long) - len(run)
    return long.endswith(run) and (at == 0 or long[at - 1] == "\n")


def _open_end(text: str) -> int:
    """1 when the last line of ``text`` has no line break (it is a line all the same)."""
    return 1 if text and not text.endswith("\n") else 0


def _common_prefix(a: str, b: str, limit: int) -> int:
    """The length of the common prefix of ``a`` and ``b``, at most ``limit``: blocks of
    doubling size compared until one differs, then that block halved."""
    low, step = 0, _BLOCK
    high = limit
    while low < limit:
        high = min(limit, low + step)
        if a[low:high] != b[low:high]:
            break
        low, step = high, step * 2
    else:
        return limit
    while high - low > 1:  # a[:low] == b[:low]; a[:high] != b[:high]
        middle = (low + high) // 2
        if a[low:middle] == b[low:middle]:
            low = middle
        else:
            high = middle
    return low


def _common_suffix(a: str, b: str, limit: int) -> int:
    """The length of the common suffix of ``a`` and ``b``, at most ``limit``."""
    n_a, n_b = len(a), len(b)
    low, step = 0, _BLOCK
    high = limit
    while low < limit:
        high = min(limit, low + step)
        if a[n_a - high : n_a - low] != b[n_b - high : n_b - low]:
            break
        low, step = high, step * 2
    else:
        return limit
    while high - low > 1:
        middle = (low + high) // 2
        if a[n_a - middle : n_a - low] == b[n_b - middle : n_b - low]:
            low = middle
        else:
            high = middle
    return low


_ITEMS = 64
S = TypeVar("S", list[str], tuple["Chunk", ...])


def same_ends(old: S, new: S) -> tuple[int, int]:
    """How many leading and how many trailing items ``old`` and ``new`` share (the two runs
    do not overlap). Compared a block at a time (slices of one type, so that they compare
    item by item, each item first by identity): an unchanged run costs C speed."""
    limit = min(len(old), len(new))
    head = 0
    while head + _ITEMS <= limit and old[head : head + _ITEMS] == new[head : head + _ITEMS]:
        head += _ITEMS
    while head < limit and old[head] == new[head]:
        head += 1
    room, old_end, new_end = limit - head, len(old), len(new)
    tail = 0
    while (
        tail + _ITEMS <= room
        and old[old_end - tail - _ITEMS : old_end - tail]
        == new[new_end - tail - _ITEMS : new_end - tail]
    ):
        tail += _ITEMS
    while tail < room and old[old_end - 1 - tail] == new[new_end - 1 - tail]:
        tail += 1
    return head, tail
