"""``argparse``: what ``parser.parse_args()`` holds, from the ``add_argument`` calls before it.

An option's value comes from the command line, so it stays unknown; what is known is its type
and whether it can be ``None``. An option is never ``None`` when it is positional, required,
has a default that is not ``None``, or is a flag (``store_true``); its type is ``type=``'s, else
its default's, else its choices', else ``str`` (argparse's own default). The parser records
its options as keywords of its own (new versions of its arguments, as a config gets: a sealed
walk's stay in its layer).
"""

from __future__ import annotations

from evalsubmit.analysis.models.stdlib_names import NAMESPACE
from evalsubmit.analysis.values.domain import Instance, Known, Origin, SeqValue, Unknown, Value
from evalsubmit.analysis.values.objects import CallArgs, ClassRef, ClassValue
from evalsubmit.analysis.values.store import open_keywords, store_keyword

_OPTION = "@option."
_BUILTIN_TYPES = {"builtins.str": "str", "builtins.int": "int", "builtins.float": "float"}
_FLAGS = {"store_true": "bool", "store_false": "bool"}


def add_argument(parser: Instance, args: CallArgs) -> Value:
    """Record the option ``parser.add_argument(*names, **settings)`` adds."""
    names = [p.obj for p in args.positional if isinstance(p, Known) and isinstance(p.obj, str)]
    if len(names) != len(args.positional) or not names or args.star_unknown:
        open_keywords(parser)  # an option we cannot name: the namespace is open
        return Unknown("an argparse action")
    dest = _dest(names, args.keywords.get("dest"))
    if dest is None:
        open_keywords(parser)
        return Unknown("an argparse action")
    store_keyword(parser, _OPTION + dest, _option_value(names, args.keywords), None)
    return Unknown("an argparse action")


def parsed_namespace(parser: Instance, origin: Origin | None) -> Instance:
    """What ``parser.parse_args()`` returns: a Namespace holding each recorded option."""
    options = {
        name[len(_OPTION) :]: value
        for name, value in parser.args.keywords.items()
        if name.startswith(_OPTION)
    }
    namespace = Instance(ClassRef(NAMESPACE), CallArgs(star_unknown=True), origin)
    namespace.attributes = options
    return namespace


def _dest(names: list[str], explicit: Value | None) -> str | None:
    if isinstance(explicit, Known) and isinstance(explicit.obj, str):
        return explicit.obj
    longs = [n for n in names if n.startswith("--")]
    chosen = longs[0][2:] if longs else names[0].lstrip("-")
    return chosen.replace("-", "_") if chosen.isidentifier() or "-" in chosen else None


def _option_value(names: list[str], settings: dict[str, Value]) -> Value:
    where = f"from the command line ({names[-1]})"
    action = settings.get("action")
    if isinstance(action, Known) and action.obj in _FLAGS:
        return Unknown(where, _FLAGS[str(action.obj)])
    if action is not None or "nargs" in settings:
        return Unknown(where)  # appends, counts, lists: not followed
    kind = _type_of(settings)
    default = settings.get("default")
    required = settings.get("required")
    never_none = (
        not names[0].startswith("-")
        or (isinstance(required, Known) and required.obj is True)
        or (isinstance(default, Known) and default.obj is not None)
    )
    if kind is None:
        return Unknown(where)
    return Unknown(where, kind if never_none else f"{kind}|None")


def _type_of(settings: dict[str, Value]) -> str | None:
    converter = settings.get("type")
    if converter is not None:
        if isinstance(converter, ClassValue):
            return _BUILTIN_TYPES.get(converter.ref.qualname)
        return None  # a function of the user's: its result's type is not followed
    default = settings.get("default")
    if isinstance(default, Known) and default.obj is not None:
        return type(default.obj).__name__ if isinstance(default.obj, (str, int, float)) else None
    choices = settings.get("choices")
    if isinstance(choices, SeqValue) and choices.complete and choices.items:
        kinds = {type(c.obj).__name__ for c in choices.items if isinstance(c, Known)}
        return kinds.pop() if len(kinds) == 1 and len(choices.items) > 0 else None
    return "str"
