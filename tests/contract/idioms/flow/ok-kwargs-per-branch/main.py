"""One entry point for both shapes: the keyword arguments are built per branch."""

import sys

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import ExactMatchMetric
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

ROWS = [{"question": "2+2", "answer": "4"}]


def build_kwargs(mode):
    kwargs = {}
    if mode == "rows":
        kwargs.update(
            metric=ExactMatchMetric(reference="{{item.answer}}", candidate="{{sample.output_text}}"),
            dataset=ROWS,
        )
    else:
        kwargs.update(
            tasks=TasksetRef("qa/smoke"),
            target=GymAgentTaskRunner(
                config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
            ),
        )
    return kwargs


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
client.evaluator.submit(**build_kwargs(sys.argv[1] if len(sys.argv) > 1 else "agents"))
