"""Team defaults overridden by the deployment profile read from YAML at run time."""

import yaml
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

TEAM_DEFAULTS = {
    "agent_config": "configs/simple_agent.yaml",
    "resources_server": "mcqa",
    "concurrency": 0,  # no sensible default: every profile sets it
}


def load_config(agent, **overrides):
    fields = {**TEAM_DEFAULTS, **overrides}
    return GymRuntimeConfig(agent=agent, **fields)


with open("profile.yaml") as handle:
    profile = yaml.safe_load(handle)

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
config = load_config("simple_agent", **profile)
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=GymAgentTaskRunner(config=config))
