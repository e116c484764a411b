"""Parsing by top-level statement, so an edit re-parses only the statement it touched.

The text is cut before every line that starts a new top-level statement (:mod:`.cuts`). Each
piece is parsed alone and its line numbers shifted into place. A wrong cut (inside a
triple-quoted string, say) cannot go unnoticed: both halves fail to parse, and the whole text is
then parsed in one piece. A single broken piece is repaired on its own (:mod:`.repair`).

With a :class:`ChunkCache`, pieces whose text is unchanged since the last parse of the same
document reuse their trees (shifted when lines above were added or removed: the nodes inside
their statements once settled, :mod:`.piece_lines`). So do pieces whose
code is unchanged (:mod:`.blank_lines`: an Enter in a body); their trees' lines are moved to
where the code now is. A chunk is known by its code.
"""

from __future__ import annotations

import ast
import bisect
import warnings
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field

from evalsubmit.analysis.source.blank_lines import code_of, loose_code, same_code
from evalsubmit.analysis.source.cuts import split, split_from
from evalsubmit.analysis.source.piece_lines import (
    ParsedPiece,
    decorators,
    moved,
    moved_alike,
    remapped,
    settle,
)
from evalsubmit.analysis.source.repair import repair_parse
from evalsubmit.analysis.source.text_diff import same_ends
from evalsubmit.core.records import record
from evalsubmit.core.suppression import MARKER_WORDS, mentions_in


@record
class Chunk:
    """One top-level piece of a module's text, parsed alone."""

    start: int
    """1-based first line."""
    end: int
    """1-based last line, inclusive."""
    digest: str


@dataclass(slots=True, weakref_slot=True)
class ChunkCache:
    """Trees of the previous parse of one document, in document order, with its lines."""

    lines: list[str] = field(default_factory=list)
    text: str | None = None
    """The text ``lines`` were split from, when known (the next parse splits only what
    changed since: :mod:`.text_diff`)."""
    chunks: list[Chunk] = field(default_factory=list)
    pieces: list[ParsedPiece] = field(default_factory=list)
    """``pieces[i]`` holds the statements of ``chunks[i]``."""
    body: list[ast.stmt] = field(default_factory=list)
    """The statements of every piece, in order (what the tree's body was)."""
    firsts: list[int] = field(default_factory=lambda: [0])
    """``firsts[i]``: the index in ``body`` of the first statement of ``chunks[i]`` (one more
    item at the end: the length of ``body``), so unchanged runs of chunks are sliced out."""
    marked: dict[str, list[int]] | None = None
    """For each suppression marker (``MARKER_WORDS`` of :mod:`evalsubmit.core.suppression`),
    the indexes of ``lines`` holding it (None: not known yet). Kept by the run of lines an
    edit changed: the lines before and after it are the last parse's."""
    nonlocal_pieces: int = 0
    """How many pieces' texts hold the word ``nonlocal`` (a word is on one line: the whole
    text holds it when one piece does, so no edit searches the whole text)."""
    global_pieces: int = 0
    """How many pieces' texts hold the word ``global``."""
    broken: list[ParsedPiece] = field(default_factory=list)
    """The pieces that were repaired (blanked), kept by run like the counts above."""
    handed: tuple[Chunk, ...] | None = None
    """The chunks of the last module parsed with this cache (as it was handed on)."""
    kept_tail: int = 0
    """How many of the last chunks before the last parse that parse kept (moved alike)."""
    hits: int = 0
    misses: int = 0

    def settle(self, statements: Collection[int] | None = None) -> None:
        """Move the nodes inside the statements of the last parse to their lines: of the
        statements at these indices of its body, or of every statement (``None``). A piece
        not settled keeps its lag through the next parses (:func:`parse_chunks` settles only
        the pieces it reads): a line added and removed again moves nothing inside."""
        if statements is None:
            settle(self.pieces)
            return
        owners = {bisect.bisect_right(self.firsts, index) - 1 for index in statements}
        settle(self.pieces[owner] for owner in owners)

    def piece_texts(self, chunks: tuple[Chunk, ...]) -> list[str] | None:
        """The texts of the pieces of the parse that gave ``chunks`` (None: it is not the
        last parse kept, or was not made by piece)."""
        if not chunks or len(chunks) != len(self.pieces) or len(chunks) != len(self.chunks):
            return None
        if chunks[0] is not self.chunks[0] or chunks[-1] is not self.chunks[-1]:
            return None
        return [piece.text for piece in self.pieces]


