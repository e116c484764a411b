"""One walk of a statement finds what two walks found: the attribute names it stores outside
set-up methods, and whether it sets attributes dynamically. A module's answers, found by walking
only the statements whose text names the attribute, are those of walking every statement."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Protocol

import pytest

from evalsubmit.analysis.interp.attribute_stores import (
    CLASS_SETUP_METHODS,
    SETUP_METHODS,
    AttributeStores,
    _names_dynamic_ways,
    _statement_stores,
)
from evalsubmit.analysis.source.parse import ParsedModule, parse_source

ROOT = Path(__file__).resolve().parents[2]
CORPORA = ["examples", "tests/contract/idioms", "tests/contract/previews", "benchmarks"]


def _stores_two_walks(tree: ast.AST) -> tuple[frozenset[str], bool]:
    """The definition, as it was written before: every attribute store with the function
    around it (the innermost), then every node again for the dynamic ways."""

    def stores() -> Iterator[tuple[ast.AST | None, str]]:
        pending: list[tuple[ast.AST, ast.AST | None]] = [(tree, None)]
        while pending:
            node, owner = pending.pop()
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, (ast.Store, ast.Del)):
                yield owner, node.attr
            inner = node if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else owner
            pending.extend((child, inner) for child in ast.iter_child_nodes(node))

    setup = SETUP_METHODS + CLASS_SETUP_METHODS
    names = frozenset(
        name
        for owner, name in stores()
        if not isinstance(owner, (ast.FunctionDef, ast.AsyncFunctionDef)) or owner.name not in setup
    )
    dynamic = any(
        (
            isinstance(n, ast.Call)
            and isinstance(n.func, ast.Name)
            and n.func.id in {"setattr", "delattr", "vars"}
        )
        or (isinstance(n, ast.Attribute) and n.attr == "__dict__")
        for n in ast.walk(tree)
    )
    return names, dynamic


SAMPLE = """
class Runner:
    def __init__(self):
        self.config = make()
        def later():
            self.late = 1
    def reset(self):
        self.config = None
        del self.cache
    @classmethod
    def __init_subclass__(cls):
        cls.registry = {}

obj.attr, other.x = 1, 2
for item.value in range(3):
    pass
setattr(obj, "y", 2)
vars(obj).update(z=1)
"""


@pytest.mark.parametrize("where", ["sample", *CORPORA])
def test_one_walk_finds_what_two_found(where: str) -> None:
    if where == "sample":
        sources = [SAMPLE]
    else:
        sources = [p.read_text() for p in sorted((ROOT / where).rglob("*.py"))[:400]]
    checked = 0
    for source in sources:
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        for statement in tree.body:
            assert _statement_stores(statement) == _stores_two_walks(statement), ast.unparse(
                statement
            )
            checked += 1
    assert checked >= 5


# Each store in its own top-level statement, spelled across lines and comments, in a
# decorator, or as a target other than an assignment's; read (spelled plainly) elsewhere.
TRICKY = """\
import functools

class Job:
    def __init__(self):
        self.plan = None

def later(job):
    (job.  # the name comes on the next line
        plan) = 2

def tries(job):
    (job
     .  tries) = 3

def budget(job):
    job. \\
        budget = 4

def others(job):
    [0 for job.others in range(2)]

@functools.lru_cache(maxsize=[0 for registry.size in range(1)][0])
def decorated():
    pass

def deleting(job):
    del job.deleted

def handling(job):
    with open("f") as job.handle:
        pass

def reads(job):
    print(job.plan, job.tries, job.budget, job.others, job.deleted, job.handle, registry.size)
"""


Answers = tuple[dict[str, bool], bool]
"""Whether each attribute asked about is stored, and whether attributes are set dynamically."""


def _module_answers(source: str) -> Answers | None:
    return _answers(source, lambda parsed: AttributeStores(parsed))


def _walking_all(source: str) -> Answers | None:
    return _answers(source, _WalkingAll)


def _answers(source: str, stores_of: Callable[[ParsedModule], _Stores]) -> Answers | None:
    """The answers about every attribute the module names, and a few it does not."""
    parsed = parse_source(source)
    if parsed is None:
        return None
    names = {n.attr for n in ast.walk(parsed.tree) if isinstance(n, ast.Attribute)}
    names |= {"never_named", "plan_b", "an"}
    stores = stores_of(parsed)
    return {name: stores.stored(name) for name in sorted(names)}, stores.dynamic()


class _Stores(Protocol):
    def stored(self, name: str) -> bool: ...
    def dynamic(self) -> bool: ...


class _WalkingAll:
    """The answers of walking every statement (the definition)."""

    def __init__(self, parsed: ParsedModule) -> None:
        found = [_stores_two_walks(statement) for statement in parsed.tree.body]
        self._stored = frozenset().union(*(names for names, _ in found))
        self._dynamic = any(dynamic for _, dynamic in found)

    def stored(self, name: str) -> bool:
        return name in self._stored

    def dynamic(self) -> bool:
        return self._dynamic


def _variants(source: str) -> list[str]:
    """The source with each line ending, not ASCII, dynamic, and with a broken statement."""
    return [
        source,
        source.replace("\n", "\r\n"),
        source.replace("\n", "\r"),
        source + "\nlabel = 'é'\n",
        # the identifier is normalised: the attribute stored is ``field``
        source + "\ndef ligature(job):\n    job.\ufb01eld = 1\n\nprint(job.field)\n",
        source + "\nsetattr(object(), 'plan', 1)\n",
        source + "\ndef broken(:\n    pass\n",
    ]


@pytest.mark.parametrize("where", ["tricky", "sample", *CORPORA])
def test_a_module_walks_only_what_names_the_attribute_and_answers_as_walking_all(
    where: str,
) -> None:
    if where in {"tricky", "sample"}:
        sources = _variants(TRICKY if where == "tricky" else SAMPLE)
    else:
        sources = [p.read_text() for p in sorted((ROOT / where).rglob("*.py"))[:400]]
    checked = 0
    for source in sources:
        expected = _walking_all(source)
        if expected is None:
            continue
        assert _module_answers(source) == expected
        checked += len(expected[0])
    assert checked >= 20


def test_the_tricky_module_stores_what_it_seems_to() -> None:
    answers = _module_answers(TRICKY)
    assert answers is not None
    stored, dynamic = answers
    assert not dynamic
    assert {name for name, yes in stored.items() if yes} == {
        "plan",
        "tries",
        "budget",
        "others",
        "deleted",
        "handle",
        "size",
    }


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("env_vars = {}\nmy_setattr(x)\nx.__dict__x = 1\nadvars = 2\n", False),
        ("vars(obj)\n", True),
        ("x = 1; setattr(x, 'a', 1)\n", True),
        ("print(obj.__dict__)\n", True),
        ("d = {'k': delattr}\n", True),
    ],
)
def test_only_whole_identifiers_name_a_dynamic_way(text: str, named: bool) -> None:
    """A name that merely contains ``vars`` (``env_vars``) costs no walk of the module."""
    assert _names_dynamic_ways(text) is named
