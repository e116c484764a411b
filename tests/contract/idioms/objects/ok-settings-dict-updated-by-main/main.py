"""Entry point: fills in the settings' limits in place, then builds and submits the runner."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_platform import NeMoPlatform

from evals import settings
from evals.runners import build_runner

settings.LIMITS.update(concurrency=8)
client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=build_runner())
