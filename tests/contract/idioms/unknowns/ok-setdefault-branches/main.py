"""evalctl: submit a stored agent suite (--suite) or the default row check."""

import argparse

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import ExactMatchMetric
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

DEFAULT_ROWS = [{"question": "2+2", "answer": "4"}]
METRIC = ExactMatchMetric(reference="{{item.answer}}", candidate="{{sample.output_text}}")
RUNNER = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)


def submit_options(args):
    options = {}
    if args.suite:
        options.setdefault("tasks", TasksetRef(args.suite))
        options.setdefault("target", RUNNER)
    else:
        options.setdefault("metric", METRIC)
        options.setdefault("dataset", DEFAULT_ROWS)
    return options


def main(argv):
    parser = argparse.ArgumentParser(prog="evalctl")
    parser.add_argument("--suite")
    args = parser.parse_args(argv)
    client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
    print(client.evaluator.submit(**submit_options(args)))


main(["--suite", "qa/smoke"])
main([])
