"""Contract: the plain constraint tables (``evalsubmit.sdk.constraints``) against our pydantic
mirror and against the real SDK's ``GymRuntimeConfig`` (nemo-platform 0.6.0, run in its own venv
by ``constraint_oracle.py``), over the generated inputs of ``constraint_cases.py``.

* the tables hold the same fields as both models: order, type, required, default, bounds, extra;
* on every input the tables decide, :func:`constraints.check` gives the mirror's verdict: the same
  errors (location, type, bound, input) in the same order, or the same validated values (type
  and ``repr``); on the others it answers ``None`` and :func:`validate_config` uses the mirror;
* :func:`validate_config` gives the real SDK's verdict and the same problems (messages worded
  from the SDK's own errors), and a valid config the SDK's wire target JSON;
* the tables decide the common inputs (or the check path would load pydantic again).
"""

from __future__ import annotations

import datetime
import decimal
import importlib.util
import json
import pathlib
import re
import sys
import types
import uuid
from typing import Any

import pydantic
import pydantic_core
import pytest

from evalsubmit.sdk import constraints, serialization
from evalsubmit.sdk.constraints import CONFIG_FIELDS, GYM_CONFIG_RULES, CheckedConfig
from evalsubmit.sdk.models import GymRunnerTargetModel, GymRuntimeConfigModel
from evalsubmit.sdk.serialization import UnserializableConfig, derive_target_json
from evalsubmit.sdk.validation import (
    _message,
    problems_from_error,
    validate_config,
    validate_with_mirror,
)
from evalsubmit.sdk.version import SDK_VERSION


