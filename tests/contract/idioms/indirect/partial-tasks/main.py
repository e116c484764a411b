"""functools.partial fixes the taskset; each call supplies a target."""

import functools

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
run_smoke = functools.partial(client.evaluator.submit, tasks=TasksetRef("qa/smoke"))

config = GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
run_smoke(target=GymAgentTaskRunner(config=config))
run_smoke(target=config)  # expect: ES104
run_smoke()  # expect: ES104
