"""Agent regression tests: a name missing from the runner table fails the test loudly."""

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


def submit_or_fail(client, name):
    runner = RUNNERS.get(name)
    if runner is None:
        pytest.fail(f"no runner named {name!r} in the table")
    return client.evaluator.submit(tasks=SMOKE, target=runner)


@pytest.mark.parametrize("name", ["simple_agent", "tool_agent"])
def test_agent(client, name):
    assert submit_or_fail(client, name).name


def test_missing_agent_fails_the_test(client):
    with pytest.raises(pytest.fail.Exception):
        submit_or_fail(client, "rag_agent")
