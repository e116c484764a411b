"""Weekly sweep: the early return only covers the short run, the long run keeps a row option."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import RunConfig
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


def weekly(client, runner, long_suites=False):
    jobs = [client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner)]
    if not long_suites:
        return jobs
    jobs.append(
        client.evaluator.submit(
            tasks=TasksetRef("qa/long"),
            target=runner,
            config=RunConfig(parallelism=2),  # expect: ES102
        )
    )
    return jobs


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)
weekly(client, runner)
weekly(client, runner, long_suites=True)
