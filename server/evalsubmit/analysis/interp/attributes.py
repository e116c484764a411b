"""Attribute reads: what ``value.name`` is, on modules, classes, the SDK's objects and the user's
instances.

What an attribute is decides much of what the rules see: ``client.evaluator`` is the evaluator
whose ``submit`` is checked, ``runner.config`` the config given to the runner, ``os.environ`` a
refused value. Reads of the user's instances are answered by :mod:`.objects` (through the
interp); ``super().name`` is read in :mod:`.expressions`, before ``super()`` would be
evaluated; an attribute nobody models is unknown.
"""

from __future__ import annotations

import ast
import enum
from typing import TYPE_CHECKING

from evalsubmit.analysis.interp.class_lookup import bound, sdk_class_of, user_mro
from evalsubmit.analysis.interp.objects import attribute_key, is_classmethod, property_value
from evalsubmit.analysis.interp.pytest_marks import PYTEST_REQUEST
from evalsubmit.analysis.models import stdlib
from evalsubmit.analysis.models.classes import enum_user_class, enum_value_origin
from evalsubmit.analysis.models.members import known_data, member_kind, stdlib_class
from evalsubmit.analysis.models.stdlib_names import ARGUMENT_PARSER, NAMESPACE, PARSE_METHODS
from evalsubmit.analysis.values.domain import (
    DictValue,
    Instance,
    Known,
    Refused,
    SeqValue,
    Unknown,
    Value,
)
from evalsubmit.analysis.values.objects import (
    CallArgs,
    ClassRef,
    ClassValue,
    FunctionValue,
    ModuleValue,
    UserClass,
)
from evalsubmit.analysis.values.store import store_keyword
from evalsubmit.sdk import constraints
from evalsubmit.sdk import names as sdk

if TYPE_CHECKING:
    from evalsubmit.analysis.interp.interpreter import Interpreter


_EVALUATOR_OF_CLIENT = {
    sdk.PLATFORM_CLIENT: sdk.EVALUATOR,
    sdk.ASYNC_PLATFORM_CLIENT: sdk.ASYNC_EVALUATOR,
}
"""``client.evaluator``: the evaluator class of each platform client."""


