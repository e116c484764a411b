"""Helpers called with values from the command line and the environment."""

import os
import sys

from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


def make_runner(agent, concurrency, hydra_params):
    return GymAgentTaskRunner(
        config=GymRuntimeConfig(
            agent=agent,
            agent_config=f"configs/{agent}.yaml",
            resources_server="mcqa",
            concurrency=concurrency,
            hydra_params=hydra_params,
        )
    )


def submit(client, suite, runner, config):
    return client.evaluator.submit(tasks=suite, target=runner, config=config)


client = NeMoPlatform(workspace=os.environ.get("NMP_WORKSPACE", "qa"))
runner = make_runner(sys.argv[1], int(sys.argv[2]), {"split": os.environ["EVAL_SPLIT"]})
submit(client, sys.argv[3], runner, os.environ.get("EVAL_RUN_CONFIG"))
