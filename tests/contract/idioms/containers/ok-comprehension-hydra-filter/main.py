"""hydra_params built by comprehensions from optional overrides (None means: keep default)."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

OVERRIDES = {"temperature": 0.2, "top_p": None, "max_tokens": 512, "stop": None}
SEEDS = range(3)

hydra = {k: v for k, v in OVERRIDES.items() if v is not None}
hydra["seeds"] = [seed * 11 for seed in SEEDS]
hydra["tags"] = sorted({tag.lower() for tag in ("QA", "nightly", "qa")})
hydra |= {"stages": tuple(f"stage-{i}" for i in range(2))}
config = GymRuntimeConfig(
    agent="simple_agent", agent_config="a.yaml", resources_server="mcqa", hydra_params=hydra
)
client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=GymAgentTaskRunner(config=config))
