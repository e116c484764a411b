"""The runner is prepared in a second step (the attribute starts as None)."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymRuntimeConfig
from nemo_platform import NeMoPlatform


class Experiment:
    def __init__(self, client):
        self.client = client
        self.target = None

    def prepare(self):
        # Built the config and forgot to wrap it in GymAgentTaskRunner(config=...).
        self.target = GymRuntimeConfig(
            agent="simple_agent", agent_config="a.yaml", resources_server="mcqa"
        )

    def launch(self):
        return self.client.evaluator.submit(tasks=TasksetRef("qa/experiment"),
                                            target=self.target)  # expect: ES104


experiment = Experiment(NeMoPlatform(base_url="http://localhost:8080", workspace="qa"))
experiment.prepare()
experiment.launch()
