"""A project of three modules, each importing the next (jobs.py -> settings.py -> limits.py),
shared by the unit and LSP tests of edits two imports away."""

LIMITS = "MAX_PARALLEL = {value}\n"
SETTINGS = """from limits import MAX_PARALLEL

CONCURRENCY = MAX_PARALLEL
BASE = {"agent": "react", "agent_config": "configs/react.yaml", "resources_server": "math"}
"""
JOBS = """from nemo_evaluator_sdk.agent_eval.runtimes.gym import (
    GymAgentTaskRunner,
    GymRuntimeConfig,
)

from settings import BASE, CONCURRENCY


def build_runner() -> GymAgentTaskRunner:
    config = GymRuntimeConfig(**BASE, concurrency=CONCURRENCY)
    return GymAgentTaskRunner(config=config)


runner = build_runner()
"""
