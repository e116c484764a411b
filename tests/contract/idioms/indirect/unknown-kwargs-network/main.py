"""Submission options served by the team's experiment tracker."""

import httpx
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

TRACKER = "http://tracker.internal/api/experiments/exp-42/submission"

settings = httpx.get(TRACKER, timeout=10).json()
runner = GymAgentTaskRunner(config=GymRuntimeConfig(**settings["runner"]))
client = NeMoPlatform(base_url="http://localhost:8080", workspace=settings["workspace"])
client.evaluator.submit(target=runner, **settings["options"])