def _resplit(
    lines: list[str], cache: ChunkCache, same: tuple[int, int] | None
) -> tuple[list[tuple[int, int]], int, int]:
    """The line ranges of the statements between the cached chunks that stay, rescanning
    only around what changed since the cached parse, and how many leading and how many trailing
    chunks of the cache stay (in order; the trailing ones moved by the change in line count).

    A cut depends only on the lines up to it, so the cached chunks that end before the first
    changed line stay; past the last changed line, the first cut that the cached parse also
    made starts the cached chunks again (from there, the scan's state is the same)."""
    old_chunks = cache.chunks
    if not old_chunks:
        return split(lines), 0, 0
    same_head, same_tail = same if same is not None else same_ends(cache.lines, lines)
    front = bisect.bisect_left(old_chunks, same_head, key=_end)
    first = old_chunks[front - 1].end + 1 if front else 1
    delta = len(lines) - len(cache.lines)
    tail_from = len(lines) - same_tail + 1

    def old_chunk_at(number: int) -> int | None:
        """The index of the cached chunk (not a leading one kept) that started at ``number``
        before the change in line count."""
        index = bisect.bisect_left(old_chunks, number - delta, lo=front, key=_start)
        found = index < len(old_chunks) and old_chunks[index].start == number - delta
        return index if found else None

    def resync(number: int) -> bool:
        return number >= tail_from and old_chunk_at(number) is not None

    middle, stop = split_from(lines, first, resync)
    back = old_chunk_at(stop) if stop is not None else None
    return middle, front, 0 if back is None else len(old_chunks) - back


def _start(chunk: Chunk) -> int:
    return chunk.start


def _end(chunk: Chunk) -> int:
    return chunk.end


