"""Suite entry points: a decorator factory supplies the taskset of each one."""

import functools

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


def on_suite(suite):
    def decorate(entry):
        @functools.wraps(entry)
        def inner(client, **kwargs):
            return entry(client, tasks=TasksetRef(suite), **kwargs)

        return inner

    return decorate


@on_suite("qa/smoke")
def smoke(client, **kwargs):
    return client.evaluator.submit(**kwargs)


@on_suite("qa/nightly")
def nightly(client, **kwargs):
    return client.evaluator.submit(**kwargs)


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)
smoke(client, target=runner)
nightly(client, target=runner)
