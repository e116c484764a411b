"""Diagnostics do not wait for the runner previews and submit summaries: an analysis hands its
findings on first (published, or answering a pull), then makes the previews that hover, code
lenses and "Submit evaluation" read; those requests wait for them.

The instrumented server makes the previews of this document slow (``# test: slow-summaries``).
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from lsp_helpers import (
    RecordingClient,
    codes,
    col_of,
    line_of,
    open_doc,
    replace_all,
    wait_until,
)
from lsprotocol import types

SLOW_S = 4.0
JOB = (
    "from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, "
    "GymRuntimeConfig\n\n"
    "runner = GymAgentTaskRunner(config=GymRuntimeConfig(\n"
    '    agent="a", agent_config="c.yaml", resources_server="mcqa", concurrency=0,\n'
    "))\n"
    f"# test: slow-summaries={SLOW_S}\n"
)


async def test_findings_are_published_before_the_previews_are_made(
    faulty_client: RecordingClient, tmp_path: Path
) -> None:
    client = faulty_client
    started = time.monotonic()
    uri = open_doc(client, tmp_path / "job.py", JOB)

    def history() -> list[types.PublishDiagnosticsParams]:
        return client.published.get(uri, [])

    await wait_until(history)
    assert time.monotonic() - started < SLOW_S - 1.5, "diagnostics waited for the previews"
    assert (history()[0].version, codes(list(history()[0].diagnostics))) == (1, ["ES109"])

    # Hover reads the preview, made once the findings are out; then the complete result
    # publishes nothing new.
    await asyncio.sleep(SLOW_S)
    assert "GymAgentTaskRunner" in await _hover_text(client, uri)
    assert [(p.version, codes(list(p.diagnostics))) for p in history()] == [(1, ["ES109"])]


async def test_the_previews_wait_until_the_findings_are_sent(
    faulty_client: RecordingClient, tmp_path: Path
) -> None:
    """The analysis goes on to its summaries (holding the GIL) only once the event loop has
    sent the findings: going on at once, it would hold the publish back for up to a switch
    interval. Checked on the open and eight edits (without the wait, most say False)."""
    log = tmp_path / "order.log"
    job = JOB.replace(f"# test: slow-summaries={SLOW_S}", f"# test: order-log={log}")
    uri = open_doc(client := faulty_client, tmp_path / "job.py", job)

    def sent() -> int:
        return len(client.published.get(uri, []))

    for version in range(2, 10):
        await wait_until(lambda: sent() >= version - 1)  # noqa: B023 (awaited at once)
        concurrency = f"concurrency={-version}"
        replace_all(client, uri, job.replace("concurrency=0", concurrency), version)
    await wait_until(lambda: len(log.read_text(encoding="utf-8").splitlines()) >= 9)
    said = log.read_text(encoding="utf-8").splitlines()
    assert said == ["published before the summaries: True"] * len(said)


async def test_a_pull_is_answered_before_the_previews_are_made(
    faulty_pull_client: RecordingClient, tmp_path: Path
) -> None:
    client = faulty_pull_client
    uri = open_doc(client, tmp_path / "job.py", JOB)
    asked = time.monotonic()
    report = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    assert time.monotonic() - asked < SLOW_S - 1.5, "the pull waited for the previews"
    assert isinstance(report, types.RelatedFullDocumentDiagnosticReport)
    assert codes(list(report.items)) == ["ES109"]
    await asyncio.sleep(SLOW_S)
    again = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            previous_result_id=report.result_id,
        )
    )
    assert isinstance(again, types.RelatedUnchangedDocumentDiagnosticReport)
    assert "GymAgentTaskRunner" in await _hover_text(client, uri)


async def _hover_text(client: RecordingClient, uri: str) -> str:
    """The hover on the runner (it shows the runner's preview)."""
    position = types.Position(
        line=line_of(JOB, "GymAgentTaskRunner(config"),
        character=col_of(JOB, "GymAgentTaskRunner(config") + 2,
    )
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=position)
    )
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    return hover.contents.value


async def test_debug_info_reports_the_analysis_whose_findings_are_out(
    faulty_client: RecordingClient, tmp_path: Path
) -> None:
    """The findings are published before the analysis is complete: "Show debug info" asked
    right then waits for it (as every request does) instead of saying the document was never
    analysed."""
    client = faulty_client
    job = JOB.replace(f"slow-summaries={SLOW_S}", "slow-summaries=0.4")
    uri = open_doc(client, tmp_path / "job.py", job)
    await wait_until(lambda: client.published.get(uri))
    info = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="evalsubmit.debugInfo")
    )
    (document,) = info["documents"]
    assert (document["analysedVersion"], document["findings"]) == (1, ["ES109"])
