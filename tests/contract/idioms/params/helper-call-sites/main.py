"""One submission helper, called from several places with different options."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import RunConfig
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


def submit_suite(client, suite, runner, config=None):
    return client.evaluator.submit(tasks=suite, target=runner, config=config)


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)
submit_suite(client, "qa/mcqa", runner)
submit_suite(client, TasksetRef("qa/tools"), runner,
             config=RunConfig(parallelism=4))  # expect: ES102
submit_suite(client, "qa/long-context", runner, config=None)
