"""Helpers of the LSP tests: the real server over stdio, driven by a VS Code-like client.

``client`` pushes diagnostics (VS Code's capabilities without pull support, plus
``versionSupport``); ``pull_client`` declares ``textDocument/diagnostic`` and refresh support.
Both use ``debounceMs: 0`` and a fresh workspace folder under ``tmp_path``.
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Union

from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

SERVER = [sys.executable, "-P", "-m", "evalsubmit.lsp"]
TIMEOUT_S = 30.0


class RecordingClient(LanguageClient):
    """Keeps every publishDiagnostics (with its version), not only the last per URI."""

    published: dict[str, list[types.PublishDiagnosticsParams]]
    registrations: list[types.Registration]
    message_requests: list[types.ShowMessageRequestParams]
    message_answers: list[str]
    """Titles to answer window/showMessageRequest with, in order (none left: dismissed)."""


def _record(client: RecordingClient, params: types.PublishDiagnosticsParams) -> None:
    client.diagnostics[params.uri] = params.diagnostics
    client.published.setdefault(params.uri, []).append(params)


def _register(client: RecordingClient, params: types.RegistrationParams) -> None:
    client.registrations += params.registrations


def _message_request(
    client: RecordingClient, params: types.ShowMessageRequestParams
) -> types.MessageActionItem | None:
    client.message_requests.append(params)
    if not client.message_answers:
        return None
    return types.MessageActionItem(title=client.message_answers.pop(0))


def _code_action_or_command(client: RecordingClient) -> None:
    """lsprotocol 2025.0.0 reads any code action that has a ``command`` as a Command; VS Code
    tells them apart by the type of ``command`` (a string only in a Command). Do the same."""
    converter = client.protocol._converter

    def hook(obj: Any, _: type) -> types.Command | types.CodeAction:
        if isinstance(obj.get("command"), str):
            return converter.structure(obj, types.Command)  # type: ignore[no-any-return]
        return converter.structure(obj, types.CodeAction)  # type: ignore[no-any-return]

    converter.register_structure_hook(types.Command | types.CodeAction, hook)
    converter.register_structure_hook(Union[types.Command, types.CodeAction], hook)  # noqa: UP007


def make_client() -> RecordingClient:
    client = RecordingClient(converter_factory=default_converter)
    _code_action_or_command(client)
    client.published = {}
    client.registrations = []
    client.message_requests = []
    client.message_answers = []
    features = dict(DEFAULT_CLIENT_FEATURES)
    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = _record
    features[types.CLIENT_REGISTER_CAPABILITY] = _register
    features[types.WINDOW_SHOW_MESSAGE_REQUEST] = _message_request
    register_lsp_features(client, features)
    return client


def vscode_capabilities(*, pull: bool) -> types.ClientCapabilities:
    caps = client_capabilities("visual-studio-code")
    assert caps.text_document is not None and caps.workspace is not None
    if caps.text_document.publish_diagnostics is not None:
        caps.text_document.publish_diagnostics.version_support = True
    if pull:
        caps.text_document.diagnostic = types.DiagnosticClientCapabilities(
            dynamic_registration=True, related_document_support=False
        )
        caps.workspace.diagnostics = types.DiagnosticWorkspaceClientCapabilities(
            refresh_support=True
        )
    else:
        caps.text_document.diagnostic = None
    return caps


def settings(**overrides: Any) -> dict[str, Any]:
    return {"debounceMs": 0, **overrides}


async def start(
    lsp_client: RecordingClient, root: Path, *, pull: bool, init_options: Any = None
) -> RecordingClient:
    lsp_client.set_configuration(settings(), section="evalsubmit")
    folder = types.WorkspaceFolder(uri=root.as_uri(), name=root.name)
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=vscode_capabilities(pull=pull),
            root_uri=root.as_uri(),
            workspace_folders=[folder],
            initialization_options=init_options,
        )
    )
    return lsp_client


def open_doc(client: LanguageClient, path: Path, text: str, version: int = 1) -> str:
    path.write_text(text, encoding="utf-8")
    uri = path.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id="python", version=version, text=text
            )
        )
    )
    return uri


def replace_all(client: LanguageClient, uri: str, text: str, version: int) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


async def wait_until(predicate: Callable[[], Any], timeout: float = TIMEOUT_S) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        if result := predicate():
            return result
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.01)


async def published(
    client: RecordingClient, uri: str, version: int | None, *, after: int = 0
) -> list[types.Diagnostic]:
    """The diagnostics of the first publication for ``version`` (index >= ``after``)."""

    def find() -> types.PublishDiagnosticsParams | None:
        for params in client.published.get(uri, [])[after:]:
            if params.version == version:
                return params
        return None

    params: types.PublishDiagnosticsParams = await wait_until(find)
    return list(params.diagnostics)


def codes(diagnostics: list[types.Diagnostic]) -> list[str]:
    return sorted(str(d.code) for d in diagnostics)


def logged_errors(client: RecordingClient) -> list[str]:
    """What the server logged as errors (a failed analysis publishes no finding: an empty
    list of diagnostics is only "nothing wrong" when this is empty too)."""
    return [m.message for m in client.log_messages if m.type == types.MessageType.Error]


def apply_edit(text: str, edit: types.WorkspaceEdit) -> str:
    from evalsubmit.lsp.convert import apply_text_edits

    edits: list[types.TextEdit] = []
    for change in edit.document_changes or []:
        assert isinstance(change, types.TextDocumentEdit)
        edits += [e for e in change.edits if isinstance(e, types.TextEdit)]
    for more in (edit.changes or {}).values():
        edits += more
    return apply_text_edits(text, edits)


CONFIG = ClientServerConfig(server_command=SERVER, client_factory=make_client)

# -- sample code ------------------------------------------------------------------------------

HEADER = """\
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import ExactMatchMetric, RunConfig
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

client = NeMoPlatform(workspace="qa")
cfg = GymRuntimeConfig(agent="simple_agent", agent_config="c.yaml", resources_server="mcqa")
runner = GymAgentTaskRunner(config=cfg)
metric = ExactMatchMetric(reference="{{item.a}}", candidate="{{item.b}}")
"""
HEADER_LINES = HEADER.count("\n")

# The GymRunnerTarget the SDK sends for ``runner`` above (reference §7).
DEFAULT_TARGET = {
    "kind": "gym",
    "environment": None,
    "agent": "simple_agent",
    "agent_config": "c.yaml",
    "resources_server": "mcqa",
    "model_type": "inference_provider",
    "bind_resources_server": True,
    "hydra_params": {},
    "env_vars": {},
    "agent_ref_name": None,
    "env_secrets": {},
    "num_repeats": 1,
    "concurrency": 4,
    "startup_timeout_s": 240.0,
    "collection_timeout_s": None,
    "shutdown_grace_s": 30.0,
    "reward_key": "reward",
}


def line_of(text: str, needle: str) -> int:
    """0-based line of the first occurrence of ``needle``."""
    return text[: text.index(needle)].count("\n")


def col_of(text: str, needle: str) -> int:
    start = text.index(needle)
    return start - (text.rfind("\n", 0, start) + 1)


def find(diagnostics: list[types.Diagnostic], code: str) -> list[types.Diagnostic]:
    return [d for d in diagnostics if d.code == code]
