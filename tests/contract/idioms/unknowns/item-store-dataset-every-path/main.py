"""Builds a submission from a job kind; the rows are attached to every request."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import ExactMatchMetric
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

ROWS = [{"question": "reset password", "answer": "settings"}]


def build_request(kind, suite="support/smoke"):
    request = {"dataset": ROWS}
    if kind == "agent":
        request["tasks"] = TasksetRef(suite)
        request["target"] = GymAgentTaskRunner(
            config=GymRuntimeConfig(agent="support_agent", agent_config="s.yaml", resources_server="kb")
        )
    else:
        request["metric"] = ExactMatchMetric(
            reference="{{item.answer}}", candidate="{{sample.output_text}}"
        )
    return request


client = NeMoPlatform(base_url="http://localhost:8080", workspace="support")
client.evaluator.submit(**build_request("agent"))  # expect: ES101
client.evaluator.submit(**build_request("rows"))
