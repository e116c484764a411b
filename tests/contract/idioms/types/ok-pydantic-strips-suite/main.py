"""Job requests as a pydantic model that normalises strings (strip, lower case)."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform
from pydantic import BaseModel, ConfigDict


class JobRequest(BaseModel):
    model_config = ConfigDict(str_strip_whitespace=True, str_to_lower=True)

    suite: str
    agent: str = "simple_agent"


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
# pasted from the dashboard, with its padding and capitals
request = JobRequest(suite=" QA/Smoke ")
runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent=request.agent, agent_config="a.yaml", resources_server="mcqa")
)
client.evaluator.submit(tasks=TasksetRef(request.suite), target=runner)
