"""Functions decorated ``@contextlib.contextmanager``: calling one gives a context manager, whose
``with ... as name`` value is what its generator yields."""

from __future__ import annotations

import ast

from evalsubmit.analysis.interp.objects import decorated_with
from evalsubmit.analysis.values.domain import Instance, Value
from evalsubmit.analysis.values.objects import CallArgs, ClassRef

_CONTEXT_DECORATORS = frozenset({"contextmanager", "asynccontextmanager"})
ENTERED = "contextlib.AbstractContextManager"
"""A context manager whose ``__enter__`` value is known: it is kept as its one keyword."""


def is_context_manager(definition: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Decorated ``@contextlib.contextmanager`` (or ``asynccontextmanager``)."""
    return decorated_with(definition.decorator_list, _CONTEXT_DECORATORS)


def entered_as(value: Value) -> Instance:
    """A context manager that gives ``value`` to ``with ... as name``."""
    return Instance(ClassRef(ENTERED), CallArgs(keywords={"__enter__": value}))
