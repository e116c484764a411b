"""Our own pydantic models of the Gym runner config and its wire target (reference §6).

``GymRuntimeConfigModel`` mirrors ``nemo_evaluator_sdk.agent_eval.runtimes.gym.GymRuntimeConfig``
and ``GymRunnerTargetModel`` mirrors ``nemo_evaluator.jobs.agent_spec.GymRunnerTarget`` of the
release in :mod:`evalsubmit.sdk.version`: same fields, order, types, defaults, constraints and
lax-mode coercions, so validating a literal config here gives the SDK's verdict
(:mod:`.validation` words its errors) and :func:`.serialization.derive_target_json` gives the
exact JSON of ``runner_to_target(runner).model_dump(mode="json")``. The contract test
(``tests/contract``) checks both against the real SDK.

This module holds only the mirrors, so that a new SDK release that changes a field is a change
here (and in :mod:`.releases`); what is built on them lives next door. The check path validates
with the same constraints as plain tables (:mod:`.constraints`, no pydantic) and comes here only
for values those do not decide; ``tests/contract/test_constraint_tables.py`` keeps the tables,
these mirrors and the real SDK in step.
"""

from __future__ import annotations

from typing import Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, RootModel, model_validator
from pydantic import field_validator as _field_validator

from evalsubmit.sdk.constraints import CONFIG_FIELDS, WIRE_ONLY_FIELDS, FieldPath

__all__ = [
    "CONFIG_FIELDS",
    "WIRE_ONLY_FIELDS",
    "FieldPath",
    "FilesetRefModel",
    "GymRunnerTargetModel",
    "GymRuntimeConfigModel",
    "SecretRefModel",
]


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
