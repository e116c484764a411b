"""Suites paired with runners by zip()."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.callable_runtime import CallableAgentTaskRunner
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


async def baseline(task):
    return {"output_text": ""}


SUITES = [TasksetRef("qa/mcqa"), TasksetRef("qa/baseline")]
RUNNERS = [
    GymAgentTaskRunner(
        config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
    ),
    CallableAgentTaskRunner(baseline),
]

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
for suite, runner in zip(SUITES, RUNNERS):
    client.evaluator.submit(tasks=suite, target=runner)  # expect: ES106
