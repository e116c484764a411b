"""Name environments for the abstract interpreter, with the join used at control-flow merges."""

from __future__ import annotations

import ast
import builtins
from collections.abc import Mapping
from pathlib import Path
from typing import Final

from evalsubmit.analysis.source.parse import ParsedModule
from evalsubmit.analysis.values.domain import Origin, Unknown, Value
from evalsubmit.core.findings import Span
from evalsubmit.core.records import Record


class Env:
    """Local bindings in flow order; ``parent`` is the module scope seen by functions.

    A fork (:meth:`copy`) costs O(1): the fork and the env it came from share one bindings
    table until either binds a name, and the first store on a side copies the table for
    that side only (copy on write), so a store in one branch is never seen by its sibling.
    Reads go through :attr:`bindings` (read-only) or :meth:`lookup`; :attr:`names` is the
    writable table of this env alone."""

    __slots__ = ("_names", "_owned", "ended", "opaque", "parent", "rebound")

    def __init__(
        self,
        names: dict[str, Value] | None = None,
        parent: Env | None = None,
        ended: str | None = None,
        opaque: bool = False,
        rebound: frozenset[str] = frozenset(),
    ) -> None:
        self._names: dict[str, Value] = {} if names is None else names
        self._owned = True
        """False while the table may be shared with a fork: the next store copies it."""
        self.parent = parent
        self.ended = ended
        """Why no path reaches the statements that follow (``return``, ``raise``, ``break``,
        ``continue``), or None while they run: a walk stops there, and a branch that ended
        adds nothing to the join after it."""
        self.opaque = opaque
        """A call we cannot see into was made as a statement on this path: it may not have
        returned (``parser.error(...)``), so falling off the end of the function is not sure."""
        self.rebound = rebound
        """In a module's scope (and its forks): the names some function of the module rebinds
        through ``global``; in a function's, the names a nested function rebinds through
        ``nonlocal``. Read from an inner scope (a function body), such a name is unknown: the
        function may have run before, storing what we cannot tell here."""

    @property
    def bindings(self) -> Mapping[str, Value]:
        """The bindings, to read: never copies."""
        return self._names

    @property
    def names(self) -> dict[str, Value]:
        """The bindings, to change: this env's own table (a shared one is copied first)."""
        if not self._owned:
            self._names = dict(self._names)
            self._owned = True
        return self._names

    def share(self, other: Env) -> None:
        """Take ``other``'s bindings (as they are now) without copying them."""
        self._names = other._names
        self._owned = other._owned = False

    def lookup(self, name: str) -> Value | None:
        env: Env | None = self
        while env is not None:
            found = env._names.get(name)
            if found is not None or name in env._names:
                if env.rebound and env is not self and name in env.rebound:
                    return Unknown(f"{name}, which a function rebinds", None)
                return found
            env = env.parent
        return None

    def copy(self) -> Env:
        fork = Env(self._names, self.parent, self.ended, self.opaque, self.rebound)
        fork._owned = self._owned = False
        return fork

    def join_paths(self, *outcomes: Env, ended_too: bool = False) -> None:
        """Merge the outcomes of branches that started from this env, as Python runs them: a
        branch that ended (returned, raised, left the loop) reaches nothing after the branch
        point; when every branch ended, so does this path. ``ended_too``: the values are
        joined over the ended branches as well (what they left is read elsewhere: the
        functions a script's run called before ``sys.exit()``)."""
        live = [outcome for outcome in outcomes if outcome.ended is None]
        if live:
            self.join(*(outcomes if ended_too else live))
            self.ended = None
            self.opaque = any(outcome.opaque for outcome in live)
        elif outcomes:
            self.ended = outcomes[0].ended

    def keep_bound_on_one_side(self, before: frozenset[str], sides: list[Env]) -> None:
        """After :meth:`join_paths` of ``sides``: a name that one side binds, which no other
        side binds and nothing bound before the branch point, is readable only as that side
        left it (elsewhere the read raises NameError), so it keeps that value, also when the
        side ended: the functions it called read it before it exited. A builtin's name is
        not kept: unbound, it reads the builtin."""
        for side in sides:
            for name, value in side.bindings.items():
                if name in before or hasattr(builtins, name):
                    continue
                if all(name not in other.bindings for other in sides if other is not side):
                    self.names[name] = value

    def join(self, *others: Env) -> None:
        """Merge branches that all started from this env: a name whose value differs between
        branches becomes unknown, because evalsubmit never guesses which branch ran."""
        first_table = others[0]._names if others else None
        if first_table is not None and all(other._names is first_table for other in others):
            self.share(others[0])  # no branch bound anything: the one table is the join
            return
        keys: set[str] = set()
        for other in others:
            keys |= other._names.keys()
        merged: dict[str, Value] = {}
        for key in keys:
            values = [other._names.get(key) for other in others]
            first = values[0]
            if first is not None and all(value is first for value in values):
                merged[key] = first
            else:
                merged[key] = Unknown("bound differently on different paths")
        self._names = merged
        self._owned = True


class ModuleSource(Record):
    """A module's code: its tree, file and dotted name (spans of its nodes, in code points)."""

    __slots__ = ("_origins", "name", "parsed", "path")
    parsed: Final[ParsedModule]
    path: Final[Path | None]
    name: Final[str]
    _origins: Final[dict[ast.AST, Origin]]
    """Origins already made, by node: every evaluation of a node (a body walked once, then
    at each call site) gives its values the same one (origins are immutable). Not a
    parameter: neither compared nor shown."""

    def __init__(self, parsed: ParsedModule, path: Path | None, name: str) -> None:
        self.parsed = parsed
        self.path = path
        self.name = name
        self._origins = {}

    def span(self, node: ast.AST) -> Span:
        return self.parsed.span(node)

    def origin(self, node: ast.AST) -> Origin:
        found = self._origins.get(node)
        if found is None:
            found = self._origins[node] = Origin(self.path, self.parsed.span(node))
        return found


class ModuleScope(Record, hash=False):
    """The final bindings of one module after walking its top level."""

    __slots__ = ("env", "name", "parsed", "path")
    path: Path | None
    name: str
    parsed: ParsedModule
    env: Env

    def __init__(self, path: Path | None, name: str, parsed: ParsedModule, env: Env) -> None:
        self.path = path
        self.name = name
        self.parsed = parsed
        self.env = env
