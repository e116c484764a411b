"""Sweeps counted from one: enumerate(start=1), range(1, n), itertools.product of valid values."""

import itertools

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


def runner(agent, **fields):
    config = GymRuntimeConfig(
        agent=agent, agent_config=f"{agent}.yaml", resources_server="mcqa", **fields
    )
    return GymAgentTaskRunner(config=config)


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
for level, agent in enumerate(["simple_agent", "tool_agent"], start=1):
    client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner(agent, concurrency=level))
for repeats in range(3, 0, -1):
    client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner("a", num_repeats=repeats))
for workers, repeats in itertools.product([1, 4], [1, 3]):
    target = runner("simple_agent", concurrency=workers, num_repeats=repeats)
    client.evaluator.submit(tasks=TasksetRef("qa/nightly"), target=target)
