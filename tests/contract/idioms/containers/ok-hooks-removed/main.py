"""Local-only hooks stripped from the shared hydra settings before each submission."""

import copy

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


def on_rollout(result):
    print(result)


LOCAL = {
    "seed": 7,
    "on_rollout": on_rollout,
    "trace": [print],
    "sampling": {"temperature": 0.2, "callback": print},
}

deleted = dict(LOCAL)
del deleted["on_rollout"], deleted["trace"], deleted["sampling"]
popped = copy.copy(LOCAL)
popped.pop("on_rollout")
popped.pop("trace", None)
popped.pop("sampling")
kept = {k: v for k, v in LOCAL.items() if k not in ("on_rollout", "trace", "sampling")}
plain = {k: v for k, v in LOCAL.items() if isinstance(v, (int, str))}
nested = {
    "seed": LOCAL["seed"],
    "sampling": {k: v for k, v in LOCAL["sampling"].items() if k != "callback"},
}

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
for hydra in (deleted, popped, kept, plain, nested):
    config = GymRuntimeConfig(
        agent="simple_agent", agent_config="a.yaml", resources_server="mcqa", hydra_params=hydra
    )
    client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=GymAgentTaskRunner(config=config))
