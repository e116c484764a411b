"""The server reads the project's configuration file as the CLI does: ``[tool.evalsubmit]`` of
the nearest ``pyproject.toml`` changes the published diagnostics, the editor's settings
override it, a change of the file (``workspace/didChangeWatchedFiles``) re-checks, an excluded
file gets no diagnostics, an invalid file is shown once and nothing is published from it, and
a file above the repository root is never used."""

from __future__ import annotations

import os
from pathlib import Path

from lsp_helpers import HEADER, RecordingClient, codes, open_doc, published, settings, wait_until
from lsprotocol import types

TWO_PROBLEMS = HEADER + (
    'client.evaluator.submit(tasks="qa/smoke", target=runner, config=RunConfig())\n'
    "client.evaluator.submit(target=runner)\n"
)
"""ES102 (a row option on a taskset run) and ES103 (no shape)."""


def project(workspace: Path, table: str) -> Path:
    """A project folder in the workspace, its pyproject.toml configuring evalsubmit."""
    root = workspace / "team-evals"
    (root / "src" / "evals").mkdir(parents=True, exist_ok=True)
    (root / "src" / "evals" / "__init__.py").write_text("")
    return rewrite(root / "pyproject.toml", f'[project]\nname = "team-evals"\n\n{table}')


def rewrite(path: Path, text: str) -> Path:
    existed = path.exists()
    before = path.stat().st_mtime_ns if existed else 0
    path.write_text(text, encoding="utf-8")
    if existed:  # a new mtime even on a coarse clock: the server caches by it
        os.utime(path, ns=(before + 2_000_000_000, before + 2_000_000_000))
    return path


def changed(client: RecordingClient, path: Path) -> None:
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=path.as_uri(), type=types.FileChangeType.Changed)]
        )
    )


def change_settings(client: RecordingClient, **values: object) -> None:
    client.set_configuration(settings(**values), section="evalsubmit")
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"evalsubmit": settings(**values)})
    )


async def test_pyproject_config_and_editor_settings_over_it(
    client: RecordingClient, workspace: Path
) -> None:
    pyproject = project(workspace, '[tool.evalsubmit]\nignore = ["ES103"]\n')
    job = workspace / "team-evals" / "src" / "evals" / "nightly.py"
    uri = open_doc(client, job, TWO_PROBLEMS)
    assert codes(await published(client, uri, 1)) == ["ES102"]
    info = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="evalsubmit.debugInfo")
    )
    assert [doc["configFile"] for doc in info["documents"]] == [str(pyproject)]

    # the editor's select replaces the file's choice, as --select does on the command line
    count = len(client.published[uri])
    change_settings(client, select=["ES103"])
    assert codes(await published(client, uri, 1, after=count)) == ["ES103"]
    count = len(client.published[uri])
    change_settings(client)
    assert codes(await published(client, uri, 1, after=count)) == ["ES102"]

    # the file changes on disk; the client reports it (the server asked it to watch)
    watched = {  # registration options arrive as plain JSON
        watcher["globPattern"]
        for r in client.registrations
        if r.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES
        for watcher in r.register_options["watchers"]  # type: ignore[index]
    }
    assert {"**/pyproject.toml", "**/evalsubmit.toml", "**/.evalsubmit.toml"} <= watched
    count = len(client.published[uri])
    rewrite(pyproject, '[project]\nname = "team-evals"\n\n[tool.evalsubmit]\nignore = ["ES102"]\n')
    changed(client, pyproject)
    assert codes(await published(client, uri, 1, after=count)) == ["ES103"]
    assert client.messages == [], "a valid file shows nothing"


async def test_excluded_and_invalid_files_publish_nothing(
    client: RecordingClient, workspace: Path
) -> None:
    pyproject = project(workspace, '[tool.evalsubmit]\nexclude = ["generated/"]\n')
    generated = workspace / "team-evals" / "generated" / "jobs.py"
    generated.parent.mkdir()
    excluded = open_doc(client, generated, TWO_PROBLEMS)
    uri = open_doc(client, workspace / "team-evals" / "src" / "evals" / "nightly.py", TWO_PROBLEMS)
    assert await published(client, excluded, 1) == []
    reason = f"skipped {excluded}: excluded by the exclude of {pyproject}"
    await wait_until(lambda: any(reason in m.message for m in client.log_messages))
    assert codes(await published(client, uri, 1)) == ["ES102", "ES103"]

    count = len(client.published[uri])
    rewrite(pyproject, '[project]\nname = "team-evals"\n\n[tool.evalsubmit]\nselect = "ES102"\n')
    changed(client, pyproject)
    assert await published(client, uri, 1, after=count) == []
    (shown,) = await wait_until(lambda: client.messages)
    assert shown.type == types.MessageType.Error
    assert f"{pyproject}:5: invalid configuration: [tool.evalsubmit] select: expected a list" in (
        shown.message
    )
    # not shown again while the same error stays (another document, an edit)
    count = len(client.published[uri])
    changed(client, pyproject)
    assert await published(client, uri, 1, after=count) == []
    assert len(client.messages) == 1

    count = len(client.published[uri])
    rewrite(pyproject, '[project]\nname = "team-evals"\n\n[tool.evalsubmit]\nselect = ["ES102"]\n')
    changed(client, pyproject)
    assert codes(await published(client, uri, 1, after=count)) == ["ES102"]
    assert len(client.messages) == 1


async def test_a_file_above_the_repository_never_silences_it(
    client: RecordingClient, workspace: Path
) -> None:
    """The server finds configuration as ``check`` does: never above the repository root (the
    nearest folder holding ``.git``). An ``evalsubmit.toml`` in the folder above (a shared
    ``/tmp``, someone's home) that turns every rule off changes nothing; the repository's own
    ``pyproject.toml`` does apply."""
    rewrite(workspace / "evalsubmit.toml", 'ignore = ["ES"]\n')
    repo = workspace / "team-evals"
    (repo / ".git").mkdir(parents=True)
    (repo / "src" / "evals").mkdir(parents=True)
    uri = open_doc(client, repo / "src" / "evals" / "nightly.py", TWO_PROBLEMS)
    assert codes(await published(client, uri, 1)) == ["ES102", "ES103"]
    info = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="evalsubmit.debugInfo")
    )
    assert [doc["configFile"] for doc in info["documents"]] == [None]

    count = len(client.published[uri])
    pyproject = rewrite(
        repo / "pyproject.toml",
        '[project]\nname = "team-evals"\n\n[tool.evalsubmit]\nignore = ["ES103"]\n',
    )
    changed(client, pyproject)
    assert codes(await published(client, uri, 1, after=count)) == ["ES102"]
    info = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="evalsubmit.debugInfo")
    )
    assert [doc["configFile"] for doc in info["documents"]] == [str(pyproject)]
    assert client.messages == []
