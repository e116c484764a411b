"""Things that look like evaluator submissions but are not: all must stay silent."""

from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

from nemo_evaluator_sdk import Evaluator as LocalEvaluator
from nemo_evaluator_sdk.agent_eval.evaluator import AgentEvaluator
from nemo_evaluator_sdk.agent_eval.runtimes.gym import (
    GymAgentTaskRunner,
    GymRuntimeConfig,
    discover_gym_tasks,
)
from nemo_platform.beta.evaluator import Evaluator as BetaEvaluator

runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa",
                            hydra_params={"on_rollout": lambda r: print(r)})
)


def score(row: dict) -> float:
    return 1.0


# concurrent.futures executors have a submit() too.
with ThreadPoolExecutor(max_workers=4) as pool:
    futures = [pool.submit(score, {"q": i}) for i in range(8)]
    pool.submit(score, tasks="a/b/c", target=runner)
with ProcessPoolExecutor() as procs:
    procs.submit(score, metric=None)

# The standalone SDK evaluator runs locally and has no submit(); not our business.
local = LocalEvaluator()
local.submit(target=runner)
BetaEvaluator().submit(tasks="x y", target=runner)

# Running a runner locally is not a submission, whatever its hydra_params hold.
local_tasks = discover_gym_tasks("data/mcqa_smoke.jsonl")
AgentEvaluator().run_sync(tasks=local_tasks, target=runner)


# User classes that happen to share the SDK's names.
class Evaluator:
    def submit(self, **kwargs: object) -> None:
        print(kwargs)


class TasksetRef:
    def __init__(self, ref: str) -> None:
        self.ref = ref


Evaluator().submit(target=runner)
Evaluator().submit(tasks=TasksetRef("not a/valid/ref"), metric=score)
