"""Loops, comprehensions and merges written correctly."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

BASE = {"agent_config": "a.yaml", "resources_server": "mcqa"}
AGENTS = {"simple_agent": {"concurrency": 8}, "tool_agent": {"num_repeats": 2}}

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
runners = {
    name: GymAgentTaskRunner(config=GymRuntimeConfig(agent=name, **{**BASE, **extra}))
    for name, extra in AGENTS.items()
}
for index, (name, runner) in enumerate(sorted(runners.items())):
    client.evaluator.submit(tasks=TasksetRef(f"qa/{name}#v{index + 1}"), target=runner)

seeds = [s * 7 for s in range(4)]
for seed in seeds:
    config = GymRuntimeConfig(agent="simple_agent", hydra_params={"seed": seed, "all": seeds},
                              **BASE)
    client.evaluator.submit(tasks="qa/seeds", target=GymAgentTaskRunner(config=config))

base = GymRuntimeConfig(agent="simple_agent", **BASE)
for suite, copy in zip(["qa/a", "qa/b"], [base.model_copy(), base.model_copy(update={"concurrency": 2})]):
    client.evaluator.submit(tasks=TasksetRef(suite), target=GymAgentTaskRunner(config=copy))
