"""Calls that call a function they are given: ``asyncio.to_thread(f, *a, **k)``,
``executor.submit(f, *a, **k)``, ``loop.run_in_executor(None, f, *a)``,
``anyio.to_thread.run_sync(f, *a)``. The function is checked exactly as if called directly
(issue 31: the usual way to run the synchronous taskset ``submit()`` from async code), with
its arguments where they were written."""

from __future__ import annotations

import ast

from evalsubmit.analysis.interp.sdk_calls import is_submit
from evalsubmit.analysis.values.domain import Value
from evalsubmit.analysis.values.objects import CallArgs, ClassValue, FunctionValue, PartialValue

_BY_NAME = {"asyncio.to_thread": 0, "anyio.to_thread.run_sync": 0}
"""Functions that call their argument at this position with the arguments after it."""
_BY_METHOD = {"submit": 0, "run_in_executor": 1}
"""Methods of executors and event loops that do the same (whatever the receiver is known as:
only an executor's ``submit`` takes a function first)."""
_KEYWORDS_FORWARDED = frozenset({"asyncio.to_thread", "submit"})


def forwarded_call(
    node: ast.Call, function: Value, args: CallArgs
) -> tuple[Value, ast.Call, CallArgs] | None:
    """The function a forwarding call calls, the call as if written directly (sharing the
    argument nodes, so findings and fixes land on them) and its arguments; None otherwise."""
    method = node.func.attr if isinstance(node.func, ast.Attribute) else None
    if isinstance(function, ClassValue) and function.ref.qualname in _BY_NAME:
        index, kind = _BY_NAME[function.ref.qualname], function.ref.qualname
    elif method in _BY_METHOD and not defined_here(function):
        index, kind = _BY_METHOD[method], method
    else:
        return None
    heads = node.args[: index + 1]
    if len(node.args) <= index or any(isinstance(a, ast.Starred) for a in heads):
        return None
    called = args.positional[index]
    if not isinstance(called, (FunctionValue, PartialValue)):
        return None
    keywords = kind in _KEYWORDS_FORWARDED
    inner = _inner_node(node, index, keywords)
    inner_args = CallArgs(
        args.positional[index + 1 :],
        dict(args.keywords) if keywords else {},
        dict(args.keyword_origins) if keywords else {},
        args.star_unknown,
    )
    return called, inner, inner_args


def defined_here(function: Value) -> bool:
    """A method the code defines (its own ``submit``), or the evaluator's ``submit``: not a
    forwarder, whatever it is called."""
    return isinstance(function, FunctionValue) and (
        function.node is not None or is_submit(function)
    )


def _inner_node(node: ast.Call, index: int, keywords: bool) -> ast.Call:
    """``f(*rest)`` for ``to_thread(f, *rest)``: made once per node and kept on it (origins
    and spans are cached by node)."""
    kept: ast.Call | None = getattr(node, "_evalsubmit_forwarded", None)
    if kept is None:
        kept = ast.Call(
            func=node.args[index],
            args=node.args[index + 1 :],
            keywords=node.keywords if keywords else [],
        )
        ast.copy_location(kept, node)
        node._evalsubmit_forwarded = kept  # type: ignore[attr-defined]
    return kept
