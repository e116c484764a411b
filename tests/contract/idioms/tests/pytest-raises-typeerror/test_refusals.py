"""The team's regression tests: the SDK must refuse each of these submissions."""

import pytest
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import ExactMatchMetric, RunConfig
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymRuntimeConfig as Config
from nemo_platform import NeMoPlatform

SUITE = TasksetRef("qa/refusals")
ROWS = [{"answer": "4"}]


@pytest.fixture
def client():
    return NeMoPlatform(base_url="http://localhost:8080", workspace="qa")


@pytest.fixture
def runner():
    return GymAgentTaskRunner(
        config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
    )


@pytest.fixture
def metric():
    return ExactMatchMetric(reference="{{item.answer}}", candidate="{{sample.output_text}}")


def test_both_shapes(client, runner, metric):
    with pytest.raises(TypeError, match="not both"):
        client.evaluator.submit(tasks=SUITE, target=runner, dataset=ROWS)  # expect: ES101


def test_config_as_target(client):
    config = Config(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
    with pytest.raises(TypeError, match="must be an AgentTaskRunner"):
        client.evaluator.submit(tasks=SUITE, target=config)  # expect: ES104


def test_row_option(client, runner):
    with pytest.raises(TypeError, match="does not use config"):
        client.evaluator.submit(tasks=SUITE, target=runner,
                                config=RunConfig())  # expect: ES102


def test_runner_on_rows(client, runner, metric):
    with pytest.raises(TypeError, match="agent runner"):
        client.evaluator.submit(metric=metric, dataset=ROWS, target=runner)  # expect: ES105
