"""Evaluate the arguments of a ``GymRuntimeConfig`` construction against the SDK's constraints.

Abstract values become real Python objects where they are known; unknown parts get
placeholders whose validation errors are dropped (unknown is never diagnosed), refused and
one-shot values inside ``hydra_params`` are collected as content problems (reported at submit),
and every remaining pydantic error is mapped back to where it was written.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from evalsubmit.analysis.models.stdlib_names import MAPPINGS
from evalsubmit.analysis.target import typed
from evalsubmit.analysis.target.json_form import json_key, object_refusal
from evalsubmit.analysis.target.stand_ins import (
    Drained,
    Opaque,
    Placeholder,
    at_placeholder,
    drained,
    stripped,
)
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
from evalsubmit.analysis.values.iterables import as_python
from evalsubmit.analysis.values.objects import CallArgs, FunctionValue, PartialValue
from evalsubmit.core.records import Record
from evalsubmit.sdk import serialization, validation
from evalsubmit.sdk.constraints import CONFIG_FIELDS

if TYPE_CHECKING:
    from evalsubmit.sdk.constraints import CheckedConfig

REQUIRED = ("agent", "agent_config", "resources_server")


class ContentProblem(Record):
    """A value inside ``hydra_params`` with no JSON form (``iterator``: silently sent as [])."""

    __slots__ = ("anchor", "kind", "materialize", "message", "value_origin")
    anchor: Final[Origin | None]
    value_origin: Final[Origin | None]
    message: Final[str]
    kind: Final[str]
    materialize: Final[str | None]

    def __init__(
        self,
        anchor: Origin | None,
        value_origin: Origin | None,
        message: str,
        kind: str,
        materialize: str | None = None,
    ) -> None:
        self.anchor = anchor
        self.value_origin = value_origin
        self.message = message
        self.kind = kind
        self.materialize = materialize


_NO_JSON_FORM = " has no JSON form"


def _held(reason: str) -> str:
    """What is held, of a reason saying it has no JSON form (the messages say the rest)."""
    return reason.removesuffix(_NO_JSON_FORM)


class ConfigIssue(Record):
    """A pydantic error of the construction, at the place it was written."""

    __slots__ = ("anchor", "field", "message", "pydantic_type", "value")
    anchor: Final[Origin | None]
    message: Final[str]
    pydantic_type: Final[str]
    value: Final[Value | None]
    field: Final[str | None]
    """The field it is about (None: the call as a whole)."""

    def __init__(
        self,
        anchor: Origin | None,
        message: str,
        pydantic_type: str,
        value: Value | None = None,
        field: str | None = None,
    ) -> None:
        self.anchor = anchor
        self.message = message
        self.pydantic_type = pydantic_type
        self.value = value
        self.field = field


class ConfigEvaluation(Record, hash=False):
    """What a GymRuntimeConfig construction evaluates to, field by field."""

    __slots__ = (
        "content",
        "converting",
        "issues",
        "kwargs",
        "model",
        "origins",
        "rendered",
        "sent_model",
        "star_unknown",
        "typed_issues",
        "unknowns",
        "values",
    )
    kwargs: dict[str, Any]
    rendered: dict[str, Any]
    unknowns: list[str]
    content: list[ContentProblem]
    issues: list[ConfigIssue]
    model: CheckedConfig | None
    sent_model: CheckedConfig | None
    """When every part is known and valid but one-shot iterators in ``hydra_params``: the
    config as it is sent (each iterator drained to ``[]``)."""
    star_unknown: bool
    """A ``**mapping`` of unknown content may set any field not written."""
    origins: dict[tuple[str | int, ...], Origin]
    values: dict[tuple[str | int, ...], Value]
    typed_issues: list[ConfigIssue]
    """Values of a known type the field surely refuses (their content is unknown)."""
    converting: set[int]
    """The containers being converted (a container met inside itself is a cycle)."""

    def __init__(
        self,
        kwargs: dict[str, Any] | None = None,
        rendered: dict[str, Any] | None = None,
        unknowns: list[str] | None = None,
        content: list[ContentProblem] | None = None,
        issues: list[ConfigIssue] | None = None,
        model: CheckedConfig | None = None,
        sent_model: CheckedConfig | None = None,
        star_unknown: bool = False,
        origins: dict[tuple[str | int, ...], Origin] | None = None,
        values: dict[tuple[str | int, ...], Value] | None = None,
        typed_issues: list[ConfigIssue] | None = None,
        converting: set[int] | None = None,
    ) -> None:
        self.kwargs = {} if kwargs is None else kwargs
        self.rendered = {} if rendered is None else rendered
        self.unknowns = [] if unknowns is None else unknowns
        self.content = [] if content is None else content
        self.issues = [] if issues is None else issues
        self.model = model
        self.sent_model = sent_model
        self.star_unknown = star_unknown
        self.origins = {} if origins is None else origins
        self.values = {} if values is None else values
        self.typed_issues = [] if typed_issues is None else typed_issues
        self.converting = set() if converting is None else converting


MAX_CONFIG_DEPTH = 64


def evaluate_config(args: CallArgs, call_origin: Origin | None) -> ConfigEvaluation:
    """The evaluation of a construction's arguments, from their values as they are now (a
    runner's config is evaluated by ES109, by the derivation at each ``submit()`` of it and by
    the runner's preview: each asks anew, as a value may have changed in between)."""
    result = ConfigEvaluation()
    if args.positional:
        result.issues.append(
            ConfigIssue(call_origin, "GymRuntimeConfig takes keyword arguments only", "positional")
        )
        return result
    for name, value in args.keywords.items():
        origin = args.keyword_origins.get(name)
        if origin is not None:
            result.origins[(name,)] = origin
        result.values[(name,)] = value
        converted, rendered = _to_python(value, (name,), origin, result)
        result.kwargs[name] = converted
        result.rendered[name] = rendered
    if args.star_unknown:
        result.star_unknown = True
        result.unknowns.append("the fields a ** mapping of unknown content may set")
    _validate(result, call_origin, partial=args.star_unknown)
    result.issues.extend(result.typed_issues)
    return result


