"""A launcher that keeps local-only settings beside the Gym fields and builds the submitted
config without validation: `model_construct` and `model_copy(update=...)` keep only the model's
fields, so the extra keys never reach the job (the SDK sends the config without them)."""

from pathlib import Path

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

LOCAL_CHECKOUT = Path("/opt/gym")

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")

fast = GymRuntimeConfig.model_construct(
    gym_root=LOCAL_CHECKOUT,  # only the local runs read it
    agent="simple_agent",
    agent_config="a.yaml",
    resources_server="mcqa",
    concurrency=16,
)
client.evaluator.submit(tasks=TasksetRef("qa/fast"), target=GymAgentTaskRunner(config=fast))


def with_checkout(config: GymRuntimeConfig, root: Path) -> GymRuntimeConfig:
    return config.model_copy(update={"gym_root": root, "num_repeats": 2})


base = GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
client.evaluator.submit(
    tasks=TasksetRef("qa/repeats"),
    target=GymAgentTaskRunner(config=with_checkout(base, LOCAL_CHECKOUT)),
)
