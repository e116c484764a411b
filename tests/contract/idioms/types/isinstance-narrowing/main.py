"""Targets of unknown kind, dispatched with isinstance()."""

import yaml
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

SUITE = TasksetRef("qa/dispatch")


def load_targets(path):
    with open(path) as handle:
        entries = yaml.safe_load(handle)
    targets = []
    for entry in entries:
        config = GymRuntimeConfig(**entry["config"])
        targets.append(GymAgentTaskRunner(config=config) if entry.get("wrap") else config)
    return targets


def submit_any(client: NeMoPlatform, target: object):
    if isinstance(target, GymAgentTaskRunner):
        return client.evaluator.submit(tasks=SUITE, target=target)
    if isinstance(target, GymRuntimeConfig):
        return client.evaluator.submit(tasks=SUITE, target=target)  # expect: ES104
    raise TypeError(f"cannot submit {type(target).__name__}")


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
for target in load_targets("targets.yaml"):
    submit_any(client, target)
