"""Run plans as a NamedTuple with a placeholder default, derived with _replace()."""

from typing import NamedTuple

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


class Plan(NamedTuple):
    agent: str
    repeats: int = 0  # placeholder: each plan below sets it
    concurrency: int = 4


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
base = Plan("simple_agent")
for plan in (base._replace(repeats=1), base._replace(repeats=3, concurrency=8)):
    config = GymRuntimeConfig(
        agent=plan.agent,
        agent_config="a.yaml",
        resources_server="mcqa",
        num_repeats=plan.repeats,
        concurrency=plan.concurrency,
    )
    client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=GymAgentTaskRunner(config=config))
