"""What the SDK must refuse: each wrong call is asserted to raise."""

import unittest

import pytest
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import RunConfig
from nemo_platform import NeMoPlatform
from pydantic import ValidationError

from factories import make_config, make_runner

ROWS = [{"question": "2+2?", "answer": "4"}]


def test_both_shapes(client, smoke, runner, metric):
    with pytest.raises(TypeError, match="not both"):
        client.evaluator.submit(tasks=smoke, target=runner, metric=metric)  # expect: ES101


def test_row_options(client, smoke, runner):
    with pytest.raises(TypeError, match="does not use"):
        client.evaluator.submit(
            tasks=smoke,
            target=runner,
            config=RunConfig(parallelism=4),  # expect: ES102
        )


def test_runner_on_rows(client, runner, metric):
    with pytest.raises(TypeError, match="agent runner"):
        client.evaluator.submit(metric=metric, dataset=ROWS,
                                target=runner)  # expect: ES105


def test_zero_concurrency():
    with pytest.raises(ValidationError):
        make_config(concurrency=0)  # expect: ES109


class LegacySubmitTest(unittest.TestCase):
    def setUp(self):
        self.client = NeMoPlatform(workspace="qa")
        self.runner = make_runner()

    def test_taskset_is_required(self):
        with self.assertRaises(TypeError):
            self.client.evaluator.submit(target=self.runner)  # expect: ES103

    def test_nested_name_is_refused(self):
        with self.assertRaises(ValidationError):
            TasksetRef("qa/suites/smoke")  # expect: ES108
