"""The request body of a taskset submission, exactly as the official SDK builds it, plus a name.

The SDK (nemo-platform 0.6.0, `Evaluator.submit(tasks=TasksetRef(...), target=runner)`) posts
`{"spec": AgentEvalInputSpec}` with the full target and the spec defaults. evalsubmit adds a
top-level `name` of its own making, so that a submission whose response is lost can be found
again with a GET instead of being posted twice.
"""

from __future__ import annotations

import copy
import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

#: The platform's entity-name rule (nemo_platform_plugin.entity_naming.NAME_PATTERN): starts
#: with a lowercase letter, 2-63 characters of `[a-z0-9-@.+_]`, no `--`, no trailing `-`.
JOB_NAME_PATTERN = re.compile(r"^[a-z](?!.*--)[a-z0-9\-@.+_]{1,62}(?<!-)$")
JOB_NAME_RULE = (
    "a job name starts with a lowercase letter and has 2-63 lowercase letters, digits, '-', "
    "'.', '_', '@' or '+', with no '--' and no '-' at the end."
)
JOB_NAME_PREFIX = "evalsubmit"

#: `TasksetRef`'s pattern: optional `workspace/`, a name, optional `#revision`.
TASKSET_REF_PATTERN = re.compile(r"^([\w\-.]+)(?:/([\w\-.]+))?(?:#([\w\-.]+))?$")

#: Spec fields `submit()` cannot set; sent at these values by the SDK, in this order.
SPEC_DEFAULTS: dict[str, Any] = {
    "trials": None,
    "max_concurrent_tasks": 4,
    "fail_fast": False,
    "labels": {},
    "publication": None,
}


def new_job_name(prefix: str = JOB_NAME_PREFIX, *, now: datetime | None = None) -> str:
    """A fresh job name such as `evalsubmit-20261130-045512-3f9a1c`, valid for the platform."""
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%d-%H%M%S")
    name = f"{prefix}-{stamp}-{secrets.token_hex(3)}"
    if not JOB_NAME_PATTERN.match(name):
        raise ValueError(f"job name {name!r} does not follow the platform's naming rule")
    return name


def is_valid_job_name(name: str) -> bool:
    return bool(JOB_NAME_PATTERN.match(name))


_GENERATED_NAME = re.compile(r"^[a-z][a-z0-9.]*-\d{8}-\d{6}-[0-9a-f]{6}$")


def is_generated_job_name(name: str) -> bool:
    """True for names shaped like `new_job_name()`'s (timestamp + 24 random bits)."""
    return bool(_GENERATED_NAME.match(name)) and is_valid_job_name(name)


@dataclass(frozen=True)
class TasksetRefParts:
    """A parsed taskset reference; `workspace` is None when the reference had no prefix."""

    name: str
    workspace: str | None = None
    revision: str | None = None

    def in_workspace(self, default_workspace: str) -> tuple[str, str]:
        """(workspace, name) with the job's workspace filled in for a bare name."""
        return (self.workspace or default_workspace, self.name)


def parse_taskset_ref(ref: str) -> TasksetRefParts:
    """Split `ws/name#revision`; ValueError when `ref` does not match `TasksetRef`'s pattern."""
    match = TASKSET_REF_PATTERN.fullmatch(ref)
    if match is None or ref.endswith("\n"):
        raise ValueError(
            f"{ref!r} is not a taskset reference (expected `name`, `workspace/name` or "
            "`workspace/name#revision`)"
        )
    first, second, revision = match.groups()
    if second is None:
        return TasksetRefParts(name=first, revision=revision)
    return TasksetRefParts(name=second, workspace=first, revision=revision)


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
