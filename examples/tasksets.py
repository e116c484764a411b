"""Taskset references: valid spellings, and the malformed ones the SDK rejects (M10)."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

client = NeMoPlatform(workspace="qa")
gym_runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)

# Valid: bare name, workspace/name, revision tag, Unicode names, keyword and validator forms.
SUITES = [
    TasksetRef("mcqa-nightly"),
    TasksetRef("qa/mcqa-nightly#v3"),
    TasksetRef("données/suite"),
    TasksetRef(root="qa/smoke"),
    TasksetRef.model_validate("qa/smoke#rc-1"),
]
for suite in SUITES:
    client.evaluator.submit(tasks=suite, target=gym_runner)

# M10: malformed references fail when constructed, submitted or not.
TasksetRef("qa team/smoke")  # expect: ES108
TasksetRef("org/qa/smoke")  # expect: ES108
TasksetRef("qa/smoke#")  # expect: ES108
legacy = TasksetRef(
    "qa/smoke@v2"  # expect: ES108
)

# Plain strings are coerced by submit(): fine when well-formed, rejected otherwise.
client.evaluator.submit(tasks="qa/smoke#v3", target=gym_runner)
client.evaluator.submit(tasks="qa/mcqa/nightly", target=gym_runner)  # expect: ES108
client.evaluator.submit(
    tasks="qa:smoke",  # expect: ES108
    target=gym_runner,
)
