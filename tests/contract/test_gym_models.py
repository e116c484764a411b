"""Unit tests of ``gym_models`` that need no SDK: messages, markers, classification details."""

from __future__ import annotations

import io
import os
import pathlib
import threading
from typing import Any

import pytest

from evalsubmit.sdk.models import CONFIG_FIELDS, GymRunnerTargetModel, GymRuntimeConfigModel
from evalsubmit.sdk.serialization import UnserializableConfig, derive_target_json, find_unjsonable
from evalsubmit.sdk.validation import format_path, validate_config

REQ: dict[str, Any] = {"agent": "simple_agent", "agent_config": "c.yaml", "resources_server": "m"}


def messages(**kwargs: Any) -> list[str]:
    verdict = validate_config({**REQ, **kwargs})
    assert verdict.config is None and not verdict.ok
    return [p.message for p in verdict.problems]


def test_config_fields_match_wire_order() -> None:
    wire = [f for f in GymRunnerTargetModel.model_fields if f in GymRuntimeConfigModel.model_fields]
    assert list(CONFIG_FIELDS) == wire
    assert len(CONFIG_FIELDS) == 13 and len(GymRunnerTargetModel.model_fields) == 17


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        ({"num_repeats": 0}, "`num_repeats` must be ≥ 1, got 0"),
        ({"startup_timeout_s": -1}, "`startup_timeout_s` must be > 0, got -1"),
        ({"num_repeats": 2.5}, "`num_repeats` must be an integer, got 2.5"),
        ({"bind_resources_server": "maybe"}, "must be a boolean (True/False), got 'maybe'"),
        ({"env_vars": {"CUDA": 0}}, "`env_vars['CUDA']` is 0"),
        ({"hydra_params": {1: 2}}, "keys of `hydra_params` must be strings, got 1"),
        ({"hydra_params": []}, "`hydra_params` must be a dict, got []"),
        (
            {"num_repeat": 3},
            "unknown GymRuntimeConfig field `num_repeat`; did you mean `num_repeats`?",
        ),
        ({"env_secrets": {}}, "`env_secrets` is not a GymRuntimeConfig field"),
        ({"agent_config": pathlib.Path("a.yaml")}, "`agent_config` must be a string, got Posix"),
    ],
)
def test_messages_are_for_users(kwargs: dict[str, Any], expected: str) -> None:
    assert any(expected in m for m in messages(**kwargs)), messages(**kwargs)


def test_missing_required_and_problem_fields() -> None:
    verdict = validate_config({"agent": "a"})
    assert [(p.field_path, p.pydantic_type) for p in verdict.problems] == [
        (("agent_config",), "missing"),
        (("resources_server",), "missing"),
    ]
    assert verdict.problems[0].message == "`agent_config` is required but missing"


def test_valid_verdict_and_lax_coercions() -> None:
    verdict = validate_config({**REQ, "num_repeats": "3", "bind_resources_server": "no"})
    assert verdict.ok and verdict.problems == ()
    assert verdict.config is not None
    assert (verdict.config.num_repeats, verdict.config.bind_resources_server) == (3, False)
    body = derive_target_json(verdict.config)
    assert body["kind"] == "gym" and body["num_repeats"] == 3 and body["env_secrets"] == {}


def test_format_path() -> None:
    assert format_path(("env_vars", "HF_HOME")) == "env_vars['HF_HOME']"
    assert format_path(("hydra_params", "a", 0)) == "hydra_params['a'][0]"


def test_plain_objects() -> None:
    gen = (i for i in range(3))
    value = {
        "ok": [1, "x", None, 1.5, pathlib.Path("/p"), {2: (3,)}, b"ok", {4}],
        "gen": gen,
        "lock": threading.Lock(),
        "env": os.environ,
        "pure": pathlib.PurePosixPath("/x"),
        "rng": range(2),
        "fn": len,
        "cls": float,
        "bad": b"\xff",
        "sio": io.StringIO("a"),
        "nested": [{"deep": [lambda: 0]}],
    }
    found = {path: kind for path, _, kind in find_unjsonable(value)}
    assert found == {
        ("gen",): "iterator",
        ("lock",): "refused",
        ("env",): "refused",
        ("pure",): "refused",
        ("rng",): "refused",
        ("fn",): "refused",
        ("cls",): "refused",
        ("bad",): "non-utf8",
        ("sio",): "iterator",
        ("nested", 0, "deep", 0): "refused",
    }
    assert list(gen) == [0, 1, 2], "classification must not consume iterators"


def test_derive_raises_with_the_path() -> None:
    verdict = validate_config({**REQ, "hydra_params": {"a": {"cb": print}}})
    assert verdict.config is not None
    with pytest.raises(UnserializableConfig) as caught:
        derive_target_json(verdict.config)
    assert caught.value.path == ("hydra_params", "a", "cb")


def test_models_inside_hydra_params_are_walked_without_consuming() -> None:
    from pydantic import BaseModel

    class Opts(BaseModel):
        seeds: Any = None
        cb: Any = None

    gen = iter([1, 2])
    found = find_unjsonable({"o": Opts(seeds=gen, cb=print)})
    assert [(p, k) for p, _, k in found] == [(("o", "seeds"), "iterator"), (("o", "cb"), "refused")]
    assert list(gen) == [1, 2]
