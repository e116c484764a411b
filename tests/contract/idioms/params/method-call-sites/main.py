"""A launcher method called with different runners and options."""

from pathlib import Path

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_evaluator_sdk.agent_eval.runtimes.harbor_runtime import (
    HarborAgentTaskRunner,
    HarborRuntimeConfig,
)
from nemo_platform import NeMoPlatform


class Launcher:
    def __init__(self, workspace, suite):
        self.client = NeMoPlatform(base_url="http://localhost:8080", workspace=workspace)
        self.suite = TasksetRef(f"{workspace}/{suite}")

    def launch(self, runner, **options):
        return self.client.evaluator.submit(tasks=self.suite, target=runner, **options)


gym = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)
launcher = Launcher("qa", "agents")
launcher.launch(gym)
launcher.launch(HarborAgentTaskRunner(config=HarborRuntimeConfig(jobs_dir=Path("runs"))))  # expect: ES106
launcher.launch(gym, prompt_template="Q: {{item.q}}")  # expect: ES102
