"""Agent regression tests: a missing runner only warns, and the test goes on to submit None."""

import warnings

import pytest
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig

SMOKE = TasksetRef("qa/smoke")
RUNNERS = {
    name: GymAgentTaskRunner(
        config=GymRuntimeConfig(agent=name, agent_config=f"{name}.yaml", resources_server="mcqa")
    )
    for name in ("simple_agent", "tool_agent")
}


def submit_checked(client, name):
    runner = RUNNERS.get(name)
    if runner is None:
        warnings.warn(f"no runner named {name!r} in the table", stacklevel=2)
    return client.evaluator.submit(tasks=SMOKE, target=runner)  # expect: ES104


@pytest.mark.parametrize("name", ["simple_agent", "tool_agent", "rag_agent"])
def test_agent(client, name):
    assert submit_checked(client, name).name
