"""``def`` and ``class`` statements: the function and class values they bind.

A function's defaults are evaluated where it is defined, as Python does; its body is not walked
here but deferred (walked after the top level with unknown parameters, :mod:`.interpreter`) or
walked when a call needs its value (:mod:`.calls`). A class body runs now, in a scope of its own,
and its methods are deferred with their class. What the class records (methods, properties,
dataclass or pydantic fields, enum members, class attributes) is what :mod:`.objects` reads
later on its instances.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from evalsubmit.analysis.interp.frames import FunctionNode
from evalsubmit.analysis.interp.objects import is_property, is_record
from evalsubmit.analysis.models.classes import enum_members, note_value_origins
from evalsubmit.analysis.values.domain import (
    ClassRef,
    ClassValue,
    FunctionValue,
    UserClass,
    Value,
)
from evalsubmit.analysis.values.env import Env

if TYPE_CHECKING:
    from evalsubmit.analysis.interp.interpreter import Interpreter


class Definitions:
    """Binds ``def`` and ``class`` statements for :class:`.statements.Statements`."""

    def __init__(self, interp: Interpreter) -> None:
        self.interp = interp

    def define_function(self, node: FunctionNode) -> None:
        for decorator in node.decorator_list:
            self.interp.eval(decorator)
        env = self.interp.frame.env
        function = FunctionValue(
            node.name,
            node,
            self.interp.origin(node),
            module=self.interp.frame.source,
            defaults=self._defaults(node.args),
            closure=env,
        )
        env.names[node.name] = function
        if self.interp.frame.defer:
            parent = self.interp.module_env if env is self.interp.module_env else env
            self.interp.defer(node, parent, None)

    def define_class(self, node: ast.ClassDef) -> None:
        """The class body runs now, in a scope of its own (methods do not see it); methods are
        deferred with the class, to be walked with ``self``."""
        bases = [self.interp.eval(base) for base in node.bases]
        decorators = [self.interp.eval(decorator) for decorator in node.decorator_list]
        user = UserClass(node.name, self.interp.source.path, node, bases, set(), decorators)
        user.enum_members = enum_members(node, bases)
        if user.enum_members:
            note_value_origins(
                user.enum_members,
                {
                    statement.targets[0].id: self.interp.source.origin(statement.value)
                    for statement in node.body
                    if isinstance(statement, ast.Assign)
                    and len(statement.targets) == 1
                    and isinstance(statement.targets[0], ast.Name)
                },
            )
        cls = ClassValue(ClassRef(f"{self.interp.source.name}.{node.name}", user))
        outer = self.interp.frame.env
        parent = self.interp.module_env if outer is self.interp.module_env else outer
        record = is_record(node, bases)
        fields: set[str] = set()
        properties: set[str] = set()
        with self.interp.scope(Env(parent=outer)) as frame:
            for statement in node.body:
                if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    for decorator in statement.decorator_list:
                        self.interp.eval(decorator)
                    user.methods[statement.name] = FunctionValue(
                        statement.name,
                        statement,
                        self.interp.origin(statement),
                        module=self.interp.frame.source,
                        defaults=self._defaults(statement.args),
                        owner=cls,
                        closure=parent,
                    )
                    if is_property(statement.decorator_list):
                        properties.add(statement.name)
                    if self.interp.frame.defer:
                        self.interp.defer(statement, parent, cls)
                    continue
                if record and isinstance(statement, ast.AnnAssign):
                    target = statement.target
                    fields |= {target.id} if isinstance(target, ast.Name) else set()
                self.interp.statement(statement)
            scope = frame.env.bindings
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
        return {parameter.arg: self.interp.eval(default) for parameter, default in pairs}
