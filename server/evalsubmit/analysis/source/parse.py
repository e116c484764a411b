"""Source text -> :mod:`ast` module, tolerant of half-typed code.

Parsed whole when it parses, else one top-level statement at a time (:mod:`.chunks`), with
broken statements blanked (:mod:`.repair`).
"""

from __future__ import annotations

import ast
import re
import warnings
import weakref
from collections.abc import Collection, Iterable, Sequence
from typing import TYPE_CHECKING, Final

from evalsubmit.core.findings import Span
from evalsubmit.core.lines import split_lines_keepends
from evalsubmit.core.records import Record

if TYPE_CHECKING:
    from evalsubmit.analysis.source.chunks import Chunk, ChunkCache
    from evalsubmit.core.suppression import Marked

# The per-statement parse (.chunks, with what it needs) and the repair of broken text are
# loaded by the parse that uses them: a check parses a file that parses whole without a cache.


_COMPARED = ("tree", "lines", "blanked", "ascii", "chunks", "spells_nonlocal", "spells_global")


class ParsedModule(Record, compared=_COMPARED, shown=_COMPARED):
    """A module's syntax tree and lines, as the analysis reads them. Compared by what was
    parsed (not the cache, the spans or the marks it was made with)."""

    __slots__ = (
        "_cache",
        "_kept",
        "_spans",
        "ascii",
        "blanked",
        "chunks",
        "lines",
        "marked",
        "spells_global",
        "spells_nonlocal",
        "tree",
    )
    tree: Final[ast.Module]
    lines: Final[tuple[str, ...]]
    blanked: Final[tuple[tuple[int, int], ...]]
    """1-based inclusive line ranges removed because they did not parse."""
    ascii: Final[bool]
    """The whole text is ASCII, so ast's byte columns are already code-point columns."""
    chunks: Final[tuple[Chunk, ...]]
    """The top-level pieces it was parsed from (empty when parsed whole)."""
    spells_nonlocal: Final[bool]
    """The text holds the word ``nonlocal`` (or is not ASCII: no guess is made). When it
    does not, no function of the module rebinds a name of an enclosing one, which is then
    known without walking every body (``rebound_locals`` of :mod:`..interp.binding`)."""
    _cache: Final[weakref.ref[ChunkCache] | None]
    """The cache it was parsed with, whose pieces' inner nodes may still have to move (weak:
    a module kept after its document's caches went does not keep them)."""
    _spans: Final[dict[ast.AST, Span]]
    """Spans already computed, by node (a node's position is fixed once its module is built
    and settled: a tree reused by the next parse belongs to the next module, with its own
    spans). Not a parameter."""
    spells_global: Final[bool]
    """The text holds the word ``global``: without it, no function of the module rebinds a
    global (``rebound_globals`` of :mod:`..interp.binding`), known without joining its lines."""
    _kept: Final[tuple[tuple[Chunk, ...], int] | None]
    """The chunks of the parse it was made from (by its cache), and how many of their last
    ones it kept."""
    marked: Final[Marked | None]
    """The lines holding each suppression marker, when the parse knew them (the editor's
    parse by piece: the suppressions' look then costs no lowered copy of the text)."""

    def __init__(
        self,
        tree: ast.Module,
        lines: tuple[str, ...],
        blanked: tuple[tuple[int, int], ...] = (),
        ascii: bool = False,
        chunks: tuple[Chunk, ...] = (),
        spells_nonlocal: bool = True,
        _cache: weakref.ref[ChunkCache] | None = None,
        spells_global: bool = True,
        _kept: tuple[tuple[Chunk, ...], int] | None = None,
        marked: Marked | None = None,
    ) -> None:
        self.tree = tree
        self.lines = lines
        self.blanked = blanked
        self.ascii = ascii
        self.chunks = chunks
        self.spells_nonlocal = spells_nonlocal
        self._cache = _cache
        self._spans = {}
        self.spells_global = spells_global
        self._kept = _kept
        self.marked = marked

    def kept_from(self, chunks: tuple[Chunk, ...]) -> int | None:
        """How many of the last chunks of ``chunks`` this module's chunks kept (moved alike),
        when it was parsed from them (None: not known)."""
        kept = self._kept
        return kept[1] if kept is not None and kept[0] is chunks else None

    def settle(self) -> None:
        """Every node at its line. Below an edit that added or removed lines, the top-level
        statements (and their decorators) are at their lines at once, the nodes inside them
        once settled (:mod:`.piece_lines`): the engine settles the statements it walks before
        the walk. A reader of positions inside statements not walked settles first."""
        cache = self._cache() if self._cache is not None else None
        if cache is not None:
            cache.settle()

    def span(self, node: ast.AST) -> Span:
        """The node's span in code points (ast reports UTF-8 byte columns)."""
        found = self._spans.get(node)
        if found is None:
            found = self._spans[node] = self._span(node)
        return found

    def _span(self, node: ast.AST) -> Span:
        try:  # the four positions read at once: a node has all or none of them (ast's nodes)
            line, col = node.lineno, node.col_offset  # type: ignore[attr-defined]
            end_line, end_col = node.end_lineno, node.end_col_offset  # type: ignore[attr-defined]
        except AttributeError:  # a node without a position (``arguments``)
            line, col = getattr(node, "lineno", 1), getattr(node, "col_offset", 0)
            end_line = getattr(node, "end_lineno", None)
            end_col = getattr(node, "end_col_offset", None)
        end_line = end_line or line
        end_col = end_col or 0
        if not self.ascii:
            col, end_col = self._col(line, col), self._col(end_line, end_col)
        return new_span(line, col, end_line, end_col)

    def line_span(self, line: int) -> Span:
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        stripped = len(text) - len(text.lstrip())
        return Span(line, stripped, line, len(text.rstrip("\r\n")))

    def _col(self, line: int, byte_col: int) -> int:
        if not 0 < line <= len(self.lines):
            return byte_col
        if self.ascii:
            return byte_col
        text = self.lines[line - 1]
        if text.isascii():
            return byte_col
        return len(text.encode("utf-8")[:byte_col].decode("utf-8", errors="ignore"))


