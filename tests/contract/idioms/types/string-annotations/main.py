"""Quoted annotations (forward references) on a helper."""

from nemo_evaluator_sdk import ExactMatchMetric
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner
from nemo_platform import NeMoPlatform

import runners


def evaluate_rows(client: "NeMoPlatform", runner: "GymAgentTaskRunner", rows: "list[dict]"):
    metric = ExactMatchMetric(reference="{{item.answer}}", candidate="{{sample.output_text}}")
    return client.evaluator.submit(
        metric=metric,
        dataset=rows,
        target=runner,  # expect: ES105
    )


evaluate_rows(
    NeMoPlatform(base_url="http://localhost:8080", workspace="qa"),
    runners.by_name("qa"),
    [{"answer": "4"}],
)
