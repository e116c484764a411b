"""Models of builtins and standard-library callables whose results matter to the JSON rule.

Only literal arguments are ever turned into real objects here (``Path("/x")``, ``datetime(2024,
1, 1)``); nothing from the user's code is executed. Everything not modelled is unknown. Which
names are modelled, and as what, is listed in :mod:`.stdlib_names`; this module turns a call or
a read of one of them into a value, and holds the models whose result depends on the arguments
(``range``, ``zip``, ``sorted``, ``dict(...)``, ``Counter``...).
"""

from __future__ import annotations

import builtins
import collections
import math
import pathlib
import sys
from collections.abc import Callable
from typing import Any

from evalsubmit.analysis.models.stdlib_names import (
    ARGUMENT_PARSER,
    CONVERTERS,
    DICT_LIKE,
    LITERAL_CONSTRUCTORS,
    MATERIALIZING,
    MODELLED_MODULES,
    NAMEDTUPLE,
    ONE_SHOT,
    REFUSED_CALL_CLASSES,
    REFUSED_CALLS,
    REFUSED_NAME_CLASSES,
    REFUSED_NAMES,
    STR_FUNCTIONS,
    TYPED_RESULTS,
    literal_constructor,
)
from evalsubmit.analysis.values.dict_entries import Entries
from evalsubmit.analysis.values.domain import (
    DictValue,
    Instance,
    Known,
    OneShot,
    Origin,
    Refused,
    SeqValue,
    Unknown,
    Value,
)
from evalsubmit.analysis.values.iterables import (
    as_python,
    distinct,
    items_of,
    known_range,
    pairs_to_dict,
    zipped,
)
from evalsubmit.analysis.values.objects import CallArgs, ClassRef, ClassValue

_MAX_LITERAL = 100_000


def call_stdlib(qualname: str, args: CallArgs, origin: Origin | None) -> Value | None:
    """The value of calling a modelled stdlib callable, or ``None`` when not modelled."""
    special = _SPECIAL.get(qualname)
    if special is not None:
        return special(args, origin)
    if qualname == ARGUMENT_PARSER:
        return Instance(ClassRef(qualname), args, origin)
    if _is_exception_class(qualname):
        return Refused("an exception object", origin, type_qualname=qualname)
    if qualname in ONE_SHOT:
        return OneShot(ONE_SHOT[qualname], origin)
    if qualname in REFUSED_CALLS:
        reason, fix = REFUSED_CALLS[qualname]
        made = REFUSED_CALL_CLASSES.get(qualname, qualname)
        return Refused(reason, origin, materialize=fix, type_qualname=made)
    if qualname in MATERIALIZING:
        return _materialize(MATERIALIZING[qualname], args, origin)
    if qualname in CONVERTERS:
        return _convert(qualname, args, origin)
    if qualname == "builtins.dict" or qualname in DICT_LIKE:
        return _dict(args, origin)
    if qualname in LITERAL_CONSTRUCTORS:
        return _construct(qualname, args, origin)
    if qualname in {"os.getenv", "os.environ.get"}:
        return Unknown("read from the environment", _environment_type(args))
    if qualname in TYPED_RESULTS:
        reason, type_name = TYPED_RESULTS[qualname]
        return Unknown(reason, type_name)
    if qualname in STR_FUNCTIONS:
        return Unknown("computed at run time", "str")
    return None


def stdlib_constant(qualname: str, origin: Origin | None) -> Value | None:
    if qualname in REFUSED_NAMES:
        return Refused(
            REFUSED_NAMES[qualname], origin, type_qualname=REFUSED_NAME_CLASSES.get(qualname)
        )
    if qualname == "datetime.timezone.utc":
        return Known(_utc(), origin)
    if qualname in {"math.inf", "math.nan", "math.pi", "math.e"}:
        return Known(getattr(math, qualname.split(".")[1]), origin)
    if qualname.startswith("builtins.") or (
        "." in qualname and qualname.split(".")[0] in MODELLED_MODULES
    ):
        return ClassValue(ClassRef(qualname))
    return None


def _utc() -> object:
    import datetime  # when the analysed code names it (loaded by its literal constructors too)

    return datetime.UTC


