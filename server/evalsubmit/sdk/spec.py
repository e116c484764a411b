"""What the SDK sends that ``submit()`` cannot set (reference §7): the spec fields around the
target, and the wire-only fields of ``GymRunnerTarget`` that a live runner leaves at defaults."""

from __future__ import annotations

from typing import Any

SPEC_DEFAULTS: dict[str, Any] = {
    "trials": None,
    "max_concurrent_tasks": 4,
    "fail_fast": False,
    "labels": {},
    "publication": None,
}
"""``AgentEvalInputSpec`` fields besides ``target`` and ``tasks``, in the order sent."""

WIRE_ONLY_DEFAULTS: dict[str, Any] = {
    "environment": None,
    "agent_ref_name": None,
    "env_secrets": {},
}
"""``GymRunnerTarget`` fields a ``GymAgentTaskRunner`` cannot express, at their defaults."""
