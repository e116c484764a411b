"""Submit every registered target: the skip for drafts prints but does not continue."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

CONFIG = GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
TARGETS = {
    "simple": GymAgentTaskRunner(config=CONFIG),
    "draft": None,
    "tool": GymAgentTaskRunner(config=CONFIG.model_copy(update={"agent": "tool_agent"})),
}

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
jobs = {}
for name, target in TARGETS.items():
    if target is None:
        print(f"{name}: no runner yet, skipped")
    jobs[name] = client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=target)  # expect: ES104
print(sorted(jobs))
