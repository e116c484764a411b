"""Robustness: handler exceptions, analysis crashes, slow analyses and cancellation.

Faults are injected by ``instrumented_server.py`` (the real server plus test hooks), so the
product code has no test switches.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from lsp_helpers import (
    HEADER,
    RecordingClient,
    codes,
    line_of,
    open_doc,
    published,
    replace_all,
    wait_until,
)
from lsprotocol import types
from pygls.exceptions import JsonRpcException

PROBLEM = HEADER + "client.evaluator.submit(target=runner)  # BOOM\n"


def hover_params(uri: str, line: int, character: int = 2) -> types.HoverParams:
    return types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        position=types.Position(line=line, character=character),
    )


async def test_survives_a_handler_exception(faulty_client: RecordingClient, tmp_path: Path) -> None:
    client = faulty_client
    uri = open_doc(client, tmp_path / "job.py", PROBLEM)
    assert codes(await published(client, uri, 1)) == ["ES103"]
    line = line_of(PROBLEM, "BOOM")
    assert await client.text_document_hover_async(hover_params(uri, line)) is None
    await wait_until(lambda: any("internal error" in m.message for m in client.log_messages))
    # still serving: another hover, and diagnostics for a new version
    assert await client.text_document_hover_async(hover_params(uri, line_of(PROBLEM, "runner =")))
    replace_all(client, uri, HEADER, version=2)
    assert await published(client, uri, 2) == []
    assert client.messages == [], "internal errors must not pop up"


async def test_survives_a_notification_for_an_unknown_document(
    client: RecordingClient, workspace: Path
) -> None:
    ghost = (workspace / "ghost.py").as_uri()
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=ghost, version=5),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(
                        start=types.Position(line=40, character=0),
                        end=types.Position(line=41, character=0),
                    ),
                    text="x",
                )
            ],
        )
    )
    uri = open_doc(client, workspace / "job.py", PROBLEM)
    assert codes(await published(client, uri, 1)) == ["ES103"]
    assert client.messages == []


async def test_analysis_crash_is_logged_not_fatal(
    faulty_client: RecordingClient, tmp_path: Path
) -> None:
    client = faulty_client
    crashing = open_doc(client, tmp_path / "crash.py", PROBLEM + "# test: crash-analysis\n")
    assert await published(client, crashing, 1) == []
    await wait_until(lambda: any("analysis of" in m.message for m in client.log_messages))
    uri = open_doc(client, tmp_path / "job.py", PROBLEM)
    assert codes(await published(client, uri, 1)) == ["ES103"]
    assert client.messages == []


async def test_slow_analysis_does_not_stall_other_requests(
    faulty_client: RecordingClient, tmp_path: Path
) -> None:
    client = faulty_client
    open_doc(client, tmp_path / "slow.py", PROBLEM + "# test: sleep=4\n")
    await asyncio.sleep(0.2)
    uri = open_doc(client, tmp_path / "job.py", PROBLEM)
    started = time.monotonic()
    hover = await client.text_document_hover_async(hover_params(uri, line_of(PROBLEM, "runner =")))
    assert hover is not None
    assert codes(await published(client, uri, 1)) == ["ES103"]
    assert time.monotonic() - started < 2.0


async def test_cancel_a_request_waiting_for_a_slow_analysis(
    faulty_client: RecordingClient, tmp_path: Path
) -> None:
    client = faulty_client
    slow = open_doc(client, tmp_path / "slow.py", PROBLEM + "# test: sleep=3\n")
    future = asyncio.ensure_future(
        client.protocol.send_request_async(
            types.TEXT_DOCUMENT_HOVER, hover_params(slow, 2), msg_id="slow-hover"
        )
    )
    await asyncio.sleep(0.3)
    started = time.monotonic()
    client.protocol.notify(types.CANCEL_REQUEST, types.CancelParams(id="slow-hover"))
    with pytest.raises(JsonRpcException):
        await future
    assert time.monotonic() - started < 1.0
    # the document still gets its diagnostics once its analysis ends
    assert codes(await published(client, slow, 1)) == ["ES103"]
