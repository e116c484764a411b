"""Settings: initializationOptions, workspace/configuration, changes re-publishing, bad values,
per-folder settings in a multi-root workspace, the JSON schema for the VS Code client."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest_lsp
from lsp_helpers import (
    CONFIG,
    HEADER,
    RecordingClient,
    codes,
    find,
    open_doc,
    published,
    settings,
    vscode_capabilities,
    wait_until,
)
from lsprotocol import types

from evalsubmit.lsp.settings import Settings, parse_settings

TWO_PROBLEMS = HEADER + (
    'client.evaluator.submit(tasks="qa/smoke", target=runner, config=RunConfig())\n'
    "client.evaluator.submit(target=runner)\n"
)


def change_configuration(client: RecordingClient, **values: object) -> None:
    client.set_configuration(settings(**values), section="evalsubmit")
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"evalsubmit": settings(**values)})
    )


async def test_settings_change_republishes(client: RecordingClient, workspace: Path) -> None:
    uri = open_doc(client, workspace / "job.py", TWO_PROBLEMS)
    assert codes(await published(client, uri, 1)) == ["ES102", "ES103"]
    count = len(client.published[uri])
    change_configuration(client, ignore=["ES103"])
    assert codes(await published(client, uri, 1, after=count)) == ["ES102"]
    count = len(client.published[uri])
    change_configuration(client, select=["ES103"], severity={"ES103": "hint"})
    (only,) = await published(client, uri, 1, after=count)
    assert only.code == "ES103" and only.severity == types.DiagnosticSeverity.Hint
    count = len(client.published[uri])
    change_configuration(client, enable=False)
    assert await published(client, uri, 1, after=count) == []


async def test_bad_values_warn_and_fall_back(client: RecordingClient, workspace: Path) -> None:
    uri = open_doc(client, workspace / "job.py", TWO_PROBLEMS)
    await published(client, uri, 1)
    count = len(client.published[uri])
    change_configuration(
        client, debounceMs=-3, severity={"ES102": "fatal", "ES103": "warning"}, enable="maybe"
    )
    diagnostics = await published(client, uri, 1, after=count)
    (es102,) = find(diagnostics, "ES102")
    (es103,) = find(diagnostics, "ES103")
    assert es102.severity == types.DiagnosticSeverity.Error  # the bad override was dropped
    assert es103.severity == types.DiagnosticSeverity.Warning
    warnings = [m.message for m in client.log_messages if m.type == types.MessageType.Warning]
    assert any("debounceMs" in m for m in warnings)
    assert any("severity.ES102" in m for m in warnings)
    assert any("enable" in m for m in warnings)
    assert client.messages == [], "no popups"


async def test_large_file_is_skipped_with_a_logged_reason(
    client: RecordingClient, workspace: Path
) -> None:
    change_configuration(client, maxFileSizeKb=1)
    text = TWO_PROBLEMS + "# padding\n" * 200
    uri = open_doc(client, workspace / "big.py", text)
    await wait_until(lambda: any("skipped" in m.message for m in client.log_messages))
    assert await published(client, uri, 1) == []


@pytest_lsp.fixture(config=CONFIG)
async def init_options_client(lsp_client: RecordingClient, tmp_path: Path):
    """A client without workspace/configuration: settings come from initializationOptions."""
    caps = vscode_capabilities(pull=False)
    assert caps.workspace is not None
    caps.workspace.configuration = False
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=caps,
            root_uri=tmp_path.as_uri(),
            initialization_options={"evalsubmit": settings(ignore=["ES102"])},
        )
    )
    yield lsp_client
    await lsp_client.shutdown_session()


async def test_initialization_options(init_options_client: RecordingClient, tmp_path: Path) -> None:
    client = init_options_client
    uri = open_doc(client, tmp_path / "job.py", TWO_PROBLEMS)
    assert codes(await published(client, uri, 1)) == ["ES103"]
    count = len(client.published[uri])
    # without workspace/configuration the section comes inside didChangeConfiguration
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"evalsubmit": settings(ignore=["ES103"])})
    )
    assert codes(await published(client, uri, 1, after=count)) == ["ES102"]


@pytest_lsp.fixture(config=CONFIG)
async def multi_root_client(lsp_client: RecordingClient, tmp_path: Path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    lsp_client.set_configuration(settings(), section="evalsubmit")
    lsp_client.set_configuration(
        settings(ignore=["ES102"]), section="evalsubmit", scope_uri=(tmp_path / "b").as_uri()
    )
    folders = [
        types.WorkspaceFolder(uri=(tmp_path / name).as_uri(), name=name) for name in ("a", "b")
    ]
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=vscode_capabilities(pull=False), workspace_folders=folders
        )
    )
    yield lsp_client
    await lsp_client.shutdown_session()


async def test_per_folder_settings(multi_root_client: RecordingClient, tmp_path: Path) -> None:
    client = multi_root_client
    uri_a = open_doc(client, tmp_path / "a" / "job.py", TWO_PROBLEMS)
    uri_b = open_doc(client, tmp_path / "b" / "job.py", TWO_PROBLEMS)
    assert codes(await published(client, uri_a, 1)) == ["ES102", "ES103"]
    assert codes(await published(client, uri_b, 1)) == ["ES103"]


async def test_debug_info_redacts_the_token(client: RecordingClient, workspace: Path) -> None:
    change_configuration(client, platform={"token": "s3cret-token", "workspace": "qa"})
    uri = open_doc(client, workspace / "job.py", TWO_PROBLEMS)
    await published(client, uri, 1)
    info = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="evalsubmit.debugInfo")
    )
    assert info["settings"]["global"]["platform"] == {
        "baseUrl": None,
        "workspace": "qa",
        "token": "<redacted>",
        "timeoutS": 30.0,
        "pollIntervalS": 2.0,
    }
    assert info["versions"]["pygls"].startswith("2.")
    (doc,) = info["documents"]
    assert doc["uri"] == uri and doc["version"] == 1
    assert sorted(doc["findings"]) == ["ES102", "ES103"]
    everything = json.dumps(info) + "".join(m.message for m in client.log_messages)
    assert "s3cret-token" not in everything


async def test_debug_info_hides_a_password_in_the_base_url(
    client: RecordingClient, workspace: Path
) -> None:
    change_configuration(client, platform={"baseUrl": "http://admin:hunter2@127.0.0.1:9"})
    uri = open_doc(client, workspace / "job.py", TWO_PROBLEMS)
    await published(client, uri, 1)
    info = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="evalsubmit.debugInfo")
    )
    listed = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="evalsubmit.listTasksets")
    )
    assert info["platform"]["baseUrl"] == "http://***@127.0.0.1:9"
    assert "http://***@127.0.0.1:9" in listed["error"]
    everything = json.dumps([info, listed]) + "".join(m.message for m in client.log_messages)
    assert "hunter2" not in everything


# -- pure settings ------------------------------------------------------------------------------


def test_schema_cli_matches_the_model() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "evalsubmit.lsp.settings", "--schema"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    schema = json.loads(out)
    props = schema["properties"]
    assert set(props) == {
        "enable",
        "select",
        "ignore",
        "severity",
        "debounceMs",
        "logLevel",
        "maxFileSizeKb",
        "defaultTaskset",
        "python",
        "codeLens",
        "platform",
    }
    assert all(p.get("description") for p in props.values())
    lens = schema["$defs"]["CodeLensSettings"]["properties"]
    assert lens == {"enable": {**lens["enable"], "type": "boolean", "default": True}}
    assert props["debounceMs"]["default"] == 200 and props["debounceMs"]["minimum"] == 0
    assert props["maxFileSizeKb"]["default"] == 2048 and props["maxFileSizeKb"]["minimum"] == 1
    assert props["logLevel"]["enum"] == ["error", "warning", "info", "debug"]
    platform = schema["$defs"]["PlatformSettings"]["properties"]
    assert set(platform) == {"baseUrl", "workspace", "token", "timeoutS", "pollIntervalS"}


def test_parse_settings_defaults_and_aliases() -> None:
    assert parse_settings(None) == Settings()
    parsed = parse_settings({"debounceMs": 0, "platform": {"baseUrl": "http://x", "timeoutS": 5}})
    assert parsed.debounce_ms == 0
    assert parsed.platform.base_url == "http://x" and parsed.platform.timeout_s == 5.0
    assert parse_settings(["not", "an", "object"]) == Settings()


def test_parse_settings_drops_only_the_bad_field() -> None:
    parsed = parse_settings(
        {"select": ["ES1", 7], "ignore": ["ES110"], "platform": {"timeoutS": -1, "workspace": "w"}}
    )
    assert parsed.select == [] and parsed.ignore == ["ES110"]
    assert parsed.platform.timeout_s == 30.0 and parsed.platform.workspace == "w"


def test_two_bad_items_of_one_list_reset_that_list_only() -> None:
    """The first bad item resets the list; the second must not reset the whole section."""
    parsed = parse_settings({"select": [1, 2], "debounceMs": 5, "ignore": ["ES110"]})
    assert parsed.select == [] and parsed.debounce_ms == 5 and parsed.ignore == ["ES110"]


def test_out_of_range_values_fall_back_to_the_default() -> None:
    """Types are not enough: a 400-digit debounceMs passed validation and then raised
    OverflowError on every edit (diagnostics froze)."""
    parsed = parse_settings(
        {
            "debounceMs": 10**400,
            "maxFileSizeKb": 10**12,
            "platform": {"timeoutS": float("inf"), "pollIntervalS": 1e-9, "workspace": "w"},
        }
    )
    assert parsed.debounce_ms == 200 and parsed.max_file_size_kb == 2048
    assert parsed.platform.timeout_s == 30.0 and parsed.platform.poll_interval_s == 2.0
    assert parsed.platform.workspace == "w"
    for nan in (float("nan"), "nan", 1e308):
        assert parse_settings({"platform": {"timeoutS": nan}}).platform.timeout_s == 30.0


async def test_a_huge_debounce_does_not_freeze_diagnostics(
    client: RecordingClient, workspace: Path
) -> None:
    change_configuration(client, debounceMs=10**400)
    uri = open_doc(client, workspace / "job.py", TWO_PROBLEMS)
    await published(client, uri, 1)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=HEADER)],
        )
    )
    assert await published(client, uri, 2) == []
    warnings = [m.message for m in client.log_messages if m.type == types.MessageType.Warning]
    assert any("debounceMs" in m for m in warnings)
