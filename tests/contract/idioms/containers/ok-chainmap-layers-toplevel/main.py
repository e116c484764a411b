"""Per-suite overrides layered over team defaults with ChainMap, passed as the whole mapping."""

from collections import ChainMap
from types import MappingProxyType

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

TEAM_HYDRA = {"temperature": 0.7, "top_p": 0.95, "max_tokens": 1024}
TEAM_ENV = MappingProxyType({"LOG_LEVEL": "info", "HF_HUB_OFFLINE": "1"})  # read-only
SUITES = {"smoke": {"temperature": 0.0}, "creative": {"temperature": 1.0, "top_p": 1.0}}

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
for suite, overrides in SUITES.items():
    config = GymRuntimeConfig(
        agent="simple_agent",
        agent_config="a.yaml",
        resources_server="mcqa",
        hydra_params=ChainMap(overrides, TEAM_HYDRA),  # validated into a plain dict
        env_vars=TEAM_ENV,
    )
    client.evaluator.submit(tasks=TasksetRef(f"qa/{suite}"), target=GymAgentTaskRunner(config=config))
