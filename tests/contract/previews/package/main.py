"""A script of a package: the runner comes from a sibling module."""

from evaljobs.runners import nightly_runner
from nemo_evaluator.api.schemas import TasksetRef
from nemo_platform import NeMoPlatform

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
runner = nightly_runner()
client.evaluator.submit(tasks=TasksetRef("qa/nightly"), target=runner)
