"""A launcher whose command line also names the local Gym checkout, and passes it on to the
config like the other options: GymRuntimeConfig has no such field, whatever the path is."""

import argparse
from pathlib import Path

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="submit a Gym evaluation")
    parser.add_argument("--gym-root", type=Path, required=True)
    parser.add_argument("--resources-server", default="mcqa")
    parser.add_argument("--num-repeats", type=int, default=2)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = parse(argv)
    runner = GymAgentTaskRunner(
        config=GymRuntimeConfig(
            gym_root=args.gym_root,  # expect: ES109
            agent="simple_agent",
            agent_config="responses_api_agents/simple_agent/configs/simple_agent.yaml",
            resources_server=args.resources_server,
            num_repeats=args.num_repeats,
        )
    )
    client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
    client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner)


if __name__ == "__main__":
    main()