_slots = vars(Span)  # the slots' member descriptors: setting through them skips frozen checks
_set_line, _set_col = _slots["line"].__set__, _slots["col"].__set__
_set_end_line, _set_end_col = _slots["end_line"].__set__, _slots["end_col"].__set__


def new_span(line: int, col: int, end_line: int, end_col: int) -> Span:
    """``Span(line, col, end_line, end_col)`` without the frozen dataclass's ``__init__`` (its
    ``object.__setattr__`` per field costs about twice this): a span is made for every node
    evaluated, thousands in a cold analysis of a long job script. A test checks it
    stays the same object as the constructor's."""
    span: Span = object.__new__(Span)
    _set_line(span, line)
    _set_col(span, col)
    _set_end_line(span, end_line)
    _set_end_col(span, end_col)
    return span


BOM = "\ufeff"
_SURROGATE = r"[\ud800-\udfff]"  # re reads the escapes; compiled on the first non-ASCII text


def parse_source(source: str, cache: ChunkCache | None = None) -> ParsedModule | None:
    """Parse, repairing syntax errors by blanking statements; ``None`` if nothing is usable.

    Parsed one top-level statement at a time (reusing ``cache``), or whole when the cuts
    between statements cannot be trusted.
    """
    if "\x00" in source:  # (a copy of a long text costs more than the look)
        source = source.replace("\x00", " ")
    if not source.isascii():
        # A lone surrogate (an editor's text can hold one; a file Python decodes cannot) makes
        # ast.parse refuse the whole text. U+FFFD is one code point and one UTF-16 unit like
        # it, so no position moves.
        source = re.sub(_SURROGATE, "\ufffd", source)
    if source.startswith(BOM):
        # An encoding mark, not code (Python ignores it; editors do not show it): columns of
        # line 1 are counted without it.
        source = source[1:]
    lines: list[str] | None = None
    same: tuple[int, int] | None = None
    if cache is not None and cache.pieces and cache.text is not None:
        from evalsubmit.analysis.source.text_diff import edited_lines

        edited = edited_lines(cache.text, cache.lines, source)
        if edited is not None:  # split only around the edit
            lines, head, tail = edited
            same = head, tail
    if lines is None:
        lines = split_lines_keepends(source)
    if cache is None or not cache.pieces:
        # One ast.parse of the whole text is the cheapest first parse; the per-statement cache
        # is seeded from its tree. Only broken text takes the per-statement path.
        whole = _parse_whole(source)
        if whole is not None:
            chunks: tuple[Chunk, ...] = ()
            words = _words(source)
            if cache is not None:
                from evalsubmit.analysis.source.chunks import seed

                chunks = seed(whole.body, lines, cache, words, source)
                cache.handed = chunks or None
            return _parsed(source, lines, whole, (), words, chunks)
    from evalsubmit.analysis.source.chunks import parse_chunks
    from evalsubmit.analysis.source.repair import repair_parse

    previous = cache.handed if cache is not None else None
    pieces = parse_chunks(lines, cache, source, same)
    if pieces is not None:
        body, pieces_chunks, blanked = pieces
        tree = ast.Module(body=body, type_ignores=[])
        if cache is None:
            return _parsed(source, lines, tree, blanked, _words(source), pieces_chunks)
        # the pieces' counts say it without a search of the whole text
        words = {"nonlocal"} if cache.nonlocal_pieces else set()
        words |= {"global"} if cache.global_pieces else set()
        chunks = cache.handed = tuple(pieces_chunks)
        since = (previous, cache.kept_tail) if previous is not None else None
        return _parsed(
            source, lines, tree, blanked, words, chunks, weakref.ref(cache), since, cache.marked
        )
    repaired = repair_parse(source)
    if repaired is None:
        return None
    tree, blanked = repaired
    return _parsed(source, lines, tree, blanked, _words(source))


def _parsed(
    source: str,
    lines: Sequence[str],
    tree: ast.Module,
    blanked: Iterable[tuple[int, int]],
    words: Collection[str],
    chunks: Iterable[Chunk] = (),
    cache: weakref.ref[ChunkCache] | None = None,
    kept: tuple[tuple[Chunk, ...], int] | None = None,
    marked: Marked | None = None,
) -> ParsedModule:
    return ParsedModule(
        tree,
        tuple(lines),
        tuple(blanked),
        source.isascii(),
        tuple(chunks),
        # a keyword is only ever ASCII, but a non-ASCII text is taken to hold it (no guess)
        "nonlocal" in words or not source.isascii(),
        cache,
        spells_global="global" in words,
        _kept=kept,
        marked=marked,
    )


def _words(source: str) -> set[str]:
    """Which of the words ``nonlocal`` and ``global`` ``source`` holds."""
    return {word for word in ("nonlocal", "global") if word in source}


def _parse_whole(source: str) -> ast.Module | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
