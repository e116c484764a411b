"""The user's classes and their instances: what a method sees on ``self``.

A class body is walked like any code (class attributes, nested classes); its methods are
deferred and walked with ``self`` bound to the class's *generic instance*: what ``__init__``
and the test set-up methods (``setUp``, ``setup_method``, ``asyncSetUp``) store on ``self`` with
unknown arguments, plus class attributes, properties (evaluated when read) and methods. An
attribute that any other code may assign (anywhere in the module, outside those set-up
methods) is not trusted from construction: it is unknown unless the flow being walked assigned
it. A class instantiated with known arguments runs ``__init__`` with them at the call site
(:meth:`Objects.construct`; a dataclass's or pydantic model's fields come from the call, else
their defaults).

Attribute writes are tracked in the environment under a key of the object and the attribute
(``attribute_key``), so branches and loops join them like names, and a helper that mutates an
object it was given hands the writes back to its caller.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import TYPE_CHECKING

from evalsubmit.analysis.interp.attribute_stores import (
    CLASS_SETUP_METHODS,
    SETUP_METHODS,
    AttributeStores,
)
from evalsubmit.analysis.interp.binding import bind_call, first_parameter
from evalsubmit.analysis.interp.bodies import evaluate_call, walk_body
from evalsubmit.analysis.interp.class_lookup import bound, user_mro
from evalsubmit.analysis.interp.frames import CallSite
from evalsubmit.analysis.interp.overrides import Overrides, defines
from evalsubmit.analysis.interp.pydantic_fields import model_fields
from evalsubmit.analysis.interp.record_classes import (
    constructed_unseen,
    dataclass_json,
    declared,
    declared_fields,
)
from evalsubmit.analysis.interp.spelling import called_name
from evalsubmit.analysis.values.dict_entries import named_entries
from evalsubmit.analysis.values.domain import DictValue, Instance, Known, Unknown, Value
from evalsubmit.analysis.values.env import Env
from evalsubmit.analysis.values.objects import CallArgs, ClassValue, FunctionValue, UserClass
from evalsubmit.core.findings import Label, LabelKind, Occasion, Site

if TYPE_CHECKING:
    from evalsubmit.analysis.interp.imports import ImportResolver
    from evalsubmit.analysis.interp.interpreter import Interpreter


_PROPERTY_DECORATORS = frozenset({"property", "cached_property"})


def attribute_key(owner: Instance | UserClass, name: str) -> str:
    """The environment key of an attribute write on an instance or a user class (never a
    valid Python name)."""
    return f"@{id(owner)}.{name}"


def instance_writes(env: Env, owner: Instance | UserClass) -> dict[str, Value]:
    """Attributes of ``owner`` assigned in ``env`` itself (not its parents)."""
    prefix = f"@{id(owner)}."
    return {k[len(prefix) :]: v for k, v in env.bindings.items() if k.startswith(prefix)}


def property_value(interp: Interpreter, getter: FunctionValue, receiver: Value) -> Value | None:
    """What the property ``getter`` returns read on ``receiver`` (its first parameter), or
    None when the getter is not a plain ``def`` (not followed)."""
    node = getter.node
    if not isinstance(node, ast.FunctionDef):
        return None
    parameter = first_parameter(node.args)
    values: dict[str, Value] = {parameter: receiver} if parameter is not None else {}
    return evaluate_call(interp, getter, values)


class Objects:
    def __init__(self, interp: Interpreter, resolver: ImportResolver | None) -> None:
        self.interp = interp
        self._resolver = resolver
        self._generic: dict[int, Instance] = {}
        self._attribute_stores: AttributeStores | None = None
        self._class_overrides: Overrides | None = None
        # owners whose attributes were written, kept alive: the id in their attribute keys
        # must not be reused while a key lives
        self._written: list[Instance | UserClass] = []

    # ----- reading attributes --------------------------------------------------------------

    def attribute(self, base: Instance, name: str) -> Value | None:
        """``base.name`` for an instance of a user class, or None when not known."""
        written = self.interp.frame.env.lookup(attribute_key(base, name))
        if written is not None:
            return written
        assert base.ref.user is not None
        if base.generic and self.overridden(base.ref.user, name, base):
            return None  # self may be an instance of the subclass that defines it again
        if base.attributes is not None and name in base.attributes:
            return base.attributes[name]
        for cls in user_mro(base.ref.user):
            if name in cls.properties and name in cls.methods:
                found = property_value(self.interp, cls.methods[name], base)
                return found if found is not None else Unknown("a property")
            if name in cls.methods:
                return bound(cls.methods[name], base)
            if name in cls.class_values and name not in cls.fields:
                if declared(cls, name) and constructed_unseen(list(user_mro(base.ref.user)), base):
                    return None
                return None if self._stores().stored(name) else cls.class_values[name]
        return None

    # ----- the generic instance ------------------------------------------------------------

    def forget_new(self) -> Callable[[], None]:
        """A function that forgets the generic instances built from now on (built inside one
        body's walk, their state is that walk's)."""
        before = set(self._generic)

        def forget() -> None:
            for key in set(self._generic) - before:
                del self._generic[key]

        return forget

    def generic_self(self, cls: ClassValue) -> Instance:
        """What a method of ``cls`` sees on ``self`` whoever constructed it."""
        user = cls.ref.user
        assert user is not None
        found = self._generic.get(id(user))
        if found is not None:
            return found
        instance = Instance(cls.ref, CallArgs(), None, attributes={}, generic=True)
        self._generic[id(user)] = instance  # set-up code reading self sees it, not a loop
        written: dict[str, Value] = {}
        for method in self._setup_methods(user, CLASS_SETUP_METHODS):
            written.update(self._setup_writes(method, cls, user, method.defaults))
        for method in self._setup_methods(user, SETUP_METHODS):
            # whoever constructed it may have passed anything: parameters are what their
            # annotations say, never their defaults (`runner=None` is one caller's choice)
            written.update(self._setup_writes(method, instance, instance, {}))
        instance.attributes = self.trusted(written)
        return instance

    def trusted(self, written: dict[str, Value]) -> dict[str, Value]:
        """The attributes construction stored that no other code may change unseen."""
        stores = self._stores()
        if stores.dynamic():
            return {}
        return {k: v for k, v in written.items() if not stores.stored(k)}

    def _setup_methods(self, user: UserClass, names: tuple[str, ...]) -> list[FunctionValue]:
        found: dict[str, FunctionValue] = {}
        for cls in user_mro(user):
            for name in names:
                if name in cls.methods and name not in found:
                    found[name] = cls.methods[name]
        return [found[name] for name in names if name in found]

    def _setup_writes(
        self,
        method: FunctionValue,
        receiver: ClassValue | Instance,
        owner: UserClass | Instance,
        values: dict[str, Value],
    ) -> dict[str, Value]:
        """Walk a set-up method silently with ``receiver`` its first parameter (``cls`` or
        ``self``) and ``values`` bound; the attributes it stores on ``owner``."""
        node = method.node
        if not isinstance(node, ast.FunctionDef):
            return {}
        parameter = first_parameter(node.args)
        if parameter is None:
            return {}
        env = walk_body(self.interp, method, {**values, parameter: receiver})
        return instance_writes(env, owner)

    # ----- construction at a call site ------------------------------------------------------

    def construct(self, instance: Instance, args: CallArgs, node: ast.Call) -> None:
        """Run ``__init__`` (and a dataclass's ``__post_init__``) of a user-class instance
        built at ``node`` with ``args``; what they store becomes its attributes."""
        user = instance.ref.user
        assert user is not None
        written: dict[str, Value] = self._record_fields(user, args)
        if instance.fields is not None and user.pydantic is not None:
            # the JSON a model sends is what validation kept, as its attributes are
            entries = named_entries(written, args.keyword_origins, instance.origin)
            instance.fields = DictValue(entries, instance.origin)
        for cls in user_mro(user):
            if "__init__" in cls.methods:
                init = cls.methods["__init__"]
                if isinstance(init.node, ast.FunctionDef):
                    receiver = bound(init, instance)
                    values, passed = bind_call(self.interp, receiver, init.node.args, args, node)
                    given = [v for v in values.values() if v is not instance]
                    walk = _construction_walk("new", user, node, given)
                    env = walk_body(self.interp, init, values, site=CallSite(walk, passed))
                    written.update(instance_writes(env, instance))
                break
        post = next(
            (c.methods["__post_init__"] for c in user_mro(user) if "__post_init__" in c.methods),
            None,
        )
        post_self = (
            first_parameter(post.node.args)
            if post is not None and isinstance(post.node, ast.FunctionDef)
            else None
        )
        if post is not None and post_self is not None:
            # __post_init__ reads the fields just set (`self.repeats`): what it builds from
            # known fields is checked here, as __init__'s is
            instance.attributes = self.trusted(written)
            fields = [v for k, v in written.items() if k in user.fields]
            walk = _construction_walk("post", user, node, fields)
            values = {**post.defaults, post_self: instance}
            env = walk_body(self.interp, post, values, site=CallSite(walk))
            written.update(instance_writes(env, instance))
        instance.attributes = self.trusted(written)
        if instance.fields is None:
            # a dataclass whose defaults are not literals: its JSON is known once built
            instance.fields = dataclass_json(user, args, instance.attributes, instance.origin)

    def _record_fields(self, user: UserClass, args: CallArgs) -> dict[str, Value]:
        """A dataclass's (or pydantic model's) fields from the call, else their defaults
        (``field(default=...)`` and ``field(default_factory=...)`` understood)."""
        classes = list(user_mro(user))
        if not any(c.fields for c in classes) or any("__init__" in c.methods for c in classes):
            return {}
        kind = user.pydantic
        if kind is not None:
            # pydantic validates what it is given: only what it surely keeps is known
            return model_fields(self.interp, kind, classes, args, self._field_default)
        declared = declared_fields(classes)
        values: dict[str, Value] = dict(zip(declared, args.positional, strict=False))
        values.update(args.keywords)
        for name, statement in declared.items():
            if name in values or args.star_unknown or statement.value is None:
                continue
            values[name] = self._field_default(statement.value)
        return values

    def _field_default(self, default: ast.expr) -> Value:
        with self.interp.silent():
            if not (isinstance(default, ast.Call) and called_name(default.func) == "field"):
                return self.interp.eval(default)
            for keyword in default.keywords:
                if keyword.arg == "default":
                    return self.interp.eval(keyword.value)
                if keyword.arg == "default_factory":
                    factory = self.interp.eval(keyword.value)
                    if isinstance(factory, FunctionValue) and isinstance(factory.node, ast.Lambda):
                        return self.interp.eval(factory.node.body)
                    return self.interp.apply(factory, default, CallArgs())
        return Unknown("a field without a default")

    def object_setattr(self, args: CallArgs) -> None:
        """``object.__setattr__(obj, "name", value)`` on an instance of a user class: the
        write ``obj.name = value`` is (a frozen dataclass cannot be written otherwise)."""
        if len(args.positional) != 3 or args.keywords or args.star_unknown:
            return
        base, name, value = args.positional
        if not isinstance(base, Instance) or base.ref.user is None:
            return
        if not (isinstance(name, Known) and isinstance(name.obj, str)):
            return
        self.write_attribute(base, name.obj, value)

    def write_attribute(self, owner: Instance | UserClass, name: str, value: Value) -> None:
        """``owner.name = value`` in the frame's environment, under :func:`attribute_key`."""
        self.interp.frame.env.names[attribute_key(owner, name)] = value
        self._written.append(owner)  # keeps its id unique while the key lives

    # ----- what may change an attribute behind the flow's back -----------------------------

    def overridden(self, cls: UserClass, member: str, instance: Instance | None = None) -> bool:
        """Whether a subclass of ``cls`` may define ``member`` again (:mod:`.overrides`);
        other files are looked at only when the class (or ``instance``, its generic instance)
        defines it: otherwise nothing would be trusted."""
        if self._class_overrides is None:
            self._class_overrides = Overrides(
                self.interp.source.parsed, self._resolver, self.interp.home
            )
        return self._class_overrides.overridden(
            cls, member, lambda: defines(user_mro(cls), member, instance), self.interp.dependencies
        )

    def _stores(self) -> AttributeStores:
        """The attribute stores of the module walked when first asked (its top level)."""
        if self._attribute_stores is None:
            self._attribute_stores = AttributeStores(self.interp.source.parsed)
        return self._attribute_stores


