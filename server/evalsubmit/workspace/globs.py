"""Gitignore-style globs (``exclude``, ``per-file-ignores``, ``.gitignore`` lines) matched in
time linear in the path's length.

The patterns come from the user's files, so they must not reach a backtracking regex engine:
``*a*a*a*a*a*a*a*a*b`` against a 60-character name takes :mod:`re` minutes. A pattern is
compiled here into a small NFA and matched by simulating every state at once (Thompson's
construction), O(len(path) x len(pattern)); the state sets met are cached per pattern (a lazy
DFA, bounded), so the common case costs one dict look-up per character.

The meaning is pathspec's ``GitIgnoreSpec`` (which this replaces; ``tests/unit/test_globs.py``
compares the two): ``*`` and ``?`` never cross ``/``, ``**`` spans folders, ``[...]`` classes
with ``!``/``^`` negation and ranges, ``\\`` escapes, a leading or inner ``/`` anchors the
pattern to the configuration's folder, a trailing ``/`` matches folders only, ``!`` re-includes,
and a class never closed makes the pattern match nothing (git drops it). One deliberate
difference: a file name holding a newline is matched like any other character (pathspec's regex
``.`` and ``$`` treat a newline specially; git does not).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Final

from evalsubmit.core.records import Record

NO_MATCH = 0
DIR_MATCH = 1
"""Matched through a folder of the path (``build/`` against ``build/x.py``)."""
FILE_MATCH = 2
"""Matched the path itself; wins over a later pattern's folder match (git's rule)."""

_OPTIONAL_FOLDER = "opt"  # the pattern's end is followed by the path's end or a "/"
_FOLDER_ONLY = "dir"  # a trailing "/": something must follow, reached as a folder
_ANYTHING_BELOW = "below"  # a trailing "/**": something must follow
_CACHE_LIMIT = 4096

Char = Callable[[str], bool]


class GlobError(ValueError):
    """A pattern that is not a valid glob; the message says why."""


def _not_slash(char: str) -> bool:
    return char != "/"


def _any(char: str) -> bool:
    return True


class _Nfa(Record, hash=False):
    """The states of one pattern: what each reads (a test of one character) and where it goes."""

    __slots__ = (
        "edges",
        "empty",
    )
    edges: list[list[tuple[Char, int]]]
    empty: list[list[int]]

    def __init__(
        self,
        edges: list[list[tuple[Char, int]]] | None = None,
        empty: list[list[int]] | None = None,
    ) -> None:
        self.edges = [] if edges is None else edges
        self.empty = [] if empty is None else empty

    def state(self) -> int:
        self.edges.append([])
        self.empty.append([])
        return len(self.edges) - 1

    def read(self, start: int, char: Char) -> int:
        end = self.state()
        self.edges[start].append((char, end))
        return end

    def repeat(self, start: int, char: Char) -> int:
        """``char*`` from ``start``."""
        loop = self.state()
        self.empty[start].append(loop)
        self.edges[loop].append((char, loop))
        return loop

    def optional(self, start: int, end: int) -> None:
        self.empty[start].append(end)


class Glob(Record, eq=False):
    """One compiled pattern. ``include`` is False for ``!pattern``."""

    __slots__ = ("_accept", "_ending", "_needs", "_nfa", "_start", "_steps", "include", "pattern")
    pattern: Final[str]
    include: Final[bool]
    _nfa: Final[_Nfa | None]
    _ending: Final[str]
    _start: Final[frozenset[int]]
    _accept: Final[int]
    _needs: Final[str]
    """The longest run of plain characters of one name: a path without it cannot match."""
    _steps: Final[dict[tuple[frozenset[int], str], frozenset[int]]]

    def __init__(
        self,
        pattern: str,
        include: bool,
        _nfa: _Nfa | None,
        _ending: str,
        _start: frozenset[int] = frozenset(),
        _accept: int = 0,
        _needs: str = "",
        _steps: dict[tuple[frozenset[int], str], frozenset[int]] | None = None,
    ) -> None:
        self.pattern = pattern
        self.include = include
        self._nfa = _nfa
        self._ending = _ending
        self._start = _start
        self._accept = _accept
        self._needs = _needs
        self._steps = {} if _steps is None else _steps

    def match(self, path: str) -> int:
        """:data:`NO_MATCH`, :data:`DIR_MATCH` or :data:`FILE_MATCH` for a POSIX path relative
        to the patterns' folder (a folder written with a trailing ``/``)."""
        path = path[1:] if path.startswith("/") else path.removeprefix("./")
        if self._nfa is None:  # "*", "**", "*/", "**/": no state machine needed
            if self._ending == _OPTIONAL_FOLDER:
                return FILE_MATCH if path else NO_MATCH
            if "/" not in path:
                return NO_MATCH
            return DIR_MATCH if self._ending == _FOLDER_ONLY else FILE_MATCH
        if self._needs not in path:  # most paths are told apart here, at C speed
            return NO_MATCH
        states = self._start
        accept = self._accept
        steps = self._steps
        through_folder = False
        for char in path:
            if accept in states and char == "/":
                if self._ending != _OPTIONAL_FOLDER:
                    return DIR_MATCH if self._ending == _FOLDER_ONLY else FILE_MATCH
                through_folder = True
            states = steps.get((states, char)) or self._step(states, char)
            if not states:
                break
        if self._ending == _OPTIONAL_FOLDER and accept in states:
            return FILE_MATCH
        return DIR_MATCH if through_folder else NO_MATCH

    def _step(self, states: frozenset[int], char: str) -> frozenset[int]:
        """The states after reading ``char``, worked out and kept (the cache is bounded: a
        pattern whose state sets are many starts it afresh, keeping the time linear)."""
        nfa = self._nfa
        assert nfa is not None
        reached = {end for state in states for test, end in nfa.edges[state] if test(char)}
        known = _closure(nfa, reached)
        if len(self._steps) >= _CACHE_LIMIT:
            self._steps.clear()
        self._steps[(states, char)] = known
        return known


