"""Typed evaluation pipeline: settings from the environment, typed helpers, a runner registry.

Run with ``python typed_pipeline.py`` (``EVAL_AGENT``, ``EVAL_RUNNER``, ``DATA_ROOT`` optional).
"""

from __future__ import annotations

import os
import random
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Optional, cast

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import ExactMatchMetric, FieldMapping
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

if TYPE_CHECKING:
    from nemo_evaluator_sdk import RunConfig

NIGHTLY = TasksetRef("qa/mcqa-nightly")
ROWS = [{"question": "2+2?", "answer": "4"}]


def load_settings() -> dict[str, str]:
    return {
        "agent": os.environ.get("EVAL_AGENT", "simple_agent"),
        "agent_config": os.environ.get("EVAL_AGENT_CONFIG", "configs/simple_agent.yaml"),
        "resources_server": os.environ.get("EVAL_RESOURCES", "mcqa"),
    }


def make_env() -> tuple[NeMoPlatform, GymAgentTaskRunner]:
    settings = load_settings()
    config = GymRuntimeConfig(
        **settings,
        env_vars={"RUN_ID": str(uuid.uuid4()), "OUT_DIR": str(Path("/results") / "nightly")},
        hydra_params={"run_id": uuid.uuid4(), "out_dir": Path("/results") / "rollouts"},
    )
    return NeMoPlatform(workspace="qa"), GymAgentTaskRunner(config=config)


def submit_nightly(
    client: NeMoPlatform, runner: GymAgentTaskRunner, config: Optional[RunConfig] = None
):
    return client.evaluator.submit(tasks=NIGHTLY, target=runner, config=config)


def submit_config(client: NeMoPlatform, config: GymRuntimeConfig):
    return client.evaluator.submit(tasks=NIGHTLY, target=config)  # expect: ES104


def score(client: NeMoPlatform, runner: GymAgentTaskRunner, rows: list[dict[str, str]]):
    metric = ExactMatchMetric(reference="{{item.answer}}", candidate="{{sample.output_text}}")
    return client.evaluator.submit(metric=metric, dataset=rows,
                                   target=runner)  # expect: ES105


def data_config(settings: dict[str, str]) -> GymRuntimeConfig:
    return GymRuntimeConfig(
        **settings,
        env_vars={
            "DATA_DIR": Path(os.environ.get("DATA_ROOT", "/data")) / "mcqa",  # expect: ES109
            "WORKERS": str(os.cpu_count() or 1),
        },
    )


def seeded_runner(settings: dict[str, str], seed: int) -> GymAgentTaskRunner:
    return GymAgentTaskRunner(
        config=GymRuntimeConfig(
            **settings,
            hydra_params={
                "seed": seed,
                "rng": random.Random(seed),  # expect: ES107
            },
        )
    )


def main() -> None:
    client, runner = make_env()
    submit_nightly(client, runner)
    submit_config(client, runner.config)
    score(client, runner, ROWS)

    registry: dict[str, object] = {"gym": runner}
    chosen = cast(GymAgentTaskRunner, registry[os.environ.get("EVAL_RUNNER", "gym")])
    if isinstance(chosen, GymAgentTaskRunner):
        client.evaluator.submit(
            tasks=NIGHTLY,
            target=chosen,
            field_mapping=FieldMapping(input="question"),  # expect: ES102
        )

    settings = load_settings()
    client.evaluator.submit(tasks=NIGHTLY, target=GymAgentTaskRunner(config=data_config(settings)))
    client.evaluator.submit(tasks=NIGHTLY, target=seeded_runner(settings, 7))


if __name__ == "__main__":
    main()
