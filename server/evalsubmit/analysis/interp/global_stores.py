"""The module globals a call of a function surely rebinds.

After a call made by the module's top level, the globals some function rebinds through
``global`` are unknown (:meth:`.calls.Calls._forget_rebound_globals`): the call may have run
that function. A call of a function whose body surely reaches its one binding of a global, and
runs no other code after it, leaves the global at the value that binding stored, whatever else
ran before: ``configure(0)`` with ``global WORKERS; WORKERS = workers`` leaves ``WORKERS == 0``.
What is sure is decided here from the function's own syntax; the value is what the walk of its
body bound (:func:`.bodies.evaluate_call`).
"""

from __future__ import annotations

import ast

from evalsubmit.analysis.interp.statement_nodes import names_bound_by
from evalsubmit.analysis.source import tree_walk

#: Before the binding, what may leave the body without reaching it (an exception raised by a
#: call ends the caller's path too, as for any call).
_LEAVING = (ast.Return, ast.Raise, ast.Assert, ast.Yield, ast.YieldFrom, ast.Await)
_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_CERTAIN = "_evalsubmit_certain_globals"


def surely_rebound(definition: ast.FunctionDef) -> frozenset[str]:
    """The globals every call of ``definition`` that returns has rebound last: declared
    ``global`` at the top of its body and bound once in the function, by a statement of the
    body itself (not nested in a branch, loop, ``try`` or ``with``) that nothing before it may
    skip and after which nothing is called. Remembered on the node."""
    known: frozenset[str] | None = getattr(definition, _CERTAIN, None)
    if known is None:
        known = _surely_rebound(definition)
        setattr(definition, _CERTAIN, known)
    return known


def _surely_rebound(definition: ast.FunctionDef) -> frozenset[str]:
    declared = {
        name
        for statement in definition.body
        if isinstance(statement, ast.Global)
        for name in statement.names
    }
    if definition.decorator_list or not declared:
        return frozenset()
    nodes = tree_walk.walk(definition)
    bound = [name for node in nodes if node is not definition for name in names_bound_by(node)]
    found: set[str] = set()
    for index, statement in enumerate(definition.body):
        name = _stored_name(statement)
        if name is None or name not in declared or bound.count(name) != 1:
            continue
        if any(_has(before, _LEAVING) for before in definition.body[:index]):
            break  # nor any binding after it
        if not any(_has(after, (ast.Call,)) for after in definition.body[index + 1 :]):
            found.add(name)
    return frozenset(found)


def _stored_name(statement: ast.stmt) -> str | None:
    """``NAME = value`` or ``NAME: T = value``: the one name it binds."""
    match statement:
        case ast.Assign(targets=[ast.Name(id=name)]):
            return name
        case ast.AnnAssign(target=ast.Name(id=name), value=ast.expr()):
            return name
    return None


def _has(statement: ast.stmt, kinds: tuple[type[ast.AST], ...]) -> bool:
    """Whether ``statement`` holds a node of ``kinds`` that runs with it (not inside a
    function or lambda it defines; a definition's decorators and defaults do run)."""
    pending: list[ast.AST] = [statement]
    while pending:
        node = pending.pop()
        if isinstance(node, kinds):
            return True
        if isinstance(node, _NESTED):
            pending.extend(getattr(node, "decorator_list", []))
            pending.extend(tree_walk.child_nodes(node.args))
            continue
        pending.extend(tree_walk.child_nodes(node))
    return False
