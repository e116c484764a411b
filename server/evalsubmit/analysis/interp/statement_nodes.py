"""One top-level statement's nodes, sorted by the kinds :mod:`.effects` asks about, in one walk.

:mod:`.effects` asks a dozen questions of every statement of a module (what it reads, binds,
calls, stores into, what a function body binds of its own ...); each used to test every node
again, and a second walk found the bindings of the statement's own scope: together a fifth of
a cold editor analysis. Here one walk gives every node (in ``tree_walk.walk`` order) and the
few of each kind the questions read, and marks which nodes are in the statement's own scope.
"""

from __future__ import annotations

import ast

from evalsubmit.analysis.source import tree_walk
from evalsubmit.core.records import Record

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)

_BOUNDARIES = frozenset({*_SCOPES, *_COMPREHENSIONS})
"""Nodes whose insides bind in a scope of their own (a comprehension's target, a nested
function's locals): not the names of the statement's scope."""
_BINDERS = frozenset(
    {ast.Global, ast.Nonlocal, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef}
    | {ast.Import, ast.ImportFrom}
)
_OTHER_BINDERS = frozenset({ast.ExceptHandler, ast.MatchAs, ast.MatchStar, ast.MatchMapping})
_SCOPE_KINDS = frozenset(_SCOPES)
_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


class StatementNodes(Record, hash=False):
    """Every node of one statement (``tree_walk.walk`` order), and the kinds the questions
    about it read, sorted out in the same walk: each question looks at its own few nodes
    instead of testing every node again (this was a fifth of a cold editor analysis)."""

    __slots__ = (
        "args",
        "assignments",
        "attributes",
        "binders",
        "calls",
        "names",
        "nodes",
        "own_bindings",
        "scopes",
        "stored_into",
        "stored_names",
    )
    nodes: list[ast.AST]
    names: list[ast.Name]
    stored_names: list[ast.Name]
    """Names bound or deleted (``Store``/``Del``), anywhere in the statement."""
    stored_into: list[ast.Attribute | ast.Subscript]
    """``x.a = v`` / ``d[k] = v`` / ``del``: attributes and items stored into or deleted."""
    calls: list[ast.Call]
    attributes: list[ast.Attribute]
    args: list[ast.arg]
    assignments: list[ast.Assign | ast.AnnAssign]
    binders: list[ast.AST]
    """Stored names, ``global``/``nonlocal``, definitions and imports, in walk order."""
    scopes: bool
    """A function, lambda or class is among the nodes (the statement itself included)."""
    own_bindings: set[str]
    """The names bound in the statement's own scope (a definition's: its body's), what
    ``_bindings`` of old gave: not inside nested functions, classes, lambdas or comprehensions
    (whose first iterable and walrus targets are left out as well)."""

    def __init__(
        self,
        nodes: list[ast.AST],
        names: list[ast.Name] | None = None,
        stored_names: list[ast.Name] | None = None,
        stored_into: list[ast.Attribute | ast.Subscript] | None = None,
        calls: list[ast.Call] | None = None,
        attributes: list[ast.Attribute] | None = None,
        args: list[ast.arg] | None = None,
        assignments: list[ast.Assign | ast.AnnAssign] | None = None,
        binders: list[ast.AST] | None = None,
        scopes: bool = False,
        own_bindings: set[str] | None = None,
    ) -> None:
        self.nodes = nodes
        self.names = [] if names is None else names
        self.stored_names = [] if stored_names is None else stored_names
        self.stored_into = [] if stored_into is None else stored_into
        self.calls = [] if calls is None else calls
        self.attributes = [] if attributes is None else attributes
        self.args = [] if args is None else args
        self.assignments = [] if assignments is None else assignments
        self.binders = [] if binders is None else binders
        self.scopes = scopes
        self.own_bindings = set() if own_bindings is None else own_bindings

    @classmethod
    def of(cls, statement: ast.stmt) -> StatementNodes:
        nodes, own = _scoped_walk(statement)
        walked = cls(nodes)
        names, stored_names, stored_into = walked.names, walked.stored_names, walked.stored_into
        calls, attributes, binders = walked.calls, walked.attributes, walked.binders
        bound = walked.own_bindings
        definition = statement if isinstance(statement, _DEFINITIONS) else None
        for node, mine in zip(nodes, own, strict=True):
            kind = type(node)
            if kind is ast.Name:
                names.append(node)  # type: ignore[arg-type]
                if type(node.ctx) is not ast.Load:  # type: ignore[attr-defined]
                    stored_names.append(node)  # type: ignore[arg-type]
                    binders.append(node)
                    if mine:
                        bound.add(node.id)  # type: ignore[attr-defined]
            elif kind is ast.Call:
                calls.append(node)  # type: ignore[arg-type]
            elif kind is ast.Attribute or kind is ast.Subscript:
                if kind is ast.Attribute:
                    attributes.append(node)  # type: ignore[arg-type]
                if type(node.ctx) is not ast.Load:  # type: ignore[attr-defined]
                    stored_into.append(node)  # type: ignore[arg-type]
            elif kind is ast.arg:
                walked.args.append(node)  # type: ignore[arg-type]
            elif kind is ast.Assign or kind is ast.AnnAssign:
                walked.assignments.append(node)  # type: ignore[arg-type]
            elif kind in _BINDERS:
                binders.append(node)
                if mine and node is not definition:
                    bound.update(names_bound_by(node))
            elif kind in _OTHER_BINDERS and mine:
                bound.update(names_bound_by(node))
            if kind in _SCOPE_KINDS:
                walked.scopes = True
        return walked


def _scoped_walk(statement: ast.stmt) -> tuple[list[ast.AST], list[bool]]:
    """``tree_walk.walk(statement)``, each node with whether it is in the statement's own
    scope (a definition's own scope is its body)."""
    found: list[ast.AST] = [statement]
    tree_walk.add_children(statement, found)
    own = [True]
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        body = {id(s) for s in statement.body}
        own.extend(id(node) in body for node in found[1:])
    else:
        own.extend([True] * (len(found) - 1))
    index = 1
    while index < len(found):
        node = found[index]
        before = len(found)
        tree_walk.add_children(node, found)
        if len(found) > before:
            inside = own[index] and type(node) not in _BOUNDARIES
            own.extend([inside] * (len(found) - before))
        index += 1
    return found, own


def names_bound_by(node: ast.AST) -> list[str]:
    """The names one node binds in the scope it is in: a stored or deleted name, a
    definition, an import, an ``except`` or ``match`` capture."""
    if isinstance(node, ast.Name):
        return [] if isinstance(node.ctx, ast.Load) else [node.id]
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return [(alias.asname or alias.name).split(".")[0] for alias in node.names]
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)):
        return [node.name] if node.name else []
    if isinstance(node, ast.MatchMapping):
        return [node.rest] if node.rest else []
    return []


def names_bound_in(nodes: list[ast.AST]) -> set[str]:
    """The names ``nodes`` bind in the scope they are in, nested blocks included: of a
    function or class they define, its name and decorators (its body is a scope of its own);
    nothing of lambdas and comprehensions, whose names are their own (a walrus in them is
    rare: left out)."""
    bound: set[str] = set()
    pending = list(nodes)
    while pending:
        current = pending.pop()
        bound.update(names_bound_by(current))
        if type(current) not in _BOUNDARIES:
            tree_walk.add_children(current, pending)
        elif isinstance(current, _DEFINITIONS):
            pending.extend(current.decorator_list)
    return bound
