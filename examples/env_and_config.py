"""GymRuntimeConfig values the SDK rejects at construction (M8, M12), and ones it coerces."""

import os
from pathlib import Path

import yaml

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

client = NeMoPlatform(workspace="qa")

# M8: environment values must be strings.
gpu_cfg = GymRuntimeConfig(
    agent="simple_agent",
    agent_config="configs/simple_agent.yaml",
    resources_server="mcqa",
    env_vars={"CUDA_VISIBLE_DEVICES": 0,  # expect: ES109
              "HF_HOME": Path("/models/hf")},  # expect: ES109
)

# The same, written correctly.
gpu_ok = GymRuntimeConfig(
    agent="simple_agent",
    agent_config="configs/simple_agent.yaml",
    resources_server="mcqa",
    env_vars={
        "CUDA_VISIBLE_DEVICES": "0",
        "HF_HOME": str(Path("/models/hf")),
        "HOME": os.environ["HOME"],
        "OPENAI_API_KEY": os.environ["OPENAI_API_KEY"],
    },
)
client.evaluator.submit(tasks=TasksetRef("qa/mcqa-nightly"), target=GymAgentTaskRunner(config=gpu_ok))

# M12: wire-only fields do not exist on the live config.
GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa",
                 env_secrets={"API_KEY": "qa/api-key"})  # expect: ES109

# Out-of-range numbers and a typo.
GymRuntimeConfig(
    agent="simple_agent",
    agent_config="a.yaml",
    resources_server="mcqa",
    num_repeats=0,  # expect: ES109
    startup_timeout_s=-5,  # expect: ES109
    num_repeat=3,  # expect: ES109
)

# A required field is missing: reported on the constructor line.
no_agent_config = GymRuntimeConfig(  # expect: ES109
    agent="simple_agent",
    resources_server="mcqa",
)

# A dict is not a config: the runner stores it and the submit crashes later.
dict_runner = GymAgentTaskRunner(
    config={"agent": "simple_agent", "agent_config": "a.yaml", "resources_server": "mcqa"},  # expect: ES109
)

# Settings unpacked from a dict literal, and validated from a mapping.
settings = {
    "agent": "simple_agent",
    "agent_config": "a.yaml",
    "resources_server": "mcqa",
    "concurrency": 0,  # expect: ES109
}
from_settings = GymRuntimeConfig(**settings)
validated = GymRuntimeConfig.model_validate(
    {
        "agent": "simple_agent",
        "agent_config": "a.yaml",
        "resources_server": "mcqa",
        "bind_resources_server": "maybe",  # expect: ES109
    }
)

# Lax coercions the SDK accepts.
coerced = GymRuntimeConfig(
    agent="simple_agent",
    agent_config="a.yaml",
    resources_server="mcqa",
    model_type="openai_model",
    bind_resources_server="yes",
    num_repeats="3",
    startup_timeout_s="30",
    collection_timeout_s=None,
    env_vars={"TOKENIZERS_PARALLELISM": "false", "PAYLOAD": b"raw"},
)
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=GymAgentTaskRunner(config=coerced))

# Values read from a file are unknown: never diagnosed.
with open("gym.yaml") as fh:
    loaded = yaml.safe_load(fh)
from_file = GymRuntimeConfig(**loaded)
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=GymAgentTaskRunner(config=from_file))
