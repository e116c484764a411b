"""One walk of a statement finds what two walks found: the attribute names it stores outside
set-up methods, and whether it sets attributes dynamically."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from evalsubmit.analysis.interp.objects import (
    CLASS_SETUP_METHODS,
    SETUP_METHODS,
    _statement_stores,
)

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
