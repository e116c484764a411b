"""Code lens "▶ Submit evaluation" above taskset-shaped submit() calls and Gym runners that
would be accepted; it runs the server command ``evalsubmit.submit``."""

from __future__ import annotations

from typing import Any

from lsprotocol import types

from evalsubmit.lsp import convert
from evalsubmit.lsp.command_table import SUBMIT, SUBMIT_LENS_TITLE
from evalsubmit.lsp.requests import Context
from evalsubmit.lsp.snapshot import Analysis, Snapshot
from evalsubmit.platform.submission import Candidate, candidates


async def code_lens(
    snapshot: Snapshot, context: Context, params: types.CodeLensParams
) -> list[types.CodeLens] | None:
    snap = snapshot.analysed
    if not snap.settings.code_lens.enable:
        return None
    encoding = context.encoding
    return [
        types.CodeLens(
            range=convert.lsp_range(c.span, snap.lines, encoding),
            command=submit_command(SUBMIT_LENS_TITLE, snapshot.uri, snap, c, encoding),
        )
        for c in candidates(snap.report)
    ]


def submit_command(
    title: str, uri: str, snap: Analysis, candidate: Candidate, encoding: convert.Encoding
) -> types.Command:
    start = convert.lsp_position(candidate.span.line, candidate.span.col, snap.lines, encoding)
    argument: dict[str, Any] = {
        "uri": uri,
        "line": start.line,
        "character": start.character,
        "tasks": candidate.tasks,
    }
    return types.Command(title=title, command=SUBMIT.id, arguments=[argument])
