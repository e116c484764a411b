"""Pick the first preferred agent that has a runner; for/else handles "none of them"."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import ExactMatchMetric
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

RUNNERS = {
    "tool_agent": GymAgentTaskRunner(
        config=GymRuntimeConfig(agent="tool_agent", agent_config="t.yaml", resources_server="tools")
    ),
}


def submit_preferred(client, preferred):
    for name in preferred:
        runner = RUNNERS.get(name)
        if runner is not None:
            break
    else:
        print(f"none of {preferred} has a runner: scoring the cached rows instead")
        metric = ExactMatchMetric(reference="{{item.answer}}", candidate="{{sample.output_text}}")
        return client.evaluator.submit(metric=metric, dataset=[{"answer": "4"}])
    return client.evaluator.submit(tasks=TasksetRef("qa/tools"), target=runner)


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
submit_preferred(client, ["rag_agent", "tool_agent"])
submit_preferred(client, ["rag_agent", "cot_agent"])