def parse_chunks(
    lines: list[str],
    cache: ChunkCache | None,
    source: str | None = None,
    same: tuple[int, int] | None = None,
) -> tuple[list[ast.stmt], list[Chunk], list[tuple[int, int]]] | None:
    """(statements, chunks, blanked ranges), or ``None`` when the cuts cannot be trusted.
    ``source``: the text of ``lines``, when known; ``same``: how many leading and how many
    trailing lines ``lines`` share with the cache's, when known (``same_ends``)."""
    kept = cache is not None
    if cache is None:
        cache = ChunkCache()  # a parse from scratch: nothing to reuse, nothing kept
    delta = len(lines) - len(cache.lines)
    ranges, front, back = _resplit(lines, cache, same)
    old_tail = len(cache.chunks) - back
    # The pieces of the edited run are read below (matched by code, moved line by line); the
    # others keep whatever lag their inner nodes have (they are not read here).
    settle(cache.pieces[front:old_tail])
    # Unchanged lines, cut the same way, are the cached chunks as they are: sliced out whole
    # (moved when lines above were added or removed), never visited one by one.
    chunks = cache.chunks[:front]
    pieces = cache.pieces[:front]
    firsts = cache.firsts[: front + 1]
    spare: _Spare | None = None
    middle: list[ast.stmt] = []
    moves: list[tuple[ParsedPiece, int, tuple[str, list[int]] | None]] = []
    """Pieces reused at another line (with their new text and where each old line is in it,
    when only blank lines changed), moved only once the parse succeeded: the cache keeps
    describing them until then."""
    texts: list[tuple[int, str]] = []
    for start, end in ranges:
        text = "".join(lines[start - 1 : end])
        texts.append((start, text))
        if spare is None:
            spare = _Spare(cache, front, old_tail)
        reused = spare.take(text)
        if reused is not None:
            found, digest, places = reused
            moves.append((found, start, places))
            cache.hits += 1
        else:
            new = _parse_piece(text, start)
            if new is None:
                return None
            found, digest = new
            cache.misses += 1
        pieces.append(found)
        middle.extend(found.body)
        chunks.append(Chunk(start, end, digest))
        firsts.append(firsts[-1] + len(found.body))
    kept_pieces = cache.pieces[old_tail:]
    kept_chunks = cache.chunks[old_tail:]
    if delta and back:
        kept_chunks = [Chunk(c.start + delta, c.end + delta, c.digest) for c in kept_chunks]
    shift = firsts[-1] - cache.firsts[old_tail]
    kept_firsts = cache.firsts[old_tail + 1 :]
    firsts += map(shift.__add__, kept_firsts) if shift else kept_firsts
    chunks += kept_chunks
    pieces += kept_pieces
    cache.hits += front + back
    # Kept by run: the pieces of the edited run replaced by those cut there now (reused
    # pieces counted as new ones), the others' as the last parse knew them.
    old_run = cache.pieces[front:old_tail]
    new_run = pieces[front : len(pieces) - len(kept_pieces)]
    gone = {id(parsed) for parsed in old_run if parsed.blanked}
    broken = [parsed for parsed in cache.broken if id(parsed) not in gone]
    broken += [parsed for parsed in new_run if parsed.blanked]
    if len(broken) > 1:  # counted for reused pieces too: a fresh parse must agree
        return None
    for parsed, start, places in moves:
        if places is None:
            moved(parsed, start)
        else:
            remapped(parsed, start, *places)
    if delta and back:
        moved_alike(kept_pieces, delta)
    body = [*cache.body[: cache.firsts[front]], *middle, *cache.body[cache.firsts[old_tail] :]]
    blanked = broken[0].blanked if broken else []
    cache.marked = _marked(cache, lines, front, old_tail, delta, texts) if kept else None
    cache.lines, cache.text, cache.chunks, cache.pieces = lines, source, chunks, pieces
    cache.body, cache.firsts, cache.broken, cache.kept_tail = body, firsts, broken, back
    cache.handed = None  # (until handed on: :func:`..parse.parse_source`)
    new_texts, old_texts = [text for _, text in texts], [parsed.text for parsed in old_run]
    cache.nonlocal_pieces += _holding("nonlocal", new_texts) - _holding("nonlocal", old_texts)
    cache.global_pieces += _holding("global", new_texts) - _holding("global", old_texts)
    return body, chunks, list(blanked)


def _holding(word: str, texts: Iterable[str]) -> int:
    """How many of ``texts`` hold ``word``."""
    return sum(word in text for text in texts)


def _marked(
    cache: ChunkCache,
    lines: list[str],
    front: int,
    old_tail: int,
    delta: int,
    texts: list[tuple[int, str]],
) -> dict[str, list[int]]:
    """The lines of ``lines`` holding each suppression marker: the last parse's before and
    after the edited run (``texts``, each with its first line), those of the run looked at
    anew (the whole text when the last parse's are not known)."""
    old = cache.marked
    if old is None:
        return mentions_in("".join(lines)) or _no_marks()
    before = cache.chunks[front - 1].end if front else 0  # indexes below it: unchanged
    after = cache.chunks[old_tail].start - 1 if old_tail < len(cache.chunks) else len(cache.lines)
    found = {word: [index for index in old[word] if index < before] for word in MARKER_WORDS}
    for start, text in texts:
        local = mentions_in(text)
        if local is not None:
            for word in MARKER_WORDS:
                found[word] += [start - 1 + index for index in local[word]]
    for word in MARKER_WORDS:
        found[word] += [index + delta for index in old[word] if index >= after]
    return found


def _no_marks() -> dict[str, list[int]]:
    return {word: [] for word in MARKER_WORDS}


