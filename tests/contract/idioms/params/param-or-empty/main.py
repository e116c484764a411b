"""Optional submit options, defaulting to an empty dict."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import RunConfig
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


def submit(client, runner, options=None):
    options = options or {}
    return client.evaluator.submit(tasks=TasksetRef("qa/mcqa"), target=runner, **options)


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)
submit(client, runner)
submit(client, runner, {"config": None})
submit(client, runner, {"config": RunConfig(parallelism=2)})  # expect: ES102
