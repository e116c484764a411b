from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig

BASE_URL = "http://localhost:8080"
WORKSPACE = "qa"
SUITES = [TasksetRef("qa/smoke"), "qa/nightly#v2"]
NIGHTLY_CONFIG = GymRuntimeConfig(
    agent="simple_agent", agent_config="a.yaml", resources_server="mcqa", num_repeats=3
)
NIGHTLY_TARGET = GymAgentTaskRunner(config=NIGHTLY_CONFIG)
