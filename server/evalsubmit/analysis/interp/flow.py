"""Facts about control flow that decide how a walk may be split, and how its parts are named."""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

from evalsubmit.analysis.interp.spelling import called_name, spelled_name
from evalsubmit.analysis.source import tree_walk
from evalsubmit.analysis.values.domain import Known, SeqValue, Unknown, Value
from evalsubmit.analysis.values.env import Env
from evalsubmit.analysis.values.objects import ClassRef, ClassValue, FunctionValue
from evalsubmit.core.records import Record
from evalsubmit.sdk.names import is_sdk_name

if TYPE_CHECKING:
    from evalsubmit.analysis.interp.interpreter import Interpreter


_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_LOOPS = (ast.For, ast.AsyncFor, ast.While)
MAX_SOURCE = 40


def leaves_loop(body: list[ast.stmt], lines: Sequence[str] | None = None) -> bool:
    """Whether the loop body can stop the loop early (``break``, ``return``): then a later
    element does not surely reach the body. ``lines``: the module's text, when the caller has
    it: a body whose lines hold neither word is not walked node by node."""
    if lines is not None and body and not _may_leave(body, lines):
        return False
    pending: list[ast.AST] = list(body)
    while pending:
        node = pending.pop()
        if isinstance(node, (ast.Break, ast.Return)):
            return True
        if isinstance(node, _NESTED):
            continue
        if isinstance(node, _LOOPS):
            # a break there ends that loop only; a return still leaves ours
            pending.extend(n for n in tree_walk.walk(node) if isinstance(n, ast.Return))
            continue
        pending.extend(tree_walk.child_nodes(node))
    return False


def _may_leave(body: list[ast.stmt], lines: Sequence[str]) -> bool:
    end = body[-1].end_lineno
    if end is None:
        return True
    text = "".join(lines[body[0].lineno - 1 : end])
    # keywords are only ever ASCII, but a non-ASCII text is walked anyway (no guess is made)
    return "break" in text or "return" in text or not text.isascii()


def element_label(node: ast.For | ast.AsyncFor, index: int, item: Value) -> str:
    """How a finding names the element it holds for: ``for CONFIGS['nightly']`` when iterating
    a dict's items, else ``for the 2nd runner of RUNNERS``."""
    source = _short(node.iter)
    if (
        isinstance(node.iter, ast.Call)
        and isinstance(node.iter.func, ast.Attribute)
        and node.iter.func.attr in {"items", "keys"}
    ):
        key = item.items[0] if isinstance(item, SeqValue) and item.items else item
        if isinstance(key, Known):
            return f"for {_short(node.iter.func.value)}[{key.obj!r}]"
    noun = node.target.id if isinstance(node.target, ast.Name) else "element"
    return f"for the {ordinal(index + 1)} {noun} of {source}"


def ordinal(number: int) -> str:
    if 10 <= number % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def _short(node: ast.expr) -> str:
    """The node's source, or "the loop" when long; kept on the node (``ast.unparse`` costs tens
    of microseconds, and a loop's iterable is named once per element of each walk)."""
    known: str | None = getattr(node, "_evalsubmit_short", None)
    if known is None:
        text = ast.unparse(node)
        known = text if len(text) <= MAX_SOURCE else "the loop"
        node._evalsubmit_short = known  # type: ignore[attr-defined]
    return known


class LoopExits(Record, hash=False):
    """Where one walk of a loop body left it early: the paths at each ``break`` (they reach
    the code after the loop, skipping ``else``) and at each ``continue`` (the loop's head)."""

    __slots__ = (
        "broke",
        "continued",
    )
    broke: list[Env]
    continued: list[Env]

    def __init__(self, broke: list[Env] | None = None, continued: list[Env] | None = None) -> None:
        self.broke = [] if broke is None else broke
        self.continued = [] if continued is None else continued


class LoopJumps:
    """The loops being walked, innermost last: ``break``/``continue`` belong to the innermost
    (a called function's loops are entered and left within the call)."""

    __slots__ = ("_open",)

    def __init__(self) -> None:
        self._open: list[LoopExits] = []

    @contextmanager
    def loop(self) -> Iterator[LoopExits]:
        exits = LoopExits()
        self._open.append(exits)
        try:
            yield exits
        finally:
            self._open.pop()

    def leave(self, env: Env, how: str) -> None:
        """The path at ``env`` leaves the loop body by ``how`` (``break``/``continue``)."""
        if self._open:
            exits = self._open[-1]
            (exits.broke if how == "break" else exits.continued).append(env.copy())
        env.ended = how


_NEVER_RETURN = frozenset(
    {
        "sys.exit",
        "exit",
        "quit",
        "os._exit",
        "os.abort",
        "pytest.fail",
        "pytest.skip",
        "pytest.exit",
        "typing.assert_never",
        "typing_extensions.assert_never",
        "assert_never",
        "self.fail",
        "self.skipTest",
    }
)

_NO_RETURN_ANNOTATIONS = frozenset({"NoReturn", "Never"})
_SUPPRESSING = frozenset({"suppress", "raises", "assertRaises", "assertRaisesRegex"})


def never_returns(interp: Interpreter, call: ast.Call) -> bool:
    """Whether the call surely does not return: ``sys.exit()``, ``pytest.fail()``,
    ``assert_never()``, or a function of the user's annotated ``-> NoReturn``/``Never``."""
    func = call.func
    if isinstance(func, ast.Name):
        bound = interp.frame.env.lookup(func.id)
        if isinstance(bound, FunctionValue):
            return _annotated_no_return(bound)
        if bound is not None and func.id not in {"exit", "quit", "assert_never"}:
            return False
    dotted = _dotted(func)
    return dotted is not None and dotted in _NEVER_RETURN


def opaque_call(interp: Interpreter, call: ast.Call) -> bool:
    """Whether a call statement runs code we cannot see into, which may not return: an
    unresolved callee, or a function of a package that is neither the standard library, the
    SDK nor the user's (``parser.error(...)`` on an unknown parser, ``flask.abort(...)``)."""
    func = call.func
    if not _dotted(func):
        return True
    with interp.silent():
        callee = interp.eval(func)
    match callee:
        case Unknown():
            return True
        case ClassValue(ref=ClassRef(user=None, qualname=qualname)):
            top = qualname.split(".", 1)[0]
            return not (
                top in sys.stdlib_module_names or top == "builtins" or is_sdk_name(qualname)
            )
    return False


def may_suppress(context: ast.expr) -> bool:
    """Whether a ``with`` item may swallow an exception raised in its body
    (``contextlib.suppress``, ``pytest.raises``, ``self.assertRaises``)."""
    return spelled_name(context) in _SUPPRESSING


def _annotated_no_return(function: FunctionValue) -> bool:
    node = function.node
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or node.returns is None:
        return False
    returns = node.returns
    name = called_name(returns)
    if isinstance(returns, ast.Constant) and isinstance(returns.value, str):
        name = returns.value.rsplit(".", 1)[-1]
    return name in _NO_RETURN_ANNOTATIONS


def _dotted(node: ast.expr) -> str | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))
