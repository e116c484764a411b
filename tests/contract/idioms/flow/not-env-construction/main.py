"""Per-environment configs: the empty-name check was dropped in a refactor."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import ExactMatchMetric
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

REPEATS = {"smoke": 1, "nightly": 3}


def make_config(env=""):
    return GymRuntimeConfig(
        agent="simple_agent",
        agent_config=f"configs/{env or 'default'}.yaml",
        resources_server="mcqa",
        num_repeats=REPEATS.get(env, 0),  # expect: ES109
    )


def run(client, env=""):
    config = make_config(env)
    if not env:
        metric = ExactMatchMetric(reference="{{item.answer}}", candidate="{{sample.output_text}}")
        return client.evaluator.submit(metric=metric, dataset=[{"answer": "4"}])
    return client.evaluator.submit(
        tasks=TasksetRef(f"qa/{env}"), target=GymAgentTaskRunner(config=config)
    )


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
run(client)
run(client, "smoke")
run(client, "nightly")
