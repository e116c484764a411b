"""Suites as classes: one subclass overrides the options with a row-only option."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


class Suite:
    taskset = "qa/smoke"
    agent = "simple_agent"
    repeats = 1
    options = {}

    def runner(self):
        config = GymRuntimeConfig(
            agent=self.agent,
            agent_config=f"{self.agent}.yaml",
            resources_server="mcqa",
            num_repeats=self.repeats,
        )
        return GymAgentTaskRunner(config=config)

    def submit(self, client):
        return client.evaluator.submit(
            tasks=TasksetRef(self.taskset), target=self.runner(), **self.options
        )


class NightlySuite(Suite):
    taskset = "qa/nightly"
    repeats = 3


class ToolSuite(Suite):
    agent = "tool_agent"
    options = {"prompt_template": "{{item.question}}"}  # expect: ES102


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
for suite in (Suite(), NightlySuite(), ToolSuite()):
    suite.submit(client)
