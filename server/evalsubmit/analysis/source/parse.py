"""Source text -> :mod:`ast` module, tolerant of half-typed code.

When the text does not parse, the statement holding the syntax error is blanked (replaced by
``pass`` at its indentation, so enclosing blocks stay valid and every other line keeps its
position) and the text is parsed again. Complete statements elsewhere are analysed as usual;
the broken one, typically a ``submit(`` whose argument list is still being typed, is never
diagnosed because it is no longer there.
"""

from __future__ import annotations

import ast
import warnings
from dataclasses import dataclass

from evalsubmit.analysis.source.chunks import Chunk, ChunkCache, parse_chunks, seed
from evalsubmit.core.findings import Span

MAX_REPAIRS = 25


@dataclass(frozen=True, slots=True)
class ParsedModule:
    tree: ast.Module
    lines: tuple[str, ...]
    blanked: tuple[tuple[int, int], ...] = ()
    """1-based inclusive line ranges removed because they did not parse."""
    ascii: bool = False
    """The whole text is ASCII, so ast's byte columns are already code-point columns."""
    chunks: tuple[Chunk, ...] = ()
    """The top-level pieces it was parsed from (empty when parsed whole)."""

    def span(self, node: ast.AST) -> Span:
        """The node's span in code points (ast reports UTF-8 byte columns)."""
        line = getattr(node, "lineno", 1)
        end_line = getattr(node, "end_lineno", None) or line
        col = self._col(line, getattr(node, "col_offset", 0))
        end_col = self._col(end_line, getattr(node, "end_col_offset", None) or 0)
        return Span(line, col, end_line, end_col)

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


def parse_source(source: str, cache: ChunkCache | None = None) -> ParsedModule | None:
    """Parse, repairing syntax errors by blanking statements; ``None`` if nothing is usable.

    Parsed one top-level statement at a time (reusing ``cache``), or whole when the cuts
    between statements cannot be trusted.
    """
    source = source.replace("\x00", " ")
    lines = source.splitlines(keepends=True)
    if cache is None or not cache.entries:
        # One ast.parse of the whole text is the cheapest first parse; the per-statement cache
        # is seeded from its tree. Only broken text takes the per-statement path.
        whole = _parse_whole(source)
        if whole is not None:
            chunks = seed(whole.body, lines, cache) if cache is not None else ()
            return ParsedModule(whole, tuple(lines), (), source.isascii(), chunks)
    pieces = parse_chunks(lines, cache)
    if pieces is not None:
        body, pieces_chunks, blanked = pieces
        tree = ast.Module(body=body, type_ignores=[])
        return ParsedModule(
            tree, tuple(lines), tuple(blanked), source.isascii(), tuple(pieces_chunks)
        )
    repaired = repair_parse(source)
    if repaired is None:
        return None
    tree, blanked = repaired
    return ParsedModule(tree, tuple(lines), tuple(blanked), source.isascii())


def _parse_whole(source: str) -> ast.Module | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def repair_parse(source: str) -> tuple[ast.Module, list[tuple[int, int]]] | None:
    """``ast.parse`` with broken statements blanked until it parses (at most MAX_REPAIRS)."""
    blanked: list[tuple[int, int]] = []
    text = source
    for _ in range(MAX_REPAIRS):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return ast.parse(text), blanked
        except SyntaxError as error:
            region = _statement_region(text.splitlines(keepends=True), error.lineno or 1)
            if region is None or region in blanked:
                return None
            blanked.append(region)
            text = _blank(text, region)
        except (ValueError, RecursionError, MemoryError):
            return None
    return None


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _is_code(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith("#")


_CONTINUATION_KEYWORDS = ("else", "elif", "except", "finally", "case")


def _statement_region(lines: list[str], error_line: int) -> tuple[int, int] | None:
    """The 1-based inclusive line range of the statement that holds ``error_line``.

    Found from indentation: the statement starts at the nearest code line at or above the
    error whose indentation is not deeper than any code line between it and the error, and ends
    before the next code line that is indented no deeper than its start.
    """
    if not lines:
        return None
    error_line = min(max(error_line, 1), len(lines))
    start = error_line
    while start > 1 and not _is_code(lines[start - 1]):
        start -= 1
    # Walk up over lines that continue an open bracket: a deeper-indented line, or one that
    # follows a line ending in an opener or a comma, belongs to the statement above.
    while start > 1:
        prev = start - 1
        while prev > 1 and not _is_code(lines[prev - 1]):
            prev -= 1
        if not _is_code(lines[prev - 1]):
            break
        prev_text = lines[prev - 1].rstrip()
        if (
            _indent(lines[start - 1]) > _indent(lines[prev - 1]) and not prev_text.endswith(":")
        ) or prev_text.endswith(("(", "[", "{", ",", "\\")):
            start = prev
        else:
            break
    base = _indent(lines[start - 1])
    end = start
    for index in range(start + 1, len(lines) + 1):
        text = lines[index - 1]
        if not _is_code(text):
            continue
        keyword = text.strip().split(" ", 1)[0].rstrip(":")
        if _indent(text) <= base and (keyword not in _CONTINUATION_KEYWORDS or index > error_line):
            break
        end = index
    return (start, max(end, error_line))


def _blank(text: str, region: tuple[int, int]) -> str:
    lines = text.splitlines(keepends=True)
    start, end = region
    first = lines[start - 1]
    indent = first[: _indent(first)]
    for index in range(start, end + 1):
        line = lines[index - 1]
        newline = "\n" if line.endswith("\n") else ""
        lines[index - 1] = (indent + "pass" if index == start else "") + newline
    return "".join(lines)
