"""A scripted runner that declares the AgentTaskRunner protocol as its base class."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.trials import AgentTaskRunner
from nemo_platform import NeMoPlatform


class ReplayRunner(AgentTaskRunner):
    """Replays recorded trajectories; runner_info is inherited from the protocol class."""

    def __init__(self, recordings):
        self.recordings = recordings

    async def run_tasks(self, tasks, config=None):
        return [self.recordings[task.id] for task in tasks]


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
replay = ReplayRunner(recordings={})
try:
    client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=replay)  # expect: ES106
except TypeError as exc:
    print(exc)
