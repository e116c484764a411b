"""Names as the code spells them, for the few readings that go by spelling rather than by what
a name is bound to (``Field(...)`` in a model body, ``@pytest.fixture``, ``contextlib.suppress``
in a ``with``, a pydantic validator's decorator): the last name of ``name`` or
``module.name``."""

from __future__ import annotations

import ast


def called_name(node: ast.expr) -> str | None:
    """The last name of ``name`` or ``module.name`` (None for any other expression)."""
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else None


def spelled_name(node: ast.expr) -> str | None:
    """:func:`called_name` of ``node``, or of its function when it is a call (``@name(...)``,
    ``Field(...)``)."""
    return called_name(node.func if isinstance(node, ast.Call) else node)
