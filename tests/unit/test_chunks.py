"""Incremental parsing by top-level statement: after any edit, the re-parse that reuses the
previous one's chunks cuts the text and builds the tree exactly as a parse from scratch."""

from __future__ import annotations

import ast
import random

import pytest

from evalsubmit.analysis.source.chunks import ChunkCache, parse_chunks
from evalsubmit.analysis.source.cuts import split
from evalsubmit.analysis.source.parse import parse_source
from evalsubmit.core.lines import split_lines_keepends
from evalsubmit.core.suppression import MARKER_WORDS, lines_mentioning

BASE = '''\
import os

@decorator
def first(x):
    """Doc with a def inside:
def not_a_cut():
    """
    return x


class Second:
    value = 1


if os.environ:
    third = 3
else:
    third = 4
RUNNERS = [
    first(1),
]
'''
SNIPPETS = [
    "",
    "# noqa",
    "x = 2  # evalsubmit: ignore-file[ES101]",
    "    ",
    "\t\f",
    "x = 1",
    "@dec",
    "def f():",
    "    pass",
    '"""',
    "'''",
    "else:",
    ")",
    "#c",
    "(",
    "\r",
    "    nonlocal x",
    "global y",
]


def _tree(parsed: tuple[list[ast.stmt], object, list[tuple[int, int]]] | None) -> object:
    if parsed is None:
        return None
    body, _, blanked = parsed
    return ast.dump(ast.Module(body=body, type_ignores=[]), include_attributes=True), blanked


def _dump(statement: ast.stmt) -> str:
    return ast.dump(statement, include_attributes=True)


def _heads(parsed: tuple[list[ast.stmt], object, list[tuple[int, int]]] | None) -> object:
    """Where each top-level statement and its decorators are (what is moved at once)."""
    if parsed is None:
        return None
    body, _, blanked = parsed
    return [
        [(node.lineno, node.end_lineno) for node in (s, *getattr(s, "decorator_list", []))]
        for s in body
    ], blanked


@pytest.mark.parametrize("seed", range(4))
def test_reparse_after_edits_equals_a_fresh_parse(seed: int) -> None:
    rng = random.Random(seed)
    cache = ChunkCache()
    text = BASE
    parse_chunks(split_lines_keepends(text), cache)
    for _ in range(120):
        lines = text.split("\n")
        index = rng.randrange(len(lines))
        roll = rng.random()
        if roll < 0.4:
            lines.insert(index, rng.choice(SNIPPETS))
        elif roll < 0.7 and len(lines) > 1:
            del lines[index]
        else:
            line = lines[index]
            column = rng.randrange(len(line) + 1)
            lines[index] = line[:column] + rng.choice(SNIPPETS) + line[column + 1 :]
        text = BASE if rng.random() < 0.05 else "\n".join(lines)
        lines_kept = split_lines_keepends(text)
        incremental = parse_chunks(lines_kept, cache)
        fresh = parse_chunks(lines_kept, None)
        # the statements are at their lines at once, the nodes inside them once settled
        # (some statements, as for a walk; then all, or not: the next parse settles first)
        assert _heads(incremental) == _heads(fresh)
        if incremental is not None and fresh is not None:
            walked = {i for i in range(len(fresh[0])) if rng.random() < 0.2}
            cache.settle(walked)
            for i in walked:
                assert _dump(incremental[0][i]) == _dump(fresh[0][i])
        if rng.random() < 0.8:
            cache.settle()
            assert _tree(incremental) == _tree(fresh)
        if incremental is not None:
            assert [(c.start, c.end) for c in incremental[1]] == split(lines_kept)
        assert_cache_consistent(cache)


def assert_cache_consistent(cache: ChunkCache) -> None:
    """The statement list and per-chunk offsets the cache keeps to slice unchanged runs out
    are those of its pieces, and each piece sits where its chunk says (also after a failed
    parse, which must leave the cache describing the last successful one)."""
    assert cache.body == [statement for piece in cache.pieces for statement in piece.body]
    counts = [len(piece.body) for piece in cache.pieces]
    assert cache.firsts == [sum(counts[:index]) for index in range(len(counts) + 1)]
    for chunk, piece in zip(cache.chunks, cache.pieces, strict=True):
        assert piece.offset == chunk.start - 1
        assert piece.text == "".join(cache.lines[chunk.start - 1 : chunk.end])
    if cache.text is not None:  # the text the next parse compares with: of these lines
        assert cache.text == "".join(cache.lines)
    # the pieces holding the words and the repaired pieces, kept by run
    assert cache.nonlocal_pieces == sum("nonlocal" in piece.text for piece in cache.pieces)
    assert cache.global_pieces == sum("global" in piece.text for piece in cache.pieces)
    assert list(map(id, cache.broken)) == [id(piece) for piece in cache.pieces if piece.blanked]
    if cache.marked is not None:  # the lines holding each suppression marker, kept by run
        looked = {word: lines_mentioning(list(cache.lines), (word,)) for word in MARKER_WORDS}
        assert cache.marked == looked


@pytest.mark.parametrize("seed", range(4))
def test_reparse_after_edits_within_lines_equals_a_fresh_parse(seed: int) -> None:
    """Edits that keep the line count (typing inside a line, the commonest edit) reuse the
    chunks after the edit without moving them; some break two statements at once (no usable
    cut: the parse fails and the next one must start from the last good one)."""
    rng = random.Random(seed)
    cache = ChunkCache()
    text = BASE * 3
    parse_chunks(split_lines_keepends(text), cache)
    for _ in range(150):
        lines = text.split("\n")
        for _ in range(rng.choice((1, 1, 1, 2))):
            index = rng.randrange(len(lines))
            column = rng.randrange(len(lines[index]) + 1)
            snippet = rng.choice([s for s in SNIPPETS if s != "\r"])
            lines[index] = lines[index][:column] + snippet + lines[index][column + 1 :]
        text = BASE * 3 if rng.random() < 0.1 else "\n".join(lines)
        lines_kept = split_lines_keepends(text)
        incremental = parse_chunks(lines_kept, cache)
        assert _tree(incremental) == _tree(parse_chunks(lines_kept, None))
        assert_cache_consistent(cache)


