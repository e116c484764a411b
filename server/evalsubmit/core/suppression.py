"""The suppression comment, one grammar for every reader (engine, hover, code actions):

    # evalsubmit: ignore            every rule on this line
    # evalsubmit: ignore[ES107]     one rule; several: ignore[ES107, ES109]

Case does not matter, in the marker or the codes (``ignore[es101]`` is ES101).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

# compiled (and kept by re) when the first finding is looked at: a clean file needs none
_COMMENT = r"(?i)#\s*evalsubmit:\s*ignore(?:\[(?P<codes>[^\]]*)\])?"


@dataclass(frozen=True, slots=True)
class Suppression:
    """One ``# evalsubmit: ignore[...]`` comment."""

    start: int
    """Column (code points) where the comment starts, and where it ends."""
    end: int
    codes: tuple[str, ...] | None
    """The codes named (upper case, as written in order), or None: every rule."""

    def covers(self, code: str) -> bool:
        return self.codes is None or code.upper() in self.codes


def suppressions(line: str) -> Iterator[Suppression]:
    for match in re.finditer(_COMMENT, line):
        codes = match.group("codes")
        named = None if codes is None else tuple(_codes(codes))
        yield Suppression(match.start(), match.end(), named)


def suppressed(code: str, line: str) -> bool:
    """Whether ``code`` is silenced on ``line`` (the first suppression comment decides)."""
    first = next(suppressions(line), None)
    return first is not None and first.covers(code)


def with_code(line: str, code: str) -> tuple[int, int, str]:
    """(start, end, text): the edit of ``line`` that adds ``code`` to its suppression comment,
    or appends one; a comment that already silences every rule is left as it is."""
    first = next(suppressions(line), None)
    if first is None:
        end = len(line.rstrip())
        return end, len(line), f"  # evalsubmit: ignore[{code}]"
    if first.codes is None:
        return first.start, first.end, line[first.start : first.end]
    codes = sorted({*first.codes, code.upper()})
    return first.start, first.end, f"# evalsubmit: ignore[{', '.join(codes)}]"


def _codes(text: str) -> list[str]:
    return [code.strip().upper() for code in text.split(",") if code.strip()]
