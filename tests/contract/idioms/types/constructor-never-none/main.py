"""Row options built from settings we cannot see: a constructed object is never None."""

import json
import sys

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import FieldMapping, RunConfig
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

options = json.loads(sys.argv[1])
runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)
client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
client.evaluator.submit(
    tasks=TasksetRef("qa/smoke"),
    target=runner,
    field_mapping=FieldMapping(**options["mapping"]),  # expect: ES102
)
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner,
                        config=RunConfig(**options["run"]))  # expect: ES102
