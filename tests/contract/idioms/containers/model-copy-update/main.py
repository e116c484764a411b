"""Variants derived with model_copy(update=...): not validated until submitted."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


def on_done(result):
    print(result)


base = GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")

wide = base.model_copy(update={"concurrency": 32})
client.evaluator.submit(tasks=TasksetRef("qa/wide"), target=GymAgentTaskRunner(config=wide))

serial = base.model_copy(update={"concurrency": 0})  # expect: ES109
client.evaluator.submit(tasks=TasksetRef("qa/serial"), target=GymAgentTaskRunner(config=serial))

hooked = base.model_copy(update={"hydra_params": {"on_done": on_done}})  # expect: ES107
client.evaluator.submit(tasks=TasksetRef("qa/hooked"), target=GymAgentTaskRunner(config=hooked))
