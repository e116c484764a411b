"""Per-suite hydra params derived from a deep copy of a shared base."""

import copy

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

BASE = {"sampling": {"temperature": 0.0, "top_p": 1.0}, "callbacks": None, "workers": 0}

SUITES = {"qa/smoke": {"workers": 2}, "qa/nightly": {"workers": 8, "temperature": 0.7}}

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
for suite, overrides in SUITES.items():
    params = copy.deepcopy(BASE)
    params["workers"] = overrides["workers"]
    if "temperature" in overrides:
        params["sampling"]["temperature"] = overrides["temperature"]
    params.pop("callbacks")
    config = GymRuntimeConfig(
        agent="simple_agent",
        agent_config="a.yaml",
        resources_server="mcqa",
        concurrency=params["workers"],
        hydra_params=params,
    )
    client.evaluator.submit(tasks=TasksetRef(suite), target=GymAgentTaskRunner(config=config))
