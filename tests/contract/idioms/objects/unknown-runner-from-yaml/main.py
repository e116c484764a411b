"""The runner comes from a YAML file: nothing about it is known before run time."""

from pathlib import Path

import yaml
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


def load_runner(path):
    settings = yaml.safe_load(Path(path).read_text())
    if settings.get("kind") == "gym":
        return GymAgentTaskRunner(config=GymRuntimeConfig(**settings["config"]))
    return settings.get("runner")


class Scheduled:
    def __init__(self, path):
        self.client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
        self.target = load_runner(path)
        self.options = yaml.safe_load(Path(path).read_text()).get("submit_options", {})

    def run(self):
        return self.client.evaluator.submit(
            tasks=TasksetRef("qa/scheduled"), target=self.target, **self.options
        )


Scheduled("runner.yaml").run()
