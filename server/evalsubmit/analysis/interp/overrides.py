"""Which members of a class the module's subclasses of it define again.

A method body walked with ``self`` bound to its class's generic instance (whoever constructed
it) may run on an instance of a subclass: a class attribute, method or property that a
subclass defines again, or an attribute a subclass's method stores on ``self``, is then not
known to be the class's own (a base's ``SUITE = ""``
placeholder that every job class sets). Subclasses are found by the names of their bases in
the module's class statements (at any depth), once per module (the class statements under
each top-level statement are remembered by node: after an edit, only the statements it made
anew are walked for them); two classes of one name count
as one (more members unknown, never fewer). Subclasses in the project's other files are found
by :mod:`.subclass_text`, asked only when the class defines the member read (otherwise the
read is unknown anyway).
"""

from __future__ import annotations

import ast
import weakref
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Final

from evalsubmit.analysis.interp.binding import first_parameter
from evalsubmit.analysis.interp.grouping import DependencyLog
from evalsubmit.analysis.interp.statement_nodes import names_bound_by
from evalsubmit.analysis.source import tree_walk
from evalsubmit.analysis.source.parse import ParsedModule
from evalsubmit.analysis.values.domain import Instance
from evalsubmit.analysis.values.objects import UserClass
from evalsubmit.core.records import Record

if TYPE_CHECKING:
    from evalsubmit.analysis.interp.imports import ImportResolver

SUBCLASSED = "<subclassed>"
"""Prefix of the pseudo-name a class statement writes for each of its bases, and a statement
reads for each class it defines or names: what a generic instance of the class holds depends
on the module's subclasses of it (the incremental analysis's dependency graph)."""


class Overrides:
    """The members each class's subclasses in one module define, found when first asked, and
    in the project's other files (:mod:`.subclass_text`, through ``resolver``)."""

    def __init__(
        self, parsed: ParsedModule, resolver: ImportResolver | None, home: Path | None
    ) -> None:
        self._tree = parsed.tree
        self._redefined: dict[str, frozenset[str]] | None = None
        self._resolver = resolver
        self._home = home
        self._elsewhere: dict[int, _Elsewhere] = {}

    def overridden(
        self, cls: UserClass, member: str, defined: Callable[[], bool], dependencies: DependencyLog
    ) -> bool:
        """Whether a subclass of ``cls`` (at any remove) in the module defines ``member``, or,
        when ``defined()`` (the read would otherwise give what the class defines), one in
        another file of the project may; the files looked at are added to ``dependencies``."""
        if self._redefined is None:
            self._redefined = _redefined(self._tree)
        if member in self._redefined.get(cls.name, frozenset()):
            return True
        if self._resolver is None or cls.path is None or not defined():
            return False
        kept = self._elsewhere.get(id(cls))
        if kept is None:
            looked_at = DependencyLog()
            members = self._resolver.subclass_members(cls.name, cls.path, self._home, looked_at)
            kept = self._elsewhere[id(cls)] = _Elsewhere(cls, members, looked_at)
        for path in kept.looked_at:  # each cache group asking depends on them
            dependencies.add(path)
            if digest := kept.looked_at.texts.get(path):
                dependencies.note(path, digest)
        for question, answer in kept.looked_at.questions.items():  # and on files not looked at
            dependencies.ask(question, answer)
        return kept.members is None or member in kept.members


class _Elsewhere(Record):
    """What one class's subclasses in the project's other files define (None: any member may
    be), and the files looked at to find them, with their digests."""

    __slots__ = ("cls", "looked_at", "members")
    cls: Final[UserClass]
    """Kept alive: its id is the key."""
    members: Final[frozenset[str] | None]
    looked_at: Final[DependencyLog]

    def __init__(
        self, cls: UserClass, members: frozenset[str] | None, looked_at: DependencyLog
    ) -> None:
        self.cls = cls
        self.members = members
        self.looked_at = looked_at


def defines(classes: Iterable[UserClass], member: str, instance: Instance | None) -> bool:
    """Whether reading ``member`` of an instance of the first of ``classes`` (its user-class
    bases after it), or of ``instance``, may give what they define: an attribute its
    construction stored, a class attribute, method or nested class."""
    if instance is not None and instance.attributes and member in instance.attributes:
        return True
    return any(
        member in c.attributes
        or member in c.class_values
        or member in c.methods
        or member in c.enum_members
        for c in classes
    )


