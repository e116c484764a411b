"""Unit tests with mocks: an Evaluator with a mocked executor, mocks only where a value is free."""

from unittest.mock import MagicMock

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


def test_rows_with_mocked_metric_and_dataset():
    evaluator = make_evaluator()
    evaluator.submit(metric=MagicMock(), dataset=MagicMock(), metric_bundle_packager=MagicMock())
    evaluator._executor.submit.assert_called_once()


def test_rows_with_mocked_options():
    evaluator = make_evaluator()
    metric = ExactMatchMetric(reference="{{item.a}}", candidate="{{item.b}}")
    evaluator.submit(metric=metric, dataset=[{"a": 1}], **{"config": MagicMock()})


def test_taskset_with_no_metric():
    evaluator = make_evaluator()
    metric = None
    evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner(), metric=metric)
    evaluator._executor.submit_agent_eval.assert_called_once()
