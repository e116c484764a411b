"""What a keyer keeps from one analysis to the next (:mod:`evalsubmit.analysis.engine.keys`) is
what it would find looking at every statement again: the index of each chunk's first statement,
and, the statements an edit leaves out of its candidates keeping their last keys, whether one of
them has a key among some (the results an edit's line shift dropped:
:meth:`~evalsubmit.analysis.engine.keys.Keyer.kept_key_in`)."""

from __future__ import annotations

import bisect
import random

from block_edits import edited_texts
from evalsubmit.analysis.engine.key_state import KeyState
from evalsubmit.analysis.engine.keys import Keyer
from evalsubmit.analysis.source.chunks import ChunkCache
from evalsubmit.analysis.source.parse import parse_source

BLOCKS = (
    "a = 1\n",
    "b = a + 1\n",
    "c = [b]\n",
    "c.append(a)\n",
    "def f():\n    return b\n",
    "d = f()\n",
    "\n",
    "a = 2\n",
)


def test_what_a_keyer_keeps_is_what_a_look_at_every_statement_finds() -> None:
    cache = ChunkCache()
    state = KeyState()
    rng = random.Random(26)
    seen: set[bool] = set()
    for text in edited_texts(rng, BLOCKS, start=8, steps=300, most=14):
        parsed = parse_source(text, cache)
        if parsed is None or not parsed.chunks:
            state = KeyState()
            continue
        last = [remembered[0] for remembered in state.previous.values()]
        keyer = Keyer(parsed, state, None)
        lines = [statement.lineno for statement in parsed.tree.body]
        assert state.firsts == [bisect.bisect_left(lines, chunk.start) for chunk in parsed.chunks]
        candidates = keyer.candidates
        if candidates is not None and last:
            keys = set(rng.sample(last, min(2, len(last))))
            kept = keyer.kept_key_in(keys)
            count = len(parsed.tree.body)
            assert kept == any(keyer.key(i) in keys for i in range(count) if i not in candidates)
            seen.add(kept)
        keyer.changed(lambda key: True)
        state.complete = True
    assert seen == {True, False}
