"""Optional row options: None by default, so the taskset runs are fine."""

from typing import Optional

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import FieldMapping, RunConfig
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


def submit_agent(
    client: NeMoPlatform,
    runner: GymAgentTaskRunner,
    config: Optional[RunConfig] = None,
    field_mapping: FieldMapping | None = None,
):
    return client.evaluator.submit(
        tasks=TasksetRef("qa/agents"),
        target=runner,
        config=config,
        field_mapping=field_mapping,
    )


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)
submit_agent(client, runner)
submit_agent(client, runner, config=None)
