"""The keyword parameters of the SDK calls the editor completes and explains (reference §3, §6):
``submit()`` in its two shapes, ``GymRuntimeConfig`` and ``GymAgentTaskRunner``.

Types, defaults and bounds of the config come from :data:`.constraints.GYM_CONFIG_RULES` (the
tables the checks use), so completion and the checks never disagree; only the prose is here.
"""

from __future__ import annotations

from typing import Literal

from evalsubmit.core.records import record
from evalsubmit.sdk.constraints import GYM_CONFIG_RULES, FieldRule

ShapeName = Literal["taskset", "row", "any"]


@record
class Param:
    name: str
    type: str
    doc: str
    required: bool = False
    default: str | None = None
    constraint: str | None = None
    shape: ShapeName = "any"
    """Which ``submit()`` shape takes it: ``taskset`` (tasks= + target=), ``row`` (metric= +
    dataset=), or ``any`` (both, or not a submit parameter)."""

    def label(self) -> str:
        text = f"{self.name}: {self.type}"
        return text if self.default is None else f"{text} = {self.default}"


SUBMIT_TASKSET: tuple[Param, ...] = (
    Param(
        "tasks",
        "TasksetRef",
        "The taskset to run: `name`, `workspace/name` or `workspace/name#revision`; a bare "
        "name resolves in the client's workspace.",
        required=True,
        shape="taskset",
    ),
    Param(
        "target",
        "AgentTaskRunner",
        "The runner whose wire target is sent: a `GymAgentTaskRunner(config=...)` instance "
        "(the only runner with a wire form).",
        required=True,
        shape="taskset",
    ),
)
SUBMIT_ROW: tuple[Param, ...] = (
    Param("metric", "Metric", "The metric that scores each row.", required=True, shape="row"),
    Param(
        "dataset",
        "PluginDatasetInput",
        "The rows: a list of dicts, `DatasetRows`, a pyarrow table, a path or a `FilesetRef`.",
        required=True,
        shape="row",
    ),
    Param(
        "config",
        "RunConfig | RunConfigOnline | RunConfigOnlineModel | None",
        "How the rows are run; an online config needs a `target=` model or agent.",
        default="None",
        shape="row",
    ),
    Param(
        "field_mapping",
        "dict[str, str] | None",
        "Maps the dataset's columns to the metric's fields.",
        default="None",
        shape="row",
    ),
    Param(
        "prompt_template",
        "str | dict[str, Any] | None",
        "The prompt sent to an online target (required with an agent target).",
        default="None",
        shape="row",
    ),
    Param(
        "metric_bundle_packager",
        "MetricBundlePackager | None",
        "Packages a custom metric's code for the platform.",
        default="None",
        shape="row",
    ),
)
ROW_TARGET = Param(
    "target",
    "Model | ModelRef | Agent",
    "The model or agent an online row evaluation calls (with `config=RunConfigOnline...`).",
    default="None",
    shape="row",
)

_CONFIG_DOCS = {
    "agent": "The Gym agent to run.",
    "agent_config": "The agent's config file (a plain string: a `Path` is refused).",
    "resources_server": "The Gym resources server the agent talks to.",
    "model_type": 'How the model is reached; `"openai_model"` is the other documented value.',
    "bind_resources_server": 'Lax bool: `"yes"`, `"no"`, `1`, `0` are accepted.',
    "hydra_params": "Hydra overrides passed to the Gym run; top-level keys must be strings.",
    "env_vars": "Environment of the run: string keys and string values only.",
    "num_repeats": "How many times each task is run.",
    "concurrency": "How many tasks run at once.",
    "startup_timeout_s": "Seconds the Gym servers may take to start.",
    "collection_timeout_s": "Seconds the rollout collection may take; `None` is unbounded.",
    "shutdown_grace_s": "Seconds the servers get to shut down.",
    "reward_key": "The key of the reward in each rollout's result.",
}
_TYPES = {"float": "float", "int": "int"}


def _config_param(rule: FieldRule) -> Param:
    kind = f"{rule.kind} | None" if rule.nullable else _TYPES.get(rule.kind, rule.kind)
    if rule.required:
        default = None
    elif rule.default_factory is not None:
        default = repr(rule.default_factory())
    else:
        default = repr(rule.default)
    bounds = [f">= {rule.ge}" for _ in [rule.ge] if rule.ge is not None]
    bounds += [f"> {rule.gt:g}" for _ in [rule.gt] if rule.gt is not None]
    constraint = " and ".join(bounds) + (" when set" if bounds and rule.nullable else "")
    return Param(
        rule.name,
        kind,
        _CONFIG_DOCS.get(rule.name, ""),
        required=rule.required,
        default=default,
        constraint=constraint or None,
    )


GYM_CONFIG_PARAMS: tuple[Param, ...] = tuple(_config_param(rule) for rule in GYM_CONFIG_RULES)
GYM_RUNNER_PARAMS: tuple[Param, ...] = (
    Param(
        "config",
        "GymRuntimeConfig",
        "The runner's config (keyword-only and required); a dict is accepted by the "
        "constructor and fails at submit.",
        required=True,
    ),
)
