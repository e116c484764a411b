"""One helper returns the client and the runner together."""

import os

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import ExactMatchMetric
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


def make_env() -> tuple[NeMoPlatform, GymAgentTaskRunner]:
    client = NeMoPlatform(workspace=os.environ.get("NMP_WORKSPACE", "qa"))
    config = GymRuntimeConfig(
        agent=os.environ.get("AGENT", "simple_agent"),
        agent_config=os.environ.get("AGENT_CONFIG", "a.yaml"),
        resources_server="mcqa",
    )
    return client, GymAgentTaskRunner(config=config)


client, runner = make_env()
client.evaluator.submit(tasks=TasksetRef("qa/mcqa"), target=runner)

em = ExactMatchMetric(reference="{{item.answer}}", candidate="{{sample.output_text}}")
client.evaluator.submit(metric=em, dataset=[{"answer": "4"}],
                        target=runner)  # expect: ES105

env = make_env()
env[0].evaluator.submit(target=env[1])  # expect: ES103
