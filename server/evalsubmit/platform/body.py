"""The request body of a taskset submission, exactly as the official SDK builds it, plus a name.

The SDK (the release of :mod:`evalsubmit.sdk.version`) posts `{"spec": AgentEvalInputSpec}`
for `Evaluator.submit(tasks=TasksetRef(...), target=runner)`, with the full target and the spec
defaults. evalsubmit adds a top-level `name` of its own making, so that a submission whose
response is lost can be found again with a GET instead of being posted twice.
"""

from __future__ import annotations

import copy
import re
import secrets
from datetime import UTC, datetime
from typing import Any

from evalsubmit.sdk.grammar import JOB_NAME_PATTERN, JOB_NAME_RULE, is_valid_job_name
from evalsubmit.sdk.spec import SPEC_DEFAULTS

JOB_NAME_PREFIX = "evalsubmit"


def new_job_name(prefix: str = JOB_NAME_PREFIX, *, now: datetime | None = None) -> str:
    """A fresh job name such as `evalsubmit-20261130-045512-3f9a1c`, valid for the platform."""
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%d-%H%M%S")
    name = f"{prefix}-{stamp}-{secrets.token_hex(3)}"
    if not JOB_NAME_PATTERN.match(name):
        raise ValueError(f"job name {name!r} does not follow the platform's naming rule")
    return name


_GENERATED_NAME = re.compile(r"^[a-z][a-z0-9.]*-\d{8}-\d{6}-[0-9a-f]{6}$")


def is_generated_job_name(name: str) -> bool:
    """True for names shaped like `new_job_name()`'s (timestamp + 24 random bits)."""
    return bool(_GENERATED_NAME.match(name)) and is_valid_job_name(name)


def build_submission_body(target: dict[str, Any], tasks: str, name: str) -> dict[str, Any]:
    """The JSON body for `POST .../workspaces/{ws}/agent-evaluate/jobs`.

    `target` is the full wire target (as `runner_to_target(runner).model_dump(mode="json")`
    gives it, every default filled in); `tasks` is the taskset reference string, sent as is;
    `name` is the client-generated job name (see `new_job_name`).
    """
    if not isinstance(target, dict) or target.get("kind") is None:
        raise ValueError("target must be a wire target object with a 'kind'")
    if not isinstance(tasks, str) or not tasks:
        raise ValueError("tasks must be a non-empty taskset reference string")
    if not is_valid_job_name(name):
        raise ValueError(f"job name {name!r} is invalid: {JOB_NAME_RULE}")
    spec: dict[str, Any] = {"target": copy.deepcopy(target)}
    spec.update(copy.deepcopy(SPEC_DEFAULTS))
    spec["tasks"] = tasks
    return {"name": name, "spec": spec}
