"""``ast.walk`` and ``ast.iter_child_nodes`` without the nodes nobody asks about.

The standard ones visit every field of every node through two nested generators per node,
the expression contexts (``Load``/``Store``: one more node per name) and the operators
(``Add``, ``Eq``...) included; the analysis walks each statement several times, and that
walking was a fifth of a cold analysis. These give the same nodes in the same order, except
contexts and operators: code that needs one reads ``node.ctx`` / ``node.op``.
"""

from __future__ import annotations

import ast

# Fields that never hold a node worth visiting, in any node type: identifiers, flags,
# numbers, contexts and operators.
_SKIPPED = frozenset(
    {
        "ctx",
        "op",
        "ops",
        "id",
        "arg",
        "attr",
        "name",
        "module",
        "level",
        "kind",
        "type_comment",
        "conversion",
        "simple",
        "is_async",
        "tag",
    }
)
_fields_of: dict[type[ast.AST], tuple[str, ...]] = {}


def _node_fields(kind: type[ast.AST]) -> tuple[str, ...]:
    fields = _fields_of.get(kind)
    if fields is None:
        fields = tuple(f for f in kind._fields if f not in _SKIPPED)
        _fields_of[kind] = fields
    return fields


def add_children(node: ast.AST, found: list[ast.AST]) -> None:
    """Append the direct children of ``node`` to ``found``."""
    for name in _node_fields(type(node)):
        value = getattr(node, name, None)
        if isinstance(value, ast.AST):
            found.append(value)
        elif isinstance(value, list):
            for item in value:
                if isinstance(item, ast.AST):
                    found.append(item)


def child_nodes(node: ast.AST) -> list[ast.AST]:
    """The direct children of ``node``, in ``ast.iter_child_nodes`` order."""
    found: list[ast.AST] = []
    add_children(node, found)
    return found


def walk(node: ast.AST) -> list[ast.AST]:
    """``node`` and every node under it, in ``ast.walk`` (breadth-first) order."""
    found = [node]
    index = 0
    while index < len(found):
        add_children(found[index], found)
        index += 1
    return found
