"""Tolerant pydantic models of what the platform returns (extra fields are kept, not refused)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

#: Statuses after which a job never changes again. `failed` is not in the SDK's enum but the
#: SDK's `wait_until_done` treats it as terminal, so we do too.
TERMINAL_STATUSES = frozenset({"completed", "error", "cancelled", "failed"})
SUCCESS_STATUSES = frozenset({"completed"})


class _Tolerant(BaseModel):
    model_config = ConfigDict(extra="allow", frozen=True)


class Job(_Tolerant):
    """An agent-evaluate job record (`POST`/`GET .../agent-evaluate/jobs[/{name}]`)."""

    name: str
    id: str | None = None
    workspace: str | None = None
    status: str | None = None
    spec: dict[str, Any] = Field(default_factory=dict)
    status_details: dict[str, Any] | None = None
    error_details: dict[str, Any] | None = None
    created_at: str | None = None
    updated_at: str | None = None

    @property
    def target(self) -> dict[str, Any] | None:
        target = self.spec.get("target")
        return target if isinstance(target, dict) else None


class JobStatus(_Tolerant):
    """`GET .../agent-evaluate/jobs/{name}/status`."""

    name: str
    status: str
    id: str | None = None
    status_details: dict[str, Any] | None = None
    error_details: dict[str, Any] | None = None
    steps: list[dict[str, Any]] = Field(default_factory=list)
    created_at: str | None = None
    updated_at: str | None = None

    @property
    def is_terminal(self) -> bool:
        return self.status in TERMINAL_STATUSES

    @property
    def succeeded(self) -> bool:
        return self.status in SUCCESS_STATUSES

    def summary(self) -> str:
        """One line: the status plus the platform's message, if it gave one."""
        details = self.error_details or self.status_details or {}
        message = details.get("message") or details.get("error") or details.get("detail")
        return f"{self.status}: {message}" if message else self.status


class Taskset(_Tolerant):
    """A stored taskset (`GET .../tasksets/{name}`): tasks are pinned `ws/task#digest` refs."""

    name: str
    workspace: str | None = None
    id: str | None = None
    description: str | None = None
    tasks: list[str | dict[str, Any]] = Field(default_factory=list)
    revision: int | None = None
    tags: dict[str, int] = Field(default_factory=dict)

    @property
    def ref(self) -> str:
        return f"{self.workspace}/{self.name}" if self.workspace else self.name


class Workspace(_Tolerant):
    """A workspace (``GET /apis/entities/v2/workspaces``)."""

    name: str
    description: str | None = None