def test_a_parse_after_one_not_settled_equals_a_fresh_parse() -> None:
    """A piece whose inner nodes were left to move (the analysis stopped before it settled)
    is moved line by line by the next parse (an Enter in its body): its lines must be right
    first."""
    cache = ChunkCache()
    text = "x = 1\n\ndef f(a):\n    b = a\n    return b\n"
    parse_chunks(split_lines_keepends(text), cache)
    text = "\n" + text  # every piece below moves: not settled
    parse_chunks(split_lines_keepends(text), cache)
    text = text.replace("    b = a\n", "    b = a\n\n")  # same code, a blank line more
    lines = split_lines_keepends(text)
    incremental = parse_chunks(lines, cache)
    cache.settle()
    assert _tree(incremental) == _tree(parse_chunks(lines, None))


def test_a_line_added_then_removed_moves_nothing_inside_the_pieces_below() -> None:
    """Below a line shift, the nodes inside the pieces keep their lag until something reads
    them: an Enter at the top and the Backspace that takes it back leave the pieces below with
    no lag, their nodes never listed nor moved; settling then gives a fresh parse's tree."""
    cache = ChunkCache()
    parse_chunks(split_lines_keepends(BASE), cache)
    # (a piece parsed below line 1 was moved there: its nodes are listed, not moved since)
    listed = [piece.located for piece in cache.pieces[1:]]
    parse_chunks(split_lines_keepends("\n" + BASE), cache)
    below = cache.pieces[2:]  # (the new line is a piece of its own, then "import os")
    assert len(below) == 4 and all(piece.lag == 1 for piece in below)
    lines = split_lines_keepends(BASE)
    incremental = parse_chunks(lines, cache)
    assert list(map(id, cache.pieces[1:])) == list(map(id, below))
    assert all(piece.lag == 0 for piece in below)
    assert all(piece.located is before for piece, before in zip(below, listed, strict=True))
    cache.settle()
    assert _tree(incremental) == _tree(parse_chunks(lines, None))


def test_a_piece_lagging_above_an_edit_is_settled_when_read() -> None:
    """A piece that still lags from an earlier line shift is not read by a parse that edits
    below it (it keeps its lag), and is at its lines once settled for a walk."""
    cache = ChunkCache()
    parse_chunks(split_lines_keepends(BASE), cache)
    parse_chunks(split_lines_keepends("\n\n" + BASE), cache)
    text = "\n\n" + BASE.replace("RUNNERS = [\n", "RUNNERS = [\n    first(2),\n")
    lines = split_lines_keepends(text)
    incremental = parse_chunks(lines, cache)
    assert incremental is not None
    first = next(piece for piece in cache.pieces if "def first" in piece.text)
    assert first.lag == 2
    index = next(i for i, s in enumerate(incremental[0]) if isinstance(s, ast.FunctionDef))
    cache.settle({index})
    assert first.lag == 0
    fresh = parse_chunks(lines, None)
    assert fresh is not None
    assert _dump(incremental[0][index]) == _dump(fresh[0][index])
    cache.settle()
    assert _tree(incremental) == _tree(fresh)


@pytest.mark.parametrize("seed", range(3))
def test_a_reparsed_text_is_a_fresh_parse_in_its_lines_tree_and_words(seed: int) -> None:
    """A re-parse splits only the lines around the edit, and knows whether the text spells
    ``nonlocal`` and ``global`` from the pieces' counts, kept by run (no search of the whole
    text per edit): after every edit (in the words, across pieces, in the seed's text) as a
    fresh parse finds them."""
    rng = random.Random(seed)
    cache = ChunkCache()
    text = BASE.replace("value = 1", "global value") + "def g():\n    nonlocal x\n"
    words = ["nonlocal", "global", "nonloca", "glo", "# global", "x = 1", "def h():"]
    parse_source(text, cache)  # (parsed whole, the cache seeded from its tree)
    assert_cache_consistent(cache)
    for _ in range(80):
        lines = text.split("\n")
        index = rng.randrange(len(lines))
        column = rng.randrange(len(lines[index]) + 1)
        roll = rng.random()
        if roll < 0.3:
            lines.insert(index, rng.choice(["", "    "]) + rng.choice(words))
        elif roll < 0.6 and len(lines) > 1:
            del lines[index]
        else:
            lines[index] = lines[index][:column] + rng.choice(words) + lines[index][column:]
        text = "\n".join(lines)
        incremental, fresh = parse_source(text, cache), parse_source(text)
        if fresh is None or incremental is None:
            assert incremental is fresh
            continue
        assert incremental.spells_nonlocal == fresh.spells_nonlocal == ("nonlocal" in text)
        assert incremental.spells_global == fresh.spells_global == ("global" in text)
        # the lines split only around the edit (:mod:`.text_diff`), and the tree
        assert incremental.lines == fresh.lines == tuple(split_lines_keepends(text))
        incremental.settle()
        assert _tree((incremental.tree.body, None, list(incremental.blanked))) == _tree(
            (fresh.tree.body, None, list(fresh.blanked))
        )
        assert_cache_consistent(cache)
        assert cache.text is not None  # (parse_source gives its text)