def _validate(result: ConfigEvaluation, call_origin: Origin | None, *, partial: bool) -> None:
    kwargs = dict(result.kwargs)
    for name in REQUIRED:
        if isinstance(kwargs.get(name), Placeholder) or (partial and name not in kwargs):
            kwargs[name] = "placeholder"
    for name, value in list(kwargs.items()):
        if isinstance(value, Placeholder):
            if name in CONFIG_FIELDS:
                del kwargs[name]
            else:  # no field of the model: refused whatever the value (extra="forbid")
                kwargs[name] = None
                if name in result.unknowns:  # its value does not matter: not said to be unknown
                    result.unknowns.remove(name)
    verdict = validation.validate_config(stripped(kwargs))
    if verdict.config is not None:
        if not result.unknowns and not result.content:
            result.model = verdict.config
        elif not result.unknowns and all(c.kind == "iterator" for c in result.content):
            sent = validation.validate_config(drained(kwargs))
            result.sent_model = sent.config
        return
    for problem in verdict.problems:
        extra = problem.pydantic_type == "extra_forbidden"
        if not extra and at_placeholder(result.kwargs, problem.field_path):
            continue
        anchor = _anchor(result, problem.field_path) or call_origin
        value = result.values.get(problem.field_path[:2]) or result.values.get(
            problem.field_path[:1]
        )
        field = str(problem.field_path[0]) if problem.field_path else None
        result.issues.append(
            ConfigIssue(anchor, problem.message, problem.pydantic_type, value, field)
        )


def _anchor(result: ConfigEvaluation, path: tuple[str | int, ...]) -> Origin | None:
    for length in range(len(path), 0, -1):
        origin = result.origins.get(path[:length])
        if origin is not None:
            return origin
    return None


def _to_python(
    value: Value, path: tuple[str | int, ...], anchor: Origin | None, result: ConfigEvaluation
) -> tuple[Any, Any]:
    """(object for validation, object for the rendered preview)."""
    if isinstance(value, (DictValue, SeqValue)):
        if id(value) in result.converting or len(path) > MAX_CONFIG_DEPTH:
            # A container inside itself, or absurdly deep: this value is unknown, nothing more.
            result.unknowns.append(validation.format_path(path))
            return Placeholder(), "<unknown: contains itself or nested too deeply>"
        result.converting.add(id(value))
        try:
            return _convert(value, path, anchor, result)
        finally:
            result.converting.discard(id(value))
    return _convert(value, path, anchor, result)


