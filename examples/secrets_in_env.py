"""Credentials pasted into env_vars travel in plain text inside the job spec."""

import os

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

client = NeMoPlatform(workspace="qa")

leaky = GymRuntimeConfig(
    agent="tool_agent",
    agent_config="configs/tool_agent.yaml",
    resources_server="web_search",
    env_vars={
        "OPENAI_API_KEY": "sk-proj-Q3xR7vT9kL2mN8pB4wZ6yH1jF5dS0aE",  # expect: ES110
        "NVIDIA_API_KEY": "nvapi-8fK2xQ9vL4mR7tW1zB6nH3jD5sA0pE9cY2uI7oG4",  # expect: ES110
        "GITHUB_TOKEN": "ghp_Zx8Kq2Lm9Vb4Nw7Rt1Yp6Hs3Jd5Fg0Ac2Ue4",  # expect: ES110
        "AWS_ACCESS_KEY_ID": "AKIAZ7QX4LM2NB8RT5VW",  # expect: ES110
        "WANDB_API_KEY": "3f9a1c7e5b2d8f4a6c0e9b1d7f3a5c8e2b4d6f0a",  # expect: ES110
        "LOG_LEVEL": "debug",
        "SEARCH_REGION": "us-east-1",
    },
)
client.evaluator.submit(tasks=TasksetRef("qa/web-search"), target=GymAgentTaskRunner(config=leaky))

# Read the credentials from the environment instead (or use the platform's secrets).
safe = GymRuntimeConfig(
    agent="tool_agent",
    agent_config="configs/tool_agent.yaml",
    resources_server="web_search",
    env_vars={
        "OPENAI_API_KEY": os.environ["OPENAI_API_KEY"],
        "WANDB_API_KEY": os.getenv("WANDB_API_KEY", ""),
        "LOG_LEVEL": "debug",
    },
)
client.evaluator.submit(tasks=TasksetRef("qa/web-search"), target=GymAgentTaskRunner(config=safe))
