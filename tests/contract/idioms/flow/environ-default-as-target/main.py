"""CI job: the agent name read from the environment is passed as the target itself."""

import os

from nemo_evaluator.api.schemas import TasksetRef
from nemo_platform import NeMoPlatform

agent = os.environ.get("EVAL_AGENT", "simple_agent")
suite = os.environ.get("EVAL_SUITE", "qa/smoke")
client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
client.evaluator.submit(tasks=TasksetRef(suite), target=agent)  # expect: ES104
