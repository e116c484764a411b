"""A default taskset name with a space: wrong only for callers that rely on it."""

from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


def run_suite(client, runner, suite="qa/smoke tests"):  # expect: ES108
    return client.evaluator.submit(tasks=suite, target=runner)


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)
run_suite(client, runner, "qa/nightly")
run_suite(client, runner)
