from unittest import mock

import planner
import pytest
from nemo_platform import NeMoPlatform


@pytest.fixture
def client():
    return NeMoPlatform(base_url="http://localhost:8080", workspace="qa")


@pytest.mark.parametrize("kind", ["agent", "rows"])
def test_plan_is_submitted_and_announced(client, kind):
    with mock.patch.object(planner, "notify") as notify:
        job = planner.run(client, planner.make_plan(kind))
    notify.assert_called_once_with(job)
