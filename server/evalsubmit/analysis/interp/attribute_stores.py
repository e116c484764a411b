"""Which attributes code outside the set-up methods may change behind the flow's back.

An attribute that construction stores on ``self`` is trusted only when no other code of the
module stores it (``obj.name = v``, ``del obj.name``, ``for obj.name in ...``) and nothing sets
attributes dynamically (``setattr``, ``delattr``, ``vars``, ``__dict__``; ``object.__setattr__``
stores the attribute it names). Answering that walks the statements of the module, and most of
a long module never names the attribute asked about: a statement's text says whether it can
(an attribute is spelled after a dot, or ``__setattr__`` is), and only those that can are
walked. A statement whose text is not ASCII (identifiers are normalised, so ``ﬁeld`` is
``field``) is walked.
"""

from __future__ import annotations

import ast
import re
from itertools import chain, compress, repeat
from operator import contains
from typing import Any

from evalsubmit.analysis.interp.binding import first_parameter
from evalsubmit.analysis.source import tree_walk
from evalsubmit.analysis.source.parse import ParsedModule

SETUP_METHODS = ("__init__", "__post_init__", "setUp", "setup_method", "asyncSetUp")
"""Run before a method of an instance can be: what they store on ``self`` is its state."""
CLASS_SETUP_METHODS = ("setUpClass", "setup_class")
"""Run (with ``cls``) before any test method of the class: what they store on ``cls`` every
instance sees."""

_DYNAMIC_CALLS = frozenset({"setattr", "delattr", "vars"})
# no look-behind: tried at every position of a long text, it costs four times the search
_DYNAMIC_TEXT = re.compile(r"(?:setattr|delattr|vars|__dict__)(?!\w)")
# between a dot and the name after it: spaces, line breaks and comments (inside brackets), or
# a backslash that continues the line
_DOTTED = re.compile(r"\.(?:\s|\\(?:\r\n|\r|\n)|#[^\r\n]*)*([A-Za-z_]\w*)")
_STORES = "_evalsubmit_attribute_stores"
_SETATTR = "__setattr__"


class AttributeStores:
    """The attribute stores of one module, found when first asked about."""

    def __init__(self, parsed: ParsedModule) -> None:
        self._body = parsed.tree.body
        # a repaired parse blanks broken lines and keeps the others where they are: the lines
        # of a statement still hold all it spells (and the blanked text, which costs a walk)
        self._lines = parsed.lines
        self._spellings: list[frozenset[str]] | None = None
        self._by_setattr: list[ast.stmt] | None = None
        self._stored: dict[str, bool] = {}
        self._dynamic: bool | None = None

    def stored(self, name: str) -> bool:
        """Whether a statement stores or deletes attribute ``name`` outside set-up methods."""
        found = self._stored.get(name)
        if found is None:
            # the statements whose text spells the name (or does not tell), picked at C speed:
            # a long module asks this of every statement, each time it is analysed
            spelled = compress(self._body, map(contains, self._spelled(), repeat(name)))
            found = self._stored[name] = any(
                name in _statement_stores(statement)[0]
                for statement in chain(spelled, self._spelling_setattr())
            )
        return found

    def dynamic(self) -> bool:
        """Whether the module sets attributes dynamically: then none is trusted."""
        if self._dynamic is None:
            self._spelled()
            dynamic = map(getattr, self._body, repeat(_SPELLED_DYNAMIC))
            self._dynamic = any(
                _statement_stores(statement)[1]
                for statement in chain(compress(self._body, dynamic), self._spelling_setattr())
            )
        return self._dynamic

    def _spelled(self) -> list[frozenset[str]]:
        """The names each statement's text spells after a dot (:data:`_EVERY` when its text
        does not tell)."""
        if self._spellings is None:
            spellings: list[frozenset[str]] = list(
                map(getattr, self._body, repeat(_SPELLED), repeat(_NOT_READ))
            )
            at = 0
            try:  # the statements parsed anew: read once, kept on the node
                while True:
                    at = spellings.index(_NOT_READ, at)
                    spellings[at] = _read(self._body[at], self._lines)
            except ValueError:  # every statement read
                pass
            self._spellings = spellings
        return self._spellings

    def _spelling_setattr(self) -> list[ast.stmt]:
        """The statements whose text spells ``__setattr__`` (a store of any name, perhaps)."""
        if self._by_setattr is None:
            spelled = map(contains, self._spelled(), repeat(_SETATTR))
            self._by_setattr = list(compress(self._body, spelled))
        return self._by_setattr


