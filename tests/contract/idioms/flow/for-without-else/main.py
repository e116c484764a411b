"""Pick the first preferred agent that has a runner; nothing handles "none of them"."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

RUNNERS = {
    "tool_agent": GymAgentTaskRunner(
        config=GymRuntimeConfig(agent="tool_agent", agent_config="t.yaml", resources_server="tools")
    ),
}


def submit_preferred(client, preferred):
    runner = None
    for name in preferred:
        runner = RUNNERS.get(name)
        if runner is not None:
            break
    return client.evaluator.submit(tasks=TasksetRef("qa/tools"), target=runner)  # expect: ES104


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
submit_preferred(client, ["rag_agent", "tool_agent"])
submit_preferred(client, ["rag_agent", "cot_agent"])
