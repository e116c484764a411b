"""A service object holding the client and its runner, submitting from a method."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


class NightlyService:
    def __init__(self, workspace: str) -> None:
        self.client = NeMoPlatform(base_url="http://localhost:8080", workspace=workspace)
        config = GymRuntimeConfig(
            agent="simple_agent",
            agent_config="configs/simple_agent.yaml",
            resources_server="mcqa",
            num_repeats=3,
            hydra_params={"max_steps": 12},
        )
        self.runner = GymAgentTaskRunner(config=config)

    def submit(self, taskset: str):
        return self.client.evaluator.submit(
            tasks=TasksetRef(taskset),
            target=self.runner,
        )


NightlyService("qa").submit("qa/nightly")
