"""Where a coroutine runs: calling an ``async def`` runs nothing, it makes a coroutine, whose
body runs only when something runs it. The body of a coroutine that surely runs, and where, is
walked there with the arguments of its call, as a call of a plain function is:

* ``await f(...)``: the body runs to its end where it is awaited, and the await gives what it
  returned;
* ``asyncio.run(f(...))`` and ``loop.run_until_complete(f(...))``;
* each coroutine given to ``asyncio.gather`` when the gather is itself awaited (or run), written
  as arguments or unpacked from a comprehension (``gather(*(f(x) for x in xs))``).

A coroutine made anywhere else (stored, handed to ``create_task``, never awaited) is unknown, as
all coroutines were: nothing says that its body runs, nor when.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

from evalsubmit.analysis.interp.forwarding import defined_here
from evalsubmit.analysis.values.domain import Unknown, Value
from evalsubmit.analysis.values.objects import ClassValue

_RUNS_FIRST = frozenset({"asyncio.run"})
_RUN_METHODS = frozenset({"run_until_complete"})
_GATHERS = frozenset({"asyncio.gather"})

T = TypeVar("T")


class Running:
    """The calls whose coroutine runs where it is made, each with what the async functions
    walked there returned."""

    def __init__(self) -> None:
        self._returned: dict[ast.Call, list[Value]] = {}

    def returned(self, node: ast.Call) -> list[Value] | None:
        """Where to note what the async function ``node`` calls returned (None: its coroutine
        is not surely run there, so its body is not walked)."""
        return self._returned.get(node)

    @contextmanager
    def running(self, nodes: list[ast.Call]) -> Iterator[dict[ast.Call, list[Value]]]:
        """While ``nodes`` are evaluated, their coroutines run where they are made."""
        saved = {node: self._returned[node] for node in nodes if node in self._returned}
        fresh: dict[ast.Call, list[Value]] = {node: [] for node in nodes}
        self._returned.update(fresh)
        try:
            yield fresh
        finally:
            for node in nodes:
                del self._returned[node]
            self._returned.update(saved)

    def awaited(self, node: ast.Call, evaluate: Callable[[ast.Call], Value]) -> Value:
        """The value of ``await node``: what the async function it calls returned, its body
        walked here with the call's arguments; unknown otherwise."""
        with self.running([node]) as running:
            evaluate(node)
            returned = running[node]
        return returned[0] if len(returned) == 1 else Unknown("the result of an await")

    def arguments(self, node: ast.Call, function: Value, evaluate: Callable[[ast.Call], T]) -> T:
        """``evaluate(node)``, the arguments of the call ``node`` of ``function``, with the
        coroutines that call runs (``asyncio.run(f(...))``) walked where they are made."""
        run = self.run_by(node, function)
        if not run:
            return evaluate(node)
        with self.running(run):
            return evaluate(node)

    def run_by(self, node: ast.Call, function: Value) -> list[ast.Call]:
        """The argument calls whose coroutines the call ``node`` of ``function`` runs."""
        if isinstance(function, ClassValue):
            name = function.ref.qualname
            if name in _RUNS_FIRST:
                return _first_call(node)
            if name in _GATHERS and node in self._returned:
                return _gathered_calls(node)
            return []
        method = node.func.attr if isinstance(node.func, ast.Attribute) else None
        if method in _RUN_METHODS and not defined_here(function):
            return _first_call(node)  # an event loop's, whatever the receiver is known as
        return []


def _first_call(node: ast.Call) -> list[ast.Call]:
    first = node.args[0] if node.args else None
    return [first] if isinstance(first, ast.Call) else []


def _gathered_calls(node: ast.Call) -> list[ast.Call]:
    found: list[ast.Call] = []
    for argument in node.args:
        if isinstance(argument, ast.Call):
            found.append(argument)
        elif (
            isinstance(argument, ast.Starred)
            and isinstance(argument.value, ast.GeneratorExp | ast.ListComp)
            and isinstance(argument.value.elt, ast.Call)
        ):
            found.append(argument.value.elt)
    return found
