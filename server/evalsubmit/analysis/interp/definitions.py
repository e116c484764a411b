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
from dataclasses import replace
from typing import TYPE_CHECKING, Final

from evalsubmit.analysis.interp.cached import CACHE_DECORATORS, CACHE_FACTORIES
from evalsubmit.analysis.interp.frames import FunctionNode
from evalsubmit.analysis.interp.objects import is_dataclass_decorator, is_property, is_record
from evalsubmit.analysis.interp.pydantic_fields import pydantic_kind
from evalsubmit.analysis.interp.testcode import is_fixture
from evalsubmit.analysis.models.classes import (
    enum_members,
    note_enum_class,
    note_value_origins,
)
from evalsubmit.analysis.values.domain import Instance, Unknown, Value
from evalsubmit.analysis.values.env import Env
from evalsubmit.analysis.values.objects import (
    CallArgs,
    ClassRef,
    ClassValue,
    FunctionValue,
    PartialValue,
    UserClass,
)
from evalsubmit.core.records import Record

if TYPE_CHECKING:
    from evalsubmit.analysis.interp.interpreter import Interpreter


class _Decorator(Record):
    """One ``@decorator`` evaluated: its value and, for ``@factory(...)``, the factory's."""

    __slots__ = ("factory", "node", "value")
    node: Final[ast.expr]
    value: Final[Value]
    factory: Final[Value | None]

    def __init__(self, node: ast.expr, value: Value, factory: Value | None) -> None:
        self.node = node
        self.value = value
        self.factory = factory


