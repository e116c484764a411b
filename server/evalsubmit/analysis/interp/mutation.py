"""What a module's statements may change without naming it, for the incremental caches.

The incremental analyzer keys cached results by the statements they can depend on, and after an
edit walks only the statements the changed ones depend on (:mod:`..engine.caches`); both are
only as sound as these reads and writes, so every doubt counts as a dependency. A statement
that may change an object without naming it (through an alias, a helper that changes its
argument, a method of a user object, ``setattr``/``globals()``, an attribute assignment that
makes construction-time attributes untrusted module-wide) writes the pseudo-name
:data:`MUTATION`, which every statement reads. What counts as non-mutating is a short list: the
standard library's and the SDK's functions, builtins, the module's own helpers whose bodies
change nothing they did not create (and those of a sibling module imported by name), and methods
of objects those build.
"""

from __future__ import annotations

import builtins
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import chain, compress
from operator import attrgetter

from evalsubmit.analysis.interp.asked_names import AskedNames, asked_names
from evalsubmit.analysis.interp.effects import MUTATING_METHODS, Callee, Effects
from evalsubmit.analysis.interp.row_index import Edited, reindexed
from evalsubmit.core.records import record

MUTATION = "*mutation"
"""Written by every statement that may change an object without naming it; read by all."""

_PURE_BUILTINS = frozenset(
    {
        *("print", "len", "str", "int", "float", "bool", "bytes", "complex", "repr", "format"),
        *("list", "dict", "set", "tuple", "frozenset", "range", "sorted", "reversed"),
        *("enumerate", "zip", "map", "filter", "min", "max", "sum", "any", "all", "abs"),
        *("round", "isinstance", "issubclass", "hash", "id", "type", "getattr", "hasattr"),
        *("callable", "chr", "ord", "hex", "bin", "oct", "divmod", "pow", "open", "object"),
        *("property", "staticmethod", "classmethod", "super", "slice", "ascii", "memoryview"),
    }
) & frozenset(dir(builtins))
_PURE_MODULES = frozenset(
    {
        *("os", "sys", "json", "logging", "pathlib", "datetime", "time", "math", "re"),
        *("functools", "itertools", "collections", "typing", "dataclasses", "enum", "uuid"),
        *("random", "string", "textwrap", "argparse", "subprocess", "shutil", "tempfile"),
        *("copy", "operator", "warnings", "asyncio", "contextlib", "threading", "io"),
        *("decimal", "fractions", "ipaddress", "hashlib", "base64", "glob", "fnmatch", "csv"),
        *("pytest", "unittest", "typing_extensions", "__future__", "abc", "inspect"),
    }
)
"""Top-level packages whose functions never change the user's objects in the interpreter's
model (the SDK's packages, ``nemo*``, too)."""


@record
class Resolved:
    reads: list[frozenset[str]]
    writes: list[frozenset[str]]
    context: tuple[object, ...] = ()
    """What every statement's reads and writes were resolved under: the non-mutating answer
    (the same object while it holds), the fixtures' names and, when a statement is dynamic,
    every name bound. Under the same context, a statement's depend on its effects alone."""
    binders: dict[str, list[int]] | None = None
    """The statements binding each name (ascending)."""


Since = tuple[Sequence[Effects], Resolved, Edited]
"""The last resolution of the same module: its effects, what they resolved to, and the edit."""


@dataclass(slots=True)
class NonMutatingMemo:
    """One document's last answer on what is non-mutating, and what it was reached from.

    A verdict is asked only about names some statement calls, calls a method of, or takes a
    value from (``Effects.asked``), and it depends only on the statements binding those names
    (and on what sibling modules say of the ones imported from them). While those are the same,
    the answer is: an edit that inserts or removes ``z = 1`` (or any statement binding a
    name nobody asks about) keeps them, and the module-wide resolution after it skips their
    fixed points (most of that resolution's time)."""

    basis: _Basis | None = None
    non_mutating: _NonMutating | None = None
    asked: AskedNames | None = None
    """The names asked about and their binding statements the basis was made of."""


