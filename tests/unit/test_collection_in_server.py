"""In the server, the collector's pass over what an analysis allocated runs after its result is
published: paused while the analysis runs in the pool and while the owner publishes, resumed
when the turn ends, also when the analysis fails."""

from __future__ import annotations

import asyncio
import gc
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from test_collection import collector_on  # noqa: F401  (autouse: the collector on)

from evalsubmit.analysis import AnalysisOptions
from evalsubmit.analysis.report import ModuleReport
from evalsubmit.lsp.project_config import Effective
from evalsubmit.lsp.scheduler import DocumentTrack, Job
from evalsubmit.lsp.settings import Settings
from evalsubmit.lsp.snapshot import Analysis


def _snapshot(stamp: int) -> Analysis:
    return Analysis(
        stamp=stamp,
        version=1,
        text="",
        lines=[],
        settings=Settings(),
        effective=Effective(AnalysisOptions(), None, None),
        report=ModuleReport(path=Path("job.py")),
    )


async def _one_turn(job: Job, *, publishes: bool = True) -> tuple[list[bool], list[bool]]:
    """(collector on while the analysis ran, collector on while the result was handed on),
    with the collector's state checked again once the turn is over."""
    in_job: list[bool] = []
    at_publish: list[bool] = []
    ran = asyncio.Event()
    loop = asyncio.get_running_loop()

    def prepare(track: DocumentTrack) -> Job:
        def run() -> Analysis:
            in_job.append(gc.isenabled())
            loop.call_soon_threadsafe(ran.set)
            return job()

        return run

    def on_result(track: DocumentTrack, snap: Analysis, previous: Analysis | None) -> None:
        at_publish.append(gc.isenabled())

    ready = asyncio.Event()
    ready.set()
    with ThreadPoolExecutor(1) as pool:
        track = DocumentTrack(
            "file:///job.py",
            Path("job.py"),
            1,
            prepare=prepare,
            prepare_reverse=lambda track, snap: lambda: snap,
            on_result=on_result,
            executor=pool,
            ready=ready,
        )
        track.invalidate(0)
        await asyncio.wait_for(ran.wait(), 10)
        for _ in range(100):  # the turn ends with the hand-over (or the failure)
            await asyncio.sleep(0.01)
            if at_publish or not publishes:
                break
        await asyncio.sleep(0.05)
        track.close()
    return in_job, at_publish


def test_paused_through_the_publish_resumed_after() -> None:
    in_job, at_publish = asyncio.run(_one_turn(lambda: _snapshot(1)))
    assert in_job == [False]
    assert at_publish == [False]
    assert gc.isenabled()


def test_resumed_after_a_failed_analysis() -> None:
    def failing() -> Analysis:
        raise RuntimeError("engine bug")

    in_job, at_publish = asyncio.run(_one_turn(failing, publishes=False))
    assert in_job == [False]
    assert at_publish == []
    assert gc.isenabled()