_DICT_FIELDS = frozenset((name,) for name in typed.DICT_FIELDS)
"""The config's ``dict`` fields, as paths: a ``Mapping`` given as one is validated into one."""


def _convert(
    value: Value, path: tuple[str | int, ...], anchor: Origin | None, result: ConfigEvaluation
) -> tuple[Any, Any]:
    in_hydra = path[0] == "hydra_params" and len(path) > 1
    match value:
        case Known(obj=obj):
            if in_hydra and not isinstance(obj, (str, int, float, type(None))):
                for _, reason, kind in serialization.find_unjsonable(obj):
                    result.content.append(ContentProblem(anchor, value.origin, _held(reason), kind))
            return obj, obj
        case Instance(fields=DictValue() as fields):
            return _to_python(fields, path, anchor, result)
        case DictValue():
            converted: dict[Any, Any] = {}
            rendered: dict[Any, Any] = {}
            for entry in value.entries:
                known, key = as_python(entry.key)
                if not known:
                    result.unknowns.append(validation.format_path(path) + "[<key>]")
                    continue
                if in_hydra and not isinstance(key, (str, int, float, type(None))):
                    for _, reason, kind in serialization.find_unjsonable({key: None}):
                        result.content.append(
                            ContentProblem(entry.origin or anchor, None, _held(reason), kind)
                        )
                sub: tuple[str | int, ...] = (*path, key)
                entry_anchor = entry.origin or anchor
                if entry.origin is not None:
                    result.origins[sub] = entry.origin
                result.values[sub] = entry.value
                converted[key], rendered[json_key(key)] = _to_python(
                    entry.value, sub, entry_anchor, result
                )
            if not value.complete:
                result.unknowns.append(validation.format_path(path) + "[…]")
            return converted, rendered
        case SeqValue(complete=False):
            result.unknowns.append(validation.format_path(path))
            return Placeholder(), "<unknown: changed at run time>"
        case SeqValue(kind=sequence_class, items=items):  # (`kind` above is a str)
            pairs = [
                _to_python(item, (*path, index), anchor, result) for index, item in enumerate(items)
            ]
            try:
                return sequence_class(p[0] for p in pairs), [p[1] for p in pairs]
            except TypeError:  # unhashable items in a set literal fail at run time anyway
                result.unknowns.append(validation.format_path(path))
                return Placeholder(), "<unknown: a set of items that may not be hashable>"
        case Unknown(reason=reason):
            types = value.types()
            refused = typed.refusal(path, types, reason) if types else None
            if refused is not None:
                result.typed_issues.append(
                    ConfigIssue(anchor, refused, "typed", value, str(path[0]))
                )
            result.unknowns.append(validation.format_path(path))
            return Placeholder(), f"<unknown: {reason}>"
        case OneShot(reason=reason):
            if in_hydra:
                result.content.append(ContentProblem(anchor, value.origin, reason, "iterator"))
            return Drained(reason), []
        case Refused(reason=reason) if path == ("env_vars",) and reason.startswith("os.environ"):
            result.unknowns.append("env_vars (copied from os.environ at run time)")
            return Placeholder(), "<unknown: copied from os.environ at run time>"
        case Refused(type_qualname=qualname) if path in _DICT_FIELDS and qualname in MAPPINGS:
            # the whole hydra_params/env_vars: pydantic validates any Mapping into a dict
            result.unknowns.append(validation.format_path(path))
            return Placeholder(), f"<unknown: a {qualname}, validated into a dict>"
        case Refused(reason=reason):
            if in_hydra:
                result.content.append(
                    ContentProblem(anchor, value.origin, reason, "refused", value.materialize)
                )
            return Opaque(reason), f"<error: {reason}>"
    refusal = object_refusal(value)
    if refusal is None:
        result.unknowns.append(validation.format_path(path))
        return Placeholder(), "<unknown: not statically known>"
    if in_hydra:
        origin = (
            value.origin if isinstance(value, (Instance, FunctionValue, PartialValue)) else None
        )
        result.content.append(ContentProblem(anchor, origin, refusal, "refused"))
    return Opaque(refusal), f"<error: {refusal}>"
