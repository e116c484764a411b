"""The suppression comments, one grammar for every reader (engine, CLI, hover, code actions):

    # evalsubmit: ignore                every rule on this line
    # evalsubmit: ignore[ES107]         one rule; several: ignore[ES107, ES109]
    # noqa                              every rule on this line (as for ruff and flake8)
    # noqa: ES104, E501                 ES104 here; E501 belongs to another tool (ignored)
    # evalsubmit: ignore-file           on a line of its own: every rule in the file
    # evalsubmit: ignore-file[ES104]    on a line of its own: ES104 in the file

Case does not matter in our markers or in our codes (``ignore[es101]`` is ES101). In a
``# noqa:`` list only ``ES``-prefixed codes are ours; the others (E501, F401, RUF100) belong to
other tools and are kept, never judged. ``# noqa:`` followed by no code is no directive (ruff
reads it so too: it would otherwise silence everything by accident).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator, Mapping, Sequence
from enum import StrEnum
from itertools import accumulate
from typing import Final

from evalsubmit.core.lines import split_lines_keepends
from evalsubmit.core.records import Record

# compiled (and kept by re) when the first finding is looked at: a clean file needs none
_IGNORE = r"(?i)#\s*evalsubmit:\s*ignore(?![-\w])(?:\[(?P<codes>[^\]]*)\])?"
_TOKEN = r"[A-Za-z]+[0-9][A-Za-z0-9]*"
_NOQA = rf"(?i)#\s*noqa(?::(?P<codes>\s*{_TOKEN}(?:[\s,]+{_TOKEN})*)|(?![\w:]))"
_FILE = r"(?i)^[ \t\f]*(?P<marker>#\s*evalsubmit:\s*ignore-file(?:\[(?P<codes>[^\]]*)\])?)\s*$"
_CODE = r"[^\s,]+"
WHOLE_LINE = -1
"""The ``end`` of an edit that removes the whole line, its line end included."""
OURS = "ES"
"""The prefix of our codes: in a ``# noqa:`` list, the others are another tool's."""


class Kind(StrEnum):
    IGNORE = "evalsubmit: ignore"
    NOQA = "noqa"
    FILE = "evalsubmit: ignore-file"


class Code(Record):
    """One code as written in a suppression, with its columns (code points) in the line."""

    __slots__ = ("code", "end", "ours", "start")
    code: Final[str]
    """Upper case."""
    start: Final[int]
    end: Final[int]
    ours: Final[bool]
    """Every code of an ``evalsubmit:`` comment is ours; in ``# noqa:``, those starting ES."""

    def __init__(self, code: str, start: int, end: int, ours: bool = True) -> None:
        self.code = code
        self.start = start
        self.end = end
        self.ours = ours


class Suppression(Record):
    """One suppression comment on one line."""

    __slots__ = ("codes", "end", "kind", "start", "written")
    start: Final[int]
    """Column (code points) where the comment starts, and where it ends."""
    end: Final[int]
    codes: Final[tuple[str, ...] | None]
    """Our codes named (upper case, as written, in order), or None: every rule."""
    kind: Final[Kind]
    written: Final[tuple[Code, ...]]
    """Every code as written, ours and (in a ``noqa`` list) other tools', with its columns."""

    def __init__(
        self,
        start: int,
        end: int,
        codes: tuple[str, ...] | None,
        kind: Kind = Kind.IGNORE,
        written: tuple[Code, ...] = (),
    ) -> None:
        self.start = start
        self.end = end
        self.codes = codes
        self.kind = kind
        self.written = written

    def covers(self, code: str) -> bool:
        return self.codes is None or code.upper() in self.codes

    @property
    def foreign(self) -> tuple[Code, ...]:
        """The codes of other tools (``# noqa: E501``): kept, never judged."""
        return tuple(c for c in self.written if not c.ours)


def suppressions(line: str) -> Iterator[Suppression]:
    """The line-level suppressions of ``line`` (``ignore``, ``noqa``), left to right."""
    found = [*_ignores(line), *_noqas(line)]
    yield from sorted(found, key=lambda s: s.start)


def _ignores(line: str) -> Iterator[Suppression]:
    for match in re.finditer(_IGNORE, line):
        if match.group("codes") is None:
            yield Suppression(match.start(), match.end(), None, Kind.IGNORE)
            continue
        written = _written(match.group("codes"), match.start("codes"))
        named = tuple(c.code for c in written)
        yield Suppression(match.start(), match.end(), named, Kind.IGNORE, written)


