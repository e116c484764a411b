"""The server's ahead-of-time import of the SDK's models (lsp/sdk_preload.py): a module whose
previews are rendered from them is recognised as such, and only its first result starts the
import, once, as a plain import in the analysis pool."""

from __future__ import annotations

import asyncio
import sys
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any

import pytest

from evalsubmit.analysis import AnalysisOptions, ModuleReport, Project, analyze_source
from evalsubmit.lsp import sdk_preload

HEADER = (
    "import os\n"
    "from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, "
    "GymRuntimeConfig\n\n"
)
KNOWN = (
    HEADER + "runner = GymAgentTaskRunner(config=GymRuntimeConfig(\n"
    '    agent="a", agent_config="c.yaml", resources_server="mcqa"))\n'
)
UNKNOWN = KNOWN.replace('agent="a"', 'agent=os.environ["AGENT"]')


def report(tmp_path: Path, text: str) -> ModuleReport:
    path = tmp_path / "job.py"
    return analyze_source(text, path=path, project=Project(tmp_path), options=AnalysisOptions())


def test_previews_needing_the_sdk_models_are_recognised(tmp_path: Path) -> None:
    known, unknown = report(tmp_path, KNOWN), report(tmp_path, UNKNOWN)
    assert known.runners and unknown.runners
    assert not sdk_preload.needs_sdk_models(known)
    assert sdk_preload.needs_sdk_models(unknown)


class RecordingPool(Executor):
    """Runs nothing: records what the preload hands to the analysis pool."""

    def __init__(self) -> None:
        self.submitted: list[Any] = []

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.submitted.append(fn)
        future: Future[Any] = Future()
        future.set_result(None)
        return future


def test_only_a_first_result_that_needs_them_starts_the_import_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delitem(sys.modules, sdk_preload.SDK_MODELS, raising=False)
    known, unknown = report(tmp_path, KNOWN), report(tmp_path, UNKNOWN)
    pool = RecordingPool()
    preload = sdk_preload.SdkPreload(pool)

    async def results() -> None:
        for rep, first in ((known, True), (unknown, False), (unknown, True), (unknown, True)):
            preload.after_result(rep, first_of_document=first)
            await asyncio.sleep(0)  # the look runs after the result is handed on

    asyncio.run(results())
    assert pool.submitted == [sdk_preload.import_sdk_models]
