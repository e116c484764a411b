"""The lines of an edited text split only around the edit are those of the whole text split,
and the lines it shares with the last text at each end are those counted line by line."""

from __future__ import annotations

import random

import pytest

from evalsubmit.analysis.source.text_diff import edited_lines, same_ends
from evalsubmit.core.lines import split_lines_keepends

PIECES = ["a", "b", "\n", "\n", "ab\n", "b\n", "", "x = 1\n", "\f", "\v", " "]


def _check(old: str, new: str) -> None:
    found = edited_lines(old, split_lines_keepends(old), new)
    if "\r" in old or "\r" in new:
        assert found is None
        return
    assert found is not None, (old, new)
    lines, head, tail = found
    expected = split_lines_keepends(new)
    assert lines == expected, (old, new)
    assert (head, tail) == same_ends(split_lines_keepends(old), expected), (old, new)


@pytest.mark.parametrize("seed", range(6))
def test_edited_lines_are_the_lines_of_the_whole_text(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(3000):
        old = "".join(rng.choice(PIECES) for _ in range(rng.randrange(12)))
        new = old
        for _ in range(rng.choice((1, 1, 2))):
            at = rng.randrange(len(new) + 1)
            cut = rng.randrange(at, min(len(new), at + 4) + 1)
            new = (
                new[:at] + "".join(rng.choice(PIECES) for _ in range(rng.randrange(3))) + new[cut:]
            )
        _check(old, new)
        _check(new, old)


def test_edited_lines_of_long_texts_across_blocks() -> None:
    """Texts longer than the blocks compared at once: an edit near each end, in the middle,
    lines that repeat around it."""
    rng = random.Random(7)
    base = "".join(f"line_{i % 37} = {i % 5}\n" + ("\n" if i % 7 == 0 else "") for i in range(2000))
    for _ in range(300):
        at = rng.choice((0, 1, len(base) - 1, len(base), rng.randrange(len(base) + 1)))
        cut = min(len(base), at + rng.randrange(40))
        inserted = rng.choice(["", "\n", "x", "line_3 = 3\n", base[at:cut], "\n\n" * 30])
        new = base[:at] + inserted + base[cut:]
        _check(base, new)
        _check(new, base)


def test_texts_with_carriage_returns_are_split_whole() -> None:
    _check("a\r\nb\n", "a\r\nbc\n")
    _check("a\nb\n", "a\r\nb\n")