def _noqas(line: str) -> Iterator[Suppression]:
    if "noqa" not in line.lower():  # most lines: no regex at all
        return
    for match in re.finditer(_NOQA, line):
        if match.group("codes") is None:
            yield Suppression(match.start(), match.end(), None, Kind.NOQA)
            continue
        written = _noqa_codes(match.group("codes"), match.start("codes"))
        ours = tuple(c.code for c in written if c.ours)
        yield Suppression(match.start(), match.end(), ours, Kind.NOQA, written)


MARKER_WORDS = ("evalsubmit", "noqa", "ignore-file")
"""The words :func:`lines_mentioning` is asked about (what every suppression comment holds)."""

Marked = Mapping[str, list[int]]
"""For each of :data:`MARKER_WORDS`, the indexes (in order) of the lines holding it in any
case, as :func:`lines_mentioning` finds them: the editor's parse knows them by piece, each
piece looked at once (a long module's lowered copy per edit costs more)."""


def mentions_in(text: str) -> dict[str, list[int]] | None:
    """For each of :data:`MARKER_WORDS`, the indexes of the lines of ``text`` holding it
    (None: none holds any)."""
    low = text.lower()
    if not any(word in low for word in MARKER_WORDS):
        return None
    lines = split_lines_keepends(text)
    return {word: lines_mentioning(lines, (word,)) for word in MARKER_WORDS}


def lines_mentioning(
    lines: Sequence[str], words: Sequence[str], marked: Marked | None = None
) -> list[int]:
    """The indexes of the lines holding one of ``words`` (lower case), in any case: read from
    ``marked`` (the lines' marked lines, when known), else found in one lowered copy of the
    text (C speed), not by lowering each line."""
    if marked is not None and all(word in marked for word in words):
        if len(words) == 1:
            return list(marked[words[0]])
        return sorted({index for word in words for index in marked[word]})
    text, low = _lowered(lines)
    if not any(word in low for word in words):
        return []  # most modules
    if len(low) != len(text):  # lowering changed a length (rare letters): offsets differ
        return [i for i, line in enumerate(lines) if any(w in line.lower() for w in words)]
    ends = list(accumulate(map(len, lines)))
    found: set[int] = set()
    for word in words:
        at = low.find(word)
        while at != -1:
            found.add(bisect.bisect_right(ends, at))
            at = low.find(word, at + 1)
    return sorted(found)


_last_lowered: tuple[tuple[str, ...], str, str] | None = None
"""The last tuple of lines lowered, with its text and lowered text: an analysis looks for
words in its module's lines twice (line and file suppressions), and a long module's lowered
copy costs more than the look."""


def _lowered(lines: Sequence[str]) -> tuple[str, str]:
    global _last_lowered
    last = _last_lowered  # (read once: analyses in other threads may replace it)
    if last is not None and last[0] is lines:
        return last[1], last[2]
    text = "".join(lines)
    low = text.lower()
    if type(lines) is tuple:  # a list may change between two looks
        _last_lowered = (lines, text, low)
    return text, low


def file_suppressions(
    lines: Sequence[str], marked: Marked | None = None
) -> list[tuple[int, Suppression]]:
    """Each ``# evalsubmit: ignore-file[...]`` on a line of its own, with its 1-based line
    (``marked``: the lines' marked lines, when known)."""
    found: list[tuple[int, Suppression]] = []
    for index in lines_mentioning(lines, ("ignore-file",), marked):
        number, line = index + 1, lines[index]
        match = re.match(_FILE, line.rstrip("\r\n"))
        if match is None:
            continue
        start, end = match.span("marker")
        if match.group("codes") is None:
            found.append((number, Suppression(start, end, None, Kind.FILE)))
            continue
        written = _written(match.group("codes"), match.start("codes"))
        named = tuple(c.code for c in written)
        found.append((number, Suppression(start, end, named, Kind.FILE, written)))
    return found


def suppressed(code: str, line: str) -> bool:
    """Whether ``code`` is silenced on ``line`` by any of its suppression comments."""
    if "#" not in line:  # every suppression is a comment: most lines with a finding hold none
        return False
    return any(s.covers(code) for s in suppressions(line))


def silenced_by_file(code: str, file_level: Sequence[tuple[int, Suppression]]) -> bool:
    return any(s.covers(code) for _, s in file_level)


