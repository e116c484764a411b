"""Checker.snapshot when an analysis has just finished but its done-callback has not run yet
(a request handled in the same event-loop turn as the analysis result): it must yield, not
spin. Before the fix the event loop spun forever holding the GIL, and the server stopped
answering anything (seen in VS Code under typing: vscode-e2e's typing step)."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

from evalsubmit.analysis import ModuleReport
from evalsubmit.lsp.diagnostics import Checker
from evalsubmit.lsp.settings import Settings
from evalsubmit.lsp.state import DocState, Session, Snapshot


def test_snapshot_waits_for_the_callback_of_a_finished_analysis(tmp_path: Path) -> None:
    outcome: dict[str, Any] = {}

    async def scenario() -> None:
        session = Session()
        checker = Checker(server=None, session=session)  # type: ignore[arg-type]
        checker.ready.set()
        path = tmp_path / "job.py"
        uri = path.as_uri()
        state = DocState(uri=uri, path=path, version=1)
        session.documents[uri] = state
        snap = Snapshot(0, 1, "", [""], Settings(), ModuleReport(path=path))
        future: asyncio.Future[Snapshot | None] = asyncio.get_running_loop().create_future()

        def done(fut: asyncio.Future[Snapshot | None]) -> None:  # what Checker._start adds
            state.inflight.pop(0, None)
            state.latest = fut.result()

        future.add_done_callback(done)
        state.inflight[0] = future
        future.set_result(snap)  # the callback is scheduled, not run
        outcome["snapshot"] = await checker.snapshot(uri)
        checker.shutdown()

    thread = threading.Thread(target=lambda: asyncio.run(scenario()), daemon=True)
    thread.start()
    thread.join(timeout=10)
    assert not thread.is_alive(), "Checker.snapshot spins on a finished analysis"
    assert outcome["snapshot"] is not None and outcome["snapshot"].stamp == 0
