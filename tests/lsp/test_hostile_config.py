"""Configuration written to hurt the server: a glob that makes a backtracking regex go
exponential (in ``extend-exclude``, a ``per-file-ignores`` key and ``.gitignore``) must not stall
the checks and hovers of the documents it governs."""

from __future__ import annotations

import time
from pathlib import Path

from lsp_helpers import HEADER, RecordingClient, codes, open_doc, published, wait_until
from lsprotocol import types

PATHOLOGICAL = "*a*a*a*a*a*a*a*a*b"
LONG_NAME = "a" * 57 + ".py"
PROMPT_S = 10.0  # the old server took minutes; a loaded 2-core machine takes a second or two

SUBMIT = HEADER + "client.evaluator.submit(target=runner)\n"
"""ES103 (no shape)."""


async def test_a_pathological_glob_does_not_stall_diagnostics_or_hover(
    client: RecordingClient, workspace: Path
) -> None:
    (workspace / "pyproject.toml").write_text(
        '[project]\nname = "x"\n\n[tool.evalsubmit]\n'
        f'extend-exclude = ["{PATHOLOGICAL}"]\n'
        f'[tool.evalsubmit.per-file-ignores]\n"{PATHOLOGICAL}" = ["ES101"]\n'
    )
    (workspace / ".gitignore").write_text(f"{PATHOLOGICAL}\n")
    start = time.monotonic()
    uri = open_doc(client, workspace / LONG_NAME, SUBMIT)
    other = open_doc(client, workspace / "job.py", SUBMIT)
    assert codes(await published(client, uri, 1)) == ["ES103"]
    assert codes(await published(client, other, 1)) == ["ES103"]
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=SUBMIT.count("\n") - 1, character=20),
        )
    )
    assert hover is not None
    assert time.monotonic() - start < PROMPT_S


async def test_a_configuration_file_that_is_not_utf8_is_shown_as_invalid(
    client: RecordingClient, workspace: Path
) -> None:
    config = workspace / "evalsubmit.toml"
    config.write_bytes('ignore = ["ES103"] # caf\xe9\n'.encode("latin-1"))
    uri = open_doc(client, workspace / "job.py", SUBMIT)
    assert await published(client, uri, 1) == []
    (shown,) = await wait_until(lambda: client.messages)
    assert shown.type == types.MessageType.Error
    assert f"{config}: invalid configuration: not UTF-8" in shown.message
