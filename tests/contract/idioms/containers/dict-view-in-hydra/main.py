"""A dict view and a range in hydra_params (no JSON form), next to their list forms."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

WEIGHTS = {"accuracy": 0.7, "latency": 0.3}
client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")

config = GymRuntimeConfig(
    agent="simple_agent",
    agent_config="a.yaml",
    resources_server="mcqa",
    hydra_params={
        "metrics": list(WEIGHTS),
        "weights": dict(WEIGHTS),
        "metric_names": WEIGHTS.keys(),  # expect: ES107
        "turns": range(1, 9),  # expect: ES107
    },
)
client.evaluator.submit(tasks=TasksetRef("qa/weighted"), target=GymAgentTaskRunner(config=config))
