"""Builds the keyword arguments of a submission from a job kind."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import ExactMatchMetric
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig

ROWS = [{"question": "reset password", "answer": "settings"}]


def default_runner():
    return GymAgentTaskRunner(
        config=GymRuntimeConfig(agent="support_agent", agent_config="s.yaml", resources_server="kb")
    )


def build_request(kind, suite="support/smoke"):
    request = {}
    if kind == "agent":
        request["tasks"] = TasksetRef(suite)
        request["target"] = default_runner()
    else:
        request["metric"] = ExactMatchMetric(
            reference="{{item.answer}}", candidate="{{sample.output_text}}"
        )
        request["dataset"] = ROWS
    return request
