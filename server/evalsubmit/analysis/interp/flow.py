"""Facts about control flow that decide how a walk may be split, and how its parts are named."""

from __future__ import annotations

import ast
from collections.abc import Sequence

from evalsubmit.analysis.source import tree_walk
from evalsubmit.analysis.values.domain import Known, SeqValue, Value

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