def resolve(
    found: Sequence[Effects],
    sibling: Sibling | None = None,
    kept: NonMutatingMemo | None = None,
    since: Since | None = None,
) -> Resolved:
    """The reads and writes of a module's statements, :data:`MUTATION` included (``sibling``
    tells what names imported from the project's other modules are; ``kept``: the document's
    last answer, reused when they still hold, and updated; ``since``: the last resolution,
    whose rows stand for the statements the edit left alone when the context is the same)."""
    if since is not None and not _same_outside(found, since):
        since = None  # an edit elsewhere than said: nothing is taken from the last resolution
    if since is not None and (last_binders := since[1].binders) is not None:
        old, _, (first, stop, new_stop) = since
        removed = [statement.binds for statement in old[first:stop]]
        added = [statement.binds for statement in found[first:new_stop]]
        binders = reindexed(last_binders, removed, added, first, stop, new_stop - stop)
    else:
        binders = _binders(found)
    if kept is None:
        non_mutating = _non_mutating(found, binders, sibling)
    else:
        if sibling is not None:  # the basis asks the siblings, and a miss asks them again
            sibling = functools.cache(sibling)
        last = (since[0], since[2]) if since is not None else None
        kept.asked = asked_names(found, binders, kept.asked, last)
        basis = _basis(found, kept.asked, sibling)
        if kept.non_mutating is None or not _still_holds(kept.non_mutating, kept.basis, basis):
            kept.non_mutating = _non_mutating(found, binders, sibling)
        kept.basis, non_mutating = basis, kept.non_mutating
    # (passes over every statement, at C speed)
    fixtures = frozenset[str]().union(*map(_BINDS, compress(found, map(_FIXTURE, found))))
    every = frozenset(binders) if any(map(_DYNAMIC, found)) else frozenset()
    context = (non_mutating, fixtures, every)
    if since is not None and _same_context(since[1].context, context):
        return _spliced(found, since, context, binders)
    reads: list[frozenset[str]] = []
    writes: list[frozenset[str]] = []
    for statement in found:
        read, written = _row(statement, non_mutating, fixtures, every)
        reads.append(read)
        writes.append(written)
    return Resolved(reads, writes, context, binders)


def _row(
    statement: Effects, non_mutating: _NonMutating, fixtures: frozenset[str], every: frozenset[str]
) -> tuple[frozenset[str], frozenset[str]]:
    """One statement's reads and writes (``every``: the names bound, when one is dynamic)."""
    mutates = (
        statement.stores
        or statement.dynamic
        or statement.volatile
        or not all(non_mutating.callee(callee) for callee in statement.calls)
    )
    read = statement.reads | {MUTATION}
    if statement.dynamic:
        read |= every
    if fixtures and statement.definition:
        read |= fixtures  # a test or fixture may request any of them by parameter name
    return read, statement.writes | {MUTATION} if mutates else statement.writes


def _same_outside(found: Sequence[Effects], since: Since) -> bool:
    """Whether the statements outside the edit of ``since`` have the same effects as there
    (compared by identity first: those of unchanged statement texts are the same objects)."""
    old, last, (first, stop, new_stop) = since
    return (
        0 <= first <= min(stop, new_stop)
        and stop <= len(old) == len(last.reads)
        and len(old) - stop == len(found) - new_stop
        and old[:first] == found[:first]
        and old[stop:] == found[new_stop:]
    )


def _same_context(before: tuple[object, ...], context: tuple[object, ...]) -> bool:
    # (the answers compared by identity: one kept while it holds is the same object)
    return len(before) == len(context) and before[0] is context[0] and before[1:] == context[1:]


def _spliced(
    found: Sequence[Effects],
    since: Since,
    context: tuple[_NonMutating, frozenset[str], frozenset[str]],
    binders: dict[str, list[int]],
) -> Resolved:
    """The last resolution with the edited statements' rows made anew (the caller checked
    that nothing else can differ: the same context, the same effects outside the edit)."""
    _, last, (first, stop, new_stop) = since
    non_mutating, fixtures, every = context
    rows = [_row(statement, non_mutating, fixtures, every) for statement in found[first:new_stop]]
    reads = [*last.reads[:first], *(read for read, _ in rows), *last.reads[stop:]]
    writes = [*last.writes[:first], *(written for _, written in rows), *last.writes[stop:]]
    return Resolved(reads, writes, context, binders)


