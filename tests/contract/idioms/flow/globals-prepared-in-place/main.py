"""Module-level settings edited in place by helpers before the runner is built."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

HYDRA = {"seed": 7, "on_rollout": print}  # the hook is for local runs only
ENV = {"WORKERS": 8}


def prepare_for_submit():
    HYDRA.pop("on_rollout")
    ENV["WORKERS"] = str(ENV["WORKERS"])


def enable_tracing():
    HYDRA["trace"] = print  # expect: ES107


def build_runner():
    config = GymRuntimeConfig(
        agent="simple_agent",
        agent_config="a.yaml",
        resources_server="mcqa",
        hydra_params=HYDRA,
        env_vars=ENV,
    )
    return GymAgentTaskRunner(config=config)


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
prepare_for_submit()
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=build_runner())
enable_tracing()
try:
    client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=build_runner())
except TypeError as exc:
    print(exc)
