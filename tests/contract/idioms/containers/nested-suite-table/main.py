"""A table of (suite, target) pairs per schedule, walked by nested loops."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

qa_config = GymRuntimeConfig(agent="qa_agent", agent_config="qa.yaml", resources_server="qa")
tool_config = GymRuntimeConfig(agent="tool_agent", agent_config="t.yaml", resources_server="tools")

SCHEDULE = {
    "nightly": [(TasksetRef("qa/nightly"), GymAgentTaskRunner(config=qa_config))],
    "weekly": [
        (TasksetRef("qa/weekly"), GymAgentTaskRunner(config=qa_config)),
        (TasksetRef("qa/tools"), tool_config),
    ],
}

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
for schedule, entries in SCHEDULE.items():
    for suite, target in entries:
        client.evaluator.submit(tasks=suite, target=target)  # expect: ES104
