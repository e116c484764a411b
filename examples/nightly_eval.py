"""Nightly MCQA evaluation: run the Gym agent against the stored nightly taskset.

Run with ``python nightly_eval.py`` after ``nemo auth login``.
"""

from __future__ import annotations

from pathlib import Path

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import ExactMatchMetric, RunConfig
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_evaluator_sdk.agent_eval.tasks import AgentEvalRunConfig
from nemo_platform import NeMoPlatform

WORKSPACE = "qa"
NIGHTLY = TasksetRef("qa/mcqa-nightly")


def build_config() -> GymRuntimeConfig:
    return GymRuntimeConfig(
        agent="simple_agent",
        agent_config="configs/simple_agent.yaml",
        resources_server="mcqa",
        concurrency=8,
        startup_timeout_s=120,
        env_vars={"HF_HOME": str(Path("/models/hf")), "LOG_LEVEL": "info"},
        hydra_params={"temperature": 0.2, "max_turns": 8, "seeds": [s * 7 for s in range(4)]},
    )


def make_runner() -> GymAgentTaskRunner:
    return GymAgentTaskRunner(config=build_config())


def main() -> None:
    client = NeMoPlatform(workspace=WORKSPACE)
    gym_runner = make_runner()

    # The nightly run itself.
    job = client.evaluator.submit(tasks=NIGHTLY, target=gym_runner)
    print("submitted", job.name)
    job.wait_until_done(poll_interval_seconds=30.0)

    # A pinned revision as a plain string is accepted; config=None is the same as omitting it.
    client.evaluator.submit(tasks="qa/mcqa-nightly#v3", target=gym_runner, config=None)

    # M1: row options carried over from the row-eval script.
    client.evaluator.submit(
        tasks=TasksetRef("qa/mcqa-nightly"),
        target=gym_runner,
        config=RunConfig(parallelism=16),  # expect: ES102
    )

    # M3: local AgentEvaluator settings are not a submit() config.
    local_cfg = AgentEvalRunConfig(parallelism=2, fail_fast=True)
    client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=gym_runner,
                            config=local_cfg)  # expect: ES102

    # Several row options: one finding per keyword.
    client.evaluator.submit(
        tasks=NIGHTLY,
        target=gym_runner,
        prompt_template="Answer: {{item.question}}",  # expect: ES102
        field_mapping={"question": "prompt"},  # expect: ES102
    )
    client.evaluator.submit(tasks=NIGHTLY, target=gym_runner,
                            config=RunConfig(parallelism=4), prompt_template="Q: {{item.q}}")  # expect: ES102, ES102

    # M2: both shapes at once.
    em = ExactMatchMetric(reference="{{item.answer}}", candidate="{{sample.output_text}}")
    job = client.evaluator.submit(  # expect: ES101
        tasks=NIGHTLY, target=gym_runner,
        metric=em,
    )


if __name__ == "__main__":
    main()
