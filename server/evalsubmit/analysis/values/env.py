"""Name environments for the abstract interpreter, with the join used at control-flow merges."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

from evalsubmit.analysis.source.parse import ParsedModule
from evalsubmit.analysis.values.domain import Origin, Unknown, Value
from evalsubmit.core.findings import Span


@dataclass(slots=True)
class Env:
    """Local bindings in flow order; ``parent`` is the module scope seen by functions."""

    names: dict[str, Value] = field(default_factory=dict)
    parent: Env | None = None
    ended: str | None = None
    """Why no path reaches the statements that follow (``return``, ``raise``, ``break``,
    ``continue``), or None while they run: a walk stops there, and a branch that ended
    adds nothing to the join after it."""
    opaque: bool = False
    """A call we cannot see into was made as a statement on this path: it may not have
    returned (``parser.error(...)``), so falling off the end of the function is not sure."""

    def lookup(self, name: str) -> Value | None:
        env: Env | None = self
        while env is not None:
            if name in env.names:
                return env.names[name]
            env = env.parent
        return None

    def copy(self) -> Env:
        return Env(dict(self.names), self.parent, self.ended, self.opaque)

    def join_paths(self, *outcomes: Env) -> None:
        """Merge the outcomes of branches that started from this env, as Python runs them: a
        branch that ended (returned, raised, left the loop) reaches nothing after the branch
        point; when every branch ended, so does this path."""
        live = [outcome for outcome in outcomes if outcome.ended is None]
        if live:
            self.join(*live)
            self.ended = None
            self.opaque = any(outcome.opaque for outcome in live)
        elif outcomes:
            self.ended = outcomes[0].ended

    def join(self, *others: Env) -> None:
        """Merge branches that all started from this env: a name whose value differs between
        branches becomes unknown, because evalsubmit never guesses which branch ran."""
        keys: set[str] = set()
        for other in others:
            keys |= other.names.keys()
        merged: dict[str, Value] = {}
        for key in keys:
            values = [other.names.get(key) for other in others]
            first = values[0]
            if first is not None and all(value is first for value in values):
                merged[key] = first
            else:
                merged[key] = Unknown("bound differently on different paths")
        self.names = merged


@dataclass(frozen=True, slots=True)
class ModuleSource:
    """A module's code: its tree, file and dotted name (spans of its nodes, in code points)."""

    parsed: ParsedModule
    path: Path | None
    name: str
    _origins: dict[ast.AST, Origin] = field(default_factory=dict, compare=False, repr=False)
    """Origins already made, by node: every evaluation of a node (a body walked once, then
    at each call site) gives its values the same one (origins are immutable)."""

    def span(self, node: ast.AST) -> Span:
        return self.parsed.span(node)

    def origin(self, node: ast.AST) -> Origin:
        found = self._origins.get(node)
        if found is None:
            found = self._origins[node] = Origin(self.path, self.parsed.span(node))
        return found


@dataclass(slots=True)
class ModuleScope:
    """The final bindings of one module after walking its top level."""

    path: Path | None
    name: str
    parsed: ParsedModule
    env: Env
