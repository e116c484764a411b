"""Our own pydantic models of the Gym runner config and its wire target (reference §6).

``GymRuntimeConfigModel`` mirrors ``nemo_evaluator_sdk.agent_eval.runtimes.gym.GymRuntimeConfig``
and ``GymRunnerTargetModel`` mirrors ``nemo_evaluator.jobs.agent_spec.GymRunnerTarget`` of the
release in :mod:`evalsubmit.sdk.version`: same fields, order, types, defaults, constraints and
lax-mode coercions, so validating a literal config here gives the SDK's verdict and
:func:`derive_target_json` gives the exact JSON of
``runner_to_target(runner).model_dump(mode="json")``. The contract test (``tests/contract``)
checks both against the real SDK.

:func:`find_unjsonable` classifies the values that pass construction (``hydra_params`` is
``dict[str, Any]``) but cannot travel as JSON (reference §6.4). Nothing here imports or runs user
code: it only ever sees Python objects the caller built itself.
"""

from __future__ import annotations

import collections
import dataclasses
import difflib
import enum
import functools
import io
import os
import pathlib
import types
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal, Protocol, Self, runtime_checkable

import pydantic_core
from pydantic import BaseModel, ConfigDict, Field, RootModel, ValidationError, model_validator
from pydantic import field_validator as _field_validator

FieldPath = tuple[str | int, ...]
UnjsonableKind = Literal["refused", "iterator", "non-utf8"]
JsonTrouble = tuple[FieldPath, str, UnjsonableKind]


class GymRuntimeConfigModel(BaseModel):
    """``GymRuntimeConfig`` (pydantic, ``extra="forbid"``, no assignment validation, not frozen)."""

    model_config = ConfigDict(extra="forbid")

    agent: str
    agent_config: str
    resources_server: str
    model_type: str = "inference_provider"
    bind_resources_server: bool = True
    hydra_params: dict[str, Any] = Field(default_factory=dict)
    env_vars: dict[str, str] = Field(default_factory=dict)
    num_repeats: int = Field(default=1, ge=1)
    concurrency: int = Field(default=4, ge=1)
    startup_timeout_s: float = Field(default=240.0, gt=0)
    collection_timeout_s: float | None = Field(default=None, gt=0)
    shutdown_grace_s: float = Field(default=30.0, gt=0)
    reward_key: str = "reward"


CONFIG_FIELDS: tuple[str, ...] = tuple(GymRuntimeConfigModel.model_fields)
WIRE_ONLY_FIELDS: frozenset[str] = frozenset(
    {"kind", "environment", "agent_ref_name", "env_secrets"}
)


class SecretRefModel(RootModel[str]):
    """``nemo_evaluator_sdk.values.SecretRef``: ``secret`` or ``workspace/secret``."""

    root: str = Field(pattern=r"^[A-Za-z0-9_-]+(/[A-Za-z0-9_-]+)?$")


class FilesetRefModel(RootModel[str]):
    """``nemo_evaluator.filesets.FilesetRef``: a plain string root (JSON: the string)."""

    root: str


def _fileset_file_path(ref: str) -> str:
    """The file part of a FileSet reference, as ``filesets.parse_fileset_ref`` splits it.

    Raises ``ValueError`` where that parser raises ``FilesetPathError`` (a workspace fallback is
    always given by the SDK's validator, so a missing workspace is never an error).
    """
    ref = ref.removeprefix("fileset://").lstrip("/")
    if not ref:
        raise ValueError("Path must include fileset name")
    if "#" in ref:
        fileset_part, file_path = ref.split("#", 1)
        file_path = file_path.lstrip("/")
        fileset = fileset_part.rsplit("/", 1)[-1]
    else:
        parts = ref.split("/")
        fileset = parts[0] if len(parts) == 1 else parts[1]
        file_path = "/".join(parts[2:])
    if not fileset:
        raise ValueError("Fileset name is required")
    return file_path


class GymRunnerTargetModel(BaseModel):
    """``GymRunnerTarget``: the wire form of a Gym runner (reference §6.3 field order)."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["gym"] = "gym"
    environment: FilesetRefModel | None = None
    agent: str
    agent_config: str | None = None
    resources_server: str
    model_type: str = "inference_provider"
    bind_resources_server: bool = True
    hydra_params: dict[str, Any] = Field(default_factory=dict)
    env_vars: dict[str, str] = Field(default_factory=dict)
    agent_ref_name: str | None = None
    env_secrets: dict[str, SecretRefModel] = Field(default_factory=dict)
    num_repeats: int = Field(default=1, ge=1)
    concurrency: int = Field(default=4, ge=1)
    startup_timeout_s: float = Field(default=240.0, gt=0)
    collection_timeout_s: float | None = Field(default=None, gt=0)
    shutdown_grace_s: float = Field(default=30.0, gt=0)
    reward_key: str = "reward"

    @_field_validator("environment")
    @classmethod
    def _require_whole_environment_fileset(
        cls, value: FilesetRefModel | None
    ) -> FilesetRefModel | None:
        if value is None:
            return None
        try:
            file_path = _fileset_file_path(value.root)
        except ValueError as exc:
            raise ValueError(f"invalid environment FileSet reference: {value.root!r}") from exc
        if file_path:
            raise ValueError("environment FileSet references must not include a file fragment")
        return value

    @model_validator(mode="after")
    def _require_builtin_agent_config_without_environment(self) -> Self:
        if self.environment is None and self.agent_config is None:
            raise ValueError(
                "The agent_config field is required when no environment FileSet is supplied"
            )
        return self


# --------------------------------------------------------------------------- validation


@dataclass(frozen=True, slots=True)
class ConfigProblem:
    """One pydantic error of a ``GymRuntimeConfig`` construction, worded for users."""

    field_path: FieldPath
    """Pydantic's ``loc``: ``("num_repeats",)``, ``("env_vars", "HF_HOME")``,
    ``("hydra_params", 1, "[key]")`` for a bad key."""
    message: str
    pydantic_type: str
    """Pydantic's error ``type``: ``missing``, ``extra_forbidden``, ``greater_than_equal``…"""


