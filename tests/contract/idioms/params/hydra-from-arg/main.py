"""A runner factory merging caller-supplied hydra_params into its defaults."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

DEFAULTS = {"temperature": 0.2, "max_turns": 8}


def score_rollout(rollout):
    return rollout["reward"]


def make_runner(extra_params=None):
    params = {**DEFAULTS, **(extra_params or {})}
    config = GymRuntimeConfig(
        agent="simple_agent", agent_config="a.yaml", resources_server="mcqa", hydra_params=params
    )
    return GymAgentTaskRunner(config=config)


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
client.evaluator.submit(tasks=TasksetRef("qa/mcqa"), target=make_runner())
client.evaluator.submit(tasks=TasksetRef("qa/mcqa"), target=make_runner({"temperature": 0.7}))
client.evaluator.submit(
    tasks=TasksetRef("qa/mcqa"),
    target=make_runner({"scorer": score_rollout}),  # expect: ES107
)
