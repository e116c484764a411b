"""The abstract interpreter: walks statements in flow order, binding names to abstract values.

It never imports or runs the user's code. Function bodies are walked once with unknown
parameters (that is where their findings come from) and evaluated again, silently, when a call
needs their return value (helpers that build runners and configs). Expressions, calls, imports
and annotations are evaluated by collaborators (:mod:`.machine` says how they meet).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

from evalsubmit.analysis.interp.annotated import annotated_value, of_class
from evalsubmit.analysis.interp.calls import Calls, is_generator
from evalsubmit.analysis.interp.expressions import Expressions
from evalsubmit.analysis.interp.facts import FactGroup, ModuleFacts
from evalsubmit.analysis.interp.flow import element_label, leaves_loop
from evalsubmit.analysis.interp.imports import ImportResolver, Imports
from evalsubmit.analysis.interp.machine import (
    MAX_CALL_DEPTH,
    MAX_CONTEXTS,
    MAX_ELEMENT_WALKS,
    CallSite,
    Frame,
    FunctionNode,
)
from evalsubmit.analysis.interp.objects import (
    Objects,
    attribute_key,
    bound,
    instance_writes,
    is_classmethod,
    is_property,
    is_record,
    is_static,
    user_mro,
)
from evalsubmit.analysis.interp.testcode import TestCode
from evalsubmit.analysis.models.classes import enum_members
from evalsubmit.analysis.models.containers import delete_item, in_place, keeps_identity
from evalsubmit.analysis.source.parse import ParsedModule
from evalsubmit.analysis.values.domain import (
    CallArgs,
    ClassRef,
    ClassValue,
    DictValue,
    FunctionValue,
    Instance,
    Known,
    OneShot,
    Origin,
    SeqValue,
    Unknown,
    UserClass,
    Value,
)
from evalsubmit.analysis.values.env import Env, ModuleScope, ModuleSource
from evalsubmit.analysis.values.iterables import items_of
from evalsubmit.core.findings import Span, Walk
from evalsubmit.sdk import names as sdk


@dataclass(frozen=True, slots=True)
class Deferred:
    """A function body to walk after the top level: its enclosing scope, the top-level
    statement that defines it (its cache group) and, for a method, its class."""

    function: FunctionNode
    parent: Env
    owner: int
    cls: ClassValue | None


@dataclass(frozen=True, slots=True)
class Grouping:
    """How facts are grouped for the incremental caches: ``key(i)`` is the cache key of
    top-level statement ``i`` (None: not cacheable); groups whose key is in ``known`` have cached
    results, so they are walked silently (top level) or not at all (function bodies)."""

    key: Callable[[int], str | None]
    known: Collection[str]


class Interpreter:
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
        self._frame = Frame(
            env=self._module_env, source=self._source, collect=collect, defer=collect
        )
        self._facts = ModuleFacts()
        self._dependencies: set[Path] = set()
        self._grouping = grouping
        self._deferred: list[Deferred] = []
        self._written: list[Instance] = []
        self._owner = -1
        self.groups: list[FactGroup] = []
        self._expressions = Expressions(self)
        self._calls = Calls(self)
        self._imports = Imports(self, resolver)
        self._objects = Objects(self)
        self._tests = TestCode(self, resolver)

    # ----- what collaborators see (machine.Machine) ----------------------------------------

    @property
    def source(self) -> ModuleSource:
        return self._source

    @property
    def home(self) -> Path | None:
        return self._source.path

    @property
    def frame(self) -> Frame:
        return self._frame

    @property
    def facts(self) -> ModuleFacts:
        return self._facts

    @property
    def module_env(self) -> Env:
        return self._module_env

    @property
    def dependencies(self) -> set[Path]:
        """Sibling modules read to resolve imports."""
        return self._dependencies

    def eval(self, node: ast.expr) -> Value:
        return self._expressions.eval(node)

    def call(self, node: ast.Call) -> Value:
        return self._calls.call(node)

    def import_value(self, qualname: str) -> Value:
        return self._imports.import_value(qualname)

    def annotated_value(self, annotation: ast.expr | None) -> Value:
        return annotated_value(self, annotation)

    @contextmanager
    def scope(self, env: Env) -> Iterator[Frame]:
        with self._entered(replace(self._frame, env=env)) as frame:
            yield frame

    @contextmanager
    def silent(self) -> Iterator[Frame]:
        with self._entered(replace(self._frame, collect=False)) as frame:
            yield frame

    @contextmanager
    def _entered(self, frame: Frame) -> Iterator[Frame]:
        saved, self._frame = self._frame, frame
        try:
            yield frame
        finally:
            self._frame = saved

    def evaluate_call(
        self, function: FunctionValue, values: dict[str, Value], *, site: CallSite | None = None
    ) -> Value:
        """The value a call of ``function`` returns, its body walked with ``values`` bound; the
        return annotation's value when it is not one known value. With a ``site`` whose walk
        is set while facts are recorded, the walk records them too, labelled with it;
        otherwise it is silent."""
        returns: list[Value] = []
        self._call(function, values, returns, site)
        if len(returns) == 1 and not isinstance(returns[0], Unknown):
            return returns[0]
        return self.declared_return(function)

    def declared_return(self, function: FunctionValue) -> Value:
        """The value of ``function``'s return annotation, read in its own module."""
        node = function.node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or node.returns is None:
            return Unknown("a parameter")
        frame = replace(
            self._frame,
            env=Env(parent=function.closure or self._module_env),
            source=function.module or self._frame.source,
        )
        with self._entered(frame):
            return self.annotated_value(node.returns)

    def walk_body(
        self, function: FunctionValue, values: dict[str, Value], *, site: CallSite | None = None
    ) -> Env:
        return self._call(function, values, [], site, propagate=False)

    def fixture_value(self, fixture: FunctionValue, values: dict[str, Value]) -> Value:
        definition = fixture.node
        if not isinstance(definition, ast.FunctionDef):
            return Unknown("a fixture")
        if fixture.bound_self is not None:
            parameters = [*definition.args.posonlyargs, *definition.args.args]
            values = {parameters[0].arg: fixture.bound_self, **values} if parameters else values
        returns: list[Value] = []
        self._call(fixture, values, returns, None, yields=is_generator(definition))
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
        if self._frame.depth >= MAX_CALL_DEPTH or id(definition) in self._frame.active:
            return Env()
        walk = site.walk if site is not None else None
        record = walk is not None and self._frame.collect
        caller = self._frame.env
        frame = Frame(
            env=Env(parent=function.closure or self._module_env),
            source=function.module or self._frame.source,
            collect=record,
            defer=False,
            returns=returns,
            yields=yields,
            depth=self._frame.depth + 1,
            active=self._frame.active | {id(definition)},
            context=(*self._frame.context, walk) if record and walk else self._frame.context,
            owner=function.owner,
            receiver=_first_argument(definition, values) if function.owner is not None else None,
            passed=dict(site.passed) if site is not None else {},
        )
        with self._entered(frame):
            self.bind_parameters(definition.args, values)
            if isinstance(definition, ast.Lambda):
                returns.append(self.eval(definition.body))
            else:
                self.walk(definition.body)
        if propagate:
            # attributes it stored on objects it was given are the caller's to see
            caller.names.update((k, v) for k, v in frame.env.names.items() if k.startswith("@"))
        return frame.env

    def generic_instance(self, cls: ClassValue) -> Instance:
        return self._objects.generic_self(cls)

    def user_attribute(self, base: Instance, name: str) -> Value | None:
        return self._objects.attribute(base, name)

    def construct(self, instance: Instance, args: CallArgs, node: ast.Call) -> None:
        """Run ``__init__`` (and a dataclass's ``__post_init__``) of a user-class instance
        built at ``node`` with ``args``; what they store becomes its attributes."""
        user = instance.ref.user
        assert user is not None
        written: dict[str, Value] = self._record_fields(user, args)
        for cls in user_mro(user):
            if "__init__" in cls.methods:
                init = cls.methods["__init__"]
                if isinstance(init.node, ast.FunctionDef):
                    receiver = bound(init, instance)
                    values, passed = self._calls.bind_call(receiver, init.node.args, args, node)
                    walk = None
                    given = [v for v in values.values() if v is not instance]
                    if any(not isinstance(v, Unknown) for v in given):
                        label = f"when {user.name}() is constructed at line {node.lineno}"
                        lines = (node.lineno, node.end_lineno or node.lineno)
                        walk = Walk(f"new {node.lineno}:{node.col_offset}", 0, 0, label, lines)
                    env = self.walk_body(init, values, site=CallSite(walk, passed))
                    written.update(instance_writes(env, instance))
                break
        post = next(
            (c.methods["__post_init__"] for c in user_mro(user) if "__post_init__" in c.methods),
            None,
        )
        if post is not None:
            written.update(self._objects.run_method(post, instance, {}))
        instance.attributes = self._objects.trusted(written)

    def _record_fields(self, user: UserClass, args: CallArgs) -> dict[str, Value]:
        """A dataclass's (or pydantic model's) fields from the call, else their defaults
        (``field(default=...)`` and ``field(default_factory=...)`` understood)."""
        if not user.fields or any("__init__" in c.methods for c in user_mro(user)):
            return {}
        declared = [
            s
            for cls in reversed(list(user_mro(user)))
            for s in cls.node.body
            if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)
        ]
        values: dict[str, Value] = {}
        names = [s.target.id for s in declared if isinstance(s.target, ast.Name)]
        for name, value in zip(names, args.positional, strict=False):
            values[name] = value
        values.update(args.keywords)
        for statement in declared:
            name = statement.target.id if isinstance(statement.target, ast.Name) else ""
            if name in values or args.star_unknown or statement.value is None:
                continue
            values[name] = self._field_default(statement.value)
        return values

    def _field_default(self, default: ast.expr) -> Value:
        with self.silent():
            if not (isinstance(default, ast.Call) and _called_name(default.func) == "field"):
                return self.eval(default)
            for keyword in default.keywords:
                if keyword.arg == "default":
                    return self.eval(keyword.value)
                if keyword.arg == "default_factory":
                    factory = self.eval(keyword.value)
                    if isinstance(factory, FunctionValue) and isinstance(factory.node, ast.Lambda):
                        return self.eval(factory.node.body)
                    return self._calls.apply(factory, default, CallArgs(), {})
        return Unknown("a field without a default")

    # ----- entry point ---------------------------------------------------------------------

    def run_module(self) -> ModuleScope:
        body = self._source.parsed.tree.body
        if not self._frame.defer:
            self.walk(body)
        else:
            for index, statement in enumerate(body):
                self._owner = index
                self._walk_top_level(index, statement)
            self._walk_deferred()
        return ModuleScope(
            self._source.path, self._source.name, self._source.parsed, self._module_env
        )

    def _walk_top_level(self, index: int, statement: ast.stmt) -> None:
        """Each top-level statement is walked every time (it binds what the rest reads); its
        findings come from the cache when nothing it depends on changed (walked silently)."""
        key = self._key(index, "top")
        if key is not None and self._grouping is not None and key in self._grouping.known:
            with self.silent():
                self.walk([statement])
            self.groups.append(FactGroup(key, None))
            return
        self._facts = ModuleFacts()
        self.walk([statement])
        self.groups.append(FactGroup(key, self._facts))

    def _key(self, owner: int, part: str) -> str | None:
        base = self._grouping.key(owner) if self._grouping is not None else None
        return f"{base}:{part}" if base is not None else None

    def _walk_deferred(self) -> None:
        """Walk function bodies grouped by the top-level statement that defines them, so the
        facts of an unchanged definition can be taken from the cache instead."""
        by_owner: dict[int, list[Deferred]] = {}
        for deferred in self._deferred:
            by_owner.setdefault(deferred.owner, []).append(deferred)
        self._deferred = []
        for owner, pending in by_owner.items():
            key = self._key(owner, "bodies")
            if key is not None and self._grouping is not None and key in self._grouping.known:
                self.groups.append(FactGroup(key, None))
                continue
            self._facts = ModuleFacts()
            self._owner = owner
            while pending:
                self._walk_function_body(pending.pop(0))
                pending.extend(self._deferred)
                self._deferred = []
            self.groups.append(FactGroup(key, self._facts))

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
                self._frame, env=Env(parent=deferred.parent), owner=cls, receiver=receiver
            )
            if walk is not None:
                frame = replace(frame, context=(*frame.context, walk))
            with self._entered(frame):
                self.bind_parameters(function.args, {**values, **case})
                self.walk(function.body)

    # ----- statements ----------------------------------------------------------------------

    def walk(self, body: list[ast.stmt]) -> None:
        for statement in body:
            try:
                self.statement(statement)
            except RecursionError:
                continue

    def statement(self, node: ast.stmt) -> None:
        match node:
            case ast.Assign(targets=targets, value=value):
                result = self.eval(value)
                for target in targets:
                    self.assign(target, result, node)
            case ast.AnnAssign(target=target, value=value) if value is not None:
                self.assign(target, self.eval(value), node)
            case ast.AugAssign(target=ast.Name(id=name), op=op, value=value):
                operand = self.eval(value)
                current = self._frame.env.lookup(name)
                if current is not None and keeps_identity(current):
                    in_place(current, op, operand, self._origin_of_span(self._span(node)))
                else:
                    self._frame.env.names[name] = Unknown("changed in place")
            case ast.AugAssign(target=ast.Attribute() | ast.Subscript() as target, op=op):
                operand = self.eval(node.value)
                current = self.eval(target)
                if keeps_identity(current):
                    in_place(current, op, operand, self._origin_of_span(self._span(node)))
                else:
                    self.assign(target, Unknown("changed in place"), node)
            case ast.Expr(value=value):
                self.eval(value)
            case ast.Return(value=value):
                result = self.eval(value) if value is not None else Known(None)
                if self._frame.returns is not None:
                    self._frame.returns.append(result)
            case ast.If():
                self.if_statement(node)
            case ast.For() | ast.AsyncFor() | ast.While():
                self.loop(node)
            case ast.With() | ast.AsyncWith():
                for item in node.items:
                    context = self.eval(item.context_expr)
                    if item.optional_vars is not None:
                        self.assign(item.optional_vars, _entered(context), node)
                self.walk(node.body)
            case ast.Try() | ast.TryStar():
                self.try_statement(node)
            case ast.Match():
                self.eval(node.subject)
                self.branches([case.body for case in node.cases], exhaustive=False)
            case ast.FunctionDef() | ast.AsyncFunctionDef():
                self.define_function(node)
            case ast.ClassDef():
                self.define_class(node)
            case ast.Import():
                self._imports.import_statement(node)
            case ast.ImportFrom():
                self._imports.import_from(node)
            case ast.Delete(targets=targets):
                for target in targets:
                    self.delete(target)
            case _:
                for child in ast.iter_child_nodes(node):
                    if isinstance(child, ast.expr):
                        self.eval(child)

    def assign(self, target: ast.expr, value: Value, statement: ast.stmt) -> None:
        match target:
            case ast.Name(id=name):
                self._frame.env.names[name] = value
                if self._frame.collect and not self._frame.context and _is_runner_like(value):
                    self._facts.runner_bindings.append((self._span(target), value))
            case ast.Tuple(elts=elements) | ast.List(elts=elements):
                items = value.items if isinstance(value, SeqValue) and value.complete else None
                for index, element in enumerate(elements):
                    if items is not None and len(items) == len(elements):
                        self.assign(element, items[index], statement)
                    else:
                        self.assign(element, Unknown("unpacked at run time"), statement)
            case ast.Subscript(value=base_node, slice=key_node):
                base, key = self.eval(base_node), self.eval(key_node)
                if isinstance(base, DictValue):
                    base.set(key, value, self._origin_of_span(self._span(statement)))
            case ast.Attribute(value=base_node, attr=attr):
                base = self.eval(base_node)
                if isinstance(base, Instance) and base.ref.qualname == sdk.GYM_CONFIG:
                    base.args.keywords[attr] = value
                    base.args.keyword_origins[attr] = self._origin_of_span(self._span(statement))
                elif isinstance(base, Instance) and base.ref.user is not None:
                    self._frame.env.names[attribute_key(base, attr)] = value
                    self._written.append(base)  # keeps its id unique while the key lives
                elif isinstance(base, ClassValue) and base.ref.user is not None:
                    self._frame.env.names[attribute_key(base.ref.user, attr)] = value
            case ast.Starred(value=inner):
                self.assign(inner, Unknown("unpacked at run time"), statement)

    def delete(self, target: ast.expr) -> None:
        match target:
            case ast.Name(id=name):
                self._frame.env.names.pop(name, None)
            case ast.Subscript(value=base_node, slice=key_node):
                delete_item(self.eval(base_node), self.eval(key_node))
            case ast.Attribute(value=base_node, attr=attr):
                base = self.eval(base_node)
                if isinstance(base, Instance) and base.ref.user is not None:
                    self._frame.env.names[attribute_key(base, attr)] = Unknown("deleted")
                    self._written.append(base)
            case ast.Tuple(elts=elements) | ast.List(elts=elements):
                for element in elements:
                    self.delete(element)

    def if_statement(self, node: ast.If) -> None:
        test = self.eval(node.test)
        if _is_main_guard(node.test) or _is_type_checking(node.test):
            # TYPE_CHECKING: its imports exist for annotations, which is all they are used for
            self.walk(node.body)
            return
        if isinstance(test, Known) and test.obj is True:
            self.walk(node.body)
            return
        if isinstance(test, Known) and test.obj is False:
            self.walk(node.orelse)
            return
        narrowed = self._narrowing(node.test)
        if narrowed is None:
            self.branches([node.body, node.orelse], exhaustive=True)
            return
        name, value, positive = narrowed
        start = self._frame.env
        outcomes: list[Env] = []
        for body, narrow in ((node.body, positive), (node.orelse, not positive)):
            with self.scope(start.copy()) as frame:
                if narrow:
                    frame.env.names[name] = value
                self.walk(body)
                outcomes.append(frame.env)
        start.join(*outcomes)

    def _narrowing(self, test: ast.expr) -> tuple[str, Value, bool] | None:
        """``isinstance(name, Cls)`` (or its ``not``) on a name whose value is unknown: the
        name, an instance of Cls, and whether it holds in the ``if`` branch."""
        positive = True
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            test, positive = test.operand, False
        if not (
            isinstance(test, ast.Call)
            and isinstance(test.func, ast.Name)
            and test.func.id == "isinstance"
            and len(test.args) == 2
            and isinstance(test.args[0], ast.Name)
        ):
            return None
        name = test.args[0].id
        if not isinstance(self._frame.env.lookup(name), Unknown):
            return None
        with self.silent():
            kind = self.eval(test.args[1])
        value = of_class(self, kind)
        return (name, value, positive) if not isinstance(value, Unknown) else None

    def branches(self, bodies: list[list[ast.stmt]], *, exhaustive: bool) -> None:
        """Walk each body from the same start; a name bound differently becomes unknown."""
        start = self._frame.env
        outcomes: list[Env] = []
        for body in bodies:
            with self.scope(start.copy()) as frame:
                self.walk(body)
                outcomes.append(frame.env)
        if not exhaustive:
            outcomes.append(start.copy())
        start.join(*outcomes)

    def loop(self, node: ast.For | ast.AsyncFor | ast.While) -> None:
        if isinstance(node, ast.While):
            self.eval(node.test)
        else:
            iterable = self.eval(node.iter)
            items = items_of(iterable)
            if items and self._walks_each(node, len(items)):
                self._loop_each(node, items)
                return
            element = iterable.element if isinstance(iterable, Unknown) else None
            self.assign(node.target, element or Unknown("a loop variable"), node)
        env = self._frame.env
        before = env.copy()
        self.walk(node.body)
        env.join(before, env.copy())
        self.walk(node.orelse)

    def _walks_each(self, node: ast.For | ast.AsyncFor, count: int) -> bool:
        """Walk the body once per known element: when facts are recorded, the elements are few,
        and every element surely reaches the body (no ``break`` or ``return`` in it)."""
        frame = self._frame
        return (
            frame.collect
            and count <= MAX_ELEMENT_WALKS
            and len(frame.context) < MAX_CONTEXTS
            and not leaves_loop(node.body)
        )

    def _loop_each(self, node: ast.For | ast.AsyncFor, items: list[Value]) -> None:
        """The body walked for each element, its facts labelled with the element; names it
        binds differently per element become unknown afterwards."""
        start = self._frame.env
        outcomes = [start.copy()]
        group = f"loop {node.lineno}:{node.col_offset}"
        for index, item in enumerate(items):
            walk = Walk(group, index, len(items), element_label(node, index, item))
            frame = replace(self._frame, env=start.copy(), context=(*self._frame.context, walk))
            with self._entered(frame):
                self.assign(node.target, item, node)
                self.walk(node.body)
                outcomes.append(frame.env)
        start.join(*outcomes)
        self.walk(node.orelse)

    def try_statement(self, node: ast.Try | ast.TryStar) -> None:
        """The body (and ``else``) or any handler may have run: their bindings are joined into
        the environment the statement started with (the same object, so a module's scope
        keeps what follows a top-level ``try``)."""
        env = self._frame.env
        before = env.copy()
        self.walk(node.body)
        self.walk(node.orelse)
        outcomes = [env.copy()]
        for handler in node.handlers:
            with self.scope(before.copy()) as frame:
                if handler.name:
                    frame.env.names[handler.name] = Unknown("an exception")
                self.walk(handler.body)
                outcomes.append(frame.env)
        merged = outcomes[0]
        if len(outcomes) > 1:
            merged.join(*outcomes)
        env.names = merged.names
        self.walk(node.finalbody)

    # ----- definitions ---------------------------------------------------------------------

    def define_function(self, node: FunctionNode) -> None:
        for decorator in node.decorator_list:
            self.eval(decorator)
        env = self._frame.env
        function = FunctionValue(
            node.name,
            node,
            self._origin(node),
            module=self._frame.source,
            defaults=self._defaults(node.args),
            closure=env,
        )
        env.names[node.name] = function
        if self._frame.defer:
            parent = self._module_env if env is self._module_env else env
            self._deferred.append(Deferred(node, parent, self._owner, None))

    def define_class(self, node: ast.ClassDef) -> None:
        """The class body runs now, in a scope of its own (methods do not see it); methods are
        deferred with the class, to be walked with ``self``."""
        bases = [self.eval(base) for base in node.bases]
        decorators = [self.eval(decorator) for decorator in node.decorator_list]
        user = UserClass(node.name, self._source.path, node, bases, set(), decorators)
        user.enum_members = enum_members(node, bases)
        cls = ClassValue(ClassRef(f"{self._source.name}.{node.name}", user))
        outer = self._frame.env
        parent = self._module_env if outer is self._module_env else outer
        record = is_record(node, bases)
        fields: set[str] = set()
        properties: set[str] = set()
        with self.scope(Env(parent=outer)) as frame:
            for statement in node.body:
                if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    for decorator in statement.decorator_list:
                        self.eval(decorator)
                    user.methods[statement.name] = FunctionValue(
                        statement.name,
                        statement,
                        self._origin(statement),
                        module=self._frame.source,
                        defaults=self._defaults(statement.args),
                        owner=cls,
                        closure=parent,
                    )
                    if is_property(statement.decorator_list):
                        properties.add(statement.name)
                    if self._frame.defer:
                        self._deferred.append(Deferred(statement, parent, self._owner, cls))
                    continue
                if record and isinstance(statement, ast.AnnAssign):
                    target = statement.target
                    fields |= {target.id} if isinstance(target, ast.Name) else set()
                self.statement(statement)
            scope = frame.env.names
        user.class_values = {k: v for k, v in scope.items() if not k.startswith("@")}
        user.attributes = set(user.class_values) | set(user.methods) | fields
        user.fields = frozenset(fields)
        user.properties = frozenset(properties)
        outer.names[node.name] = cls

    def _defaults(self, args: ast.arguments) -> dict[str, Value]:
        positional = [*args.posonlyargs, *args.args]
        pairs = list(
            zip(positional[len(positional) - len(args.defaults) :], args.defaults, strict=True)
        )
        pairs += [(a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d]
        return {parameter.arg: self.eval(default) for parameter, default in pairs}

    def bind_parameters(self, args: ast.arguments, values: dict[str, Value] | None) -> None:
        names = self._frame.env.names
        for parameter in [*args.posonlyargs, *args.args, *args.kwonlyargs]:
            value = (values or {}).get(parameter.arg)
            if value is None:
                value = self.annotated_value(parameter.annotation)
            names[parameter.arg] = value
        for extra in (args.vararg, args.kwarg):
            if extra is not None:
                names[extra.arg] = (values or {}).get(extra.arg) or Unknown("a parameter")

    # ----- positions -----------------------------------------------------------------------

    def _span(self, node: ast.AST) -> Span:
        return self._frame.source.span(node)

    def _origin(self, node: ast.AST) -> Origin:
        return self._frame.source.origin(node)

    def _origin_of_span(self, span: Span) -> Origin:
        return Origin(self._frame.source.path, span)


_SELF_ENTERING = frozenset({sdk.PLATFORM_CLIENT, sdk.ASYNC_PLATFORM_CLIENT})


def _entered(context: Value) -> Value:
    """What ``with context as name`` binds: files and the platform clients return themselves."""
    if isinstance(context, OneShot):
        return context
    if isinstance(context, Instance) and context.ref.qualname in _SELF_ENTERING:
        return context
    return Unknown("a context value")


def _first_argument(
    definition: FunctionNode | ast.Lambda, values: dict[str, Value]
) -> Value | None:
    parameters = [*definition.args.posonlyargs, *definition.args.args]
    return values.get(parameters[0].arg) if parameters else None


def _called_name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else None


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _is_main_guard(test: ast.expr) -> bool:
    return (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and test.left.id == "__name__"
    )


def _is_runner_like(value: Value) -> bool:
    if not isinstance(value, Instance):
        return False
    return value.ref.qualname in sdk.RUNNER_CLASSES or value.ref.user is not None