@dataclass(frozen=True, slots=True)
class ConfigVerdict:
    """Either the validated config (``config``) or the problems (``problems``), never both."""

    config: GymRuntimeConfigModel | None
    problems: tuple[ConfigProblem, ...] = ()

    @property
    def ok(self) -> bool:
        return self.config is not None


def validate_config(kwargs: Mapping[str, object]) -> ConfigVerdict:
    """Validate what ``GymRuntimeConfig(**kwargs)`` / ``.model_validate(kwargs)`` would receive."""
    try:
        config = GymRuntimeConfigModel.model_validate(dict(kwargs))
    except ValidationError as exc:
        return ConfigVerdict(None, tuple(problems_from_error(exc)))
    return ConfigVerdict(config)


def problems_from_error(exc: ValidationError) -> list[ConfigProblem]:
    return [
        ConfigProblem(tuple(err["loc"]), _message(err), err["type"])
        for err in exc.errors(include_url=False)
    ]


def format_path(path: FieldPath) -> str:
    """``("env_vars", "HF_HOME")`` -> ``env_vars['HF_HOME']``; ``("h", 0)`` -> ``h[0]``."""
    if not path:
        return "<config>"
    text = str(path[0])
    for part in path[1:]:
        text += f"[{part!r}]"
    return text


def _short(value: object) -> str:
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
    got = _short(err.get("input"))
    if loc and loc[-1] == "[key]":
        owner = format_path(loc[:-2])
        return f"keys of `{owner}` must be strings, got {_short(loc[-2])}"
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


# --------------------------------------------------------------------------- derivation


class UnserializableConfig(Exception):
    """The runner's config has no JSON form (the SDK's ``UnsubmittableRunnerError`` case, and the
    ``UnicodeDecodeError`` / ``io.UnsupportedOperation`` crashes that escape its probe)."""

    def __init__(self, path: FieldPath, reason: str) -> None:
        super().__init__(f"{format_path(path)}: {reason}")
        self.path = path
        self.reason = reason


def derive_target_json(config: GymRuntimeConfigModel) -> dict[str, Any]:
    """``runner_to_target(GymAgentTaskRunner(config=config)).model_dump(mode="json")``.

    Same steps as the SDK: a target built from the config's Python-mode dump, one JSON probe dump,
    then the dump that is returned (so one-shot iterators come out as ``[]``, as they are sent).
    A ``ValidationError`` of the target (a config mutated after construction) propagates.
    """
    target = GymRunnerTargetModel(**config.model_dump())
    troubles = find_unjsonable(config.hydra_params, ("hydra_params",))
    try:
        target.model_dump(mode="json")
    except (pydantic_core.PydanticSerializationError, ValueError, TypeError, OSError) as exc:
        bad = [t for t in troubles if t[2] != "iterator"]
        path, reason = (bad[0][0], bad[0][1]) if bad else (("hydra_params",), str(exc))
        raise UnserializableConfig(path, reason) from exc
    return target.model_dump(mode="json")


# --------------------------------------------------------------------------- JSON classification


@runtime_checkable
class ValueMarker(Protocol):
    """A stand-in the static evaluator puts where it knows only what kind of value is there.

    ``evalsubmit_kind`` is ``"refused"``, ``"iterator"``, ``"non-utf8"`` (reported with
    ``evalsubmit_reason``) or ``"unknown"`` (never reported).
    """

    @property
    def evalsubmit_kind(self) -> str: ...

    @property
    def evalsubmit_reason(self) -> str: ...


