"""One helper, called for two agents: one call site sends two different targets."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")


def launch(agent: str, repeats: int = 1):
    runner = GymAgentTaskRunner(
        config=GymRuntimeConfig(
            agent=agent,
            agent_config=f"configs/{agent}.yaml",
            resources_server="mcqa",
            num_repeats=repeats,
        )
    )
    return client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner)


launch("simple_agent")
launch("tool_agent", repeats=4)
