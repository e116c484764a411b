"""A small team project with a notebook written the way people write them: a ``%pip install``
first cell, markdown between code cells, a ``!`` shell cell, outputs kept, a cell with a syntax
error, a runner defined in one cell and submitted in a later one, and a helper module beside it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

HELPERS = '''\
"""Shared by the team's notebooks."""

import os

from nemo_platform import NeMoPlatform


def platform_client() -> NeMoPlatform:
    return NeMoPlatform(base_url=os.environ.get("NMP_BASE_URL", "http://localhost:8080"))
'''

SETUP = "%pip install -q nemo-platform\n"
RUNNER = (
    "from nemo_evaluator.api.schemas import TasksetRef\n"
    "from nemo_evaluator_sdk import RunConfig\n"
    "from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig\n"
    "\n"
    "from helpers import platform_client\n"
    "\n"
    "runner = GymAgentTaskRunner(\n"
    "    config=GymRuntimeConfig(\n"
    '        agent="simple_agent",\n'
    '        agent_config="configs/simple_agent.yaml",\n'
    '        resources_server="mcqa",\n'
    "    )\n"
    ")"
)
SHELL = "!ls configs\nfiles = !ls data\n"
BROKEN = "def summarise(job:\n    return job.get_result()\n"
SUBMIT = (
    "client = platform_client()\n"
    "job = client.evaluator.submit(\n"
    '    tasks=TasksetRef("qa/smoke"),\n'
    "    target=runner,\n"
    "    config=RunConfig(parallelism=8),\n"
    ")\n"
    "job"
)
CELLS = [SETUP, "# Nightly agent eval", RUNNER, SHELL, BROKEN, "## Submit", SUBMIT]
"""The sources, in order: cells 2 and 6 are markdown (cell numbers are 1-based: ruff's)."""

ES102 = (
    "`config=` is a row-evaluation option; a taskset run is configured by its runner, "
    "so the SDK refuses it: remove `config=`"
)


def code(source: str, count: int | None, outputs: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "cell_type": "code",
        "execution_count": count,
        "metadata": {"tags": ["parameters"]} if count == 1 else {},
        "outputs": outputs,
        "source": source.splitlines(keepends=True),
    }


def markdown(source: str) -> dict[str, Any]:
    return {"cell_type": "markdown", "metadata": {}, "source": source}


def notebook_text(sources: list[str] = CELLS, indent: int = 1) -> str:
    out = [{"name": "stdout", "output_type": "stream", "text": ["Successfully installed é\n"]}]
    result = {
        "data": {"text/plain": ["Job(id='job-1')"]},
        "execution_count": 7,
        "metadata": {},
        "output_type": "execute_result",
    }
    cells = []
    for number, source in enumerate(sources, start=1):
        if source.startswith("#"):
            cells.append(markdown(source))
        else:
            outputs = out if number == 1 else [result] if number == 7 else []
            cells.append(code(source, number if number != 5 else None, outputs))
    document = {
        "cells": cells,
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python", "version": "3.12.3"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    return json.dumps(document, indent=indent, ensure_ascii=False) + "\n"


def make_notebook_project(root: Path) -> Path:
    """``helpers.py`` and ``nightly.ipynb`` in one folder: a notebook imports its neighbours
    (the kernel starts in the notebook's folder)."""
    root.mkdir(parents=True)
    (root / "helpers.py").write_text(HELPERS, encoding="utf-8")
    (root / "nightly.ipynb").write_text(notebook_text(), encoding="utf-8")
    return root
