"""Release checks: the guard was meant to need both halves but uses `or`."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import ExactMatchMetric
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


class ReleaseCheck:
    def __init__(self, client, suite=None, runner=None):
        self.client = client
        self.suite = suite
        self.runner = runner

    def run(self):
        jobs = []
        metric = ExactMatchMetric(reference="{{item.answer}}", candidate="{{sample.output_text}}")
        jobs.append(self.client.evaluator.submit(metric=metric, dataset=[{"answer": "4"}]))
        if self.suite is not None or self.runner is not None:
            jobs.append(self.client.evaluator.submit(tasks=self.suite, target=self.runner))  # expect: ES104
        return jobs


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)
ReleaseCheck(client).run()
ReleaseCheck(client, suite=TasksetRef("qa/release")).run()
ReleaseCheck(client, TasksetRef("qa/release"), runner).run()
