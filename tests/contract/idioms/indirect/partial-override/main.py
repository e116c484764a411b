"""Keywords given at the call override the partial's."""

from functools import partial
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
    config=GymRuntimeConfig(agent="qa_agent", agent_config="qa.yaml", resources_server="qa")
)
terminal = partial(client.evaluator.submit, tasks=TasksetRef("qa/terminal"), target=gym)

terminal()
harbor = HarborAgentTaskRunner(config=HarborRuntimeConfig(jobs_dir=Path("runs")))
terminal(target=harbor)  # expect: ES106