class Definitions:
    """Binds ``def`` and ``class`` statements for :class:`.statements.Statements`."""

    def __init__(self, interp: Interpreter) -> None:
        self.interp = interp

    def define_function(self, node: FunctionNode) -> None:
        decorators = self._decorators(node)
        env = self.interp.frame.env
        function = FunctionValue(
            node.name,
            node,
            self.interp.origin(node),
            module=self.interp.frame.source,
            defaults=self._defaults(node.args),
            closure=env,
        )
        env.names[node.name] = self._decorated(node, function, decorators)
        if self.interp.frame.defer:
            parent = self.interp.module_env if env is self.interp.module_env else env
            self.interp.defer(node, parent, None)

    def define_class(self, node: ast.ClassDef) -> None:
        """The class body runs now, in a scope of its own (methods do not see it); methods are
        deferred with the class, to be walked with ``self``."""
        bases = [self.interp.eval(base) for base in node.bases]
        decorators = self._decorators(node)
        values = [decorator.value for decorator in decorators]
        user = UserClass(node.name, self.interp.source.path, node, bases, set(), values)
        user.pydantic = pydantic_kind(bases)
        user.enum_members = enum_members(node, bases)
        if user.enum_members:
            note_enum_class(user.enum_members, user)
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
        record = is_record(user)
        fields: set[str] = set()
        properties: set[str] = set()
        with self.interp.scope(Env(parent=outer)) as frame:
            for statement in node.body:
                if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    self._define_method(statement, cls, parent, properties, frame.env)
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
        outer.names[node.name] = self._decorated_class(node, cls, decorators)

    def _decorators(self, node: FunctionNode | ast.ClassDef) -> list[_Decorator]:
        """The decorators of ``node`` evaluated, in order; of ``@factory(...)`` the factory
        too (what tells whether the decorator keeps the function)."""
        decorators: list[_Decorator] = []
        for expression in node.decorator_list:
            if isinstance(expression, ast.Call):
                factory = self.interp.eval(expression.func)
                value = self.interp.call_of(expression, factory)
                decorators.append(_Decorator(expression, value, factory))
            else:
                decorators.append(_Decorator(expression, self.interp.eval(expression), None))
        return decorators

    def _decorated_class(
        self, node: ast.ClassDef, cls: ClassValue, decorators: list[_Decorator]
    ) -> Value:
        """What ``@d class C`` binds: ``d(C)``. The class itself when every decorator is one
        the engine models or that gives the class back (a dataclass, ``final``, ``unique``...)
        or one of the user's whose walk gives it back (a registry); anything else is unknown
        (``attrs.define`` makes fields of the class attributes, ``functools.singledispatch``
        of a class...): nothing is reported from what the undecorated class would do."""
        for decorator in reversed(decorators):
            if is_dataclass_decorator(decorator.node) or _keeps_function(
                decorator, _KEEPING_CLASS, frozenset()
            ):
                continue
            applied = decorator.value
            if not _walkable(applied) or isinstance(applied, ClassValue):
                return Unknown(f"{node.name} behind a decorator")
            with self.interp.silent():
                application = _application(decorator.node, node)
                made = self.interp.apply(applied, application, CallArgs([cls]))
            if not (isinstance(made, ClassValue) and made.ref is cls.ref):
                return Unknown(f"{node.name} behind a decorator")
        return cls

    def _define_method(
        self,
        statement: FunctionNode,
        cls: ClassValue,
        parent: Env,
        properties: set[str],
        scope: Env,
    ) -> None:
        """A method of ``cls``, kept in its record when every decorator is one the engine
        models (a property, a static or class method, a pydantic validator, one that gives the
        function back); otherwise its name is bound to an unknown value, as the class namespace
        holds whatever the decorators made of it (a fixture is kept, as :meth:`_decorated`
        says). ``@name.setter`` / ``.deleter`` of a property above keeps the property's
        getter."""
        user = cls.ref.user
        assert user is not None
        name = statement.name
        decorators = self._decorators(statement)
        if name in properties and len(decorators) == 1 and _accessor(decorators[0].node, name):
            return
        kept = is_fixture(statement) or all(
            _keeps_function(d, _KEEPING_METHOD, _KEEPING_METHOD_FACTORIES) for d in decorators
        )
        properties.discard(name)
        if not kept:
            user.methods.pop(name, None)
            scope.names[name] = Unknown(f"{name} behind a decorator")
            return
        scope.names.pop(name, None)
        user.methods[name] = FunctionValue(
            name,
            statement,
            self.interp.origin(statement),
            module=self.interp.frame.source,
            defaults=self._defaults(statement.args),
            owner=cls,
            closure=parent,
        )
        if is_property(statement.decorator_list):
            properties.add(name)

    def _decorated(
        self, node: FunctionNode, function: FunctionValue, decorators: list[_Decorator]
    ) -> Value:
        """What ``@d def f`` binds: ``d(f)``, as Python does (the innermost decorator first).
        A decorator known to give back the function itself (or a wrapper that calls it with the
        same arguments) keeps it; one of the user's is called with it, its body walked (a
        wrapper that changes the arguments is then what a call runs); any other makes it
        unknown, so that nothing is reported from what the undecorated body would do.
        A fixture is kept whatever else decorates it: pytest calls it, never the user's code,
        and :mod:`.testcode` finds it by its binding."""
        if is_fixture(node):
            return function
        if len(decorators) == 1 and _caches(decorators[0]):
            return replace(function, cached=True)
        value: Value = function
        for decorator in reversed(decorators):
            if _keeps_function(decorator):
                continue
            applied = decorator.value
            if not _walkable(applied):
                return Unknown(f"{node.name} behind a decorator")
            with self.interp.silent():
                application = _application(decorator.node, node)
                value = self.interp.apply(applied, application, CallArgs([value]))
        return value

    def _defaults(self, args: ast.arguments) -> dict[str, Value]:
        positional = [*args.posonlyargs, *args.args]
        pairs = list(
            zip(positional[len(positional) - len(args.defaults) :], args.defaults, strict=True)
        )
        pairs += [(a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d]
        return {parameter.arg: self.interp.eval(default) for parameter, default in pairs}


#: Decorators that give back the function itself, or a wrapper calling it with the same
#: arguments: calls go to the function. ``contextmanager`` is modelled where the function is
#: called (:mod:`.calls`), fixtures and marks by :mod:`.testcode`. Not the caches
#: (``functools.cache``, ``lru_cache``): a call with an argument that cannot be hashed (a
#: dict, a list, a ``GymRuntimeConfig``) raises ``TypeError`` before the body runs, and a later
#: call returns the first one's object; alone, they mark the function cached (:mod:`.cached`).
_KEEPING = frozenset(
    {
        "functools.wraps",
        "contextlib.contextmanager",
        "contextlib.asynccontextmanager",
        "typing.overload",
        "typing.final",
        "typing.override",
        "typing.no_type_check",
        "typing_extensions.overload",
        "typing_extensions.final",
        "typing_extensions.override",
        "abc.abstractmethod",
        "atexit.register",
        "pytest.fixture",
    }
)
#: Decorator factories called with arguments (``@wraps(f)``, ``@pytest.fixture(scope=...)``)
#: whose result keeps the function as above.
_KEEPING_FACTORIES = frozenset({"functools.wraps", "pytest.fixture"})


#: Class decorators that give the class back (what they add is not read from the class); a
#: dataclass is modelled (``objects.is_dataclass_decorator``).
_KEEPING_CLASS = frozenset(
    {
        "typing.final",
        "typing.runtime_checkable",
        "typing_extensions.final",
        "typing_extensions.runtime_checkable",
        "functools.total_ordering",
        "enum.unique",
    }
)


#: Method decorators modelled where the method is read (:mod:`.objects`: properties, static and
#: class methods) or that give it back; pydantic's validators and serializers are called by
#: pydantic (the engine does not run them: the method stays what it was).
_KEEPING_METHOD = _KEEPING | {
    "builtins.staticmethod",
    "builtins.classmethod",
    "builtins.property",
    "functools.cached_property",
    "pydantic.computed_field",
}
_KEEPING_METHOD_FACTORIES = _KEEPING_FACTORIES | {
    f"pydantic.{name}"
    for name in (
        "field_validator",
        "model_validator",
        "validator",
        "root_validator",
        "computed_field",
        "field_serializer",
        "model_serializer",
    )
}


def _keeps_function(
    decorator: _Decorator,
    keeping: frozenset[str] = _KEEPING,
    factories: frozenset[str] = _KEEPING_FACTORIES,
) -> bool:
    """Whether ``decorator`` gives back the function (or a faithful wrapper), by where its
    name was imported from, never by its spelling."""
    if decorator.factory is not None:
        return _qualname(decorator.factory) in factories or _is_mark(_qualname(decorator.factory))
    return _qualname(decorator.value) in keeping or _is_mark(_qualname(decorator.value))


def _caches(decorator: _Decorator) -> bool:
    """``@functools.cache``, ``@lru_cache``, ``@lru_cache(maxsize=8)``: by where the name was
    imported from."""
    if decorator.factory is not None:
        return _qualname(decorator.factory) in CACHE_FACTORIES
    return _qualname(decorator.value) in CACHE_DECORATORS


def _accessor(decorator: ast.expr, name: str) -> bool:
    """``@name.setter`` / ``@name.deleter``: the property ``name`` with another accessor, its
    getter unchanged."""
    return (
        isinstance(decorator, ast.Attribute)
        and decorator.attr in {"setter", "deleter"}
        and isinstance(decorator.value, ast.Name)
        and decorator.value.id == name
    )


def _walkable(decorator: Value) -> bool:
    """A decorator of the user's, whose call is walked: a function, a partial of one, a
    class (its instance, whose calls stay unknown)."""
    match decorator:
        case FunctionValue(node=ast.FunctionDef() | ast.AsyncFunctionDef() | ast.Lambda()):
            return True
        case ClassValue(ref=ClassRef(user=user)):
            return user is not None
        case PartialValue():
            return True
    return False


def _qualname(value: Value) -> str | None:
    """The imported name a decorator is (``pytest.mark.skip``), or the class of the mark it
    holds (``PENDING = pytest.mark.skip(reason=...)``, :mod:`.calls`)."""
    if isinstance(value, (ClassValue, Instance)) and value.ref.user is None:
        return value.ref.qualname
    return None


def _is_mark(qualname: str | None) -> bool:
    """``@pytest.mark.skip``, ``@pytest.mark.parametrize(...)``: a mark gives the function
    back with the mark attached."""
    return qualname is not None and qualname.startswith("pytest.mark.")


def _application(decorator: ast.expr, node: FunctionNode | ast.ClassDef) -> ast.Call:
    """The call ``decorator(name)`` that ``@decorator`` makes, at the decorator's place: made
    once and kept on the decorator (origins and spans are cached by node)."""
    call: ast.Call | None = getattr(decorator, "_evalsubmit_application", None)
    if call is None:
        name = ast.copy_location(ast.Name(id=node.name, ctx=ast.Load()), node)
        call = ast.copy_location(ast.Call(func=decorator, args=[name], keywords=[]), decorator)
        decorator._evalsubmit_application = call  # type: ignore[attr-defined]
    return call
