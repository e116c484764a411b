"""Entry point: the quotas imported from the settings are the settings' own dict; filling them
in here is what the runner reads."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_platform import NeMoPlatform

from evals.runners import build_runner
from evals.settings import QUOTAS

QUOTAS["concurrency"] = 8
client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=build_runner())
