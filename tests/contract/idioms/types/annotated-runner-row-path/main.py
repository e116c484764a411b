"""A runner from the team's registry, typed by the registry's return annotation."""

import importlib

from nemo_evaluator_sdk import ExactMatchMetric
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner
from nemo_platform import NeMoPlatform


def registered_runner(name: str) -> GymAgentTaskRunner:
    module = importlib.import_module("registry")
    return getattr(module, name.upper())


def score(client: NeMoPlatform, runner: GymAgentTaskRunner, rows: list[dict]):
    metric = ExactMatchMetric(reference="{{item.answer}}", candidate="{{sample.output_text}}")
    return client.evaluator.submit(metric=metric, dataset=rows,
                                   target=runner)  # expect: ES105


score(
    NeMoPlatform(base_url="http://localhost:8080", workspace="qa"),
    registered_runner("qa"),
    [{"question": "2+2?", "answer": "4"}],
)