def _load_cases() -> types.ModuleType:
    path = pathlib.Path(__file__).resolve().parent / "constraint_cases.py"
    spec = importlib.util.spec_from_file_location("evalsubmit_constraint_cases", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CASES_MODULE = _load_cases()
NAMESPACE: dict[str, Any] = {}
exec(CASES_MODULE.PREAMBLE, NAMESPACE)
CASES: list[tuple[str, str]] = CASES_MODULE.cases()


def _group(case_id: str) -> str:
    """The field a generated case sets (``num_repeats-7``), or ``special``."""
    head, _, tail = case_id.rpartition("-")
    return head if head in CONFIG_FIELDS and tail.isdigit() else "special"


GROUPS: dict[str, list[tuple[str, str]]] = {}
for _case_id, _source in CASES:
    GROUPS.setdefault(_group(_case_id), []).append((_case_id, _source))
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")

_ANNOTATIONS = {
    "str": "<class 'str'>",
    "bool": "<class 'bool'>",
    "int": "<class 'int'>",
    "float": "<class 'float'>",
    "dict[str, Any]": "dict[str, typing.Any]",
    "dict[str, str]": "dict[str, str]",
}


def _data(source: str) -> Any:
    return eval(source, NAMESPACE)


def _shown(text: str) -> str:
    return _ADDRESS.sub(" at 0x…", text)


def _ctx(ctx: Any) -> dict[str, float] | None:
    return {key: float(value) for key, value in ctx.items()} if ctx else None


def _error(err: Any, input_repr: str | None = None) -> dict[str, Any]:
    shown = input_repr if input_repr is not None else repr(err["input"])
    return {
        "loc": list(err["loc"]),
        "type": err["type"],
        "ctx": _ctx(err.get("ctx")),
        "input": _shown(shown),
    }


def _values(values: dict[str, Any]) -> dict[str, list[str]]:
    return {name: [type(value).__name__, _shown(repr(value))] for name, value in values.items()}


def by_tables(data: Any) -> dict[str, Any] | None:
    checked = constraints.check(data)
    if checked is None:
        return None
    values, errors = checked
    if errors:
        return {"errors": [_error(e) for e in errors]}
    return {"values": _values(values)}


def by_mirror(data: Any) -> dict[str, Any]:
    try:
        model = GymRuntimeConfigModel.model_validate(data)
    except pydantic.ValidationError as exc:
        return {"errors": [_error(e) for e in exc.errors(include_url=False)]}
    return {"values": _values({name: getattr(model, name) for name in CONFIG_FIELDS})}


class _Shown:
    """An error input known only by its ``repr`` (from the SDK's process)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


# ------------------------------------------------------------------ the tables themselves


def _rule_facts() -> dict[str, dict[str, Any]]:
    out = {}
    for rule in GYM_CONFIG_RULES:
        annotation = _ANNOTATIONS[rule.kind] + (" | None" if rule.nullable else "")
        default = rule.default_factory() if rule.default_factory else rule.default
        bounds = {k: float(v) for k, v in (("ge", rule.ge), ("gt", rule.gt)) if v is not None}
        out[rule.name] = {
            "annotation": annotation.replace("<class 'float'> | None", "float | None"),
            "required": rule.required,
            "default": None if rule.required else repr(default),
            "factory": rule.default_factory is not None,
            "bounds": bounds,
        }
    return out


def test_tables_match_the_mirror() -> None:
    mirror = {}
    for name, info in GymRuntimeConfigModel.model_fields.items():
        bounds = {
            key: float(getattr(meta, key))
            for meta in info.metadata
            for key in ("ge", "gt", "le", "lt")
            if getattr(meta, key, None) is not None
        }
        mirror[name] = {
            "annotation": repr(info.annotation),
            "required": info.is_required(),
            "default": None
            if info.is_required()
            else repr(info.get_default(call_default_factory=True)),
            "factory": info.default_factory is not None,
            "bounds": bounds,
        }
    assert _rule_facts() == mirror
    assert list(mirror) == list(CONFIG_FIELDS) == list(CheckedConfig.__annotations__)
    assert sorted(CheckedConfig.__slots__) == sorted(CONFIG_FIELDS)
    assert constraints.EXTRA_FORBIDDEN
    assert GymRuntimeConfigModel.model_config["extra"] == "forbid"
    wire = [f for f in GymRunnerTargetModel.model_fields if f != "kind"]
    assert list(serialization._TARGET_ORDER) == wire
    assert set(wire) - set(CONFIG_FIELDS) == constraints.WIRE_ONLY_FIELDS - {"kind"}


def test_tables_match_the_sdk_model(constraint_oracle: dict[str, Any]) -> None:
    assert constraint_oracle["sdk"]["nemo_platform"] == SDK_VERSION
    assert constraint_oracle["extra"] == "forbid"
    assert constraints.EXTRA_FORBIDDEN
    sdk = {
        name: {**facts, "bounds": {k: float(v) for k, v in facts["bounds"].items()}}
        for name, facts in constraint_oracle["fields"].items()
    }
    for facts in sdk.values():
        assert facts.pop("metadata") == len(facts["bounds"]), facts  # no constraint unaccounted
    assert _rule_facts() == sdk
    assert list(sdk) == list(CONFIG_FIELDS)


# ------------------------------------------------------------------ verdicts: tables vs mirror


@pytest.mark.parametrize("group", list(GROUPS))
def test_check_matches_the_mirror(group: str) -> None:
    mismatches = []
    for case_id, source in GROUPS[group]:
        data = _data(source)
        expected = by_mirror(data)
        tables = by_tables(data)
        if tables is not None and tables != expected:
            mismatches.append((case_id, source, tables, expected))
        verdict = validate_config(data)
        mirror = validate_with_mirror(data)
        if verdict != mirror:
            mismatches.append((case_id, source, verdict, mirror))
    assert not mismatches, "\n".join(map(repr, mismatches))


@pytest.mark.parametrize("group", list(GROUPS))
def test_problems_are_worded_as_the_mirrors(group: str) -> None:
    """Same problems (location, message, type) from the tables' errors as from pydantic's."""
    for case_id, source in GROUPS[group]:
        data = _data(source)
        try:
            GymRuntimeConfigModel.model_validate(data)
        except pydantic.ValidationError as exc:
            expected = tuple(problems_from_error(exc))
        else:
            expected = ()
        problems = validate_config(data).problems
        assert problems == expected, (case_id, source)
        for problem in problems:  # every error type the tables make has its own wording
            assert not problem.message.startswith(f"`{problem.field_path[0]}`: "), problem


# ------------------------------------------------------------------ verdicts: ours vs the SDK


@pytest.mark.parametrize("group", list(GROUPS))
def test_validate_config_matches_the_sdk(group: str, constraint_oracle: dict[str, Any]) -> None:
    mismatches = []
    for case_id, source in GROUPS[group]:
        expected = constraint_oracle["cases"][case_id]
        data = _data(source)
        verdict = validate_config(data)
        tables = by_tables(data)
        if "errors" in expected:
            errors = [_error(e, e["input"]) for e in expected["errors"]]
            if tables is not None and tables != {"errors": errors}:
                mismatches.append((case_id, "tables", tables, errors))
            worded = [
                (tuple(e["loc"]), _shown(_message({**e, "input": _Shown(e["input"])})), e["type"])
                for e in expected["errors"]
            ]
            ours = [(p.field_path, _shown(p.message), p.pydantic_type) for p in verdict.problems]
            if verdict.config is not None or ours != worded:
                mismatches.append((case_id, "problems", ours, worded))
            continue
        values = expected["values"]
        if verdict.config is None or _values(verdict.config.values()) != values:
            mismatches.append((case_id, "values", verdict, values))
            continue
        if tables is not None and tables != {"values": values}:
            mismatches.append((case_id, "tables", tables, values))
        try:
            target: Any = derive_target_json(verdict.config)
        except (UnserializableConfig, ValueError) as exc:
            target = {"error": type(exc).__name__}
        if "error" in expected["target"]:
            if "error" not in target:
                mismatches.append((case_id, "target", target, expected["target"]))
        elif json.dumps(target) != json.dumps(expected["target"]):
            mismatches.append((case_id, "target", target, expected["target"]))
    assert not mismatches, "\n".join(map(repr, mismatches))


def test_the_plain_target_is_the_mirrors(constraint_oracle: dict[str, Any]) -> None:
    """Wherever the target JSON is written directly, the mirrors' steps give the same JSON."""
    written = 0
    for case_id, source in CASES:
        verdict = validate_config(_data(source))
        if verdict.config is None:
            continue
        values = verdict.config.values()
        plain = serialization.plain_target_json(values)
        if plain is None:
            continue
        written += 1
        by_mirror_steps = serialization._target_json_by_mirror(values)
        assert json.dumps(plain) == json.dumps(by_mirror_steps), case_id
        assert json.dumps(plain) == json.dumps(constraint_oracle["cases"][case_id]["target"])
    assert written >= 400


def test_a_config_mutated_after_construction_is_revalidated() -> None:
    """The SDK validates the wire target again; so does the plain path (then the mirror)."""
    verdict = validate_config(dict(NAMESPACE["REQ"]))
    assert verdict.config is not None
    verdict.config.num_repeats = 0
    with pytest.raises(pydantic.ValidationError):
        derive_target_json(verdict.config)
    verdict.config.num_repeats = "3"  # type: ignore[assignment]
    assert derive_target_json(verdict.config)["num_repeats"] == 3


# ------------------------------------------------------------------ the tables decide enough


MUST_DECIDE = {
    "True", "False", "0", "1", "2", "-1", "3", "1.0", "2.5", "0.0", "float('inf')",
    "float('nan')", "'3'", "'abc'", "'yes'", "'no'", "''", "None", "[]", "{}", "{'a': 1}",
    "()", "pathlib.Path('x')", "Opaque()", "Stand()", "{'a': 1, 'b': 'x'}", "{1: 'x'}",
    "{'a': '1', 'b': 'x'}", "{'a': [1, 'x']}", "{'a': {'b': 'c'}}", "{'a': Opaque()}",
}  # fmt: skip


def test_the_tables_decide_the_common_values() -> None:
    undecided = []
    for case_id, source in CASES:
        value = source.split(": ", 1)[-1][:-1] if _group(case_id) != "special" else ""
        if (value in MUST_DECIDE or not value) and by_tables(_data(source)) is None:
            undecided.append((case_id, source))
    assert not undecided, undecided
    decided = sum(by_tables(_data(source)) is not None for _, source in CASES)
    assert decided >= 0.7 * len(CASES), (decided, len(CASES))


# ------------------------------------------------------------------ JSON-able standard types


def test_the_jsonable_types_are_serialised_by_pydantic() -> None:
    samples = [
        pathlib.Path("/p"),
        datetime.datetime(2024, 1, 1, tzinfo=datetime.UTC),
        datetime.date(2024, 1, 1),
        datetime.time(1, 2),
        datetime.timedelta(seconds=3),
        decimal.Decimal("1.5"),
        decimal.Decimal("NaN"),
        uuid.UUID(int=1),
    ]
    listed = set()
    for module, name in serialization._JSONABLE_TYPES:
        loaded = sys.modules.get(module)
        if loaded is not None and hasattr(loaded, name):
            listed.add(getattr(loaded, name))
    assert listed - {pathlib.WindowsPath} == {type(s) for s in samples}
    for sample in samples:
        pydantic_core.to_json(sample)
        assert serialization._surely_jsonable(sample)
        assert serialization.find_unjsonable({"a": [sample]}) == []
    assert not serialization._surely_jsonable(pathlib.PurePosixPath("/p"))


class _OddZone(datetime.tzinfo):
    def utcoffset(self, dt: datetime.datetime | None) -> datetime.timedelta:
        raise ValueError("no offset")


@pytest.mark.parametrize(
    "value",
    [
        pathlib.Path("\udcff"),
        datetime.datetime(2024, 1, 1, tzinfo=_OddZone()),
        datetime.time(1, tzinfo=_OddZone()),
    ],
)
def test_what_pydantic_may_refuse_is_left_to_it(value: Any) -> None:
    """A non-UTF-8 path or a tzinfo of one's own: pydantic decides (and refuses these)."""
    assert not serialization._surely_jsonable(value)
    with pytest.raises(pydantic_core.PydanticSerializationError):
        pydantic_core.to_json(value)
    assert [kind for _, _, kind in serialization.find_unjsonable({"a": value})] == ["refused"]
