"""What evalsubmit knows about the SDK's names, by import origin (reference §1).

Qualified names are canonical: ``nemo_platform.beta.evaluator.X`` is rewritten to
``nemo_evaluator_sdk.X`` (the same class objects at run time), and every re-export path of a
class maps to one canonical name.
"""

from __future__ import annotations

from evalsubmit.sdk.version import SDK_RELEASE

SDK_ALIAS_PREFIX = "nemo_platform.beta.evaluator"
SDK_PREFIX = "nemo_evaluator_sdk"
GYM = "nemo_evaluator_sdk.agent_eval.runtimes.gym"
RUNTIMES = "nemo_evaluator_sdk.agent_eval.runtimes"

PLATFORM_CLIENT = "nemo_platform.NeMoPlatform"
ASYNC_PLATFORM_CLIENT = "nemo_platform.AsyncNeMoPlatform"
EVALUATOR = "nemo_evaluator.sdk.Evaluator"
ASYNC_EVALUATOR = "nemo_evaluator.sdk.AsyncEvaluator"
EVALUATOR_CLIENT = "nemo_platform_plugin.evaluator.client.EvaluatorClient"
ASYNC_EVALUATOR_CLIENT = "nemo_platform_plugin.evaluator.client.AsyncEvaluatorClient"
GYM_RUNNER = f"{GYM}.GymAgentTaskRunner"
GYM_CONFIG = f"{GYM}.GymRuntimeConfig"
TASKSET_REF = "nemo_evaluator.api.schemas.TasksetRef"
AGENT_TASK_RUNNER = "nemo_evaluator_sdk.agent_eval.trials.AgentTaskRunner"

_CANONICAL: dict[str, str] = {
    "nemo_platform._client.NeMoPlatform": PLATFORM_CLIENT,
    "nemo_platform._client.AsyncNeMoPlatform": ASYNC_PLATFORM_CLIENT,
    "nemo_evaluator.sdk.resources.Evaluator": EVALUATOR,
    "nemo_evaluator.sdk.resources.AsyncEvaluator": ASYNC_EVALUATOR,
    f"{GYM}.runtime.GymAgentTaskRunner": GYM_RUNNER,
    f"{GYM}.config.GymRuntimeConfig": GYM_CONFIG,
    "nemo_evaluator.api.fields.TasksetRef": TASKSET_REF,
}

# Runner classes that pass ``isinstance(x, AgentTaskRunner)`` but have no wire form.
UNSUBMITTABLE_RUNNERS: frozenset[str] = frozenset(
    {
        f"{RUNTIMES}.harbor_runtime.HarborAgentTaskRunner",
        f"{RUNTIMES}.callable_runtime.CallableAgentTaskRunner",
        f"{RUNTIMES}.fabric.runtime.FabricAgentRuntime",
        f"{RUNTIMES}.fabric.container_runtime.FabricContainerRuntime",
        f"{RUNTIMES}.docker_sandbox.DockerSandboxAgentRuntime",
        f"{GYM}.sandboxed.SandboxedGymAgentTaskRunner",
    }
)
RUNNER_CLASSES: frozenset[str] = UNSUBMITTABLE_RUNNERS | {GYM_RUNNER}

# SDK classes known *not* to be runners: passing an instance as a taskset target is ES104.
NON_RUNNER_CLASSES: frozenset[str] = frozenset(
    {
        GYM_CONFIG,
        TASKSET_REF,
        f"{RUNTIMES}.harbor_runtime.HarborRuntimeConfig",
        f"{GYM}.sandboxed.SandboxedGymRuntimeConfig",
        "nemo_evaluator.jobs.agent_spec.GymRunnerTarget",
        "nemo_evaluator.jobs.agent_spec.HarborRunnerTarget",
        "nemo_evaluator.jobs.agent_spec.FabricRunnerTarget",
        "nemo_evaluator.jobs.agent_spec.ModelTarget",
        "nemo_evaluator.jobs.agent_spec.AgentTarget",
        "nemo_evaluator.jobs.agent_spec.AgentEvalInputSpec",
        "nemo_evaluator_sdk.agent_eval.tasks.AgentEvalRunConfig",
        "nemo_evaluator_sdk.agent_eval.evaluator.AgentEvaluator",
        "nemo_evaluator_sdk.Model",
        "nemo_evaluator_sdk.ModelRef",
        "nemo_evaluator_sdk.Agent",
        "nemo_evaluator_sdk.RunConfig",
        "nemo_evaluator_sdk.RunConfigOnline",
        "nemo_evaluator_sdk.RunConfigOnlineModel",
        "nemo_evaluator.filesets.FilesetRef",
        PLATFORM_CLIENT,
        ASYNC_PLATFORM_CLIENT,
        EVALUATOR,
        ASYNC_EVALUATOR,
    }
)

_VALUE_MODULES = ("nemo_evaluator_sdk.values.", "nemo_evaluator.sdk.")
_REEXPORTED = {"Model", "ModelRef", "Agent", "RunConfig", "RunConfigOnline", "RunConfigOnlineModel"}


def canonical(qualname: str) -> str:
    """Map an import path to the one name evalsubmit reasons about."""
    if qualname == SDK_ALIAS_PREFIX or qualname.startswith(SDK_ALIAS_PREFIX + "."):
        qualname = SDK_PREFIX + qualname[len(SDK_ALIAS_PREFIX) :]
    if qualname in _CANONICAL:
        return _CANONICAL[qualname]
    for prefix in _VALUE_MODULES:
        name = qualname.removeprefix(prefix)
        if name != qualname and name in _REEXPORTED:
            return f"{SDK_PREFIX}.{name}"
    if qualname == "nemo_evaluator.sdk.FilesetRef":
        return "nemo_evaluator.filesets.FilesetRef"
    return qualname


def is_sdk_name(qualname: str) -> bool:
    return qualname.split(".", 1)[0] in {
        "nemo_platform",
        "nemo_evaluator",
        "nemo_evaluator_sdk",
        "nemo_platform_plugin",
    }


def is_known_sdk_class(qualname: str) -> bool:
    """Names whose call evalsubmit models; calls of other SDK names give unknown values."""
    return (
        qualname in RUNNER_CLASSES
        or qualname in NON_RUNNER_CLASSES
        or qualname in {EVALUATOR_CLIENT, ASYNC_EVALUATOR_CLIENT}
        or _is_metric(qualname)
    )


def known_elsewhere(qualname: str) -> str | None:
    """Why the call of an SDK name evalsubmit does not model is unknown, when a class it models
    has the same name under another path (``GymAgentTaskRunner`` imported from a module of
    another release): that path, for the user to compare."""
    if not is_sdk_name(qualname) or is_known_sdk_class(qualname):
        return None
    module, _, name = qualname.rpartition(".")
    for known in sorted(RUNNER_CLASSES | NON_RUNNER_CLASSES):
        if known.rpartition(".")[2] == name:
            return f"{name}() from {module}: evalsubmit knows {SDK_RELEASE}'s {name} as {known}"
    return None


def _is_metric(qualname: str) -> bool:
    module, _, name = qualname.rpartition(".")
    return module.startswith(SDK_PREFIX) and name.endswith("Metric")