def _construction_walk(
    kind: str, user: UserClass, node: ast.Call, given: list[Value]
) -> Occasion | None:
    """The occasion of a constructor's walk at ``node`` (``__init__``: "new",
    ``__post_init__``: "post"), labelled with the construction, when a value it is given is
    known; None otherwise (the walk is then silent, :func:`.bodies.walk_body`)."""
    if all(isinstance(value, Unknown) for value in given):
        return None
    label = Label(LabelKind.CONSTRUCT, user.name, node.lineno)
    lines = (node.lineno, node.end_lineno or node.lineno)
    return Occasion(Site(kind, node.lineno, node.col_offset), 0, 0, label, lines)


def is_property(decorators: list[ast.expr]) -> bool:
    return decorated_with(decorators, _PROPERTY_DECORATORS)


def decorated_with(decorators: list[ast.expr], names: frozenset[str]) -> bool:
    """Whether a decorator is one of ``names`` (``@name`` or ``@module.name``)."""
    return any(called_name(decorator) in names for decorator in decorators)


def is_static(decorators: list[ast.expr]) -> bool:
    return any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in decorators)


def is_classmethod(decorators: list[ast.expr]) -> bool:
    return any(isinstance(d, ast.Name) and d.id == "classmethod" for d in decorators)


def is_record(user: UserClass) -> bool:
    """A dataclass or pydantic model (a subclass of the user's model too, and pydantic-settings'
    ``BaseSettings``): its annotated class attributes are constructor fields."""
    return user.pydantic is not None or any(map(is_dataclass_decorator, user.node.decorator_list))


def is_dataclass_decorator(decorator: ast.expr) -> bool:
    """``@dataclass``, ``@dataclasses.dataclass(frozen=True)``, pydantic's: by its spelling
    (the one place that reads it so)."""
    return "dataclass" in ast.unparse(decorator)
