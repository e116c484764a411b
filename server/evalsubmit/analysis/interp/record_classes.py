"""What construction leaves on the user's record-like classes, beyond ``models.classes``.

The JSON object a plain ``@dataclass`` instance sends: its fields as construction left them.
``models.classes.build_instance`` knows it only when every default is a literal; a default
that names a function (``on_rollout: Callable = log_rollout``) or a ``default_factory`` is
known once construction has evaluated it (``Objects._record_fields``). Taken only where it is
certain: one class without user bases, no constructor hooks, no ``ClassVar``/``InitVar``/
``KW_ONLY`` or ``field(init=...)`` declarations, a call that binds, and no field that other
code of the module may change after construction (the caller's ``trusted``).

And when a declared attribute (``name: T = default``) of a class that is no known record is
not its class default on an instance: a base or decorator the engine does not know may make
the class a record (an unresolved ``BaseSettings``, attrs' ``@define``, ``msgspec.Struct``).
"""

from __future__ import annotations

import ast

from evalsubmit.analysis.interp.spelling import spelled_name
from evalsubmit.analysis.values.dict_entries import named_entries
from evalsubmit.analysis.values.domain import DictValue, Instance, Origin, Value
from evalsubmit.analysis.values.objects import CallArgs, ClassValue, UserClass

_HOOKS = frozenset({"__init__", "__new__", "__post_init__", "__setattr__", "__getattr__"})
_SPECIAL_ANNOTATIONS = ("ClassVar", "InitVar", "KW_ONLY")


def declared_fields(classes: list[UserClass]) -> dict[str, ast.AnnAssign]:
    """The names a record's classes (the record first) annotate, in the order dataclasses and
    pydantic make their fields: a base's first; a name a subclass declares again stays where
    the base put it, with the subclass's declaration (its default)."""
    declared: dict[str, ast.AnnAssign] = {}
    for cls in reversed(classes):
        for statement in cls.node.body:
            if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
                declared[statement.target.id] = statement
    return declared


def dataclass_json(
    user: UserClass, args: CallArgs, trusted: dict[str, Value], origin: Origin | None
) -> DictValue | None:
    """The fields of a plain dataclass instance built with ``args``, or None when not sure;
    ``trusted`` is what construction stored that no other code may change unseen."""
    node = user.node
    if user.bases or _HOOKS & set(user.methods) or not _decorated_dataclass(node):
        return None
    names: list[str] = []
    for statement in node.body:
        if not isinstance(statement, ast.AnnAssign):
            continue
        if not isinstance(statement.target, ast.Name):
            return None
        if any(s in ast.unparse(statement.annotation) for s in _SPECIAL_ANNOTATIONS):
            return None
        if _field_call_with_init(statement.value):
            return None
        names.append(statement.target.id)
    if args.star_unknown or len(args.positional) > len(names) or set(args.keywords) - set(names):
        return None  # a TypeError at run time, or fields not known
    if any(name not in trusted for name in names):
        return None
    values = {name: trusted[name] for name in names}
    # a field is written where its keyword is; a default or a positional argument writes no
    # key: a finding about its value lands on the key that holds the instance
    return DictValue(named_entries(values, args.keyword_origins), origin)


def _decorated_dataclass(node: ast.ClassDef) -> bool:
    return any(spelled_name(decorator) == "dataclass" for decorator in node.decorator_list)


def _field_call_with_init(value: ast.expr | None) -> bool:
    """``field(init=False)``: a positional argument does not reach it."""
    return isinstance(value, ast.Call) and any(k.arg == "init" for k in value.keywords)


_NAMED_TUPLE = "typing.NamedTuple"
_PLAIN_BASES = frozenset(
    {"builtins.object", "abc.ABC", "unittest.TestCase", "unittest.IsolatedAsyncioTestCase"}
)


def declared(cls: UserClass, name: str) -> bool:
    """Whether the class body declares ``name: T = default``, the way a field is declared."""
    return any(
        isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name) and s.target.id == name
        for s in cls.node.body
    )


def constructed_unseen(classes: list[UserClass], instance: Instance) -> bool:
    """Whether construction may set the declared attributes of ``instance`` (``classes``: its
    class and its user bases) in code the engine does not see: a base or decorator it does
    not know on a class that is no known record; the class default is then not what the
    instance holds. A ``NamedTuple`` field holds its class default only when not given."""
    for cls in classes:
        if cls.decorators and not cls.fields:
            return True
        for base in cls.bases:
            if not isinstance(base, ClassValue):
                return True
            if base.ref.user is None and base.ref.qualname == _NAMED_TUPLE:
                if _given(instance.args):
                    return True
            elif base.ref.user is None and base.ref.qualname not in _PLAIN_BASES:
                return True
    return False


def _given(args: CallArgs) -> bool:
    """Whether the call may have given a field (then not its default; which one is not
    worth telling apart)."""
    return args.star_unknown or bool(args.positional) or bool(args.keywords)
