"""Stage dispatcher: the guard checks the suite table, the runner comes from another table."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


class UnknownStage(LookupError):
    pass


def gym(agent, **overrides):
    config = GymRuntimeConfig(
        agent=agent, agent_config=f"{agent}.yaml", resources_server="mcqa", **overrides
    )
    return GymAgentTaskRunner(config=config)


SUITES = {"smoke": "qa/smoke", "nightly": "qa/nightly", "canary": "qa/canary"}
RUNNERS = {"smoke": gym("simple_agent"), "nightly": gym("simple_agent", num_repeats=3)}


def submit_stage(client, stage):
    if stage not in SUITES:
        raise UnknownStage(stage)
    return client.evaluator.submit(
        tasks=TasksetRef(SUITES[stage]),
        target=RUNNERS.get(stage),  # expect: ES104
    )


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
for stage in ("smoke", "nightly", "canary", "weekly"):
    try:
        submit_stage(client, stage)
    except UnknownStage as exc:
        print(f"skipped unknown stage {exc}")
