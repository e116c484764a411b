"""CLI: the worker count's default is a placeholder the cron job always overrides."""

import argparse

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--concurrency", type=int, default=0, help="0: set by the scheduler")
    parser.add_argument("--suite", default="")
    parser.add_argument("--repeats", type=int, default=1)
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    config = GymRuntimeConfig(
        agent="simple_agent",
        agent_config="a.yaml",
        resources_server="mcqa",
        concurrency=args.concurrency,
        num_repeats=args.repeats,
    )
    client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
    return client.evaluator.submit(
        tasks=TasksetRef(args.suite), target=GymAgentTaskRunner(config=config)
    )


if __name__ == "__main__":
    main()
