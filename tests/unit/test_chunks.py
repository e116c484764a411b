"""Incremental parsing by top-level statement: after any edit, the re-parse that reuses the
previous one's chunks cuts the text and builds the tree exactly as a parse from scratch."""

from __future__ import annotations

import ast
import random

import pytest

from evalsubmit.analysis.source.chunks import ChunkCache, parse_chunks, split
from evalsubmit.core.lines import split_lines_keepends

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
]


def _tree(parsed: tuple[list[ast.stmt], object, list[tuple[int, int]]] | None) -> object:
    if parsed is None:
        return None
    body, _, blanked = parsed
    return ast.dump(ast.Module(body=body, type_ignores=[]), include_attributes=True), blanked


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
        assert _tree(incremental) == _tree(fresh)
        if incremental is not None:
            assert [(c.start, c.end) for c in incremental[1]] == split(lines_kept)