_BINDS, _FIXTURE, _DYNAMIC = attrgetter("binds"), attrgetter("fixture"), attrgetter("dynamic")
_ASKED, _IMPORTS = attrgetter("asked"), attrgetter("imports")


@dataclass(slots=True)
class _NonMutating:
    names: set[str]
    """Callables that change no object of the user's (imports of the standard library or
    the SDK, builtins, the module's own helpers that only build and return values)."""
    objects: set[str]
    """Names bound only to values those build (a client, a logger): their methods are
    the SDK's or the standard library's."""
    helpers: frozenset[str] = frozenset()
    """The module's own functions found non-mutating by their bodies (in ``names`` too)."""
    bound: frozenset[str] = frozenset()
    """The names the module bound when this was found."""

    def callee(self, callee: Callee, local: _Locals | None = None) -> bool:
        bound, objects = (local.bound, local.objects) if local is not None else ((), ())
        if callee[0] == "name":
            return callee[1] not in bound and callee[1] in self.names
        if callee[0] == "attr":
            base, method = callee[1], callee[2]
            if method in MUTATING_METHODS:
                return False
            if base in bound:
                return base in objects
            return base in self.names or base in self.objects
        return False

    def body(self, statement: Effects) -> bool:
        """Whether a helper's body calls only non-mutating code (its own locals bound to what
        non-mutating code built count as non-mutating objects)."""
        local = _Locals({name for name, _ in statement.body_values}, set())
        values: dict[str, list[Callee | None]] = {}
        for name, origin in statement.body_values:
            values.setdefault(name, []).append(origin)
        changed = True
        while changed:
            changed = False
            for name, origins in values.items():
                if name not in local.objects and all(
                    o is not None and self.built_by(o, local) for o in origins
                ):
                    local.objects.add(name)
                    changed = True
        return all(self.callee(c, local) for c in statement.body_calls)

    def built_by(self, origin: Callee, local: _Locals | None = None) -> bool:
        if origin[0] == "value":  # ``x = a.b.c``: an attribute of a non-mutating object
            name = origin[1]
            if local is not None and name in local.bound:
                return name in local.objects
            return name in self.names or name in self.objects
        return self.callee(origin, local)


@dataclass(slots=True)
class _Locals:
    bound: set[str]
    objects: set[str]


def _non_mutating(
    found: Sequence[Effects], binders: dict[str, list[int]], sibling: Sibling | None
) -> _NonMutating:
    only = {name: [found[i] for i in where] for name, where in binders.items()}
    names = {n for n in _PURE_BUILTINS if n not in only}
    objects: set[str] = set()
    for name, statements in only.items():
        if _pure(statements, name):
            names.add(name)
        elif sibling is not None and (imported := _from_sibling(statements, name)) is not None:
            callable_, object_ = sibling(*imported)
            if callable_:
                names.add(name)
            elif object_:
                objects.add(name)
    non_mutating = _NonMutating(names, objects)
    changed = True
    while changed:  # names bound to what non-mutating callables build, through attributes too
        changed = False
        for name, statements in only.items():
            if name in non_mutating.objects or name in non_mutating.names:
                continue
            built = non_mutating.built_by
            if all(s.value_of is not None and built(s.value_of) for s in statements):
                non_mutating.objects.add(name)
                changed = True
    helpers = {
        name
        for name, statements in only.items()
        if len(statements) == 1 and not statements[0].body_stores and name not in names
    }
    names |= helpers
    changed = True
    while changed:  # a helper is non-mutating when everything it calls is
        changed = False
        for name in sorted(helpers):
            if not non_mutating.body(only[name][0]):
                helpers.discard(name)
                names.discard(name)
                changed = True
    non_mutating.helpers, non_mutating.bound = frozenset(helpers), frozenset(only)
    return non_mutating


_Basis = tuple[frozenset[str], dict[str, tuple[Effects, ...]], dict[str, tuple[bool, bool]]]


