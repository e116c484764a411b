"""One submission per suite name, in a comprehension."""

from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)
SUITES = [
    "qa/mcqa",
    "qa/tool-use#v3",
    "qa/long context",  # expect: ES108
]
jobs = [client.evaluator.submit(tasks=suite, target=runner) for suite in SUITES]
