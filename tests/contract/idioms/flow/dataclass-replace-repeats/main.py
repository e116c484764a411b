"""A plan is copied with dataclasses.replace for a quick smoke run: zero repeats."""

import dataclasses

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


@dataclasses.dataclass(frozen=True)
class Plan:
    agent: str = "simple_agent"
    repeats: int = 3

    def runner(self):
        return GymAgentTaskRunner(
            config=GymRuntimeConfig(
                agent=self.agent,
                agent_config=f"{self.agent}.yaml",
                resources_server="mcqa",
                num_repeats=self.repeats,  # expect: ES109
            )
        )


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
nightly = Plan()
client.evaluator.submit(tasks=TasksetRef("qa/nightly"), target=nightly.runner())
smoke = dataclasses.replace(nightly, repeats=0)
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=smoke.runner())
