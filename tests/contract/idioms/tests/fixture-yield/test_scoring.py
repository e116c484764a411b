"""Yield fixtures: the client is closed after each test."""

import pytest
from nemo_evaluator_sdk import ExactMatchMetric
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

ROWS = [{"question": "2+2?", "answer": "4"}]


@pytest.fixture
def client():
    client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
    yield client
    client.close()


@pytest.fixture
def agent_runner():
    yield GymAgentTaskRunner(
        config=GymRuntimeConfig(agent="qa_agent", agent_config="qa.yaml", resources_server="qa")
    )


@pytest.fixture
def metric():
    return ExactMatchMetric(reference="{{item.answer}}", candidate="{{sample.output_text}}")


def test_rows_are_scored(client, metric):
    client.evaluator.submit(metric=metric, dataset=ROWS)


def test_agent_scores_rows(client, metric, agent_runner):
    client.evaluator.submit(metric=metric, dataset=ROWS,
                            target=agent_runner)  # expect: ES105
