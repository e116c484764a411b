"""Cron entry point: the job kind and the suite come from the command line."""

import sys

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import ExactMatchMetric
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

ROWS = [{"question": "2+2", "answer": "4"}]


def request_for(kind, suite):
    kwargs = {}
    if kind == "agent":
        kwargs["tasks"] = TasksetRef(suite)
        kwargs["target"] = GymAgentTaskRunner(
            config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
        )
    elif kind == "rows":
        kwargs["metric"] = ExactMatchMetric(
            reference="{{item.answer}}", candidate="{{sample.output_text}}"
        )
        kwargs["dataset"] = ROWS
    else:
        raise SystemExit(f"unknown kind {kind!r}")
    return kwargs


kind, suite = sys.argv[1], sys.argv[2]
client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
print(client.evaluator.submit(**request_for(kind, suite)))
