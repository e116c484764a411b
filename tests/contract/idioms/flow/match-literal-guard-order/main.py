"""Job kinds dispatched with match: the guarded "agent" case forwards the row options too."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import ExactMatchMetric, RunConfig
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

METRIC = ExactMatchMetric(reference="{{item.answer}}", candidate="{{sample.output_text}}")
RUNNER = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)


def submit(client, kind, parallelism=1):
    options = {"config": RunConfig(parallelism=parallelism)} if parallelism > 1 else {}  # expect: ES102
    match kind:
        case "rows" | "offline":
            return client.evaluator.submit(metric=METRIC, dataset=[{"answer": "4"}], **options)
        case "agent" if parallelism > 1:
            return client.evaluator.submit(tasks=TasksetRef("qa/mcqa"), target=RUNNER, **options)
        case "agent":
            return client.evaluator.submit(tasks=TasksetRef("qa/mcqa"), target=RUNNER)
        case unknown:
            raise ValueError(f"unknown job kind {unknown!r}")


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
submit(client, "rows", parallelism=8)
submit(client, "offline")
submit(client, "agent")
submit(client, "agent", parallelism=8)