def with_code(line: str, code: str) -> tuple[int, int, str]:
    """(start, end, text): the edit of ``line`` that adds ``code`` to its suppression comment,
    or appends one; a comment that already silences every rule is left as it is."""
    first = next(_ignores(line), None)
    if first is None:
        end = len(line.rstrip())
        return end, len(line), f"  # evalsubmit: ignore[{code}]"
    if first.codes is None:
        return first.start, first.end, line[first.start : first.end]
    codes = sorted({*first.codes, code.upper()})
    return first.start, first.end, f"# evalsubmit: ignore[{', '.join(codes)}]"


def with_noqa(line: str, codes: Sequence[str]) -> str | None:
    """``line`` (without its line end) with ``codes`` in its ``# noqa:`` comment, merged into
    the one there (other tools' codes kept, no code twice) or appended; None when the line
    already silences every one of them."""
    text = line.rstrip("\r\n")
    ending = line[len(text) :]
    wanted = [c.upper() for c in dict.fromkeys(codes) if not suppressed(c, text)]
    if not wanted:
        return None
    lists = (s for s in suppressions(text) if s.kind is Kind.NOQA and s.codes is not None)
    noqa = next(lists, None)
    if noqa is None:
        return f"{text.rstrip()}  # noqa: {', '.join(wanted)}{ending}"
    merged = [c.code for c in noqa.written] + wanted
    new = f"# noqa: {', '.join(dict.fromkeys(merged))}"
    return f"{text[: noqa.start]}{new}{text[noqa.end :]}{ending}"


def without_codes(line: str, comment: Suppression, drop: Sequence[str]) -> tuple[int, int, str]:
    """(start, end, text): the edit of ``line`` that takes ``drop`` out of ``comment`` (every
    code of it for a bare comment), removing the whole comment when nothing is left in it."""
    dropped = {c.upper() for c in drop}
    kept = [c.code for c in comment.written if c.code not in dropped]
    if comment.codes is not None and kept:
        if comment.kind is Kind.NOQA:
            return comment.start, comment.end, f"# noqa: {', '.join(kept)}"
        return comment.start, comment.end, f"# evalsubmit: {_marker(comment)}[{', '.join(kept)}]"
    return _removal(line, comment)


def _marker(comment: Suppression) -> str:
    return "ignore-file" if comment.kind is Kind.FILE else "ignore"


def _removal(line: str, comment: Suppression) -> tuple[int, int, str]:
    """Remove the comment; what follows it in the comment stays a comment."""
    text = line.rstrip("\r\n")
    after = text[comment.end :]
    if not after.strip():  # nothing follows: the whitespace before it goes too
        start = len(text[: comment.start].rstrip())
        if comment.kind is Kind.FILE or not text[:start].strip():
            return 0, WHOLE_LINE, ""  # a line of its own: the whole line (and its end)
        return start, len(text), ""
    rest = after.lstrip()
    end = comment.end + len(after) - len(rest)
    return comment.start, end, "" if rest.startswith("#") else "# "


def _written(text: str, offset: int) -> tuple[Code, ...]:
    """The codes of ``ignore[...]``: comma-separated, blanks around each trimmed."""
    return tuple(
        Code(m.group().upper(), offset + m.start(), offset + m.end())
        for m in re.finditer(r"[^,\s](?:[^,]*[^,\s])?", text)
    )


def _noqa_codes(text: str, offset: int) -> tuple[Code, ...]:
    """The codes of ``# noqa:``: separated by commas or blanks; ours start with ES."""
    return tuple(
        Code(m.group().upper(), offset + m.start(), offset + m.end(), m.group().upper()[:2] == OURS)
        for m in re.finditer(_CODE, text)
    )


def lines_ending_in_strings(text: str) -> set[int]:
    """1-based lines whose end lies inside a string or after a backslash continuation: a
    comment appended there would change the program, so no suppression can be put there."""
    import io  # only the writers of suppression comments need these
    import tokenize

    from evalsubmit.core.lines import split_lines

    lines = split_lines(text)
    unsafe = {i + 1 for i, line in enumerate(lines) if line.endswith("\\")}
    # The tokenizer's line numbers must be the LSP's: one "\n" per LSP line break.
    try:
        for tok in tokenize.generate_tokens(io.StringIO("\n".join(lines)).readline):
            if tok.type == tokenize.STRING or tok.type == getattr(tokenize, "FSTRING_MIDDLE", -1):
                unsafe.update(range(tok.start[0], tok.end[0]))
    except (tokenize.TokenError, SyntaxError):
        pass
    return unsafe
