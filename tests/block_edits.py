"""Random edits of a module made of blocks of text, for the tests that compare what is kept from
one version of a text to the next with a fresh look at each version."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence


def edited_texts(
    rng: random.Random, blocks: Sequence[str], *, start: int, steps: int, most: int | None = None
) -> Iterator[str]:
    """The module's text after each of ``steps`` edits of a module of ``start`` blocks: a block
    inserted (while it has fewer than ``most``), deleted or replaced, at a random place.
    ``rng`` is drawn from only as each text is asked for, so a test may draw from it too."""
    module = [rng.choice(blocks) for _ in range(start)]
    for _ in range(steps):
        at = rng.randrange(len(module) + 1)
        edit = rng.random()
        if (edit < 0.4 and (most is None or len(module) < most)) or not module:
            module.insert(at, rng.choice(blocks))
        elif edit < 0.7:
            del module[min(at, len(module) - 1)]
        else:
            module[min(at, len(module) - 1)] = rng.choice(blocks)
        yield "".join(module)
