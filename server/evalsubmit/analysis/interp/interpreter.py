"""The abstract interpreter: the frames it evaluates in, and the walk of a module.

It never imports or runs the user's code. The top level is walked statement by statement, each
one's facts grouped for the incremental caches; function bodies are walked after it, once with
unknown parameters (that is where their findings come from), and evaluated again, silently, when
a call needs their return value (helpers that build runners and configs). Statements,
expressions, calls, imports, the user's objects and annotations are handled by collaborators;
this class is the :class:`~.machine.Machine` they share (:mod:`.machine` says how they meet).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from evalsubmit.analysis.interp.annotated import annotated_value
from evalsubmit.analysis.interp.binding import bind_parameters
from evalsubmit.analysis.interp.calls import Calls, is_generator
from evalsubmit.analysis.interp.expressions import Expressions
from evalsubmit.analysis.interp.facts import FactGroup, ModuleFacts
from evalsubmit.analysis.interp.grouping import DependencyLog, Grouping
from evalsubmit.analysis.interp.imports import ImportResolver, Imports
from evalsubmit.analysis.interp.machine import (
    MAX_CALL_DEPTH,
    CallSite,
    Frame,
    FrameSwitch,
    FunctionNode,
)
from evalsubmit.analysis.interp.objects import Objects, is_classmethod, is_static
from evalsubmit.analysis.interp.statements import Statements, bound_names
from evalsubmit.analysis.interp.testcode import TestCode
from evalsubmit.analysis.report import internal_error
from evalsubmit.analysis.source.parse import ParsedModule
from evalsubmit.analysis.values.domain import (
    NEVER_RETURNS,
    CallArgs,
    ClassValue,
    FunctionValue,
    Instance,
    Known,
    Unknown,
    Value,
)
from evalsubmit.analysis.values.env import Env, ModuleScope, ModuleSource
from evalsubmit.analysis.values.journal import sealed
from evalsubmit.core.findings import Walk


@dataclass(frozen=True, slots=True)
class Deferred:
    """A function body to walk after the top level: its enclosing scope, the top-level
    statement that defines it (its cache group) and, for a method, its class."""

    function: FunctionNode
    parent: Env
    owner: int
    cls: ClassValue | None


class Interpreter:
    """One module's walk: the machine its collaborators share, and the order of the walk
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
    ) -> None:
        self._source = ModuleSource(parsed, path, module_name)
        self._module_env = Env()
        self.frame = Frame(
            env=self._module_env, source=self._source, collect=collect, defer=collect
        )
        """The frame being evaluated in (``Machine.frame``): a plain attribute, not a property,
        because collaborators read it tens of thousands of times per analysis."""
        self._facts = ModuleFacts()
        self._dependencies = DependencyLog()
        self._grouping = grouping
        self._deferred: list[Deferred] = []
        self._owner = -1
        self.groups: list[FactGroup] = []
        self.internal_errors: list[str] = []
        """Statements the interpreter failed on (engine bugs), each with its line and error."""
        self._expressions = Expressions(self)
        # Machine.eval and .call are the collaborators' own methods, not methods forwarding to
        # them: ~28k evaluations per cold analysis of a 5,000-line job go through them
        self.eval: Callable[[ast.expr], Value] = self._expressions.eval
        self._calls = Calls(self)
        self.call: Callable[[ast.Call], Value] = self._calls.call
        self._imports = Imports(self, resolver)
        self._objects = Objects(self)
        self._tests = TestCode(self, resolver)
        self._statements = Statements(self)

    # ----- what collaborators see (machine.Machine) ----------------------------------------

    @property
    def source(self) -> ModuleSource:
        return self._source

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

    def statement(self, node: ast.stmt) -> None:
        self._statements.statement(node)

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
        return FrameSwitch(self, replace(self.frame, collect=False))

    def enter(self, frame: Frame) -> FrameSwitch:
        return FrameSwitch(self, frame)

    def evaluate_call(
        self, function: FunctionValue, values: dict[str, Value], *, site: CallSite | None = None
    ) -> Value:
        """The value a call of ``function`` returns, its body walked with ``values`` bound; the
        return annotation's value when it is not one known value. With a ``site`` whose walk
        is set while facts are recorded, the walk records them too, labelled with it;
        otherwise it is silent."""
        returns: list[Value] = []
        end = self._call(function, values, returns, site)
        if not returns and end.ended in {"raise", "endless"} and not is_stub(function.node):
            return Unknown(NEVER_RETURNS)  # every path raised: the statement making it ends
        if len(returns) == 1 and not isinstance(returns[0], Unknown):
            return returns[0]
        return self.declared_return(function)

    def declared_return(self, function: FunctionValue) -> Value:
        """The value of ``function``'s return annotation, read in its own module."""
        node = function.node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or node.returns is None:
            return Unknown("a parameter")
        frame = replace(
            self.frame,
            env=Env(parent=function.closure or self._module_env),
            source=function.module or self.frame.source,
        )
        with self.enter(frame):
            return self.annotated_value(node.returns)

    def walk_body(
        self, function: FunctionValue, values: dict[str, Value], *, site: CallSite | None = None
    ) -> Env:
        return self._call(function, values, [], site, propagate=False)

    def fixture_value(self, fixture: FunctionValue, values: dict[str, Value]) -> Value:
        """What a fixture gives a test (its return, or its first ``yield``); also what a
        ``@contextmanager`` function gives ``with ... as name``."""
        definition = fixture.node
        if not isinstance(definition, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return Unknown("a fixture")
        if fixture.bound_self is not None:
            parameters = [*definition.args.posonlyargs, *definition.args.args]
            values = {parameters[0].arg: fixture.bound_self, **values} if parameters else values
        returns: list[Value] = []
        lines = fixture.module.parsed.lines if fixture.module is not None else None
        self._call(fixture, values, returns, None, yields=is_generator(definition, lines))
        if len(returns) == 1 and not isinstance(returns[0], Unknown):
            return returns[0]
        return self.declared_return(fixture)

    def _call(
        self,
        function: FunctionValue,
        values: dict[str, Value],
        returns: list[Value],
        site: CallSite | None,
        *,
        yields: bool = False,
        propagate: bool = True,
    ) -> Env:
        """Walk ``function``'s body, in its own module and scope, with ``values`` bound."""
        definition = function.node
        if definition is None:
            return Env()
        if self.frame.depth >= MAX_CALL_DEPTH or id(definition) in self.frame.active:
            return Env()
        walk = site.walk if site is not None else None
        record = walk is not None and self.frame.collect
        caller = self.frame.env
        frame = Frame(
            env=Env(parent=function.closure or self._module_env),
            source=function.module or self.frame.source,
            collect=record,
            defer=False,
            returns=returns,
            yields=yields,
            depth=self.frame.depth + 1,
            active=self.frame.active | {id(definition)},
            context=(*self.frame.context, walk) if record and walk else self.frame.context,
            owner=function.owner,
            receiver=_first_argument(definition, values) if function.owner is not None else None,
            passed=dict(site.passed) if site is not None else {},
        )
        failures = len(self.internal_errors)
        with self.enter(frame):
            bind_parameters(self, definition.args, values)
            if isinstance(definition, ast.Lambda):
                returns.append(self.eval(definition.body))
            else:
                self._statements.walk(definition.body)
                end = frame.env
                sure = not end.opaque and len(self.internal_errors) == failures
                if not yields and end.ended is None and sure:
                    returns.append(Known(None))  # a path falls off the end: it returns None
                if not sure and end.ended is not None and not returns:
                    end.ended = None  # an opaque call or an engine bug: not sure it raised
        if propagate:
            # attributes it stored on objects it was given are the caller's to see
            caller.names.update((k, v) for k, v in frame.env.bindings.items() if k.startswith("@"))
        return frame.env

    def generic_instance(self, cls: ClassValue) -> Instance:
        return self._objects.generic_self(cls)

    def user_attribute(self, base: Instance, name: str) -> Value | None:
        return self._objects.attribute(base, name)

    def construct(self, instance: Instance, args: CallArgs, node: ast.Call) -> None:
        self._objects.construct(instance, args, node)

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
        for name in bound_names(node):
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
        """One definition's function bodies are walked as if alone: what they change in
        module-level values, generic instances and fixtures is undone afterwards (a body walk
        is not a call; whether and when it runs is not known)."""
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
        first_error = len(self.internal_errors)
        self._dependencies.log = read
        try:
            yield lambda group: group.recorded(
                frozenset(read), tuple(self.internal_errors[first_error:])
            )
        finally:
            self._dependencies.log = None

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
            with self._recording() as record, self._sealed():
                while pending:
                    self._walk_function_body(pending.pop(0))
                    pending.extend(self._deferred)
                    self._deferred = []
            self.groups.append(record(FactGroup(key, self._facts, owner, "bodies")))

    def _walk_function_body(self, deferred: Deferred) -> None:
        """A body walked with unknown arguments, or, for a pytest test or fixture, with its
        fixtures and once per parametrize case; a method's ``self`` is its class's generic
        instance (``cls`` the class)."""
        function = deferred.function
        values: dict[str, Value] = {}
        parameters = [*function.args.posonlyargs, *function.args.args]
        cls = deferred.cls
        if cls is not None and parameters and not is_static(function.decorator_list):
            classmethod_ = is_classmethod(function.decorator_list)
            values[parameters[0].arg] = cls if classmethod_ else self._objects.generic_self(cls)
        plan = self._tests.plan(function, cls)
        cases: list[tuple[Walk | None, dict[str, Value]]] = [(None, {})]
        if plan is not None:
            values.update(plan.fixtures)
            cases = plan.cases
        receiver = values.get(parameters[0].arg) if cls is not None and parameters else None
        for walk, case in cases:
            frame = replace(
                self.frame, env=Env(parent=deferred.parent), owner=cls, receiver=receiver
            )
            if walk is not None:
                frame = replace(frame, context=(*frame.context, walk))
            with self.enter(frame):
                bind_parameters(self, function.args, {**values, **case})
                self._statements.walk(function.body)


def is_stub(node: ast.AST | None) -> bool:
    """A body that only raises ``NotImplementedError`` (an abstract method, a placeholder a
    subclass or a later version fills in): its declared return type stands for it."""
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    body = node.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the docstring
    if len(body) != 1 or not isinstance(body[0], ast.Raise) or body[0].exc is None:
        return False
    raised = body[0].exc.func if isinstance(body[0].exc, ast.Call) else body[0].exc
    return isinstance(raised, ast.Name) and raised.id == "NotImplementedError"


def _first_argument(
    definition: FunctionNode | ast.Lambda, values: dict[str, Value]
) -> Value | None:
    parameters = [*definition.args.posonlyargs, *definition.args.args]
    return values.get(parameters[0].arg) if parameters else None
