"""A sync test driving the async client with asyncio.run."""

import asyncio

import pytest
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import AsyncNeMoPlatform


@pytest.fixture
def aclient():
    return AsyncNeMoPlatform(base_url="http://localhost:8080", workspace="qa")


@pytest.fixture
def runner():
    return GymAgentTaskRunner(
        config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
    )


def test_async_client_cannot_submit_runners(aclient, runner):
    async def submit():
        return await aclient.evaluator.submit(tasks=TasksetRef("qa/smoke"),  # expect: ES103
                                              target=runner)

    with pytest.raises(TypeError):
        asyncio.run(submit())
