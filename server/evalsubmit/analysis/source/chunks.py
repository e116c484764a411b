"""Parsing by top-level statement, so an edit re-parses only the statement it touched.

The text is cut before every line that starts a new top-level statement (a code line in column
0 that is not ``else:``/``except``/…, a closing bracket, or the ``def`` under a decorator). Each
piece is parsed alone and its line numbers shifted into place. A wrong cut (inside a
triple-quoted string, say) cannot go unnoticed: both halves fail to parse, and the whole text is
then parsed in one piece. A single broken piece is repaired on its own (:mod:`.repair`).

With a :class:`ChunkCache`, pieces whose text is unchanged since the last parse of the same
document reuse their trees (shifted when lines above were added or removed).
"""

from __future__ import annotations

import ast
import warnings
from dataclasses import dataclass, field

from evalsubmit.analysis.source.repair import repair_parse

_CONTINUATIONS = ("else", "elif", "except", "finally")
_CLOSERS = (")", "]", "}")


@dataclass(frozen=True, slots=True)
class Chunk:
    start: int
    """1-based first line."""
    end: int
    """1-based last line, inclusive."""
    digest: str


@dataclass(slots=True)
class _Parsed:
    text: str
    body: list[ast.stmt]
    offset: int
    blanked: list[tuple[int, int]]


@dataclass(slots=True)
class ChunkCache:
    """Trees of the previous parse of one document, by chunk text."""

    entries: dict[str, list[_Parsed]] = field(default_factory=dict)
    hits: int = 0
    misses: int = 0


def split(lines: list[str]) -> list[tuple[int, int]]:
    """1-based inclusive line ranges of the top-level statements (comments ride along)."""
    ranges: list[tuple[int, int]] = []
    start = 1
    last_code = ""
    quote: str | None = None
    for number, line in enumerate(lines, start=1):
        if (
            number > 1
            and quote is None
            and _starts_statement(line)
            and not last_code.startswith("@")
        ):
            ranges.append((start, number - 1))
            start = number
        if '"""' in line or "'''" in line:
            quote = _open_triple_quote(line, quote)
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            last_code = line
    if lines:
        ranges.append((start, len(lines)))
    return ranges


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


def parse_chunks(
    lines: list[str], cache: ChunkCache | None
) -> tuple[list[ast.stmt], list[Chunk], list[tuple[int, int]]] | None:
    """(statements, chunks, blanked ranges), or ``None`` when the cuts cannot be trusted."""
    body: list[ast.stmt] = []
    chunks: list[Chunk] = []
    blanked: list[tuple[int, int]] = []
    failures = 0
    fresh: dict[str, list[_Parsed]] = {}
    for start, end in split(lines):
        text = "".join(lines[start - 1 : end])
        digest = _digest(text)
        parsed = _reuse(cache, digest, text, start) if cache is not None else None
        if parsed is None:
            parsed = _parse_piece(text, start)
            if parsed is None:
                return None
            if cache is not None:
                cache.misses += 1
        if parsed.blanked:  # counted for reused pieces too: a fresh parse must agree
            failures += 1
            if failures > 1:
                return None
        fresh.setdefault(digest, []).append(parsed)
        body.extend(parsed.body)
        blanked.extend(parsed.blanked)
        chunks.append(Chunk(start, end, digest))
    if cache is not None:
        cache.entries = fresh
    return body, chunks, blanked


def _reuse(cache: ChunkCache, digest: str, text: str, start: int) -> _Parsed | None:
    candidates = cache.entries.get(digest)
    if not candidates or candidates[0].text != text:
        return None
    # Candidates are in document order, so the first unused one is the nearest in practice.
    parsed = candidates.pop(0)
    delta = start - 1 - parsed.offset
    if delta:
        for statement in parsed.body:
            ast.increment_lineno(statement, delta)
        parsed.blanked = [(a + delta, b + delta) for a, b in parsed.blanked]
        parsed.offset = start - 1
    cache.hits += 1
    return parsed


def _parse_piece(text: str, start: int) -> _Parsed | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(text)
        blanked: list[tuple[int, int]] = []
    except SyntaxError:
        repaired = repair_parse(text)
        if repaired is None:
            return None
        tree, blanked = repaired
    except (ValueError, RecursionError, MemoryError):
        return None
    if start > 1:
        for statement in tree.body:
            ast.increment_lineno(statement, start - 1)
        blanked = [(a + start - 1, b + start - 1) for a, b in blanked]
    return _Parsed(text, tree.body, start - 1, blanked)


def seed(body: list[ast.stmt], lines: list[str], cache: ChunkCache) -> tuple[Chunk, ...]:
    """Fill the cache from a tree parsed whole; ``()`` when its statements do not fall inside
    the cuts (then the cuts cannot be trusted for this text and nothing is cached)."""
    fresh: dict[str, list[_Parsed]] = {}
    chunks: list[Chunk] = []
    statements = iter(body)
    pending = next(statements, None)
    for start, end in split(lines):
        own: list[ast.stmt] = []
        while pending is not None and pending.lineno <= end:
            first = min([pending.lineno, *(d.lineno for d in _decorators(pending))])
            if first < start or (pending.end_lineno or pending.lineno) > end:
                cache.entries = {}
                return ()
            own.append(pending)
            pending = next(statements, None)
        text = "".join(lines[start - 1 : end])
        digest = _digest(text)
        fresh.setdefault(digest, []).append(_Parsed(text, own, start - 1, []))
        chunks.append(Chunk(start, end, digest))
    cache.entries = fresh
    cache.misses += 1
    return tuple(chunks)


def _decorators(statement: ast.stmt) -> list[ast.expr]:
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return statement.decorator_list
    return []


def _digest(text: str) -> str:
    # Within one process a chunk's identity is its text; its hash is computed once by str.
    return f"{hash(text) & 0xFFFFFFFFFFFF:x}.{len(text)}"
