"""The line map's quick answer for edits within lines agrees with pairing chunks by text."""

from __future__ import annotations

import random

import pytest

from evalsubmit.analysis.engine.shift import _edited_in_place, _paired, line_map
from evalsubmit.analysis.source.chunks import Chunk


def _chunks(rng: random.Random, texts: str) -> tuple[Chunk, ...]:
    found, line = [], 1
    for _ in range(rng.randint(0, 12)):
        size = rng.randint(1, 3)
        found.append(Chunk(line, line + size - 1, rng.choice(texts)))
        line += size + rng.randint(0, 1)
    return tuple(found)


def _edited(rng: random.Random, old: tuple[Chunk, ...], texts: str) -> tuple[Chunk, ...]:
    """Texts changed in place, and now and then a chunk added or removed (lines move)."""
    new = [Chunk(c.start, c.end, rng.choice(texts)) if rng.random() < 0.2 else c for c in old]
    if new and rng.random() < 0.3:
        index = rng.randrange(len(new))
        moved = -(new[index].end - new[index].start + 1)
        new = [
            *new[:index],
            *(Chunk(c.start + moved, c.end + moved, c.digest) for c in new[index + 1 :]),
        ]
    return tuple(new)


@pytest.mark.parametrize("texts", ["ab", "abcdef", "abcdefghijklmnop"])
def test_the_quick_answer_is_the_pairings(texts: str) -> None:
    rng = random.Random(texts)
    quick = 0
    for _ in range(4000):
        old = _chunks(rng, texts)
        new = _edited(rng, old, texts)
        paired = _paired(old, new)
        if _edited_in_place(old, new):
            quick += 1
            assert paired is None, (old, new)
        assert (line_map(old, new) is None) == (paired is None)
    assert quick > 100  # the quick answer was taken, not only the pairing
