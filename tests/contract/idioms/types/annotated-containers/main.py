"""Containers typed by annotation: dict[str, runner] and list[config]."""

import yaml
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import ExactMatchMetric
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

SUITE = TasksetRef("qa/regression")
ROWS = [{"question": "2+2?", "answer": "4"}]


def load_configs(path: str) -> list[GymRuntimeConfig]:
    with open(path) as handle:
        return [GymRuntimeConfig(**entry) for entry in yaml.safe_load(handle)]


def score_all(client: NeMoPlatform, runners: dict[str, GymAgentTaskRunner]):
    metric = ExactMatchMetric(reference="{{item.answer}}", candidate="{{sample.output_text}}")
    for name, runner in runners.items():
        client.evaluator.submit(metric=metric, dataset=ROWS,
                                target=runner)  # expect: ES105


def submit_all(client: NeMoPlatform, configs: list[GymRuntimeConfig]):
    for config in configs:
        client.evaluator.submit(tasks=SUITE, target=config)  # expect: ES104


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
configs = load_configs("agents.yaml")
score_all(client, {c.agent: GymAgentTaskRunner(config=c) for c in configs})
submit_all(client, configs)