class _Spare:
    """The cached pieces of the edited run, to reuse for the texts cut there: one of the same
    text, else one of the same code (found by its text without blank lines), each at most
    once, the first in document order (the nearest, in practice)."""

    def __init__(self, cache: ChunkCache, first: int, stop: int):
        self.pieces = list(zip(cache.pieces[first:stop], cache.chunks[first:stop], strict=True))
        self.used: set[int] = set()
        self.by_text = _indices(parsed.text for parsed, _ in self.pieces)
        self.by_code: dict[str, list[int]] | None = None

    def take(self, text: str) -> tuple[ParsedPiece, str, tuple[str, list[int]] | None] | None:
        """A piece for ``text``, its chunk's digest and, when its text differs, ``text`` and
        where each of its lines is in ``text``."""
        for index in self.by_text.get(text, ()):
            if index not in self.used:
                self.used.add(index)
                return self.pieces[index][0], self.pieces[index][1].digest, None
        if self.by_code is None:
            self.by_code = _indices(loose_code(parsed.text) for parsed, _ in self.pieces)
        for index in self.by_code.get(loose_code(text), ()):
            parsed, chunk = self.pieces[index]
            if index in self.used or parsed.blanked:
                continue
            places = same_code(parsed.text, parsed.body, parsed.offset + 1, text)
            if places is not None:
                self.used.add(index)
                return parsed, chunk.digest, (text, places)
        return None


def _indices(keys: Iterable[str]) -> dict[str, list[int]]:
    found: dict[str, list[int]] = {}
    for index, key in enumerate(keys):
        found.setdefault(key, []).append(index)
    return found


def _parse_piece(text: str, start: int) -> tuple[ParsedPiece, str] | None:
    """The piece parsed from ``text`` (beginning at line ``start``), with its digest."""
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
    parsed = ParsedPiece(text, tree.body, 0, blanked)
    digest = _digest(text, parsed)  # (read at its parsed lines, as the digest is the same)
    if start > 1:
        # moved as a piece below an edit is, then settled: the flat moves of its nodes'
        # lines cost less than ast.increment_lineno's walk, and a later move reuses the list
        moved_alike([parsed], start - 1)
        settle([parsed])
    return parsed, digest


def seed(
    body: list[ast.stmt],
    lines: list[str],
    cache: ChunkCache,
    words: Collection[str] = (),
    source: str | None = None,
) -> tuple[Chunk, ...]:
    """Fill the cache from a tree parsed whole; ``()`` when its statements do not fall inside
    the cuts (then the cuts cannot be trusted for this text and nothing is cached).
    ``words``: those of ``nonlocal`` and ``global`` the whole text (``source``, when known)
    holds (the pieces of the others are not searched)."""
    pieces: list[ParsedPiece] = []
    chunks: list[Chunk] = []
    statements = iter(body)
    pending = next(statements, None)
    for start, end in split(lines):
        own: list[ast.stmt] = []
        while pending is not None and pending.lineno <= end:
            first = min([pending.lineno, *(d.lineno for d in decorators(pending))])
            if first < start or (pending.end_lineno or pending.lineno) > end:
                cache.lines, cache.text, cache.chunks, cache.pieces = [], None, [], []
                cache.body, cache.firsts, cache.marked = [], [0], None
                cache.nonlocal_pieces = cache.global_pieces = 0
                cache.broken, cache.handed = [], None
                return ()
            own.append(pending)
            pending = next(statements, None)
        text = "".join(lines[start - 1 : end])
        piece = ParsedPiece(text, own, start - 1, [])
        pieces.append(piece)
        chunks.append(Chunk(start, end, _digest(text, piece)))
    cache.lines, cache.text, cache.chunks, cache.pieces = lines, source, chunks, pieces
    cache.marked = None  # (looked for at the first parse by piece)
    cache.handed = None  # (until handed on: :func:`..parse.parse_source`)
    cache.broken = []  # (parsed whole: nothing was repaired)
    texts = [piece.text for piece in pieces] if words else []
    cache.nonlocal_pieces = _holding("nonlocal", texts) if "nonlocal" in words else 0
    cache.global_pieces = _holding("global", texts) if "global" in words else 0
    cache.body = list(body)
    cache.firsts = [0]
    for parsed in pieces:
        cache.firsts.append(cache.firsts[-1] + len(parsed.body))
    cache.misses += 1
    return tuple(chunks)


def _digest(text: str, parsed: ParsedPiece) -> str:
    # Within one process a chunk's identity is its code (its text but for the blank lines
    # Python skips; that of a repaired text is the text); the hash of a str is computed once.
    code = text if parsed.blanked else code_of(text, parsed.body, parsed.offset + 1)
    return f"{hash(code) & 0xFFFFFFFFFFFF:x}.{len(code)}"
