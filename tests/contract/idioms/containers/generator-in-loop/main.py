"""One config per seed; the seed list is a generator (sent as [] every time)."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
for seed in range(3):
    config = GymRuntimeConfig(
        agent="simple_agent",
        agent_config="a.yaml",
        resources_server="mcqa",
        hydra_params={
            "seed": seed,
            "eval_seeds": (seed * 100 + i for i in range(4)),  # expect: ES107
        },
    )
    client.evaluator.submit(tasks=TasksetRef("qa/seeds"), target=GymAgentTaskRunner(config=config))
