"""A sweep model: pydantic turns the generator, map() and range() it is given into lists."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform
from pydantic import BaseModel


class Sweep(BaseModel):
    seeds: list[int]
    temperatures: tuple[float, ...] = (0.0,)
    shards: list[int] = [0]


sweep = Sweep(
    seeds=(s * 7 for s in range(4)),
    temperatures=map(float, ["0.2", "0.7"]),
    shards=range(3),
)
config = GymRuntimeConfig(
    agent="simple_agent",
    agent_config="a.yaml",
    resources_server="mcqa",
    hydra_params={"seeds": sweep.seeds, "temperatures": sweep.temperatures, "shards": sweep.shards},
)
client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
client.evaluator.submit(tasks=TasksetRef("qa/sweep"), target=GymAgentTaskRunner(config=config))