_MARKER_KINDS: dict[str, UnjsonableKind] = {k: k for k in ("refused", "iterator", "non-utf8")}
_FINE_LEAVES: tuple[type, ...] = (str, int, float, type(None))
_REFUSED_TYPES: tuple[tuple[type | tuple[type, ...], str], ...] = (
    (range, "a range is not JSON; wrap it in list(...)"),
    (
        (type({}.keys()), type({}.values()), type({}.items())),
        "a dict view is not JSON; wrap it in list(...)",
    ),
    (type(os.environ), "os.environ is not JSON; use dict(os.environ) or pick the variables"),
    (
        (collections.UserDict, types.MappingProxyType),
        "this mapping type is not JSON; use dict(...)",
    ),
    ((memoryview,), "a memoryview is not JSON; use bytes(...).decode() or a list"),
    (types.ModuleType, "a module has no JSON form"),
    (BaseException, "an exception object has no JSON form"),
    (slice, "a slice has no JSON form"),
)
_CALLABLES: tuple[type, ...] = (types.FunctionType, types.BuiltinFunctionType, types.MethodType)
_CALLABLES += (functools.partial, types.BuiltinMethodType, staticmethod, classmethod, property)
_SYNC_TYPE_NAMES = frozenset(
    {"lock", "RLock", "Event", "Condition", "Semaphore", "BoundedSemaphore", "Barrier"}
)


def find_unjsonable(value: object, path: FieldPath = ()) -> list[JsonTrouble]:
    """Every place inside ``value`` (dicts, lists, tuples, sets, dataclasses, at any depth) whose
    JSON serialisation fails or is silently wrong, as ``(path, reason, kind)``.

    ``kind`` is ``"refused"`` (the SDK raises ``UnsubmittableRunnerError`` or another exception),
    ``"iterator"`` (drained by the SDK's probe: sent as ``[]``) or ``"non-utf8"`` (bytes that
    are not UTF-8: ``UnicodeDecodeError``). Never consumes an iterator.
    """
    out: list[JsonTrouble] = []
    _walk(value, path, out, depth=0)
    return out


def _walk(value: object, path: FieldPath, out: list[JsonTrouble], depth: int) -> None:
    if depth > 200:
        return
    if isinstance(value, _FINE_LEAVES) and not isinstance(value, enum.Enum):
        return
    # A plain attribute probe: isinstance() against a runtime_checkable Protocol is slow.
    if hasattr(value, "evalsubmit_kind") and not isinstance(value, type):
        marker: Any = value
        kind = _MARKER_KINDS.get(marker.evalsubmit_kind)
        if kind is not None:
            out.append((path, marker.evalsubmit_reason, kind))
        return
    if isinstance(value, bytes | bytearray):
        try:
            bytes(value).decode("utf-8")
        except UnicodeDecodeError:
            out.append((path, "bytes that are not valid UTF-8 cannot be sent", "non-utf8"))
        return
    if isinstance(value, enum.Enum):
        _walk(value.value, path, out, depth + 1)
        return
    if isinstance(value, dict):
        for key, item in value.items():
            key_trouble = _key_trouble(key)
            if key_trouble is not None:
                out.append((path, key_trouble, "refused"))
            _walk(item, (*path, key if isinstance(key, str | int) else repr(key)), out, depth + 1)
        return
    if isinstance(value, list | tuple | set | frozenset | collections.deque):
        for index, item in enumerate(value):
            _walk(item, (*path, index), out, depth + 1)
        return
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            _walk(getattr(value, f.name), (*path, f.name), out, depth + 1)
        return
    if isinstance(value, BaseModel):
        for name in type(value).model_fields:
            _walk(getattr(value, name, None), (*path, name), out, depth + 1)
        return
    if isinstance(value, io.IOBase):
        if not _readable(value):
            out.append((path, "an unreadable stream cannot be serialised", "refused"))
        else:
            out.append((path, "an open file/stream is read once and sent as []", "iterator"))
        return
    if isinstance(value, Iterator):
        out.append(
            (path, f"a one-shot {_type_name(value)} is sent as []; use list(...)", "iterator")
        )
        return
    reason = _refused_reason(value)
    if reason is not None:
        out.append((path, reason, "refused"))


def _readable(stream: io.IOBase) -> bool:
    try:
        return bool(stream.readable())
    except Exception:
        return False


def _type_name(value: object) -> str:
    name = type(value).__name__
    return {"generator": "generator", "map": "map(...)", "zip": "zip(...)"}.get(name, name)


def _key_trouble(key: object) -> str | None:
    if isinstance(key, str | int | float | type(None)):
        return None
    try:
        pydantic_core.to_json({key: None})
    except Exception:
        return f"dict key {_short(key)} has no JSON form"
    return None


def _refused_reason(value: object) -> str | None:
    if isinstance(value, type):
        return f"the class {value.__name__} itself has no JSON form; instantiate it or use a string"
    if isinstance(value, _CALLABLES):
        return "a function/callable has no JSON form; pass data, not code"
    for kinds, reason in _REFUSED_TYPES:
        if isinstance(value, kinds):
            return reason
    if isinstance(value, pathlib.PurePath) and not isinstance(value, pathlib.Path):
        return "a pure path is not JSON (only concrete Path is); use str(...)"
    if type(value).__name__ in _SYNC_TYPE_NAMES:
        return "a synchronisation object has no JSON form"
    try:
        pydantic_core.to_json(value)
    except Exception:
        return f"a {_type_name(value)} object has no JSON form"
    return None
