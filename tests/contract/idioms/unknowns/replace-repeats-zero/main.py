"""Suite jobs as frozen dataclasses; variants are derived with dataclasses.replace."""

import dataclasses

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


@dataclasses.dataclass(frozen=True)
class SuiteJob:
    suite: str
    repeats: int = 3
    concurrency: int = 4


def runner_for(job):
    return GymAgentTaskRunner(
        config=GymRuntimeConfig(
            agent="simple_agent",
            agent_config="a.yaml",
            resources_server="mcqa",
            num_repeats=job.repeats,  # expect: ES109
            concurrency=job.concurrency,
        )
    )


NIGHTLY = SuiteJob("qa/nightly")
SMOKE = dataclasses.replace(NIGHTLY, suite="qa/smoke", repeats=0)

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
for job in (NIGHTLY, SMOKE):
    client.evaluator.submit(tasks=TasksetRef(job.suite), target=runner_for(job))