def base_names(node: ast.ClassDef) -> frozenset[str]:
    """The names a class's base expressions mention anywhere (``Base``, ``jobs.Base``,
    ``Base[T]``, ``mixin(Base)``): a class may derive from any of them, as
    :class:`.subclass_text.FileClasses` reads the classes of other files."""
    return frozenset(
        part.id if isinstance(part, ast.Name) else part.attr
        for base in node.bases
        for part in tree_walk.walk(base)
        if isinstance(part, ast.Name | ast.Attribute)
    )


def class_members(node: ast.ClassDef) -> set[str]:
    """The names a class body binds at its own level (attributes, methods, nested classes),
    and the attributes its methods store on their first parameter (``self.workers = 8`` in
    an ``__init__``)."""
    found: set[str] = set()
    for statement in node.body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found.add(statement.name)
            found |= _stored_on_self(statement)
        elif isinstance(statement, ast.ClassDef):
            found.add(statement.name)
        elif isinstance(statement, ast.Assign):
            found |= {t.id for t in statement.targets if isinstance(t, ast.Name)}
        elif isinstance(statement, (ast.AnnAssign, ast.AugAssign)):
            if isinstance(statement.target, ast.Name):
                found.add(statement.target.id)
        else:  # a member bound under an if/try of the class body: any name it binds
            found |= {n for node in tree_walk.walk(statement) for n in names_bound_by(node)}
    return found


def _stored_on_self(method: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """Attributes a method stores (or deletes) on its first parameter, anywhere in it."""
    receiver = first_parameter(method.args)
    if receiver is None:
        return set()
    return {
        node.attr
        for node in tree_walk.walk(method)
        if isinstance(node, ast.Attribute)
        and not isinstance(node.ctx, ast.Load)
        and isinstance(node.value, ast.Name)
        and node.value.id == receiver
    }


_STATEMENT_LISTS = ("body", "orelse", "finalbody", "handlers", "cases")
"""The fields that hold statements (or the handlers and cases whose ``body`` does)."""

_COMPOUND: dict[type[ast.AST], bool] = {}
"""Per kind of statement, whether it holds statements."""
_CLASSES_UNDER: weakref.WeakKeyDictionary[ast.stmt, tuple[ast.ClassDef, ...]] = (
    weakref.WeakKeyDictionary()
)
"""The class statements under each compound top-level statement (itself included). A parse
reuses the nodes of the statements an edit did not touch, never changing what they hold, so
after an edit only the new statements are walked."""


def class_statements(tree: ast.Module) -> list[ast.ClassDef]:
    """Every class statement of the module, at any depth."""
    found: list[ast.ClassDef] = []
    for statement in tree.body:
        kind = type(statement)
        compound = _COMPOUND.get(kind)
        if compound is None:
            compound = _COMPOUND[kind] = any(f in kind._fields for f in _STATEMENT_LISTS)
        if not compound:
            continue  # a simple statement holds no class statement
        under = _CLASSES_UNDER.get(statement)
        if under is None:
            under = _CLASSES_UNDER[statement] = tuple(_classes_under(statement))
        found.extend(under)
    return found


def _classes_under(statement: ast.stmt) -> list[ast.ClassDef]:
    """A class statement is only ever an element of a statement list, so only those are
    walked, never an expression."""
    found: list[ast.ClassDef] = []
    pending: list[ast.AST] = [statement]
    while pending:
        node = pending.pop()
        if isinstance(node, ast.ClassDef):
            found.append(node)
        for field in _STATEMENT_LISTS:
            value = getattr(node, field, None)
            if isinstance(value, list):
                pending.extend(value)
    return found


def _redefined(tree: ast.Module) -> dict[str, frozenset[str]]:
    """For each class name, the members its subclasses (direct or not) define."""
    children: dict[str, list[ast.ClassDef]] = {}
    for node in class_statements(tree):
        for base in base_names(node):
            children.setdefault(base, []).append(node)
    redefined: dict[str, frozenset[str]] = {}
    for name in children:
        members: set[str] = set()
        seen: set[int] = set()
        pending = list(children[name])
        while pending:
            node = pending.pop()
            if id(node) in seen:
                continue
            seen.add(id(node))
            members |= class_members(node)
            pending.extend(children.get(node.name, ()))
        redefined[name] = frozenset(members)
    return redefined
