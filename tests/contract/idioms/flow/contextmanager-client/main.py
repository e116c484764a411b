"""The client comes from a context manager; the batch passes a row option to a taskset run."""

import contextlib

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import RunConfig
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


@contextlib.contextmanager
def platform(workspace="qa"):
    client = NeMoPlatform(base_url="http://localhost:8080", workspace=workspace)
    try:
        yield client
    finally:
        client.close()


runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)
with platform() as nmp:
    for suite in ("qa/smoke", "qa/nightly#v2"):
        nmp.evaluator.submit(
            tasks=TasksetRef(suite),
            target=runner,
            config=RunConfig(parallelism=4),  # expect: ES102
        )
