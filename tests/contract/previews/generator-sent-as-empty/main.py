"""A generator in hydra_params: the SDK sends [] in its place (the preview shows that JSON)."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
seeds = (seed * 7 for seed in range(3))
runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(
        agent="simple_agent",
        agent_config="a.yaml",
        resources_server="mcqa",
        hydra_params={"seeds": seeds},
    )
)
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner)