def _materialize(kind: type, args: CallArgs, origin: Origin | None) -> Value:
    if not args.positional:
        return SeqValue(kind, (), origin) if not args.keywords else Unknown(type_name=kind.__name__)
    items = items_of(args.positional[0])
    if items is None:
        return Unknown("materialised at run time", kind.__name__)
    if kind in (set, frozenset):
        kept = distinct(items)
        if kept is None:
            return SeqValue(kind, items, origin, complete=False)
        items = tuple(items[i] for i in kept)
    return SeqValue(kind, items, origin)


def _sorted(args: CallArgs, origin: Origin | None) -> Value:
    items = items_of(args.positional[0]) if len(args.positional) == 1 else None
    if items is None or args.keywords:
        return Unknown("sorted at run time", "list")
    ok, obj = as_python(SeqValue(list, items))
    try:
        return Known(sorted(obj), origin) if ok else Unknown("sorted at run time", "list")
    except TypeError:
        return Unknown("sorted at run time", "list")


def _len(args: CallArgs, origin: Origin | None) -> Value:
    """``len()`` of a container whose items are known (never of an iterator: a TypeError)."""
    value = args.positional[0] if len(args.positional) == 1 else None
    items = items_of(value) if isinstance(value, (Known, SeqValue, DictValue)) else None
    if items is None or args.keywords:
        return Unknown("the result of len()")  # as any call not modelled
    return Known(len(items), origin)


def _range(args: CallArgs, origin: Origin | None) -> Value:
    return known_range(args.positional, origin)


def _zip(args: CallArgs, origin: Origin | None) -> Value:
    return zipped(args.positional, origin)


def _enumerate(args: CallArgs, origin: Origin | None) -> Value:
    items = items_of(args.positional[0]) if len(args.positional) == 1 else None
    if items is None or args.keywords or args.star_unknown:
        return OneShot(ONE_SHOT["builtins.enumerate"], origin)
    pairs: list[Value] = [
        SeqValue(tuple, (Known(index, origin), item), origin) for index, item in enumerate(items)
    ]
    return OneShot(ONE_SHOT["builtins.enumerate"], origin, pairs)


def _counter(args: CallArgs, origin: Origin | None) -> Value:
    if len(args.positional) == 1 and not args.keywords:
        ok, obj = as_python(args.positional[0])
        if ok and isinstance(obj, (str, list, tuple)):
            return _defaulting(_known_dict(dict(collections.Counter(obj)), origin))
    return Unknown("counted at run time", "dict")


def _defaultdict(args: CallArgs, origin: Origin | None) -> Value:
    return _defaulting(_dict(args.after_first(), origin))


def _defaulting(value: Value) -> Value:
    if isinstance(value, DictValue):  # made by the caller, not yet seen by anything else
        value.default_on_missing = True
    return value


def _deque(args: CallArgs, origin: Origin | None) -> Value:
    if not args.positional:
        return SeqValue(list, (), origin)
    items = items_of(args.positional[0])
    return SeqValue(list, items, origin) if items is not None else Unknown(type_name="deque")


def _asdict(args: CallArgs, origin: Origin | None) -> Value:
    """``dataclasses.asdict(instance)``: the fields of a dataclass instance known by value."""
    source = args.positional[0] if len(args.positional) == 1 else None
    if isinstance(source, Instance) and source.fields is not None:
        return DictValue(source.fields.entries, origin, source.fields.complete)
    return Unknown("a dataclass as a dict", "dict")


def _namedtuple(args: CallArgs, origin: Origin | None) -> Value:
    return ClassValue(ClassRef(NAMEDTUPLE))


def _known_dict(obj: dict[Any, Any], origin: Origin | None) -> DictValue:
    entries = Entries()
    for key, value in obj.items():
        entries.put(Known(key, origin), Known(value, origin), origin)
    return entries.dict(origin)


def _environment_type(args: CallArgs) -> str:
    """``os.environ.get(k, "x")`` is a ``str``; without a string default it may be None."""
    default = args.positional[1] if len(args.positional) > 1 else args.keywords.get("default")
    if isinstance(default, Known) and isinstance(default.obj, str):
        return "str"
    return "None|str"


