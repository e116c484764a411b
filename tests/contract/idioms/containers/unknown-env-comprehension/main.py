"""env_vars copied from the environment with a comprehension; suites listed in a variable."""

import os

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

config = GymRuntimeConfig(
    agent="simple_agent",
    agent_config="a.yaml",
    resources_server="mcqa",
    env_vars={k: v for k, v in os.environ.items() if k.startswith("HF_")},
    hydra_params={"suites": os.environ["EVAL_SUITES"].split(",")},
)
client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
for suite in os.environ["EVAL_SUITES"].split(","):
    client.evaluator.submit(tasks=TasksetRef(suite), target=GymAgentTaskRunner(config=config))
