"""Everything about the submission is read from the environment of the CI job."""

import os

from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


class CiSubmitter:
    def __init__(self):
        self.client = NeMoPlatform(workspace=os.environ["NMP_WORKSPACE"])
        self.tasks = os.environ["EVAL_TASKSET"]
        self.config = GymRuntimeConfig(
            agent=os.environ["EVAL_AGENT"],
            agent_config=os.environ["EVAL_AGENT_CONFIG"],
            resources_server=os.environ.get("EVAL_RESOURCES", "mcqa"),
            env_vars={"HF_HOME": os.environ.get("HF_HOME", "/models/hf")},
        )

    def submit(self):
        return self.client.evaluator.submit(
            tasks=self.tasks, target=GymAgentTaskRunner(config=self.config)
        )


CiSubmitter().submit()