class GlobSet:
    """The patterns of one ``.gitignore`` (or an ``exclude`` list), git's way: the last
    pattern matching the path itself decides; failing that, the last matching a folder of it."""

    def __init__(self, globs: Iterable[Glob]) -> None:
        self.globs: tuple[Glob, ...] = tuple(globs)

    @classmethod
    def from_lines(cls, lines: Iterable[str]) -> GlobSet:
        """Raises :class:`GlobError` for the first invalid line."""
        return cls(glob for glob in map(compile_glob, lines) if glob is not None)

    def check(self, path: str) -> bool | None:
        """True: the path is matched (ignored, excluded); False: re-included by ``!``;
        None: no pattern matches it."""
        glob = self.decider(path)
        return None if glob is None else glob.include

    def decider(self, path: str) -> Glob | None:
        """The pattern that decides ``path`` (see :meth:`check`); None when none matches."""
        decided: Glob | None = None
        for glob in reversed(self.globs):
            how = glob.match(path)
            if how == FILE_MATCH:
                return glob
            if how == DIR_MATCH and decided is None:
                decided = glob
        return decided

    def matches(self, path: str) -> bool:
        return bool(self.check(path))


def compile_glob(line: str) -> Glob | None:
    """The pattern of one line; None for a line that matches nothing (blank, a comment, a
    lone ``/``, a ``[`` never closed). Raises :class:`GlobError` for an invalid one."""
    pattern = line if line.endswith("\\ ") else line.rstrip()
    if not pattern or pattern.startswith("#") or pattern == "/":
        return None
    include = not pattern.startswith("!")
    body = pattern if include else pattern[1:]
    is_folder = body.endswith("/")
    segments = _normalized(body.split("/"), line)
    if len(segments) == 1 and segments[0] == "**":
        return Glob(line, include, None, _FOLDER_ONLY if is_folder else _OPTIONAL_FOLDER)
    if segments == ["**", "*"]:
        return Glob(line, include, None, _OPTIONAL_FOLDER)
    if segments == ["**", "*", "**"]:
        return Glob(line, include, None, _FOLDER_ONLY if is_folder else _ANYTHING_BELOW)
    built = _build(segments, is_folder)
    if built is None:
        return None
    nfa, accept, ending, needs = built
    return Glob(line, include, nfa, ending, _closure(nfa, {0}), accept, needs)


def _normalized(segments: list[str], line: str) -> list[str]:
    """Anchoring made explicit: a pattern without an inner ``/`` gets a leading ``**``, a
    trailing ``/`` becomes a trailing ``**``, repeated ``**`` collapse."""
    if not segments[0]:
        del segments[0]  # a leading "/": relative to the folder, as any inner "/" is
    elif (len(segments) == 1 or (len(segments) == 2 and not segments[1])) and segments[0] != "**":
        segments.insert(0, "**")  # a name alone matches at any depth
    if not segments:
        raise GlobError(f"Invalid git pattern: {line!r}")
    if not segments[-1]:
        segments[-1] = "**"
    collapsed = [segments[0]]
    for segment in segments[1:]:
        if not (segment == "**" and collapsed[-1] == "**"):
            collapsed.append(segment)
    return collapsed


