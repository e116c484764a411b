"""The module-wide resolution and the graph of who reads and writes what are updated after an
edit rather than made again when the statements the edit left alone resolve the same
(``mutation.resolve(since=...)``, ``graph.graph_of(last, edited)``): after every edit of long
random sequences (statements inserted, removed, replaced, runs of them pasted and cut), the
updated ones equal those made from scratch."""

from __future__ import annotations

import ast
import random

import pytest

from evalsubmit.analysis.engine.graph import Graph, graph_of
from evalsubmit.analysis.interp.effects import Effects, effects
from evalsubmit.analysis.interp.mutation import NonMutatingMemo, resolve
from unit.test_mutation_effects import STATEMENTS

MORE = (
    "@pytest.fixture\ndef client():\n    return 1",
    "def test_run(client):\n    client.submit(CONFIG)",
    "def setup():\n    global CONFIG\n    CONFIG = {'seed': 2}",
    "setup()",
    "globals()['z'] = 2",
    "import pytest",
    "z = CONFIG",
    "x = z",
    "CONFIG.seed = 3",
    "for item in range(3):\n    rows = item",
    # a class statement writes its bases' <subclassed> name, one naming a class reads it
    "class Base:\n    SUITE = ''",
    "class Job(Base):\n    SUITE = 'qa/x'",
    "class Nightly(jobs.Job):\n    pass",
    "job = Job()",
    "suite = Base.SUITE",
)


def _effects(cache: dict[str, Effects], text: str) -> Effects:
    # one Effects per text, as the document's tables keep them
    return cache.setdefault(text, effects(ast.parse(text).body[0]))


def _tables(graph: Graph) -> tuple[object, ...]:
    # the module-wide sets are carried over from the last graph when the edit leaves them
    module_wide = (list(graph.callee_writes.items()), graph.rebound, graph.subclassed)
    return (
        graph.reads,
        graph.written_by,
        graph.writers,
        graph.readers,
        graph.resolved.binders,
        module_wide,
    )


@pytest.mark.parametrize("seed", range(12))
def test_updated_graphs_equal_graphs_made_from_scratch(seed: int) -> None:
    rng = random.Random(seed)
    pool = (*STATEMENTS, *MORE)
    cache: dict[str, Effects] = {}
    lines = [rng.choice(pool) for _ in range(12)]
    kept = NonMutatingMemo()
    found = [_effects(cache, text) for text in lines]
    last = graph_of(found, resolve(found, None, kept))
    updated = 0
    for step in range(150):
        first = rng.randrange(len(lines) + 1)
        roll = rng.random()
        if roll < 0.3:  # a statement typed or edited in place
            stop = min(first + 1, len(lines))
            new = [rng.choice(pool)] * (stop - first)
        elif roll < 0.5:  # a line added
            stop, new = first, [rng.choice(pool)]
        elif roll < 0.7 and len(lines) > 2:  # a line cut
            first = min(first, len(lines) - 1)
            stop, new = first + 1, []
        elif roll < 0.85:  # a block pasted
            stop, new = first, [rng.choice(pool) for _ in range(rng.randint(2, 5))]
        else:  # a block deleted or replaced
            stop = min(first + rng.randint(1, 4), len(lines))
            new = [rng.choice(pool) for _ in range(rng.randint(0, 2))]
        lines[first:stop] = new
        found = [_effects(cache, text) for text in lines]
        edited = (first, stop, first + len(new))
        resolved = resolve(found, None, kept, (last.effects, last.resolved, edited))
        graph = graph_of(found, resolved, last, edited)
        fresh = graph_of(found, resolve(found, None, NonMutatingMemo()))
        assert _tables(graph) == _tables(fresh), f"seed {seed} step {step}:\n" + "\n".join(lines)
        updated += graph.updated
        last = graph
    assert updated > 20  # the update is what is tested, not only the making from scratch


def test_an_edit_elsewhere_than_said_is_made_from_scratch() -> None:
    cache: dict[str, Effects] = {}
    before = [_effects(cache, text) for text in ("z = 1", "x = z", "print(x)")]
    after = [_effects(cache, text) for text in ("z = CONFIG", "x = z", "print(x)")]
    last = graph_of(before, resolve(before, None, NonMutatingMemo()))
    wrong = (2, 3, 3)  # the edit was of statement 0, not 2
    resolved = resolve(after, None, NonMutatingMemo(), (last.effects, last.resolved, wrong))
    graph = graph_of(after, resolved, last, wrong)
    assert not graph.updated
    assert _tables(graph) == _tables(graph_of(after, resolve(after)))


def test_module_wide_sets_are_made_again_when_the_edit_is_elsewhere_than_said() -> None:
    cache: dict[str, Effects] = {}
    before = [_effects(cache, text) for text in ("x = 1", "y = 2")]
    after = [_effects(cache, text) for text in ("class Job(Base):\n    pass", "y = 2")]
    last = graph_of(before, resolve(before, None, NonMutatingMemo()))
    wrong = (1, 2, 2)  # the edit was of statement 0, not 1
    resolved = resolve(after, None, NonMutatingMemo(), (last.effects, last.resolved, wrong))
    graph = graph_of(after, resolved, last, wrong)
    assert graph.subclassed == frozenset({"Base"})
    assert _tables(graph) == _tables(graph_of(after, resolve(after)))
