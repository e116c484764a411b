"""Submissions prepared as operator.methodcaller objects; the prepared call carries a row option."""

import operator

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)
submit_smoke = operator.methodcaller(
    "submit",
    tasks=TasksetRef("smoke"),
    target=runner,
    prompt_template="{{item.question}}",  # expect: ES102
)

for workspace in ("qa", "staging"):
    client = NeMoPlatform(base_url="http://localhost:8080", workspace=workspace)
    submit_smoke(client.evaluator)