def _build(segments: Sequence[str], is_folder: bool) -> tuple[_Nfa, int, str, str] | None:
    """The state machine of normalized segments, its accepting state, how the pattern must
    end and its longest run of literal characters; None when a class is never closed."""
    nfa = _Nfa()
    state = nfa.state()
    ending = _OPTIONAL_FOLDER
    last = len(segments) - 1
    after_segment = False
    bad_ranges: list[str] = []
    runs: list[str] = [""]
    for index, segment in enumerate(segments):
        if segment == "**" and index == 0:  # any folders first: (.+/)?
            end = nfa.state()
            nfa.optional(state, end)
            nfa.edges[nfa.repeat(nfa.read(state, _any), _any)].append(("/".__eq__, end))
            state = end
        elif segment == "**" and index < last:  # any folders between: (/.+)?
            end = nfa.state()
            nfa.optional(state, end)
            nfa.optional(nfa.repeat(nfa.read(nfa.read(state, "/".__eq__), _any), _any), end)
            state, after_segment = end, True
        elif segment == "**":
            ending = _FOLDER_ONLY if is_folder else _ANYTHING_BELOW
        else:
            if after_segment:
                state = nfa.read(state, "/".__eq__)
            if segment == "*":  # a whole name: never empty
                state = nfa.repeat(nfa.read(state, _not_slash), _not_slash)
            else:
                reached = _segment(nfa, state, segment, bad_ranges, runs)
                if reached is None:
                    return None
                state = reached
            after_segment = True
    if bad_ranges:
        raise GlobError(bad_ranges[0])
    return nfa, state, ending, max(runs, key=len)


def _segment(
    nfa: _Nfa, state: int, segment: str, bad_ranges: list[str], runs: list[str]
) -> int | None:
    """One name's glob (``*``, ``?``, ``[...]``, ``\\x``, literals) from ``state``; its runs of
    literal characters are added to ``runs``."""
    run: list[str] = []
    at, end = 0, len(segment)
    while at < end:
        char = segment[at]
        at += 1
        if char not in "\\*?[":
            run.append(char)
            state = nfa.read(state, char.__eq__)
            continue
        if char == "\\":
            if at == end:
                raise GlobError("a backslash at the end escapes nothing")
            run.append(segment[at])
            state = nfa.read(state, segment[at].__eq__)
            at += 1
            continue
        runs.append("".join(run))
        run.clear()
        if char == "*":
            state = nfa.repeat(state, _not_slash)
        elif char == "?":
            state = nfa.read(state, _not_slash)
        else:
            closing = _class_end(segment, at)
            if closing is None:
                return None  # git drops a pattern whose class is never closed
            state = nfa.read(state, _class(segment[at:closing], bad_ranges))
            at = closing + 1
    runs.append("".join(run))
    return state


def _class_end(segment: str, start: int) -> int | None:
    """The index of the ``]`` closing a class opened just before ``start``: a ``]`` first
    (after any ``!``/``^``) is a member, not the end."""
    at = start
    if at < len(segment) and segment[at] in "!^":
        at += 1
    if at < len(segment) and segment[at] == "]":
        at += 1
    closing = segment.find("]", at)
    return closing if closing >= 0 else None


def _class(body: str, bad_ranges: list[str]) -> Char:
    """A class's test, ``body`` being what stands between ``[`` and its closing ``]``. Every
    member is literal (a backslash too); ``a-z`` is a range, ``-`` first or last a member."""
    negated = body[:1] in ("!", "^")
    members = body[1:] if negated else body
    singles: set[str] = set()
    ranges: list[tuple[str, str]] = []
    at = 0
    while at < len(members):
        low = members[at]
        if at + 2 < len(members) and members[at + 1] == "-":
            high = members[at + 2]
            if high < low:
                bad_ranges.append(f"bad character range {low}-{high}")
            ranges.append((low, high))
            at += 3
        else:
            singles.add(low)
            at += 1

    def test(char: str) -> bool:
        inside = char in singles or any(low <= char <= high for low, high in ranges)
        return inside != negated

    return test


def _closure(nfa: _Nfa, states: Iterable[int]) -> frozenset[int]:
    """``states`` and every state reached from them reading nothing."""
    seen = set(states)
    pending = list(seen)
    while pending:
        for nxt in nfa.empty[pending.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                pending.append(nxt)
    return frozenset(seen)