def _still_holds(answer: _NonMutating, old: _Basis | None, new: _Basis) -> bool:
    """Whether ``answer``, reached from the basis ``old``, is also the answer from ``new``.

    It is when the bases are equal. A name asked about anew that the module does not bind (a
    builtin such as ``len`` in a line just typed) is answered by what it is, as long as the
    module did not bind it when ``answer`` was found either. A name bound anew is all right
    when it is a helper found non-mutating whose new body is still non-mutating under
    ``answer`` (an edit inside a helper that calls nothing new): ``answer`` is then still the
    greatest fixed point. Any set of helpers that holds together under the new bodies, joined
    with ``answer``, would have held under the old ones (the one body that changed is
    non-mutating under ``answer`` in both), so it is inside ``answer``. Names bound anew
    otherwise (a helper found mutating, a value, an import) make the caller resolve from
    scratch."""
    if old == new:
        return True
    if not isinstance(old, tuple):
        return False
    asked, bound, said = new
    old_asked, old_bound, old_said = old
    if said != old_said or bound.keys() != old_bound.keys():
        return False
    if not answer.bound.isdisjoint(asked - old_asked):
        return False
    rebound = [name for name, statements in bound.items() if old_bound[name] != statements]
    return all(
        name in answer.helpers
        and len(bound[name]) == 1
        and _helper_shaped(bound[name][0])
        and answer.body(bound[name][0])
        for name in rebound
    )


def _helper_shaped(statement: Effects) -> bool:
    """A function definition whose body the helpers' fixed point judges (no import, no
    value of another kind, nothing it changes that it did not create)."""
    return not statement.body_stores and not statement.imports and statement.value_of is None


def _basis(found: Sequence[Effects], names: AskedNames, sibling: Sibling | None) -> _Basis:
    """What the answers anyone asks for are reached from: the names asked about, the
    statements binding each (compared by identity first: those of unchanged statement texts
    are the same objects), and what the sibling modules say of those imported from them."""
    asked, bound = names.asked, names.bound
    said: dict[str, tuple[bool, bool]] = {}
    if sibling is not None:
        # only a name an import binds can be a sibling's (most names are bound otherwise)
        imported = {entry[0] for entry in chain.from_iterable(map(_IMPORTS, found))}
        for name in sorted(imported & bound.keys()):
            statements = bound[name]
            if not _pure(statements, name) and (origin := _from_sibling(statements, name)):
                said[name] = sibling(*origin)
    return asked, bound, said


def _pure(statements: Sequence[Effects], name: str) -> bool:
    """``name`` is bound only by imports of the standard library or the SDK."""
    return all(s.imports and _pure_import(s, name) for s in statements)


def _from_sibling(statements: Sequence[Effects], name: str) -> tuple[str, int, str] | None:
    """(module, level, name) when ``name`` is bound once, by ``from module import name``."""
    if len(statements) != 1:
        return None
    origin = [i for i in statements[0].imports if i[0] == name and i[2]]
    if len(origin) != 1:
        return None
    _, module, original, level = origin[0]
    return module, level, original


def _pure_import(statement: Effects, name: str) -> bool:
    packages = [
        module.split(".")[0]
        for bound, module, _, level in statement.imports
        if bound == name and not level
    ]
    return bool(packages) and all(p in _PURE_MODULES or p.startswith("nemo") for p in packages)


Sibling = Callable[[str, int, str], tuple[bool, bool]]
"""(module, level, name) of a ``from module import name`` -> whether that name is a non-mutating
callable, and whether it is a non-mutating object, in that module (both False when unknown)."""


def non_mutating_names(found: Sequence[Effects]) -> tuple[frozenset[str], frozenset[str]]:
    """A module's non-mutating callables and objects (its own imports of other modules of the
    project count as unknown: one level only, so a verdict depends on this text alone)."""
    non_mutating = _non_mutating(found, _binders(found), None)
    return frozenset(non_mutating.names), frozenset(non_mutating.objects)


def _binders(found: Sequence[Effects]) -> dict[str, list[int]]:
    """Each name the statements bind, with the indices of the statements binding it."""
    binders: dict[str, list[int]] = {}
    for index, statement in enumerate(found):
        for name in statement.binds:
            binders.setdefault(name, []).append(index)
    return binders
