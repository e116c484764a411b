"""Through a real LSP client: a module attribute that an open, unsaved buffer sets
(``settings.CONCURRENCY = 8`` typed into ``main.py``) is not trusted at the value
``settings.py`` binds, so the reader shows no finding from it; with the store only on disk
absent, the same reader shows the ES109 (the server reads buffers, not the disk)."""

from __future__ import annotations

from pathlib import Path

from lsp_helpers import (
    RecordingClient,
    codes,
    logged_errors,
    open_doc,
    published,
    replace_all,
    wait_until,
)
from lsprotocol import types

from unit.test_module_set_elsewhere import MAIN, RUNNERS, SETTINGS


def _did_close(client: RecordingClient, uri: str) -> None:
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )


async def test_a_store_typed_into_an_open_buffer_is_seen(
    client: RecordingClient, tmp_path: Path
) -> None:
    (tmp_path / "evals").mkdir()
    (tmp_path / "evals" / "__init__.py").write_text("")
    (tmp_path / "evals" / "settings.py").write_text(SETTINGS)
    main = tmp_path / "main.py"
    main.write_text(MAIN.format(store=""))  # on disk: no store
    runners = open_doc(client, tmp_path / "evals" / "runners.py", RUNNERS)
    assert codes(await published(client, runners, 1)) == ["ES109"]
    _did_close(client, runners)
    await published(client, runners, None)

    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=main.as_uri(),
                language_id="python",
                version=1,
                text=MAIN.format(store="settings.CONCURRENCY = 8"),  # unsaved
            )
        )
    )
    await published(client, main.as_uri(), 1)
    assert main.read_text() == MAIN.format(store="")
    runners = open_doc(client, tmp_path / "evals" / "runners.py", RUNNERS, version=2)
    assert codes(await published(client, runners, 2)) == []
    assert logged_errors(client) == []


TWEAK = "from evals import settings\n\n{line}\n"
"""A file that imports settings but not the reader: it is none of the reader's dependencies
(nor the reader one of its), so only the module stores' answers link them."""


def _project(root: Path) -> Path:
    (root / "evals").mkdir()
    (root / "evals" / "__init__.py").write_text("")
    (root / "evals" / "settings.py").write_text(SETTINGS)
    return root / "evals" / "runners.py"


def _watched(client: RecordingClient, path: Path, change: types.FileChangeType) -> None:
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(changes=[types.FileEvent(uri=path.as_uri(), type=change)])
    )


async def test_a_store_typed_and_removed_in_another_buffer_rechecks_the_reader(
    client: RecordingClient, tmp_path: Path
) -> None:
    runners = open_doc(client, _project(tmp_path), RUNNERS)
    assert codes(await published(client, runners, 1)) == ["ES109"]
    tweak = open_doc(client, tmp_path / "tweak.py", TWEAK.format(line="print(settings.AGENT)"))
    await published(client, tweak, 1)
    count = len(client.published[runners])
    replace_all(client, tweak, TWEAK.format(line="settings.CONCURRENCY = 8"), version=2)
    assert codes(await published(client, runners, 1, after=count)) == []
    count = len(client.published[runners])
    replace_all(client, tweak, TWEAK.format(line="print(settings.CONCURRENCY)"), version=3)
    assert codes(await published(client, runners, 1, after=count)) == ["ES109"]


async def test_a_store_written_and_removed_on_disk_rechecks_the_reader(
    client: RecordingClient, tmp_path: Path
) -> None:
    runners = open_doc(client, _project(tmp_path), RUNNERS)
    assert codes(await published(client, runners, 1)) == ["ES109"]
    tweak = tmp_path / "tweak.py"
    count = len(client.published[runners])
    tweak.write_text(TWEAK.format(line="settings.CONCURRENCY = 8"))
    _watched(client, tweak, types.FileChangeType.Created)
    assert codes(await published(client, runners, 1, after=count)) == []
    count = len(client.published[runners])
    tweak.write_text(TWEAK.format(line="print(settings.CONCURRENCY)"))
    _watched(client, tweak, types.FileChangeType.Changed)
    assert codes(await published(client, runners, 1, after=count)) == ["ES109"]


async def test_a_store_typed_in_another_buffer_asks_a_pulling_client_to_refresh(
    pull_client: RecordingClient, tmp_path: Path
) -> None:
    runners = open_doc(pull_client, _project(tmp_path), RUNNERS)
    params = types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=runners))
    first = await pull_client.text_document_diagnostic_async(params)
    assert isinstance(first, types.RelatedFullDocumentDiagnosticReport)
    assert codes(list(first.items)) == ["ES109"]
    tweak = open_doc(pull_client, tmp_path / "tweak.py", TWEAK.format(line="pass"))
    await pull_client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=tweak))
    )
    refreshes = pull_client.diagnostic_refresh_count
    replace_all(pull_client, tweak, TWEAK.format(line="settings.CONCURRENCY = 8"), version=2)
    await wait_until(lambda: pull_client.diagnostic_refresh_count > refreshes)
    second = await pull_client.text_document_diagnostic_async(params)
    assert isinstance(second, types.RelatedFullDocumentDiagnosticReport)
    assert codes(list(second.items)) == []
    assert logged_errors(pull_client) == []


async def test_what_an_importer_reports_into_the_module_follows_a_store_in_a_third_buffer(
    client: RecordingClient, tmp_path: Path
) -> None:
    """``main.py`` submits ``settings.PARAMS`` (a lambda in it): the ES107 lands in the open
    ``settings.py``. A store of ``settings.PARAMS`` typed into ``tweak.py`` makes the value
    unknown, so that finding goes; replaced by a read, it comes back."""
    (tmp_path / "evals").mkdir()
    (tmp_path / "evals" / "__init__.py").write_text("")
    (tmp_path / "main.py").write_text(IMPORTER)
    settings = open_doc(client, tmp_path / "evals" / "settings.py", "PARAMS = {'cb': lambda: 0}\n")
    await wait_until(lambda: _latest(client, settings) == ["ES107"])
    tweak = open_doc(client, tmp_path / "tweak.py", "from evals import settings\n\nprint(1)\n")
    await published(client, tweak, 1)
    replace_all(client, tweak, "from evals import settings\n\nsettings.PARAMS = {}\n", version=2)
    await wait_until(lambda: _latest(client, settings) == [])
    assert logged_errors(client) == []
    replace_all(client, tweak, "from evals import settings\n\nprint(settings.PARAMS)\n", version=3)
    await wait_until(lambda: _latest(client, settings) == ["ES107"])


IMPORTER = """\
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

from evals import settings

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
config = GymRuntimeConfig(
    agent="a", agent_config="a.yaml", resources_server="m", hydra_params=settings.PARAMS
)
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=GymAgentTaskRunner(config=config))
"""


def _latest(client: RecordingClient, uri: str) -> list[str] | None:
    history = client.published.get(uri, [])
    return codes(list(history[-1].diagnostics)) if history else None
