"""Unit tests of submit()'s shape checks, in the style of the SDK's own test suite:
an Evaluator built with __new__ and a mocked executor, wrong calls inside pytest.raises."""

from unittest.mock import MagicMock

import pytest
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator.sdk import Evaluator
from nemo_evaluator_sdk import ExactMatchMetric, RunConfig
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig


def _make_evaluator() -> tuple[Evaluator, MagicMock]:
    evaluator = Evaluator.__new__(Evaluator)
    executor = MagicMock()
    evaluator._executor = executor
    return evaluator, executor


def _runner() -> GymAgentTaskRunner:
    return GymAgentTaskRunner(
        config=GymRuntimeConfig(agent="simple_agent", agent_config="c.yaml", resources_server="mcqa")
    )


METRIC = ExactMatchMetric(reference="{{item.a}}", candidate="{{item.b}}")


def test_taskset_shape_goes_to_the_agent_executor():
    evaluator, executor = _make_evaluator()
    evaluator.submit(tasks=TasksetRef("ws/suite"), target=_runner())
    executor.submit_agent_eval.assert_called_once()


def test_both_shapes_are_refused():
    evaluator, _ = _make_evaluator()
    with pytest.raises(TypeError, match="not both"):
        evaluator.submit(tasks=TasksetRef("ws/suite"), target=_runner(), metric=METRIC)  # expect: ES101


def test_missing_target_is_refused():
    evaluator, _ = _make_evaluator()
    with pytest.raises(TypeError, match="AgentTaskRunner"):
        evaluator.submit(tasks=TasksetRef("ws/suite"))  # expect: ES104


def test_row_options_are_refused():
    evaluator, _ = _make_evaluator()
    with pytest.raises(TypeError, match="does not use"):
        evaluator.submit(
            tasks=TasksetRef("ws/suite"),
            target=_runner(),
            config=RunConfig(),  # expect: ES102
            prompt_template="{{item.q}}",  # expect: ES102
        )


def test_neither_shape():
    evaluator, _ = _make_evaluator()
    with pytest.raises(TypeError, match="neither"):
        evaluator.submit(metric=METRIC)  # expect: ES103


def test_runner_on_rows():
    evaluator, _ = _make_evaluator()
    with pytest.raises(TypeError, match="agent runner"):
        evaluator.submit(metric=METRIC, dataset=[{"a": 1, "b": 1}],
                         target=_runner())  # expect: ES105