class _Every(frozenset[str]):
    """What a statement whose text does not tell spells (not ASCII: identifiers are
    normalised): every name, so that it is walked whatever name is asked about."""

    def __contains__(self, name: object) -> bool:
        return True


_EVERY = _Every()
_SPELLED = "_evalsubmit_spelled_attributes"
_SPELLED_DYNAMIC = "_evalsubmit_spelled_dynamic"
_NOT_READ: Any = object()


def _read(statement: ast.stmt, lines: tuple[str, ...]) -> frozenset[str]:
    """The names a top-level statement's text spells after a dot (:data:`_EVERY` when it is
    not ASCII), and, kept on the node beside them, whether it spells a dynamic way (or does
    not tell). Kept on the node, like its stores: after an edit only the statements parsed
    anew are read."""
    found: frozenset[str] = getattr(statement, _SPELLED, _NOT_READ)
    if found is _NOT_READ:
        text = "".join(lines[_first_line(statement) - 1 : statement.end_lineno])
        if text.isascii():
            found, dynamic = frozenset(_DOTTED.findall(text)), _names_dynamic_ways(text)
        else:
            found, dynamic = _EVERY, True
        setattr(statement, _SPELLED_DYNAMIC, dynamic)
        setattr(statement, _SPELLED, found)
    return found


def _names_dynamic_ways(text: str) -> bool:
    """Whether the text spells a dynamic way as a whole identifier (``env_vars`` is not one)."""
    for found in _DYNAMIC_TEXT.finditer(text):  # (a look-behind in the pattern is slower)
        start = found.start()
        if start == 0 or not (text[start - 1].isalnum() or text[start - 1] == "_"):
            return True
    return False


def _first_line(statement: ast.stmt) -> int:
    decorators: list[ast.expr] = getattr(statement, "decorator_list", [])
    return min([statement.lineno, *(decorator.lineno for decorator in decorators)])


def _statement_stores(statement: ast.stmt) -> tuple[frozenset[str], bool]:
    """The attribute names a top-level statement stores outside set-up methods, and whether it
    sets attributes dynamically, in one walk of its nodes. Kept on the node: after an edit, the
    statements the chunk cache reuses (same text, same node) are not walked again."""
    found: tuple[frozenset[str], bool] | None = getattr(statement, _STORES, None)
    if found is not None:
        return found
    names: set[str] = set()
    dynamic = False
    setup = SETUP_METHODS + CLASS_SETUP_METHODS
    # each node with the receiver (first parameter) of the set-up method around it (the
    # innermost function), None outside set-up methods
    pending: list[tuple[ast.AST, str | None]] = [(statement, None)]
    while pending:
        node, receiver = pending.pop()
        if isinstance(node, ast.Attribute):
            if receiver is None and isinstance(node.ctx, (ast.Store, ast.Del)):
                names.add(node.attr)
            dynamic = dynamic or node.attr == "__dict__"
        elif isinstance(node, ast.Call):
            called = node.func
            dynamic = dynamic or (isinstance(called, ast.Name) and called.id in _DYNAMIC_CALLS)
            if (
                isinstance(called, ast.Attribute)
                and called.attr == _SETATTR
                and not _modelled_setattr(node, receiver)
            ):
                # object.__setattr__(obj, "name", v), super().__setattr__("name", v): a store
                # of `name` (of any attribute, when the name is not a literal)
                named = node.args[len(node.args) - 2] if len(node.args) in (2, 3) else None
                if isinstance(named, ast.Constant) and isinstance(named.value, str):
                    names.add(named.value)
                else:
                    dynamic = True
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            receiver = None
            if node.name in setup:
                receiver = first_parameter(node.args) or ""
        pending.extend((child, receiver) for child in tree_walk.child_nodes(node))
    found = (frozenset(names), dynamic)
    setattr(statement, _STORES, found)
    return found


def _modelled_setattr(node: ast.Call, receiver: str | None) -> bool:
    """``object.__setattr__(self, "name", v)`` in a set-up method of ``self``: a write the
    walk of construction sees (Objects.object_setattr), not a store behind its back."""
    if not receiver or len(node.args) != 3 or node.keywords:
        return False
    called, target, named = node.func, node.args[0], node.args[1]
    return (
        isinstance(called, ast.Attribute)
        and isinstance(called.value, ast.Name)
        and called.value.id == "object"
        and isinstance(target, ast.Name)
        and target.id == receiver
        and isinstance(named, ast.Constant)
        and isinstance(named.value, str)
    )
