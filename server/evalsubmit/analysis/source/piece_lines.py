"""The line numbers of a parsed top-level piece (:mod:`.chunks`), and how they move.

A piece below a line added or removed keeps its tree: its nodes' lines move. Every node's
lines are in its attribute dict (``__dict__``), listed when first moved, so a move costs flat
loops, not a tree walk. Below an edit that adds a line, that is every node of the
rest of the module, on every keystroke; most of them are read by nothing before the findings
are out (the statements the edit did not change are not walked). So the run below an edit
moves only its top-level statements (and their decorators: what reads where a statement is)
at once; the nodes inside them move later (:func:`settle`), before anything reads them: the
engine settles the pieces of the statements it walks before the walk, a re-parse the pieces of
the run it edits. The others keep their lag across edits (a line added and removed again
moves nothing inside them).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from evalsubmit.analysis.source.tree_walk import walk


@dataclass(slots=True)
class ParsedPiece:
    """A chunk's statements, as parsed from its text."""

    text: str
    body: list[ast.stmt]
    offset: int
    """Its first line, 0-based (where its statements are)."""
    blanked: list[tuple[int, int]]
    heads: list[_Attributes] | None = None
    """The attribute dicts of its statements and their decorators (listed at the first
    move)."""
    located: _Located | None = None
    """Where the nodes inside its statements keep their lines (listed when first moved)."""
    lag: int = 0
    """How many lines the nodes inside its statements are still to move (:func:`settle`);
    its statements and their decorators are at their lines."""


_Attributes = dict[str, Any]


@dataclass(slots=True)
class _Located:
    """The attribute dicts of the nodes inside a piece's statements, where ``lineno`` and
    ``end_lineno`` are (a node's ``lineno += delta`` looks the attribute up through its type
    first, about twice the cost): of those with both lines, with only a start, with only an
    end."""

    both: list[_Attributes]
    starts: list[_Attributes]
    ends: list[_Attributes]


def moved(parsed: ParsedPiece, start: int) -> None:
    """``parsed`` (settled) with its line numbers shifted to begin at line ``start``."""
    delta = start - 1 - parsed.offset
    if delta:
        _shift(_heads(parsed), delta)
        _shift_inside(_located(parsed), delta)
        parsed.blanked = [(a + delta, b + delta) for a, b in parsed.blanked]
        parsed.offset = start - 1


def moved_alike(pieces: list[ParsedPiece], delta: int) -> None:
    """Every piece of ``pieces`` moved ``delta`` lines (the run below a line added or removed:
    hundreds of pieces): their statements now, the nodes inside them when settled."""
    for parsed in pieces:
        for attributes in parsed.heads or _heads(parsed):
            attributes["lineno"] += delta
            attributes["end_lineno"] += delta
        if parsed.blanked:
            parsed.blanked = [(a + delta, b + delta) for a, b in parsed.blanked]
        parsed.offset += delta
        parsed.lag += delta


def settle(pieces: Iterable[ParsedPiece]) -> None:
    """Move the nodes inside the statements of ``pieces`` to where their statements are."""
    for parsed in pieces:
        if parsed.lag:
            _shift_inside(_located(parsed), parsed.lag)
            parsed.lag = 0


def remapped(parsed: ParsedPiece, start: int, text: str, places: list[int]) -> None:
    """``parsed`` (settled), whose code is that of ``text`` but for blank lines, moved to the
    lines of ``text`` beginning at line ``start`` (``places``: where each of its lines is in
    ``text``; every node is on a line of code, which has a place)."""
    first = parsed.offset + 1
    heads, located = _heads(parsed), _located(parsed)
    for attributes in (*heads, *located.both, *located.starts):
        attributes["lineno"] = start + places[attributes["lineno"] - first]
    for attributes in (*heads, *located.both, *located.ends):
        attributes["end_lineno"] = start + places[attributes["end_lineno"] - first]
    parsed.text, parsed.offset = text, start - 1


def _shift(dicts: list[_Attributes], delta: int) -> None:
    for attributes in dicts:
        attributes["lineno"] += delta
        attributes["end_lineno"] += delta


def _shift_inside(located: _Located, delta: int) -> None:
    _shift(located.both, delta)
    for attributes in located.starts:
        attributes["lineno"] += delta
    for attributes in located.ends:
        attributes["end_lineno"] += delta


def _heads(parsed: ParsedPiece) -> list[_Attributes]:
    if parsed.heads is None:
        # a statement and an expression have both lines (ast's nodes)
        parsed.heads = [
            head.__dict__
            for statement in parsed.body
            for head in (statement, *decorators(statement))
        ]
    return parsed.heads


def _located(parsed: ParsedPiece) -> _Located:
    if parsed.located is None:
        located = _Located([], [], [])
        heads = set(map(id, _heads(parsed)))
        for statement in parsed.body:
            for node in walk(statement):
                if id(node.__dict__) in heads:
                    continue
                attributes = node.__dict__
                has_start = attributes.get("lineno") is not None
                has_end = attributes.get("end_lineno") is not None
                if has_start and has_end:
                    located.both.append(attributes)
                elif has_start:
                    located.starts.append(attributes)
                elif has_end:
                    located.ends.append(attributes)
        parsed.located = located
    return parsed.located


def decorators(statement: ast.stmt) -> list[ast.expr]:
    """The decorators of a definition (none for other statements)."""
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return statement.decorator_list
    return []
