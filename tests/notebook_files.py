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
