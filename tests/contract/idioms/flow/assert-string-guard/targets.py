"""Maps a target kind to what submit() needs; the final assert tests a string (always true)."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig

CONFIG = GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")


def target_for(kind):
    if kind == "gym":
        return GymAgentTaskRunner(config=CONFIG)
    if kind == "gym-nightly":
        return GymAgentTaskRunner(config=CONFIG.model_copy(update={"num_repeats": 3}))
    assert f"unsupported target kind {kind!r}"


def submit_kind(client, kind):
    return client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=target_for(kind))  # expect: ES104
