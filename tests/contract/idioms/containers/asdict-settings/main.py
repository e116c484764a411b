"""The team's settings dataclass, turned into config keywords with asdict()."""

from dataclasses import asdict, dataclass

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


@dataclass
class AgentSettings:
    agent: str
    agent_config: str
    resources_server: str = "mcqa"
    concurrency: int = 4


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")

good = AgentSettings(agent="simple_agent", agent_config="a.yaml")
client.evaluator.submit(
    tasks=TasksetRef("qa/mcqa"), target=GymAgentTaskRunner(config=GymRuntimeConfig(**asdict(good)))
)

bad = AgentSettings(agent="simple_agent", agent_config="a.yaml",
                    concurrency=0)  # expect: ES109
client.evaluator.submit(
    tasks=TasksetRef("qa/mcqa"), target=GymAgentTaskRunner(config=GymRuntimeConfig(**asdict(bad)))
)