class Attributes:
    """The attribute reads of :class:`.expressions.Expressions`."""

    def __init__(self, interp: Interpreter) -> None:
        self.interp = interp

    def _enum_property(self, base: Known, member: enum.Enum, name: str) -> Value | None:
        """A property of a user enum's class read on one of its members (``self`` the
        member), or None for anything else (methods stay what they were: not followed)."""
        user = enum_user_class(member)
        if user is None:
            return None
        for cls in user_mro(user):
            if name in cls.methods:
                if name not in cls.properties:
                    return None
                return property_value(self.interp, cls.methods[name], base)
        return None

    def attribute(self, base: Value, node: ast.Attribute) -> Value:
        """``base.name`` read at ``node`` (``base`` the value of ``node.value``)."""
        name = node.attr
        if isinstance(base, Known) and isinstance(base.obj, enum.Enum):
            found = self._enum_property(base, base.obj, name)
            if found is not None:
                return found
        match base:
            case ModuleValue(qualname=qualname):
                return self.interp.import_value(f"{qualname}.{name}")
            case ClassValue(ref=ClassRef(qualname=qualname, user=None)):
                found = stdlib.stdlib_constant(f"{qualname}.{name}", self.interp.origin(node))
                return found if found is not None else ClassValue(ClassRef(f"{qualname}.{name}"))
            case ClassValue(ref=ClassRef(user=UserClass() as user)):
                written = self.interp.frame.env.lookup(attribute_key(user, name))
                if written is not None:
                    return written
                if base.generic and self.interp.overridden(user, name):
                    return Unknown(f"{name}, which a subclass of {user.name} defines again")
                if name in user.enum_members:
                    return Known(user.enum_members[name], self.interp.origin(node))
                for cls in user_mro(user):
                    if name in cls.class_values and name not in cls.methods:
                        return cls.class_values[name]
                    if name in cls.methods:
                        method = cls.methods[name]
                        definition = method.node
                        if isinstance(definition, ast.FunctionDef | ast.AsyncFunctionDef) and (
                            is_classmethod(definition.decorator_list)
                        ):
                            return bound(method, base)  # ``cls`` is the class read from
                        return method
                return Unknown(f"attribute of class {user.name}")
            case Instance(ref=ref):
                return self.instance_attribute(base, ref, name, node)
            case Known(obj=enum.Enum() as member) if name in {"value", "name"}:
                literal = enum_value_origin(member) if name == "value" else None
                return Known(getattr(member, name), literal or self.interp.origin(node))
            case DictValue() | SeqValue() | Known():
                kind = member_kind(_modelled_type(base), name)
                if kind == "method":
                    return FunctionValue(
                        f"bound method .{name}()", None, self.interp.origin(node), None, base
                    )
                if kind == "data" and isinstance(base, Known):
                    # a property or slot (Path.stem, date.year): data, never a method
                    return known_data(base.obj, name, self.interp.origin(node))
                # a NamedTuple's field, or an attribute of an object modelled as its tuple
                # or dict: what it reads is only known at run time
                return Unknown(f"the attribute .{name}, read at run time")
            case Unknown(element=element) if element is not None:
                container = _BUILTIN_CONTAINERS.get(base.type_name or "")
                if container is not None and member_kind(container, name) != "method":
                    return Unknown(f"the attribute .{name}, read at run time")
                return FunctionValue(
                    f"bound method .{name}()", None, self.interp.origin(node), None, base
                )
            case Refused(reason=reason) if reason.startswith("os.environ") and name == "get":
                return ClassValue(ClassRef("os.environ.get"))  # modelled as os.getenv
            case Refused(reason=reason, type_qualname=qualname) if not reason.startswith(
                "os.environ"
            ):
                # a method only when its class has one of that name: a SimpleNamespace's
                # fields and a Logger's name are data the instance holds, not known here
                owner = stdlib_class(qualname) if qualname else None
                if owner is None or member_kind(owner, name) != "method":
                    return Unknown(f"the attribute .{name}, read at run time")
                return Refused(f"a bound method .{name} of {reason}", self.interp.origin(node))
        return Unknown()

    def instance_attribute(
        self, base: Instance, ref: ClassRef, name: str, node: ast.Attribute
    ) -> Value:
        if ref.user is not None:
            found = self.interp.user_attribute(base, name)
            if found is not None:
                return found
        qualname = sdk_class_of(ref)
        if name == "evaluator" and qualname in _EVALUATOR_OF_CLIENT:
            evaluator = ClassRef(_EVALUATOR_OF_CLIENT[qualname])
            client = CallArgs(keywords={"client": base})
            return Instance(evaluator, client, self.interp.origin(node))
        is_runner = qualname in sdk.RUNNER_CLASSES or ref.user is not None
        if is_runner and name == "config" and "config" in base.args.keywords:
            return base.args.keywords["config"]
        if qualname == sdk.GYM_CONFIG:
            known = config_field(base, name)
            if known is not None:
                return known
        modelled = qualname == sdk.GYM_CONFIG and name in {"model_dump", "model_copy"}
        modelled = modelled or (qualname == ARGUMENT_PARSER and name in PARSE_METHODS)
        if _is_logging_method(qualname, name) or _is_submit(qualname, name) or modelled:
            return FunctionValue(
                f"bound method {ref.qualname}.{name}", None, self.interp.origin(node), None, base
            )
        if ref.qualname in _HOLDERS and base.attributes and name in base.attributes:
            # an option of the parser it came from; the param an indirect case gives a fixture
            return base.attributes[name]
        return Unknown(f"attribute {name} of {ref.qualname.rsplit('.', 1)[-1]}")


_HOLDERS = frozenset({NAMESPACE, PYTEST_REQUEST})
"""Classes whose instances the engine makes with the attributes they hold."""


def _is_logging_method(qualname: str, name: str) -> bool:
    """``log.info`` is a bound method of a ``logging.Logger``; ``log.name`` is data."""
    owner = stdlib_class(qualname) if qualname.startswith("logging.") else None
    return owner is not None and member_kind(owner, name) == "method"


_BUILTIN_CONTAINERS: dict[str, type] = {
    "list": list,
    "dict": dict,
    "tuple": tuple,
    "set": set,
    "frozenset": frozenset,
}


def _is_submit(qualname: str, name: str) -> bool:
    return name == "submit" and qualname in {sdk.EVALUATOR, sdk.ASYNC_EVALUATOR}


def config_field(config: Instance, name: str) -> Value | None:
    """A ``GymRuntimeConfig``'s field: as constructed, else its default when every keyword
    is known (a plain default: ``num_repeats`` is 1; the config's own empty dict for
    ``hydra_params`` and ``env_vars``, so what is stored into it is in the config)."""
    if name in config.args.keywords:
        return config.args.keywords[name]
    rule = constraints.GYM_CONFIG_RULES_BY_NAME.get(name)
    if config.args.star_unknown or rule is None or rule.required:
        return None
    if rule.default_factory is dict:
        made = DictValue()
        store_keyword(config, name, made, None)
        return made
    if rule.default_factory:
        return None
    default = rule.default
    return Known(default) if default is None or isinstance(default, (str, int, float)) else None


def _modelled_type(value: DictValue | SeqValue | Known) -> type:
    """The Python type a plain value is modelled as (its methods are that type's)."""
    if isinstance(value, SeqValue):
        return value.kind
    return dict if isinstance(value, DictValue) else type(value.obj)
