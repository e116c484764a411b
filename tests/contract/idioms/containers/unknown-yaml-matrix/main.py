"""A sweep matrix read from YAML: every value is only known at run time."""

import itertools

import yaml
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

with open("matrix.yaml") as handle:
    matrix = yaml.safe_load(handle)

client = NeMoPlatform(base_url="http://localhost:8080", workspace=matrix["workspace"])
for agent, concurrency in itertools.product(matrix["agents"], matrix["concurrency"]):
    config = GymRuntimeConfig(
        agent=agent,
        concurrency=concurrency,
        hydra_params=matrix.get("hydra", {}),
        env_vars=matrix.get("env", {}),
        **matrix["base"],
    )
    for suite in matrix["suites"]:
        client.evaluator.submit(tasks=TasksetRef(suite), target=GymAgentTaskRunner(config=config),
                                **matrix.get("submit", {}))
