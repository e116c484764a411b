"""CI smoke job: typed EvaluatorClient, aliased imports and the nemo_platform.beta paths."""

import os

import nemo_evaluator_sdk.agent_eval.runtimes.gym as gym
from nemo_evaluator.api.schemas import TasksetRef as Ref
from nemo_evaluator.sdk import Evaluator
from nemo_platform import NeMoPlatform
from nemo_platform.beta.evaluator import RunConfig as RowConfig
from nemo_platform.beta.evaluator.agent_eval.runtimes.gym import GymRuntimeConfig as Cfg
from nemo_platform_plugin.evaluator.client import EvaluatorClient

evaluator = Evaluator(
    EvaluatorClient(base_url=os.environ["NEMO_PLATFORM_BASE_URL"], workspace="ci")
)
runner = gym.GymAgentTaskRunner(
    config=Cfg(agent="simple_agent", agent_config="configs/ci.yaml", resources_server="mcqa")
)

job = evaluator.submit(tasks=Ref("ci/smoke"), target=runner)
job.wait_until_done(job_timeout_seconds=1800.0)

evaluator.submit(tasks=Ref("ci/smoke"), target=runner,
                 config=RowConfig(parallelism=2))  # expect: ES102


def platform_client() -> NeMoPlatform:
    return NeMoPlatform(workspace="ci")


ev = Evaluator.from_sdk(platform_client())
ev.submit(target=runner)  # expect: ES103
ev.submit(tasks=Ref("ci/smoke"), target=gym.GymRuntimeConfig(agent="a", agent_config="a.yaml", resources_server="m"))  # expect: ES104
