"""What is non-mutating is kept per document and reused while what it was reached from
holds (``mutation.NonMutatingMemo``): after every edit of long random sequences, the
module-wide reads and writes equal those resolved from scratch, whatever the edit binds,
rebinds, calls or imports, and whatever the sibling modules say."""

from __future__ import annotations

import ast
import random

import pytest

from evalsubmit.analysis.interp.effects import Effects, effects
from evalsubmit.analysis.interp.mutation import NonMutatingMemo, resolve

STATEMENTS = (
    "z = 1",
    "import json",
    "from os import path",
    "from helpers import build",
    "from helpers import CLIENT",
    "print = lambda *a: None",
    "def build():\n    return {'seed': 1}",
    "def build():\n    CONFIG['x'] = 1",
    "def grow(d):\n    d['cb'] = 1",
    "def make():\n    return build()",
    "def make():\n    rows = []\n    rows.append(1)\n    return rows",
    "def make():\n    return dict(seed=2)",
    "def make():\n    return grow(CONFIG)",
    "def ping():\n    return pong()",
    "def ping():\n    return pong() or 1",
    "def pong():\n    return ping()",
    "def pong():\n    return ping() and make()",
    "def pong():\n    grow(CONFIG)\n    return ping()",
    "ping()",
    "CONFIG = {'seed': 1}",
    "CONFIG = build()",
    "client = make()",
    "client = CLIENT.session",
    "client.submit(CONFIG)",
    "grow(CONFIG)",
    "print(CONFIG)",
    "make()",
    "json.dumps(CONFIG)",
    "path.join('a', 'b')",
    "class Runner:\n    pass",
    "class Runner(Base):\n    def run(self):\n        pass",
    "setattr(CONFIG, 'x', 1)",
)


def _found(lines: list[str]) -> list[Effects]:
    return [effects(statement) for statement in ast.parse("\n".join(lines)).body]


@pytest.mark.parametrize("seed", range(8))
def test_kept_verdicts_resolve_as_from_scratch(seed: int) -> None:
    rng = random.Random(seed)
    said = {"build": (True, False), "CLIENT": (False, True)}

    def sibling(module: str, level: int, name: str) -> tuple[bool, bool]:
        return said.get(name, (False, False))

    kept = NonMutatingMemo()
    lines = [rng.choice(STATEMENTS) for _ in range(8)]
    cache: dict[str, Effects] = {}  # one Effects per text, as the document's tables keep them
    for step in range(60):
        roll = rng.random()
        if roll < 0.35:
            lines.insert(rng.randrange(len(lines) + 1), rng.choice(STATEMENTS))
        elif roll < 0.7 and len(lines) > 1:
            lines.pop(rng.randrange(len(lines)))
        elif roll < 0.9:
            lines[rng.randrange(len(lines))] = rng.choice(STATEMENTS)
        else:  # a sibling module changed what it says of a name
            said["build"] = (not said["build"][0], False)
        found = [cache.setdefault(text, effects(ast.parse(text).body[0])) for text in lines]
        incremental = resolve(found, sibling, kept)
        fresh = resolve(found, sibling)
        assert (incremental.reads, incremental.writes) == (fresh.reads, fresh.writes), (
            f"seed {seed} step {step}:\n" + "\n".join(lines)
        )


#: Bodies of the helpers of a module whose other statements call each of them, so that an edit
#: of one helper asks about no new name: the kept answer is reused, or found stale, by bodies.
HELPER_BODIES = {
    "ping": ("return pong()", "return 1", "grow(CONFIG)\n    return 1", "return make() or pong()"),
    "pong": ("return ping()", "return dict(a=1)", "return ping() and grow(CONFIG)"),
    "make": ("return dict(seed=1)", "return ping()", "seed = pong()\n    return seed"),
    "grow": ("d['cb'] = 1", "return d", "return pong()"),
}
CALLERS = ["ping()", "pong()", "CONFIG = make()", "grow(CONFIG)", "make()"]


@pytest.mark.parametrize("seed", range(8))
def test_helpers_edited_in_place_resolve_as_from_scratch(seed: int) -> None:
    rng = random.Random(seed)
    bodies = {name: rng.choice(variants) for name, variants in HELPER_BODIES.items()}
    kept = NonMutatingMemo()
    cache: dict[str, Effects] = {}
    for step in range(80):
        name = rng.choice(list(HELPER_BODIES))
        bodies[name] = rng.choice(HELPER_BODIES[name])
        texts = [
            f"def {name}({'d' if name == 'grow' else ''}):\n    {body}"
            for name, body in bodies.items()
        ]
        found = [cache.setdefault(t, effects(ast.parse(t).body[0])) for t in texts + CALLERS]
        incremental = resolve(found, None, kept)
        fresh_memo = NonMutatingMemo()
        fresh = resolve(found, None, fresh_memo)
        assert kept.non_mutating is not None and fresh_memo.non_mutating is not None
        assert kept.non_mutating.names == fresh_memo.non_mutating.names, (seed, step, texts)
        assert (incremental.reads, incremental.writes) == (fresh.reads, fresh.writes)


def test_an_unasked_binding_keeps_the_verdicts() -> None:
    kept = NonMutatingMemo()
    base = ["from helpers import build", "CONFIG = build()", "client = CONFIG.copy()"]
    resolve(_found(base), None, kept)
    answer = kept.non_mutating
    resolve(_found([*base[:2], "z = 1", base[2]]), None, kept)
    assert kept.non_mutating is answer  # nobody asks about z
    resolve(_found([*base, "build = print"]), None, kept)
    assert kept.non_mutating is not answer  # build is asked about, and bound anew


def test_an_edit_inside_a_non_mutating_helper_keeps_the_verdicts() -> None:
    """The typing inside a helper's body that calls nothing new (the body is a new statement
    each keystroke) keeps the answer; one that makes it call a mutating helper does not."""
    kept = NonMutatingMemo()
    grow = "def grow(d):\n    d['cb'] = 1"
    base = [grow, "def make():\n    return dict(seed=1)", "CONFIG = make()", "grow({})"]
    resolve(_found(base), None, kept)
    answer = kept.non_mutating
    assert answer is not None and "make" in answer.names
    edited = [grow, "def make():\n    seed = 2\n    return dict(seed=seed)", *base[2:]]
    resolve(_found(edited), None, kept)
    assert kept.non_mutating is answer
    mutating = [grow, "def make():\n    return grow(dict(seed=1))", *base[2:]]
    found = _found(mutating)
    incremental = resolve(found, None, kept)
    fresh = resolve(found, None)
    assert kept.non_mutating is not answer and "make" not in kept.non_mutating.names
    assert (incremental.reads, incremental.writes) == (fresh.reads, fresh.writes)


def test_a_verdict_miss_asks_each_sibling_once() -> None:
    asked: list[tuple[str, int, str]] = []

    def sibling(module: str, level: int, name: str) -> tuple[bool, bool]:
        asked.append((module, level, name))
        return True, False

    kept = NonMutatingMemo()
    resolve(_found(["from helpers import build", "CONFIG = build()"]), sibling, kept)
    assert asked == [("helpers", 0, "build")]
