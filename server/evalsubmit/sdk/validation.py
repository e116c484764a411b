"""Validating a ``GymRuntimeConfig``, and wording pydantic's errors for users.

:func:`validate_config` gives the SDK's verdict on the arguments of a construction (the contract
tests check the same error locations and types as the real SDK); each error becomes a
:class:`ConfigProblem` whose message says what is wrong in the user's terms (the field, the bound,
the value given, the close field name that was probably meant). Kept apart from the models so the
mirrors stay a plain copy of the SDK's fields.

The plain tables of :mod:`.constraints` decide the common values without pydantic; only a value
they do not hold (a ``Decimal``, an enum member, bytes…) loads pydantic and the mirror
(:mod:`.models`) to validate. A check of a file whose configs hold plain literals never imports
pydantic (``evalsubmit check`` starts in a few tens of milliseconds).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from evalsubmit.core.records import Record
from evalsubmit.sdk import constraints
from evalsubmit.sdk.constraints import CONFIG_FIELDS, WIRE_ONLY_FIELDS, CheckedConfig, FieldPath

if TYPE_CHECKING:
    from pydantic import ValidationError


class ConfigProblem(Record):
    """One pydantic error of a ``GymRuntimeConfig`` construction, worded for users."""

    __slots__ = (
        "field_path",
        "message",
        "pydantic_type",
    )
    field_path: Final[FieldPath]
    """Pydantic's ``loc``: ``("num_repeats",)``, ``("env_vars", "HF_HOME")``,
    ``("hydra_params", 1, "[key]")`` for a bad key."""
    message: Final[str]
    pydantic_type: Final[str]
    """Pydantic's error ``type``: ``missing``, ``extra_forbidden``, ``greater_than_equal``…"""

    def __init__(self, field_path: FieldPath, message: str, pydantic_type: str) -> None:
        self.field_path = field_path
        self.message = message
        self.pydantic_type = pydantic_type


class ConfigVerdict(Record):
    """Either the validated config (``config``) or the problems (``problems``), never both."""

    __slots__ = (
        "config",
        "problems",
    )
    config: Final[CheckedConfig | None]
    problems: Final[tuple[ConfigProblem, ...]]

    def __init__(
        self, config: CheckedConfig | None, problems: tuple[ConfigProblem, ...] = ()
    ) -> None:
        self.config = config
        self.problems = problems

    @property
    def ok(self) -> bool:
        return self.config is not None


def validate_config(kwargs: Mapping[str, object]) -> ConfigVerdict:
    """Validate what ``GymRuntimeConfig(**kwargs)`` / ``.model_validate(kwargs)`` would receive."""
    data = dict(kwargs)
    checked = constraints.check(data)
    if checked is None:
        return validate_with_mirror(data)
    values, errors = checked
    if errors:
        return ConfigVerdict(None, tuple(_problem(err) for err in errors))
    return ConfigVerdict(CheckedConfig(values))


def validate_with_mirror(data: dict[str, object]) -> ConfigVerdict:
    """:func:`validate_config` by the pydantic mirror (values the tables do not decide)."""
    from pydantic import ValidationError

    from evalsubmit.sdk.models import GymRuntimeConfigModel

    try:
        model = GymRuntimeConfigModel.model_validate(data)
    except ValidationError as exc:
        return ConfigVerdict(None, tuple(problems_from_error(exc)))
    return ConfigVerdict(CheckedConfig({name: getattr(model, name) for name in CONFIG_FIELDS}))


def problems_from_error(exc: ValidationError) -> list[ConfigProblem]:
    return [_problem(err) for err in exc.errors(include_url=False)]


def _problem(err: Any) -> ConfigProblem:
    return ConfigProblem(tuple(err["loc"]), _message(err), err["type"])


def format_path(path: FieldPath) -> str:
    """``("env_vars", "HF_HOME")`` -> ``env_vars['HF_HOME']``; ``("h", 0)`` -> ``h[0]``."""
    if not path:
        return "<config>"
    text = str(path[0])
    for part in path[1:]:
        text += f"[{part!r}]"
    return text


def short_repr(value: object) -> str:
    """``repr(value)``, at most 60 characters (and never an exception from a bad ``__repr__``)."""
    try:
        text = repr(value)
    except Exception:
        text = f"<{type(value).__name__}>"
    return text if len(text) <= 60 else text[:57] + "..."


def _bound(value: object) -> object:
    return int(value) if isinstance(value, float) and value.is_integer() else value


def _message(err: Any) -> str:
    loc: FieldPath = tuple(err["loc"])
    kind: str = err["type"]
    ctx: dict[str, Any] = err.get("ctx") or {}
    got = short_repr(err.get("input"))
    if loc and loc[-1] == "[key]":
        owner = format_path(loc[:-2])
        return f"keys of `{owner}` must be strings, got {short_repr(loc[-2])}"
    name = format_path(loc)
    in_env = len(loc) == 2 and loc[0] == "env_vars"
    if kind == "missing":
        return f"`{name}` is required but missing"
    if kind == "extra_forbidden":
        field = str(loc[0]) if loc else name
        if field in WIRE_ONLY_FIELDS:
            return (
                f"`{field}` is not a GymRuntimeConfig field: it exists only on the wire target "
                "GymRunnerTarget, which a live runner cannot express"
            )
        import difflib  # an unknown field only

        close = difflib.get_close_matches(field, CONFIG_FIELDS, n=1)
        hint = f"; did you mean `{close[0]}`?" if close else ""
        return f"unknown GymRuntimeConfig field `{field}`{hint}"
    if kind == "greater_than_equal":
        return f"`{name}` must be ≥ {_bound(ctx.get('ge'))}, got {got}"
    if kind == "greater_than":
        return f"`{name}` must be > {_bound(ctx.get('gt'))}, got {got}"
    if kind in {"int_type", "int_parsing", "int_from_float", "int_parsing_size"}:
        return f"`{name}` must be an integer, got {got}"
    if kind in {"float_type", "float_parsing", "finite_number"}:
        return f"`{name}` must be a number, got {got}"
    if kind in {"bool_type", "bool_parsing"}:
        return f"`{name}` must be a boolean (True/False), got {got}"
    if kind in {"string_type", "string_unicode"}:
        if in_env:
            return (
                f"environment variable values must be strings: `{name}` is {got}; "
                f"write it as a string, e.g. str(...)"
            )
        return f"`{name}` must be a string, got {got}"
    if kind in {"dict_type", "mapping_type"}:
        return f"`{name}` must be a dict, got {got}"
    return f"`{name}`: {err['msg']}"
