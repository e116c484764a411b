"""Gym runs whose hydra_params carry values with no JSON form (M6, M7)."""

import logging
import threading
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import Enum
from pathlib import Path

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.evaluator import AgentEvaluator
from nemo_evaluator_sdk.agent_eval.runtimes.gym import (
    GymAgentTaskRunner,
    GymRuntimeConfig,
    discover_gym_tasks,
)
from nemo_platform import NeMoPlatform

log = logging.getLogger(__name__)
client = NeMoPlatform(workspace="qa")
NIGHTLY = TasksetRef("qa/mcqa-nightly")


class Split(Enum):
    TRAIN = "train"
    TEST = "test"


@dataclass
class Sampling:
    temperature: float = 0.2
    top_p: float = 0.95


def score_rollout(rollout: dict) -> float:
    return float(rollout["reward"])


# M6: callables and live objects.
cfg = GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa",
    hydra_params={"on_rollout": lambda r: print(r),  # expect: ES107
                  "guard": threading.Lock()})  # expect: ES107
client.evaluator.submit(tasks=NIGHTLY, target=GymAgentTaskRunner(config=cfg))

# M7: one-shot iterators are silently sent as []; range and functions are refused.
seeds = (s * 7 for s in range(4))
iter_runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(
        agent="simple_agent",
        agent_config="a.yaml",
        resources_server="mcqa",
        hydra_params={
            "seeds": seeds,  # expect: ES107
            "shards": map(str, range(8)),  # expect: ES107
            "steps": range(100),  # expect: ES107
            "scorer": score_rollout,  # expect: ES107
            "nested": {"hooks": [log.info]},  # expect: ES107
        },
    )
)
# Submitted twice, reported once (where the values are written).
client.evaluator.submit(tasks=NIGHTLY, target=iter_runner)
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=iter_runner)

# A mutation before the config is built.
params = {"temperature": 0.2}
params["callback"] = score_rollout  # expect: ES107
mutated = GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa",
                           hydra_params=params)
client.evaluator.submit(tasks=NIGHTLY, target=GymAgentTaskRunner(config=mutated))

# Everything here serializes fine.
fine = GymRuntimeConfig(
    agent="simple_agent",
    agent_config="a.yaml",
    resources_server="mcqa",
    hydra_params={
        "seeds": [s * 7 for s in range(4)],
        "seed_list": list(range(4)),
        "ids": ",".join(str(i) for i in range(4)),
        "data_dir": Path("/data/mcqa"),
        "splits": {"train", "test"},
        "shape": (2, 3),
        "split": Split.TEST,
        "cutoff": datetime(2026, 1, 1),
        "budget": timedelta(minutes=5),
        "sampling": Sampling(),
        "lookup": dict(zip(["a", "b"], [1, 2])),
        "ceiling": float("inf"),
    },
)
client.evaluator.submit(tasks=NIGHTLY, target=GymAgentTaskRunner(config=fine))

# A runner with a lambda that only runs locally is not a submission.
local_runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa",
                            hydra_params={"on_rollout": lambda r: log.info("%s", r)})
)
smoke_tasks = discover_gym_tasks("data/mcqa_smoke.jsonl")
result = AgentEvaluator().run_sync(tasks=smoke_tasks, target=local_runner)

# Deliberately suppressed.
debug = GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa",
                         hydra_params={"hook": breakpoint})  # evalsubmit: ignore[ES107]
client.evaluator.submit(tasks=TasksetRef("qa/debug"), target=GymAgentTaskRunner(config=debug))
