"""The user's Python environment through the real server (pytest-lsp): the ``python`` setting
selects the interpreter whose installed packages imports are read from (never imported) and
whose SDK version is compared; changing it re-checks the open documents."""

from __future__ import annotations

from pathlib import Path

from lsp_helpers import RecordingClient, open_doc, published, settings
from lsprotocol import types

from evalsubmit.sdk.version import SDK_VERSION
from fake_env import JOB, FakeEnv, sdk_env


def change_python(client: RecordingClient, python: Path) -> None:
    values = settings(python=str(python))
    client.set_configuration(values, section="evalsubmit")
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"evalsubmit": values})
    )


def summary(diagnostics: list[types.Diagnostic]) -> list[tuple[int, str, types.DiagnosticSeverity]]:
    return sorted(
        (d.range.start.line, str(d.code), d.severity or types.DiagnosticSeverity.Error)
        for d in diagnostics
    )


async def test_imports_from_the_selected_environment(
    client: RecordingClient, workspace: Path, installed_env: FakeEnv, tmp_path: Path
) -> None:
    change_python(client, installed_env.python)
    uri = open_doc(client, workspace / "job.py", JOB)
    found = await published(client, uri, 1)
    assert summary(found) == [
        (0, "ES111", types.DiagnosticSeverity.Information),
        (5, "ES106", types.DiagnosticSeverity.Error),
    ]
    note = next(d for d in found if d.code == "ES111")
    assert note.message == (
        f"rules are for nemo-platform {SDK_VERSION}; 0.7.1 is installed: results may differ"
    )
    # Another interpreter (the supported SDK, no teamlib): the document is checked again.
    count = len(client.published[uri])
    change_python(client, sdk_env(tmp_path / "other", nemo_platform=SDK_VERSION))
    assert await published(client, uri, 1, after=count) == []
    debug = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="evalsubmit.debugInfo")
    )
    [environment] = [e for e in debug["environments"] if e["folder"] == str(workspace)]
    assert environment["interpreter"] == str(tmp_path / "other" / "bin" / "python")
    assert environment["sdk"] == {"nemo-platform": SDK_VERSION}
    assert installed_env.fired() == []
