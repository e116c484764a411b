"""Submit every runner of a list literal."""

from pathlib import Path

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_evaluator_sdk.agent_eval.runtimes.harbor_runtime import (
    HarborAgentTaskRunner,
    HarborRuntimeConfig,
)
from nemo_platform import NeMoPlatform

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
gym = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)
harbor = HarborAgentTaskRunner(config=HarborRuntimeConfig(jobs_dir=Path("runs")))

for runner in [gym, harbor]:
    client.evaluator.submit(tasks=TasksetRef("qa/agents"), target=runner)  # expect: ES106
