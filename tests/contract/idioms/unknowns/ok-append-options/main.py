"""Job queue worker: each queued job becomes a list of (option, value) pairs."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import ExactMatchMetric
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

METRIC = ExactMatchMetric(reference="{{item.answer}}", candidate="{{sample.output_text}}")
RUNNER = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)
QUEUE = [
    {"kind": "agent", "suite": "qa/smoke"},
    {"kind": "rows", "rows": [{"question": "2+2", "answer": "4"}]},
]


def submit_pairs(job):
    pairs = []
    if job["kind"] == "agent":
        pairs.append(("tasks", TasksetRef(job["suite"])))
        pairs.append(("target", RUNNER))
    else:
        pairs.append(("metric", METRIC))
        pairs.append(("dataset", job["rows"]))
    return dict(pairs)


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
for job in QUEUE:
    print(client.evaluator.submit(**submit_pairs(job)))
