"""Keeps the evaluator namespace, not the client, on the object."""

import os

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

SUITE = TasksetRef("qa/tool-use")


class AgentJobs:
    def __init__(self, client: NeMoPlatform) -> None:
        self.evaluator = client.evaluator
        self.config = GymRuntimeConfig(
            agent="tool_agent",
            agent_config="configs/tool_agent.yaml",
            resources_server="tools",
            concurrency=8,
        )
        self.runner = GymAgentTaskRunner(config=self.config)

    def submit(self):
        return self.evaluator.submit(tasks=SUITE, target=self.runner)

    def submit_config(self):
        # Passes the config instead of the runner built from it.
        return self.evaluator.submit(tasks=SUITE, target=self.config)  # expect: ES104

    def resubmit(self):
        return self.evaluator.submit(target=self.runner)  # expect: ES103


jobs = AgentJobs(NeMoPlatform(workspace=os.environ.get("NMP_WORKSPACE", "qa")))
jobs.submit()
jobs.submit_config()
jobs.resubmit()
