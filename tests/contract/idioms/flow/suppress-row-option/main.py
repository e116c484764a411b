"""Best-effort submission: TypeErrors are suppressed, so the refused job goes unnoticed."""

from contextlib import suppress

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import RunConfig
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)
with suppress(TypeError):
    client.evaluator.submit(
        tasks=TasksetRef("qa/smoke"),
        target=runner,
        config=RunConfig(parallelism=2),  # expect: ES102
    )
