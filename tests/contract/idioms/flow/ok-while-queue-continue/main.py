"""A work queue drained with while/continue: entries without a runner are skipped."""

from collections import deque

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

RUNNER = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)
queue = deque([("qa/smoke", RUNNER), ("qa/draft", None), ("qa/nightly", RUNNER)])

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
submitted = 0
while queue:
    suite, runner = queue.popleft()
    if runner is None:
        continue
    client.evaluator.submit(tasks=TasksetRef(suite), target=runner)
    submitted += 1
print(f"{submitted} jobs")
