"""A compatibility decorator drops row-only options from taskset submissions."""

import functools

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import RunConfig
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

ROW_ONLY = ("config", "field_mapping", "prompt_template", "metric_bundle_packager")


def taskset_compatible(submit):
    """Old call sites still pass the row options they used before the taskset shape existed."""

    @functools.wraps(submit)
    def wrapper(client, **kwargs):
        if kwargs.get("tasks") is not None:
            for option in ROW_ONLY:
                kwargs.pop(option, None)
        return submit(client, **kwargs)

    return wrapper


@taskset_compatible
def submit_job(client, **kwargs):
    return client.evaluator.submit(**kwargs)


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)
submit_job(client, tasks=TasksetRef("qa/smoke"), target=runner, config=RunConfig(parallelism=4))
