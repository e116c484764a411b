"""Registry lookups with try/except/else/finally: only a found runner is submitted."""

import time

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

SMOKE = TasksetRef("qa/smoke")
REGISTRY = {
    "simple_agent": GymAgentTaskRunner(
        config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
    ),
}


def submit_named(client, name):
    started = time.monotonic()
    try:
        runner = REGISTRY[name]
    except KeyError:
        print(f"unknown runner {name!r}")
        return None
    else:
        return client.evaluator.submit(tasks=SMOKE, target=runner)
    finally:
        print(f"{name}: {time.monotonic() - started:.3f}s")


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
submit_named(client, "simple_agent")
submit_named(client, "rag_agent")
