"""Unit tests with mocks: a MagicMock is never None, so it supplies whatever keyword it fills."""

from unittest.mock import MagicMock

import pytest
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator.sdk import Evaluator
from nemo_evaluator_sdk import ExactMatchMetric
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig


def make_evaluator():
    evaluator = Evaluator.__new__(Evaluator)
    evaluator._executor = MagicMock()
    return evaluator


def runner():
    return GymAgentTaskRunner(
        config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
    )


def test_taskset_with_a_placeholder_metric():
    evaluator = make_evaluator()
    with pytest.raises(TypeError):
        evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner(), metric=MagicMock())  # expect: ES101


def test_rows_with_a_mocked_dataset():
    evaluator = make_evaluator()
    metric = ExactMatchMetric(reference="{{item.a}}", candidate="{{item.b}}")
    with pytest.raises(TypeError):
        evaluator.submit(metric=metric, dataset=MagicMock(), target=runner())  # expect: ES105


def test_taskset_with_mocked_row_options():
    evaluator = make_evaluator()
    with pytest.raises(TypeError):
        evaluator.submit(
            tasks=TasksetRef("qa/smoke"),
            target=runner(),
            **{
                "field_mapping": MagicMock(),  # expect: ES102
                "prompt_template": MagicMock(),  # expect: ES102
            },
        )
