"""``textDocument/didChange`` is handled while its message is dispatched (lsp/protocol.py): the
change applied and the analyses told in the same call, without a task or a turn of the event
loop in between (each would add to every keystroke's time to its diagnostics)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest
from lsprotocol import types

from evalsubmit.lsp.server import EvalsubmitServer, create_server
from evalsubmit.lsp.text_sync import LspWorkspace

URI = "file:///nowhere/job.py"


def _server() -> EvalsubmitServer:
    ls = create_server()
    protocol = ls.protocol_
    protocol._workspace = LspWorkspace(None, types.TextDocumentSyncKind.Incremental)
    ls.workspace.put_text_document(
        types.TextDocumentItem(uri=URI, language_id="python", version=1, text="a = 1\nb = 2\n")
    )
    return ls


def _did_change(version: int, text: str) -> Any:
    change = types.TextDocumentContentChangePartial(
        range=types.Range(start=types.Position(1, 4), end=types.Position(1, 5)), text=text
    )
    return types.DidChangeTextDocumentNotification(
        params=types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=URI, version=version),
            content_changes=[change],
        )
    )


async def test_the_analyses_hear_of_a_change_while_it_is_dispatched(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ls = _server()
    told: list[tuple[str, int | None, str]] = []
    monkeypatch.setattr(ls.analyses, "changed", lambda *args: told.append(args))
    ls.protocol_.handle_message(_did_change(2, "3"))
    assert told == [(URI, 2, "a = 1\nb = 3\n")]  # no await in between
    ls.protocol_.handle_message(_did_change(3, "45"))
    assert told[-1] == (URI, 3, "a = 1\nb = 45\n")
    assert ls.workspace.get_text_document(URI).version == 3


async def test_a_failing_handler_is_logged_and_the_next_change_handled(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    ls = _server()
    told: list[int | None] = []

    def changed(uri: str, version: int | None, text: str) -> None:
        if version == 2:
            raise RuntimeError("boom")
        told.append(version)

    monkeypatch.setattr(ls.analyses, "changed", changed)
    with caplog.at_level(logging.ERROR, logger="evalsubmit"):
        ls.protocol_.handle_message(_did_change(2, "3"))
    assert "internal error in did_change" in caplog.text
    ls.protocol_.handle_message(_did_change(3, "4"))
    assert told == [3]


async def test_an_async_handler_still_goes_through_pygls(monkeypatch: pytest.MonkeyPatch) -> None:
    """A handler that awaits cannot be called at once: pygls runs it in a task, as before."""
    ls = _server()
    seen: list[int | None] = []

    async def handler(params: types.DidChangeTextDocumentParams) -> None:
        seen.append(params.text_document.version)

    monkeypatch.setitem(ls.protocol_.fm._features, types.TEXT_DOCUMENT_DID_CHANGE, handler)
    ls.protocol_.handle_message(_did_change(2, "3"))
    assert seen == []
    await asyncio.sleep(0.01)
    assert seen == [2]
    assert ls.workspace.get_text_document(URI).source == "a = 1\nb = 3\n"
