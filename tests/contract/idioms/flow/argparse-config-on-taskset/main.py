"""CLI: the parallelism option always becomes a RunConfig, also for the agent mode."""

import argparse

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import ExactMatchMetric, RunConfig
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


def parse(argv=None):
    parser = argparse.ArgumentParser(description="submit an evaluation")
    parser.add_argument("--mode", required=True, choices=["rows", "agent"])
    parser.add_argument("--suite", type=str, default="qa/smoke")
    parser.add_argument("--agent", type=str, default="simple_agent")
    parser.add_argument("--parallelism", type=int, default=4)
    return parser.parse_args(argv)


def main(argv=None):
    args = parse(argv)
    client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
    run_config = RunConfig(parallelism=args.parallelism)
    if args.mode == "rows":
        metric = ExactMatchMetric(reference="{{item.answer}}", candidate="{{sample.output_text}}")
        return client.evaluator.submit(metric=metric, dataset=[{"answer": "4"}], config=run_config)
    config = GymRuntimeConfig(agent=args.agent, agent_config="a.yaml", resources_server="mcqa")
    return client.evaluator.submit(
        tasks=TasksetRef(args.suite),
        target=GymAgentTaskRunner(config=config),
        config=run_config,  # expect: ES102
    )


if __name__ == "__main__":
    main()
    main(["--mode", "rows", "--parallelism", "2"])
