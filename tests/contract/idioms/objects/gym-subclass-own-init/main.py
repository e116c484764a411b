"""A team runner class: a GymAgentTaskRunner subclass that builds its own config."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


def log_rollout(result):
    print(result)


class McqaRunner(GymAgentTaskRunner):
    def __init__(self, agent, **overrides):
        settings = {"agent_config": f"configs/{agent}.yaml", "resources_server": "mcqa"}
        settings.update(overrides)
        super().__init__(config=GymRuntimeConfig(agent=agent, **settings))


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=McqaRunner("simple_agent"))
traced = McqaRunner(
    "tool_agent",
    concurrency=8,
    hydra_params={"on_rollout": log_rollout},  # expect: ES107
)
client.evaluator.submit(tasks=TasksetRef("qa/tools"), target=traced)
