"""Registry lookups: the except branch falls back to None and the submit runs anyway."""

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
        runner = None
    finally:
        print(f"{name}: {time.monotonic() - started:.3f}s")
    return client.evaluator.submit(tasks=SMOKE, target=runner)  # expect: ES104


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
submit_named(client, "simple_agent")
submit_named(client, "rag_agent")
