"""A timing wrapper that forwards every attribute to the runner it wraps via __getattr__."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


class TimedRunner:
    """Logs how long each run takes; everything else is the wrapped runner's."""

    def __init__(self, inner):
        self.inner = inner

    def __getattr__(self, name):
        return getattr(self.inner, name)


gym = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)
client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=gym)
try:
    client.evaluator.submit(tasks=TasksetRef("qa/smoke"),
                            target=TimedRunner(gym))  # expect: ES104
except TypeError as exc:
    print(exc)
