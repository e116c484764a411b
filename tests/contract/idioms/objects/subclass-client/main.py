"""The team's client: NeMoPlatform with our defaults baked in."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import RunConfig
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


class TeamPlatform(NeMoPlatform):
    def __init__(self, **kwargs):
        kwargs.setdefault("workspace", "agents")
        super().__init__(base_url="http://localhost:8080", max_retries=0, **kwargs)

    def submit_suite(self, runner, suite="agents/regression"):
        return self.evaluator.submit(
            tasks=TasksetRef(suite),
            target=runner,
            config=RunConfig(parallelism=2),  # expect: ES102
        )


runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)
platform = TeamPlatform()
platform.evaluator.submit(target=runner)  # expect: ES103
platform.submit_suite(runner)
