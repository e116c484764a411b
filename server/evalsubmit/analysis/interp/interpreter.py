"""The abstract interpreter: the frames it evaluates in, and the walk of a module.

It never imports or runs the user's code. The top level is walked statement by statement, each
one's facts grouped for the incremental caches; function bodies are walked after it, once with
unknown parameters (that is where their findings come from), and evaluated again, silently, when
a call needs their return value (helpers that build runners and configs). Statements,
expressions, calls, imports, the user's objects and annotations are handled by its parts, each
handed this interpreter; which part handles which kind of node is :mod:`.dispatch`.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

from evalsubmit.analysis.interp.annotated import annotated_value
from evalsubmit.analysis.interp.binding import (
    bind_parameters,
    first_parameter,
    rebound_globals,
    rebound_locals,
)
from evalsubmit.analysis.interp.calls import Calls
from evalsubmit.analysis.interp.dispatch import EXPRESSIONS, PATTERNS, STATEMENTS
from evalsubmit.analysis.interp.expressions import Expressions
from evalsubmit.analysis.interp.facts import FactGroup, ModuleFacts
from evalsubmit.analysis.interp.frames import (
    Frame,
    FrameSwitch,
    FunctionNode,
)
from evalsubmit.analysis.interp.grouping import DependencyLog, Grouping
from evalsubmit.analysis.interp.imports import ImportResolver, Imports
from evalsubmit.analysis.interp.matching import CaseMatch
from evalsubmit.analysis.interp.objects import Objects, is_classmethod, is_static
from evalsubmit.analysis.interp.statement_nodes import names_bound_in
from evalsubmit.analysis.interp.statements import Statements
from evalsubmit.analysis.interp.testcode import TestCode
from evalsubmit.analysis.report import Question, internal_error
from evalsubmit.analysis.source.parse import ParsedModule
from evalsubmit.analysis.values.domain import Instance, Known, Origin, Unknown, Value
from evalsubmit.analysis.values.env import Env, ModuleScope, ModuleSource
from evalsubmit.analysis.values.objects import CallArgs, ClassValue, UserClass
from evalsubmit.analysis.values.store import sealed
from evalsubmit.core.findings import Occasion, Span
from evalsubmit.core.records import Record


class Deferred(Record):
    """A function body to walk after the top level: its enclosing scope, the top-level
    statement that defines it (its cache group) and, for a method, its class."""

    __slots__ = ("cls", "function", "owner", "parent")
    function: Final[FunctionNode]
    parent: Final[Env]
    owner: Final[int]
    cls: Final[ClassValue | None]

    def __init__(
        self, function: FunctionNode, parent: Env, owner: int, cls: ClassValue | None
    ) -> None:
        self.function = function
        self.parent = parent
        self.owner = owner
        self.cls = cls


class Interpreter:
    """One module's walk: the interpreter its parts share, and the order of the walk
    (top level, then deferred function bodies, grouped for the caches)."""

    def __init__(
        self,
        parsed: ParsedModule,
        *,
        path: Path | None,
        module_name: str,
        resolver: ImportResolver | None,
        collect: bool,
        grouping: Grouping | None = None,
        imported: bool = False,
    ) -> None:
        self._source = ModuleSource(parsed, path, module_name)
        # __name__: an imported module's is its name; the analysed file may be a script too
        self.run_name: Value = (
            Known(module_name) if imported else Unknown("__main__ or the module's name", "str")
        )
        self._module_env = Env(rebound=rebound_globals(parsed))
        self.frame = Frame(
            env=self._module_env, source=self._source, collect=collect, defer=collect
        )
        """The frame being evaluated in (every part reads it): a plain attribute, not a property,
        because collaborators read it tens of thousands of times per analysis."""
        self._facts = ModuleFacts()
        self._dependencies = DependencyLog()
        self._grouping = grouping
        self._deferred: list[Deferred] = []
        self._owner = -1
        self.top_level = True
        """The module's top level is being walked (then its deferred function bodies)."""
        self.groups: list[FactGroup] = []
        self.internal_errors: list[str] = []
        """Statements the interpreter failed on (engine bugs), each with its line and error."""
        self._expressions = Expressions(self)
        self._calls = Calls(self)
        # the collaborator's own method, not a method forwarding to it: ~28k evaluations per
        # cold analysis of a 5,000-line job go through it
        self.call: Callable[[ast.Call], Value] = self._calls.call
        self.awaited: Callable[[ast.Call], Value] = self._calls.awaited
        self._imports = Imports(self, resolver)
        self._objects = Objects(self, resolver)
        self._tests = TestCode(self, resolver)
        self._statements = Statements(self)
        self.walk: Callable[[list[ast.stmt]], None] = self._statements.walk
        """Walk a block in flow order, up to the statement that ends its path."""

    # ----- what the parts ask of the interpreter ---------------------------------------------

    @property
    def source(self) -> ModuleSource:
        return self._source

    def origin(self, node: ast.AST) -> Origin:
        """Where ``node`` is, in the module whose code is being walked (a helper's own)."""
        return self.frame.source.origin(node)

    def span(self, node: ast.AST) -> Span:
        return self.frame.source.span(node)

    @property
    def home(self) -> Path | None:
        return self._source.path

    @property
    def facts(self) -> ModuleFacts:
        return self._facts

    @property
    def module_env(self) -> Env:
        return self._module_env

    @property
    def dependencies(self) -> DependencyLog:
        """Sibling modules read to resolve imports (and the texts read)."""
        return self._dependencies

    def apply(self, function: Value, node: ast.Call, args: CallArgs) -> Value:
        return self._calls.apply(function, node, args, {})

    def import_value(self, qualname: str) -> Value:
        return self._imports.import_value(qualname)

    def annotated_value(self, annotation: ast.expr | None) -> Value:
        return annotated_value(self, annotation)

    # ----- dispatch: which part handles which kind of node is in dispatch.py --------------

    def eval(self, node: ast.expr) -> Value:
        """The value of an expression in the current frame."""
        try:
            return EXPRESSIONS[type(node)](self._expressions, node)
        except RecursionError:
            return Unknown("expression too deeply nested")

    def call_of(self, node: ast.Call, function: Value) -> Value:
        """The value of the call ``node`` whose function was evaluated to ``function`` (a
        decorator factory, read once)."""
        try:
            return self._calls.call(node, function)
        except RecursionError:
            return Unknown("expression too deeply nested")

    def statement(self, node: ast.stmt) -> None:
        """Walk one statement in the current frame (a class body is walked statement by
        statement)."""
        STATEMENTS[type(node)](self._statements, node)

    def match_pattern(self, pattern: ast.pattern, subject: Value) -> CaseMatch:
        """What a ``match`` pattern says of a subject with this value."""
        return PATTERNS[type(pattern)](self, pattern, subject)

    def import_names(self, node: ast.Import | ast.ImportFrom) -> None:
        if isinstance(node, ast.Import):
            self._imports.import_statement(node)
        else:
            self._imports.import_from(node)

    def defer(self, function: FunctionNode, parent: Env, cls: ClassValue | None) -> None:
        self._deferred.append(Deferred(function, parent, self._owner, cls))

    def scope(self, env: Env) -> FrameSwitch:
        return FrameSwitch(self, self.frame.with_env(env))

    def silent(self) -> FrameSwitch:
        return FrameSwitch(self, self.frame.silenced())

    def enter(self, frame: Frame) -> FrameSwitch:
        return FrameSwitch(self, frame)

    def overridden(self, cls: UserClass, member: str) -> bool:
        """Whether a subclass of ``cls`` (in the module, or in another file of the project
        when ``cls`` defines ``member``) may define ``member`` again."""
        return self._objects.overridden(cls, member)

    def generic_instance(self, cls: ClassValue) -> Instance:
        return self._objects.generic_self(cls)

    def user_attribute(self, base: Instance, name: str) -> Value | None:
        return self._objects.attribute(base, name)

    def construct(self, instance: Instance, args: CallArgs, node: ast.Call) -> None:
        self._objects.construct(instance, args, node)

    def object_setattr(self, args: CallArgs) -> None:
        self._objects.object_setattr(args)

    def write_attribute(self, owner: Instance | UserClass, name: str, value: Value) -> None:
        self._objects.write_attribute(owner, name, value)

    def checkpoint(self) -> Callable[[], None]:
        facts = self._facts
        lists: tuple[list[Any], ...] = (
            facts.submits,
            facts.constructions,
            facts.runner_bindings,
            facts.workspaces,
        )
        lengths = [len(found) for found in lists]
        deferred, errors = len(self._deferred), len(self.internal_errors)
        returns = self.frame.returns
        returned = len(returns) if returns is not None else 0

        def undo() -> None:
            for found, length in zip(lists, lengths, strict=True):
                del found[length:]
            del self._deferred[deferred:]
            del self.internal_errors[errors:]
            if returns is not None:
                del returns[returned:]

        return undo

    def failed(self, node: ast.stmt, error: Exception) -> None:
        env = self.frame.env
        for name in names_bound_in([node]):
            env.names[name] = Unknown("its statement could not be analysed")
        where = self.frame.source.span(node).line
        self.internal_errors.append(internal_error(f"line {where}", error))

    # ----- the module walk (the entry point) -----------------------------------------------

    def run_module(self) -> ModuleScope:
        body = self._source.parsed.tree.body
        if not self.frame.defer:
            self._statements.walk(body)  # a module-level sys.exit() ends it
        else:
            walk = self._grouping.walk if self._grouping is not None else None
            skipped: list[int] = []
            if walk is not None and self._grouping is not None and self._grouping.sparse:
                for index in sorted(walk):
                    self._owner = index
                    self._walk_top_level(index, body[index])
            else:
                for index, statement in enumerate(body):
                    self._owner = index
                    if walk is not None and index not in walk:
                        self.groups.append(FactGroup(self._key(index, "top"), None, index))
                        skipped.append(index)
                        continue
                    self._walk_top_level(index, statement)
            self.top_level = False
            self._walk_deferred(skipped)
        return ModuleScope(
            self._source.path, self._source.name, self._source.parsed, self._module_env
        )

    def _walk_top_level(self, index: int, statement: ast.stmt) -> None:
        """Each top-level statement is walked every time (it binds what the rest reads); its
        findings come from the cache when nothing it depends on changed (walked silently)."""
        if self._module_env.ended is not None:
            # after a module-level sys.exit(): nothing below runs. Nothing is cached for it
            # (no key), and nothing cached is reused: its facts depend on what came before
            self.groups.append(FactGroup(None, ModuleFacts(), index))
            return
        key = self._key(index, "top")
        if key is not None and self._grouping is not None and key in self._grouping.known:
            with self.silent():
                self._statements.walk([statement])
            self.groups.append(FactGroup(key, None, index))
            return
        self._facts = ModuleFacts()
        with self._recording() as record:
            self._statements.walk([statement])
        self.groups.append(record(FactGroup(key, self._facts, index)))

    @contextmanager
    def _sealed(self) -> Iterator[None]:
        """A function body is walked as if alone: what it changes in module-level values stays
        in its layer, and the generic instances and fixtures it makes are forgotten afterwards
        (a body walk is not a call; whether and when it runs is not known)."""
        forget_instances = self._objects.forget_new()
        forget_fixtures = self._tests.forget_new()
        try:
            with sealed():
                yield
        finally:
            forget_instances()
            forget_fixtures()

    @contextmanager
    def _recording(self) -> Iterator[Callable[[FactGroup], FactGroup]]:
        """Record the sibling modules read and the errors met while walking one group."""
        read: set[Path] = set()
        asked: set[Question] = set()
        first_error = len(self.internal_errors)
        self._dependencies.log = read
        self._dependencies.asking = asked
        try:
            yield lambda group: group.recorded(
                frozenset(read), tuple(self.internal_errors[first_error:]), frozenset(asked)
            )
        finally:
            self._dependencies.log = None
            self._dependencies.asking = None

    def _key(self, owner: int, part: str) -> str | None:
        base = self._grouping.key(owner) if self._grouping is not None else None
        return f"{base}:{part}" if base is not None else None

    def _walk_deferred(self, skipped: list[int]) -> None:
        """Walk function bodies grouped by the top-level statement that defines them, so the
        facts of an unchanged definition can be taken from the cache instead (``skipped``:
        top-level statements not walked, whose bodies' results are cached when they have
        bodies)."""
        by_owner: dict[int, list[Deferred]] = {}
        for deferred in self._deferred:
            by_owner.setdefault(deferred.owner, []).append(deferred)
        self._deferred = []
        known = self._grouping.known if self._grouping is not None else ()
        for owner in skipped:
            if self._key(owner, "bodies") in known:
                by_owner[owner] = []
        for owner in sorted(by_owner):
            pending = by_owner[owner]
            key = self._key(owner, "bodies")
            if key is not None and key in known:
                self.groups.append(FactGroup(key, None, owner, "bodies"))
                continue
            self._facts = ModuleFacts()
            self._owner = owner
            with self._recording() as record:
                for deferred in pending:
                    self._walk_sealed(deferred)
            self.groups.append(record(FactGroup(key, self._facts, owner, "bodies")))

    def _walk_sealed(self, deferred: Deferred) -> None:
        """One body, as if alone: not after its siblings (the methods of a class, the tests of
        a test class: whether and in which order they run is not known, or each starts afresh);
        the functions it defines are walked inside it, seeing what it built."""
        with self._sealed():
            self._walk_function_body(deferred)
            nested, self._deferred = self._deferred, []
            for inner in nested:
                self._walk_sealed(inner)

    def _walk_function_body(self, deferred: Deferred) -> None:
        """A body walked with unknown arguments, or, for a pytest test or fixture, with its
        fixtures and once per parametrize case; a method's ``self`` is its class's generic
        instance (``cls`` the class)."""
        function = deferred.function
        values: dict[str, Value] = {}
        first = first_parameter(function.args)
        cls = deferred.cls
        if cls is not None and first is not None and not is_static(function.decorator_list):
            classmethod_ = is_classmethod(function.decorator_list)
            values[first] = (
                ClassValue(cls.ref, generic=True)
                if classmethod_
                else self._objects.generic_self(cls)
            )
        plan = self._tests.plan(function, cls)
        cases: list[tuple[Occasion | None, dict[str, Value]]] = [(None, {})]
        if plan is not None:
            values.update(plan.fixtures)
            cases = plan.cases
        receiver = values.get(first) if cls is not None and first is not None else None
        # a deferred body is one of this module's own definitions
        rebound = rebound_locals(function, self._source.parsed.spells_nonlocal)
        for walk, case in cases:
            env = Env(parent=deferred.parent, rebound=rebound)
            context = self.frame.context
            if walk is not None:
                context = (*context, walk)
            frame = self.frame.for_body(env, cls, receiver, context)
            with self.enter(frame):
                bind_parameters(self, function.args, {**values, **case})
                self._statements.walk(function.body)
