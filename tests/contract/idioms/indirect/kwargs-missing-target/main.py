"""The ** dict has the taskset but the runner never made it in."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_platform import NeMoPlatform

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
submission = {"tasks": TasksetRef("qa/mcqa")}
client.evaluator.submit(**submission)  # expect: ES104
