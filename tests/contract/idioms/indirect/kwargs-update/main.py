"""A keyword dict extended with update() before the call."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import FieldMapping
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)
options = dict(tasks=TasksetRef("qa/mcqa"))
options.update(target=runner,
               field_mapping=FieldMapping(input="question"))  # expect: ES102
client.evaluator.submit(**options)
