"""The submission body, job names and taskset references."""

from __future__ import annotations

import copy
import json
import re
from datetime import UTC, datetime

import pytest

from evalsubmit.platform import (
    build_submission_body,
    is_valid_job_name,
    new_job_name,
    parse_taskset_ref,
)
from evalsubmit.platform.body import is_generated_job_name

# The body the real SDK sent for a default Gym runner and TasksetRef("my-suite")
# (docs: evaluator-submit reference §7, captured HTTP).
SDK_BODY = json.loads(
    """{"spec": {
  "target": {"kind": "gym", "environment": null, "agent": "simple_agent",
             "agent_config": "c.yaml", "resources_server": "mcqa",
             "model_type": "inference_provider", "bind_resources_server": true,
             "hydra_params": {}, "env_vars": {}, "agent_ref_name": null, "env_secrets": {},
             "num_repeats": 1, "concurrency": 4, "startup_timeout_s": 240.0,
             "collection_timeout_s": null, "shutdown_grace_s": 30.0, "reward_key": "reward"},
  "trials": null, "max_concurrent_tasks": 4, "fail_fast": false, "labels": {},
  "publication": null, "tasks": "my-suite"}}"""
)


def test_body_is_the_sdk_body_plus_a_name() -> None:
    target = copy.deepcopy(SDK_BODY["spec"]["target"])
    body = build_submission_body(target, "my-suite", "evalsubmit-x1")
    assert body == {"name": "evalsubmit-x1", **SDK_BODY}
    assert list(body["spec"]) == list(SDK_BODY["spec"])  # same key order as the SDK
    body["spec"]["target"]["agent"] = "changed"
    assert target["agent"] == "simple_agent"  # the caller's dict is not shared


@pytest.mark.parametrize(
    ("target", "tasks", "name"),
    [
        ({"agent": "a"}, "s", "ok-name"),  # no kind
        ({"kind": "gym"}, "", "ok-name"),
        ({"kind": "gym"}, "s", "Bad_Name"),
        ({"kind": "gym"}, "s", "a--b"),
        ({"kind": "gym"}, "s", "ends-"),
        ({"kind": "gym"}, "s", "x" * 64),
    ],
)
def test_body_refuses_bad_input(target: dict[str, object], tasks: str, name: str) -> None:
    with pytest.raises(ValueError):
        build_submission_body(target, tasks, name)


def test_new_job_names_are_valid_unique_and_recognisable() -> None:
    names = {new_job_name() for _ in range(200)}
    assert len(names) == 200
    for name in names:
        assert is_valid_job_name(name) and is_generated_job_name(name)
        assert len(name) <= 63
    fixed = new_job_name(now=datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC))
    assert re.fullmatch(r"evalsubmit-20260102-030405-[0-9a-f]{6}", fixed)
    assert not is_generated_job_name("my-own-name")


@pytest.mark.parametrize(
    ("ref", "parts"),
    [
        ("suite", ("suite", None, None)),
        ("default/suite", ("suite", "default", None)),
        ("default/suite#v2", ("suite", "default", "v2")),
        ("suite#abc", ("suite", None, "abc")),
        ("ws/suite.v1-rc_2", ("suite.v1-rc_2", "ws", None)),
        ("données/suite", ("suite", "données", None)),
    ],
)
def test_parse_taskset_ref(ref: str, parts: tuple[str, str | None, str | None]) -> None:
    parsed = parse_taskset_ref(ref)
    assert (parsed.name, parsed.workspace, parsed.revision) == parts


@pytest.mark.parametrize(
    "ref",
    ["", "ws/a/b", "/suite", "suite/", "ws//suite", "ws/na me", " suite", "ws/suite\n", "a#"],
)
def test_parse_taskset_ref_refuses(ref: str) -> None:
    with pytest.raises(ValueError):
        parse_taskset_ref(ref)
