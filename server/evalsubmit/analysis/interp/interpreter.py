"""The abstract interpreter: walks statements in flow order, binding names to abstract values.

It never imports or runs the user's code. Function bodies are walked once with unknown
parameters (that is where their findings come from) and evaluated again, silently, when a call
needs their return value (helpers that build runners and configs).
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Callable, Collection
from pathlib import Path
from typing import TYPE_CHECKING

from evalsubmit.analysis.interp.calls import CallsMixin
from evalsubmit.analysis.interp.facts import FactGroup, ModuleFacts
from evalsubmit.analysis.models.classes import enum_members
from evalsubmit.analysis.source.parse import ParsedModule
from evalsubmit.analysis.values.domain import (
    CallArgs,
    ClassRef,
    ClassValue,
    DictValue,
    FunctionValue,
    Instance,
    Known,
    ModuleValue,
    OneShot,
    Origin,
    SeqValue,
    Unknown,
    UserClass,
    Value,
)
from evalsubmit.analysis.values.env import Env, ModuleScope
from evalsubmit.sdk import names as sdk

if TYPE_CHECKING:
    from evalsubmit.workspace.project import Project

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef
MAX_CALL_DEPTH = 6


class Interpreter(CallsMixin):
    def __init__(
        self,
        parsed: ParsedModule,
        *,
        path: Path | None,
        module_name: str,
        project: Project | None,
        collect: bool,
    ) -> None:
        self.parsed = parsed
        self.path = path
        self.module_name = module_name
        self.project = project
        self.collect = collect
        self.defer = collect
        """Walk function bodies after the top level (the module being analysed, not a sibling
        module read only for its bindings)."""
        self.facts = ModuleFacts()
        self.env = Env()
        self.module_env = self.env
        self.depth = 0
        self.active_calls: set[int] = set()
        self.returns: list[Value] | None = None
        self.async_context = False
        self.dependencies: set[Path] = set()
        self._deferred: list[tuple[FunctionNode, Env, int]] = []
        self._owner = -1
        self.groups: list[FactGroup] = []
        self.group_key: Callable[[int], str | None] | None = None
        """Cache key of a top-level statement's function bodies (set by the incremental
        analyzer); ``known_keys`` are keys whose results are cached, so their walk is skipped."""
        self.known_keys: Collection[str] = ()

    # ----- entry points -------------------------------------------------------------------

    def run_module(self) -> ModuleScope:
        if not self.defer:
            self.walk(self.parsed.tree.body)
            return ModuleScope(self.path, self.module_name, self.parsed, self.module_env)
        for index, statement in enumerate(self.parsed.tree.body):
            self._owner = index
            self._walk_top_level(index, statement)
        self._walk_deferred()
        return ModuleScope(self.path, self.module_name, self.parsed, self.module_env)

    def _walk_top_level(self, index: int, statement: ast.stmt) -> None:
        """Each top-level statement is walked every time (it binds what the rest reads); its
        findings come from the cache when nothing it depends on changed (walked silently)."""
        key = self._key(index, "top")
        if key is not None and key in self.known_keys:
            self.collect = False
            try:
                self.walk([statement])
            finally:
                self.collect = True
            self.groups.append(FactGroup(key, None))
            return
        self.facts = ModuleFacts()
        self.walk([statement])
        self.groups.append(FactGroup(key, self.facts))

    def _key(self, owner: int, part: str) -> str | None:
        base = self.group_key(owner) if self.group_key is not None else None
        return f"{base}:{part}" if base is not None else None

    def _walk_deferred(self) -> None:
        """Walk function bodies grouped by the top-level statement that defines them, so the
        facts of an unchanged definition can be taken from the cache instead."""
        by_owner: dict[int, list[tuple[FunctionNode, Env]]] = {}
        for function, parent, owner in self._deferred:
            by_owner.setdefault(owner, []).append((function, parent))
        self._deferred = []
        for owner, pending in by_owner.items():
            key = self._key(owner, "bodies")
            if key is not None and key in self.known_keys:
                self.groups.append(FactGroup(key, None))
                continue
            self.facts = ModuleFacts()
            self._owner = owner
            while pending:
                function, parent = pending.pop(0)
                self._walk_function_body(function, parent)
                pending.extend((f, p) for f, p, _ in self._deferred)
                self._deferred = []
            self.groups.append(FactGroup(key, self.facts))

    def _walk_function_body(self, function: FunctionNode, parent: Env) -> None:
        saved_env, saved_async = self.env, self.async_context
        self.env = Env(parent=parent)
        self.async_context = isinstance(function, ast.AsyncFunctionDef)
        self.bind_parameters(function.args, None)
        try:
            self.walk(function.body)
        finally:
            self.env, self.async_context = saved_env, saved_async

    # ----- statements ---------------------------------------------------------------------

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
            case ast.AugAssign(target=ast.Name(id=name), value=value):
                self.eval(value)
                self.env.names[name] = Unknown("changed in place")
            case ast.Expr(value=value):
                self.eval(value)
            case ast.Return(value=value):
                result = self.eval(value) if value is not None else Known(None)
                if self.returns is not None:
                    self.returns.append(result)
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
                for alias in node.names:
                    if alias.asname:
                        self.env.names[alias.asname] = self.module_value(alias.name)
                    else:
                        head = alias.name.split(".")[0]
                        self.env.names[head] = self.module_value(head)
            case ast.ImportFrom():
                self.import_from(node)
            case ast.Delete(targets=targets):
                for target in targets:
                    if isinstance(target, ast.Name):
                        self.env.names.pop(target.id, None)
            case _:
                for child in ast.iter_child_nodes(node):
                    if isinstance(child, ast.expr):
                        self.eval(child)

    def assign(self, target: ast.expr, value: Value, statement: ast.stmt) -> None:
        match target:
            case ast.Name(id=name):
                self.env.names[name] = value
                if self.collect and _is_runner_like(value):
                    self.facts.runner_bindings.append((self.span(target), value))
            case ast.Tuple(elts=elements) | ast.List(elts=elements):
                items = value.items if isinstance(value, SeqValue) else None
                for index, element in enumerate(elements):
                    if items is not None and len(items) == len(elements):
                        self.assign(element, items[index], statement)
                    else:
                        self.assign(element, Unknown("unpacked at run time"), statement)
            case ast.Subscript(value=base_node, slice=key_node):
                base, key = self.eval(base_node), self.eval(key_node)
                if isinstance(base, DictValue):
                    base.set(key, value, Origin(self.path, self.span(statement)))
            case ast.Attribute(value=base_node, attr=attr):
                base = self.eval(base_node)
                if isinstance(base, Instance) and base.ref.qualname == sdk.GYM_CONFIG:
                    base.args.keywords[attr] = value
                    base.args.keyword_origins[attr] = Origin(self.path, self.span(statement))
            case ast.Starred(value=inner):
                self.assign(inner, Unknown("unpacked at run time"), statement)

    def if_statement(self, node: ast.If) -> None:
        test = self.eval(node.test)
        if _is_main_guard(node.test) or (isinstance(test, Known) and test.obj is True):
            self.walk(node.body)
            return
        if isinstance(test, Known) and test.obj is False:
            self.walk(node.orelse)
            return
        self.branches([node.body, node.orelse], exhaustive=True)

    def branches(self, bodies: list[list[ast.stmt]], *, exhaustive: bool) -> None:
        start = self.env
        outcomes: list[Env] = []
        for body in bodies:
            self.env = start.copy()
            self.walk(body)
            outcomes.append(self.env)
        if not exhaustive:
            outcomes.append(start.copy())
        self.env = start
        start.join(*outcomes)

    def loop(self, node: ast.For | ast.AsyncFor | ast.While) -> None:
        if isinstance(node, ast.While):
            self.eval(node.test)
        else:
            self.eval(node.iter)
            self.assign(node.target, Unknown("a loop variable"), node)
        before = self.env.copy()
        self.walk(node.body)
        self.env.join(before, self.env.copy())
        self.walk(node.orelse)

    def try_statement(self, node: ast.Try | ast.TryStar) -> None:
        before = self.env.copy()
        self.walk(node.body)
        self.walk(node.orelse)
        outcomes = [self.env.copy()]
        for handler in node.handlers:
            self.env = before.copy()
            if handler.name:
                self.env.names[handler.name] = Unknown("an exception")
            self.walk(handler.body)
            outcomes.append(self.env)
        self.env = outcomes[0]
        if len(outcomes) > 1:
            self.env.join(*outcomes)
        self.walk(node.finalbody)

    # ----- definitions --------------------------------------------------------------------

    def define_function(self, node: FunctionNode) -> None:
        for decorator in node.decorator_list:
            self.eval(decorator)
        function = FunctionValue(node.name, node, self.origin(node), module=self)
        self.env.names[node.name] = function
        if self.defer:
            parent = self.module_env if self.env is self.module_env else self.env
            self._deferred.append((node, parent, self._owner))

    def define_class(self, node: ast.ClassDef) -> None:
        bases = [self.eval(base) for base in node.bases]
        decorators = [self.eval(decorator) for decorator in node.decorator_list]
        attributes: set[str] = set()
        for statement in node.body:
            if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                attributes.add(statement.name)
                if self.defer and not isinstance(statement, ast.ClassDef):
                    self._deferred.append((statement, self.module_env, self._owner))
            elif isinstance(statement, (ast.Assign, ast.AnnAssign)):
                targets = (
                    statement.targets if isinstance(statement, ast.Assign) else [statement.target]
                )
                attributes.update(t.id for t in targets if isinstance(t, ast.Name))
        user = UserClass(node.name, self.path, node, bases, attributes, decorators)
        user.enum_members = enum_members(node, bases)
        self.env.names[node.name] = ClassValue(ClassRef(f"{self.module_name}.{node.name}", user))

    def bind_parameters(self, args: ast.arguments, values: dict[str, Value] | None) -> None:
        every = [*args.posonlyargs, *args.args, *args.kwonlyargs]
        for parameter in every:
            value = (values or {}).get(parameter.arg)
            if value is None:
                value = self.annotated_value(parameter.annotation)
            self.env.names[parameter.arg] = value
        for extra in (args.vararg, args.kwarg):
            if extra is not None:
                self.env.names[extra.arg] = Unknown("a parameter")

    def annotated_value(self, annotation: ast.expr | None) -> Value:
        """A parameter or return typed with an SDK class is an instance of it, contents unknown."""
        if annotation is None:
            return Unknown("a parameter")
        if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
            try:
                annotation = ast.parse(annotation.value, mode="eval").body
            except SyntaxError:
                return Unknown("a parameter")
        saved = self.collect
        self.collect = False
        try:
            kind = self.eval(annotation)
        finally:
            self.collect = saved
        if (
            isinstance(kind, ClassValue)
            and kind.ref.user is None
            and sdk.is_sdk_name(kind.ref.qualname)
        ):
            return Instance(kind.ref, CallArgs(), None)
        return Unknown("a parameter")

    # ----- imports ------------------------------------------------------------------------

    def import_from(self, node: ast.ImportFrom) -> None:
        module = self.absolute_module(node.module or "", node.level)
        for alias in node.names:
            if alias.name == "*":
                continue
            self.env.names[alias.asname or alias.name] = self.import_value(
                f"{module}.{alias.name}" if module else alias.name
            )

    def absolute_module(self, module: str, level: int) -> str:
        if level == 0:
            return module
        parts = self.module_name.split(".")
        package = parts[: max(len(parts) - level, 0)]
        return ".".join([*package, module] if module else package)

    def module_value(self, qualname: str) -> Value:
        return ModuleValue(sdk.canonical(qualname))

    def import_value(self, qualname: str) -> Value:
        from evalsubmit.analysis.models import stdlib

        head, _, rest = qualname.partition(".")
        if head == "builtins":
            if not hasattr(builtins, rest):
                return Unknown(f"name {rest} is not defined here")
            found = stdlib.stdlib_constant(qualname, None)
            return found if found is not None else ClassValue(ClassRef(qualname))
        if self.project is not None and not sdk.is_sdk_name(qualname):
            resolved = self.project.resolve_import(qualname, self.path, self)
            if resolved is not None:
                return resolved
        found = stdlib.stdlib_constant(qualname, None)
        if found is not None:
            return found
        return ClassValue(ClassRef(sdk.canonical(qualname)))


_SELF_ENTERING = frozenset({sdk.PLATFORM_CLIENT, sdk.ASYNC_PLATFORM_CLIENT})


def _entered(context: Value) -> Value:
    """What ``with context as name`` binds: files and the platform clients return themselves."""
    if isinstance(context, OneShot):
        return context
    if isinstance(context, Instance) and context.ref.qualname in _SELF_ENTERING:
        return context
    return Unknown("a context value")


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
