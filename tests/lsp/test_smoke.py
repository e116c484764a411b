from __future__ import annotations

from pathlib import Path

from lsp_helpers import RecordingClient, open_doc, published
from lsprotocol import types


async def test_server_starts_and_publishes(client: RecordingClient, workspace: Path) -> None:
    uri = open_doc(client, workspace / "empty.py", "x = 1\n")
    assert await published(client, uri, 1) == []
    info = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="evalsubmit.debugInfo")
    )
    assert info["documents"][0]["uri"] == uri
