"""Which module-level names a top-level statement reads and which it can change.

The incremental analyzer keys cached results by the statements they can depend on: a result of
statement ``i`` is still valid while no statement that *writes* a name ``i`` reads (directly or
through other such statements) has changed. "Writes" follows the interpreter's own semantics:
binding a name, storing into it (``d[k] = v``, ``cfg.field = v``), ``d.update(...)``, and calling
a top-level function whose body does one of those to a module-level name. Reads are
over-approximated (every name that appears), which only costs cache hits, never correctness.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_MUTATING_METHODS = frozenset(
    {
        *("update", "setdefault", "pop", "popitem", "clear"),
        *("append", "extend", "insert", "remove", "sort", "reverse"),
        *("add", "discard", "difference_update", "intersection_update"),
        "symmetric_difference_update",
    }
)


@dataclass(frozen=True, slots=True)
class Effects:
    reads: frozenset[str]
    writes: frozenset[str]
    """Names this statement binds or changes at module level when it runs."""
    writes_when_called: frozenset[str]
    """For a top-level function: module-level names its body changes when it is called."""


def effects(statement: ast.stmt) -> Effects:
    reads = frozenset(n.id for n in ast.walk(statement) if isinstance(n, ast.Name))
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        local = _bound_inside(statement)
        called = frozenset(_changed_bases(statement)) - local
        return Effects(reads, frozenset({statement.name}), called)
    writes = set(_changed_bases(statement))
    writes |= _bindings(statement)
    return Effects(reads, frozenset(writes), frozenset())


def _bindings(node: ast.AST) -> set[str]:
    names: set[str] = set()
    pending: list[ast.AST] = [node]
    while pending:
        current = pending.pop()
        if isinstance(current, (ast.Import, ast.ImportFrom)):
            for alias in current.names:
                names.add((alias.asname or alias.name).split(".")[0])
        elif isinstance(current, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(current.name)
            continue
        elif isinstance(current, ast.Name) and isinstance(current.ctx, (ast.Store, ast.Del)):
            names.add(current.id)
        elif (isinstance(current, ast.ExceptHandler) and current.name) or (
            isinstance(current, (ast.MatchAs, ast.MatchStar)) and current.name
        ):
            names.add(current.name)
        elif isinstance(current, ast.MatchMapping) and current.rest:
            names.add(current.rest)
        if isinstance(current, (ast.Lambda, *_COMPREHENSIONS)):
            continue
        pending.extend(ast.iter_child_nodes(current))
    return names


def _changed_bases(node: ast.AST) -> list[str]:
    """Leftmost names of stores into containers and attributes, and of mutating calls."""
    found: list[str] = []
    for current in ast.walk(node):
        target: ast.AST | None = None
        if isinstance(current, (ast.Subscript, ast.Attribute)) and isinstance(
            current.ctx, (ast.Store, ast.Del)
        ):
            target = current.value
        elif (
            isinstance(current, ast.Call)
            and isinstance(current.func, ast.Attribute)
            and current.func.attr in _MUTATING_METHODS
        ):
            target = current.func.value
        while isinstance(target, (ast.Subscript, ast.Attribute)):
            target = target.value
        if isinstance(target, ast.Name):
            found.append(target.id)
    return found


def _bound_inside(definition: ast.AST) -> frozenset[str]:
    """Names local to a function or class body (parameters and its own bindings)."""
    names: set[str] = set()
    for current in ast.walk(definition):
        if isinstance(current, ast.arg):
            names.add(current.arg)
    body = getattr(definition, "body", [])
    for statement in body:
        names |= _bindings(statement)
    for current in ast.walk(definition):
        if isinstance(current, (ast.Global, ast.Nonlocal)):
            names -= set(current.names)
    return frozenset(names)
