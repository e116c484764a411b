"""One launcher for both kinds of evaluation: rows by default, an agent suite when asked."""

from pathlib import Path

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import ExactMatchMetric
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_evaluator_sdk.agent_eval.runtimes.harbor_runtime import (
    HarborAgentTaskRunner,
    HarborRuntimeConfig,
)
from nemo_platform import NeMoPlatform

QUICK_ROWS = [{"question": "2+2", "answer": "4"}, {"question": "3+3", "answer": "6"}]


def quick_rows(client):
    metric = ExactMatchMetric(reference="{{item.answer}}", candidate="{{sample.output_text}}")
    return client.evaluator.submit(metric=metric, dataset=QUICK_ROWS)


def launch(client, suite=None, runner=None):
    if suite is None or runner is None:
        return quick_rows(client)
    return client.evaluator.submit(tasks=suite, target=runner)


nmp = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
suite = TasksetRef("qa/terminal-bench")
gym_runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)
bad_runner = HarborAgentTaskRunner(config=HarborRuntimeConfig(jobs_dir=Path("runs")))

launch(nmp)
launch(nmp, suite)
launch(nmp, suite, gym_runner)
launch(nmp, suite, bad_runner)  # expect: ES106
