"""Suites with their gold rows; references are built with str.format from the keys."""

from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

GOLD = {
    "smoke": [{"question": "2+2", "answer": "4"}],
    "tools": [{"question": "weather in Paris", "answer": "call get_weather"}],
}
runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)
client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
for suite, rows in GOLD.items():
    client.evaluator.submit(  # expect: ES101
        tasks="qa/{}#{}".format(suite, "v2"), target=runner, dataset=rows
    )
