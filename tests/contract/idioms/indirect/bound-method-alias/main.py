"""A shorter name for the submit method."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import RunConfig
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
submit = client.evaluator.submit

runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)
submit(tasks=TasksetRef("qa/smoke"), target=runner)
submit(tasks=TasksetRef("qa/smoke"), target=runner,
       config=RunConfig(parallelism=8))  # expect: ES102
submit(target=runner)  # expect: ES103