_SPECIAL: dict[str, Callable[[CallArgs, Origin | None], Value]] = {
    "builtins.range": _range,
    "builtins.len": _len,
    "builtins.zip": _zip,
    "builtins.enumerate": _enumerate,
    "builtins.sorted": _sorted,
    "collections.Counter": _counter,
    "collections.defaultdict": _defaultdict,
    "collections.deque": _deque,
    "collections.namedtuple": _namedtuple,
    "dataclasses.asdict": _asdict,
}


def _is_exception_class(qualname: str) -> bool:
    module, _, name = qualname.partition(".")
    found = getattr(builtins, name, None) if module == "builtins" else None
    return isinstance(found, type) and issubclass(found, BaseException)


def _convert(qualname: str, args: CallArgs, origin: Origin | None) -> Value:
    name = qualname.split(".")[1]
    if len(args.positional) == 1 and not args.keywords:
        source = args.positional[0]
        if isinstance(source, Known) and isinstance(
            source.obj, (str, int, float, bool, pathlib.PurePath, *_decimal_types())
        ):
            if name == "str" and isinstance(source.obj, (int, float)) and abs(source.obj) > 1e300:
                return Unknown(type_name="str")
            try:
                return Known(CONVERTERS[qualname](source.obj), origin)
            except (ValueError, TypeError, OverflowError):
                return Unknown(type_name=name)
    if not args.positional and not args.keywords:
        return Known({"str": "", "int": 0, "float": 0.0, "bool": False}[name], origin)
    return Unknown("converted at run time", name)


def _dict(args: CallArgs, origin: Origin | None) -> Value:
    entries = Entries(complete=not args.star_unknown)
    if args.positional:
        source = args.positional[0]
        if not isinstance(source, DictValue):
            items = items_of(source)
            built = pairs_to_dict(items, origin) if items is not None else None
            if built is None:
                return Unknown("built at run time", "dict")
            source = built
        entries.unpack(source)
    if args.star_unknown:
        entries.overridden()  # ``dict(D, **unknown)``: D's entries may be replaced
    for key, value in args.keywords.items():
        entries.put(Known(key), value, args.keyword_origins.get(key))
    return entries.dict(origin)


def _type_of(qualname: str) -> str:
    """The run-time type name of what a modelled constructor returns."""
    name = qualname.rsplit(".", 1)[1]
    return "PosixPath" if name == "Path" else name


def _construct(qualname: str, args: CallArgs, origin: Origin | None) -> Value:
    if args.star_unknown:
        return Unknown(type_name=_type_of(qualname))
    positional: list[Any] = []
    for value in args.positional:
        if not isinstance(value, Known):
            return Unknown(type_name=_type_of(qualname))
        positional.append(value.obj)
    keywords: dict[str, Any] = {}
    for key, value in args.keywords.items():
        if not isinstance(value, Known):
            return Unknown(type_name=_type_of(qualname))
        keywords[key] = value.obj
    if any(isinstance(v, (str, bytes)) and len(v) > _MAX_LITERAL for v in positional):
        return Unknown(type_name=_type_of(qualname))
    construct = literal_constructor(qualname)  # imports its module (decimal's errors then)
    refused: tuple[type[Exception], ...] = (TypeError, ValueError, OverflowError)
    refused += _decimal_errors()
    try:
        return Known(construct(*positional, **keywords), origin)
    except refused:
        return Unknown(type_name=_type_of(qualname))


def _decimal_types() -> tuple[type, ...]:
    """``decimal.Decimal`` once :mod:`decimal` is loaded: it is imported when a literal
    constructor needs it, not with the models (no Decimal value can exist before)."""
    module = sys.modules.get("decimal")
    return (module.Decimal,) if module is not None else ()


def _decimal_errors() -> tuple[type[Exception], ...]:
    """``decimal.InvalidOperation`` once :mod:`decimal` is loaded (as :func:`_decimal_types`)."""
    module = sys.modules.get("decimal")
    return (module.InvalidOperation,) if module is not None else ()


def is_refused_instance(instance: Instance) -> str | None:
    """Why an instance of a stdlib class is refused by the JSON rule, or ``None``."""
    if instance.ref.qualname in REFUSED_CALLS:
        return REFUSED_CALLS[instance.ref.qualname][0]
    return None
