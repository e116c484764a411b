"""Notebooks as Jupyter writes them (indent 1, one string per source line, outputs kept)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def code(
    source: str, *, outputs: list[dict[str, Any]] | None = None, count: int | None = None
) -> dict[str, Any]:
    return {
        "cell_type": "code",
        "execution_count": count,
        "id": f"c{sum(map(ord, source)) % 10**8:08d}",
        "metadata": {},
        "outputs": outputs or [],
        "source": source.splitlines(keepends=True),
    }


def markdown(source: str) -> dict[str, Any]:
    return {
        "cell_type": "markdown",
        "id": f"m{sum(map(ord, source)) % 10**8:08d}",
        "metadata": {},
        "source": source.splitlines(keepends=True),
    }


def notebook(*cells: dict[str, Any]) -> dict[str, Any]:
    return {
        "cells": list(cells),
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python", "version": "3.11.9"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def write(path: Path, document: dict[str, Any]) -> Path:
    # Jupyter's own serialisation: indent=1, non-ASCII kept, a final newline
    path.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


STREAM = {"name": "stdout", "output_type": "stream", "text": ["Successfully installed\n"]}

TUTORIAL_CELLS = (
    code("%pip install -q nemo-evaluator-sdk\n", outputs=[STREAM], count=1),
    markdown("# Evaluate an agent\n\nThe runner is built in the next cell.\n"),
    code(
        "from nemo_evaluator_sdk import EvaluationRunner\n"
        "\n"
        'runner = EvaluationRunner(workspace="default")\n',
        count=2,
    ),
    code("!ls -la data/\nfiles = !ls\n", count=3),
    markdown("## Submit — résumé of the run\n"),
    code("def broken(:\n    pass\n", count=4),
    code('job = runner.submit(target="agent")\nprint(job)\n', count=5),
)


# An evaluation notebook as people write it: setup, markdown between code cells, a shell cell,
# the runner built in cell 3 (index 2) and submitted in cell 7 (index 6) with a mistake in it
# (ES102: config= on a taskset run), one cell that does not parse.
EVAL_CELLS = (
    code("%pip install -q nemo-platform nemo-evaluator-sdk\n", outputs=[STREAM], count=1),
    markdown("# Nightly agent evaluation\n\nBuild the runner, then submit it.\n"),
    code(
        "from nemo_evaluator.api.schemas import TasksetRef\n"
        "from nemo_evaluator_sdk import RunConfig\n"
        "from nemo_evaluator_sdk.agent_eval.runtimes.gym import (\n"
        "    GymAgentTaskRunner,\n"
        "    GymRuntimeConfig,\n"
        ")\n"
        "from nemo_platform import NeMoPlatform\n"
        "\n"
        "\n"
        "def make_runner(agent: str) -> GymAgentTaskRunner:\n"
        "    config = GymRuntimeConfig(\n"
        "        agent=agent, agent_config='configs/agent.yaml', resources_server='mcqa'\n"
        "    )\n"
        "    return GymAgentTaskRunner(config=config)\n"
        "\n"
        "\n"
        "runner = make_runner('simple_agent')\n",
        count=2,
    ),
    code("!ls -la configs/\nconfigs = !ls configs\n", outputs=[STREAM], count=3),
    markdown("## Submit — résumé\n"),
    code("def broken(:\n    pass\n", count=4),
    code(
        "client = NeMoPlatform(workspace='qa')\n"
        "job = client.evaluator.submit(\n"
        "    tasks=TasksetRef('qa/nightly'),\n"
        "    target=runner,\n"
        "    config=RunConfig(parallelism=16),\n"
        ")\n"
        "print(job.id)\n",
        count=5,
    ),
)
