"""Nightly agent evaluations, run by the scheduler."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import ExactMatchMetric, RunConfig
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


class NightlyEvaluations:
    def __init__(self, workspace: str) -> None:
        self.client = NeMoPlatform(base_url="http://localhost:8080", workspace=workspace)
        self.runner = GymAgentTaskRunner(
            config=GymRuntimeConfig(
                agent="simple_agent",
                agent_config="configs/simple_agent.yaml",
                resources_server="mcqa",
            )
        )
        self.suite = TasksetRef(f"{workspace}/mcqa-nightly")

    def nightly(self):
        return self.client.evaluator.submit(tasks=self.suite, target=self.runner)

    def smoke(self):
        return self.client.evaluator.submit(
            tasks=TasksetRef("qa/smoke"),
            target=self.runner,
            config=RunConfig(parallelism=4),  # expect: ES102
        )

    def rows(self, rows):
        metric = ExactMatchMetric(reference="{{item.answer}}", candidate="{{sample.output_text}}")
        return self.client.evaluator.submit(metric=metric, dataset=rows,
                                            target=self.runner)  # expect: ES105


if __name__ == "__main__":
    evals = NightlyEvaluations("qa")
    evals.nightly()
    evals.smoke()
    evals.rows([{"question": "2+2?", "answer": "4"}])
