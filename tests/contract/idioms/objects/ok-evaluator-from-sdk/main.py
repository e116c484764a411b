"""Evaluator.from_sdk kept on an object; taskset runs with a None config stay fine."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator.sdk import Evaluator
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


class Runner:
    default_config = None

    def __init__(self):
        self.evaluator = Evaluator.from_sdk(
            NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
        )
        self.gym = GymAgentTaskRunner(
            config=GymRuntimeConfig(agent="a", agent_config="a.yaml", resources_server="mcqa")
        )

    def run(self, tasks):
        return self.evaluator.submit(tasks=tasks, target=self.gym, config=self.default_config)


Runner().run(TasksetRef("qa/smoke"))
Runner().run("qa/smoke#v3")
