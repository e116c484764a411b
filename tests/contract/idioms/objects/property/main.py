"""Read-only properties give the evaluator and the runner."""

from nemo_evaluator_sdk import ExactMatchMetric
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


class QaHarness:
    def __init__(self, workspace):
        self._client = NeMoPlatform(base_url="http://localhost:8080", workspace=workspace)
        self._config = GymRuntimeConfig(
            agent="qa_agent", agent_config="qa.yaml", resources_server="qa", num_repeats=2
        )

    @property
    def evaluator(self):
        return self._client.evaluator

    @property
    def runner(self) -> GymAgentTaskRunner:
        return GymAgentTaskRunner(config=self._config)

    def score(self, rows):
        metric = ExactMatchMetric(reference="{{item.answer}}", candidate="{{sample.output_text}}")
        return self.evaluator.submit(
            metric=metric,
            dataset=rows,
            target=self.runner,  # expect: ES105
        )


QaHarness("qa").score([{"question": "capital of France?", "answer": "Paris"}])
