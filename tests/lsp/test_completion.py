"""Completion and signature help (issue 30) through the language server, against the real NeMo
Platform of the session (tests/platform_service.py: workspace ``evalsubmit-test``, taskset
``smoke``), plus a workspace seeded here to complete a ``workspace/`` prefix. Offline is a
closed port: the platform items stay quiet, the keyword completions still work."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsp_helpers import CONFIG, RecordingClient, open_doc, settings, vscode_capabilities
from lsprotocol import types
from pygls.protocol import default_converter
from test_submit import closed_port_url

from platform_service import PlatformService, load_local_platform

pytestmark = [pytest.mark.platform, pytest.mark.timeout(300)]

TOKEN = "nvapi-Completion-Secret-7f3a9c"  # the items must never hold it
OTHER_WORKSPACE = "qa-completion"
OTHER_TASKSET = "small-talk"

SUITE = """\
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


def make_runner(agent: str) -> GymAgentTaskRunner:
    cfg = GymRuntimeConfig(agent=agent, agent_config="configs/a.yaml", resources_server="mcqa")
    return GymAgentTaskRunner(config=cfg)


class Suite:
    def __init__(self) -> None:
        self.client = NeMoPlatform(workspace="WS")

    def run(self) -> None:
        runner = make_runner("simple_agent")
        self.client.evaluator.submit(tasks=TasksetRef("TYPED"), target=runner)
"""


def suite(workspace: str, typed: str) -> str:
    return SUITE.replace("WS", workspace).replace("TYPED", typed)


def position_after(text: str, needle: str) -> types.Position:
    index = text.index(needle) + len(needle)
    line = text.count("\n", 0, index)
    return types.Position(line=line, character=index - (text.rfind("\n", 0, index) + 1))


async def complete(
    client: RecordingClient, uri: str, position: types.Position
) -> types.CompletionList:
    result = await client.text_document_completion_async(
        types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=position
        )
    )
    assert isinstance(result, types.CompletionList)
    return result


async def complete_until_fresh(
    client: RecordingClient, uri: str, position: types.Position
) -> tuple[types.CompletionList, int]:
    """Ask again while the answer is incomplete, as an editor does when typing goes on."""
    for attempt in range(1, 60):
        answer = await complete(client, uri, position)
        if not answer.is_incomplete:
            return answer, attempt
        await asyncio.sleep(0.2)
    raise AssertionError("the completion never became complete")


def as_json(items: list[types.CompletionItem]) -> str:
    return json.dumps(default_converter().unstructure(items))


@pytest_lsp.fixture(config=CONFIG)
async def platform_client(
    lsp_client: RecordingClient, tmp_path: Path, platform_service: PlatformService
) -> AsyncIterator[RecordingClient]:
    platform = {"baseUrl": platform_service.base_url, "token": TOKEN}
    lsp_client.set_configuration(settings(platform=platform), section="evalsubmit")
    folder = types.WorkspaceFolder(uri=tmp_path.as_uri(), name=tmp_path.name)
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=vscode_capabilities(pull=False), workspace_folders=[folder]
        )
    )
    yield lsp_client
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=CONFIG)
async def offline_client(lsp_client: RecordingClient, tmp_path: Path) -> AsyncIterator[Any]:
    platform = {"baseUrl": closed_port_url(), "token": TOKEN}
    lsp_client.set_configuration(settings(platform=platform), section="evalsubmit")
    folder = types.WorkspaceFolder(uri=tmp_path.as_uri(), name=tmp_path.name)
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=vscode_capabilities(pull=False), workspace_folders=[folder]
        )
    )
    yield lsp_client
    await lsp_client.shutdown_session()


async def test_taskset_ref_offers_the_tasksets_of_the_codes_workspace(
    platform_client: RecordingClient, tmp_path: Path, platform_service: PlatformService
) -> None:
    client, service = platform_client, platform_service
    text = suite(service.workspace, "")
    uri = open_doc(client, tmp_path / "suite.py", text)
    where = position_after(text, 'TasksetRef("')
    answer, _ = await complete_until_fresh(client, uri, where)
    tasksets = [i for i in answer.items if i.kind == types.CompletionItemKind.Module]
    (smoke,) = [i for i in tasksets if i.label == "smoke"]
    assert smoke.text_edit is not None and smoke.text_edit.new_text == service.taskset
    assert isinstance(smoke.text_edit, types.TextEdit)
    assert smoke.text_edit.range.start == where == smoke.text_edit.range.end
    assert smoke.label_details is not None
    assert smoke.label_details.description == service.workspace
    assert smoke.detail  # the taskset's description from the platform
    folders = [i.label for i in answer.items if i.kind == types.CompletionItemKind.Folder]
    assert f"{service.workspace}/" in folders and "default/" in folders
    assert TOKEN not in as_json(answer.items)
    # a second request within the lifetime answers from the cache at once, complete
    started = time.monotonic()
    again = await complete(client, uri, where)
    assert not again.is_incomplete and {i.label for i in again.items} == {
        i.label for i in answer.items
    }
    assert time.monotonic() - started < 1.0


async def test_workspace_prefix_lists_that_workspaces_tasksets(
    platform_client: RecordingClient, tmp_path: Path, platform_service: PlatformService
) -> None:
    client, service = platform_client, platform_service
    load_local_platform().seed_platform(
        service.base_url, OTHER_WORKSPACE, ("task-q",), OTHER_TASKSET
    )
    text = suite(service.workspace, f"{OTHER_WORKSPACE}/sm")
    uri = open_doc(client, tmp_path / "suite.py", text)
    answer, _ = await complete_until_fresh(client, uri, position_after(text, "/sm"))
    labels = [i.label for i in answer.items]
    assert labels == [OTHER_TASKSET]  # that workspace's tasksets only, no workspaces
    (item,) = answer.items
    assert (
        item.text_edit is not None
        and item.text_edit.new_text == f"{OTHER_WORKSPACE}/{OTHER_TASKSET}"
    )
    assert item.filter_text == f"{OTHER_WORKSPACE}/{OTHER_TASKSET}"
    assert isinstance(item.text_edit, types.TextEdit)
    assert item.text_edit.range.end.character - item.text_edit.range.start.character == len(
        f"{OTHER_WORKSPACE}/sm"
    )
    assert TOKEN not in as_json(answer.items)


async def test_workspace_keyword_offers_the_platforms_workspaces(
    platform_client: RecordingClient, tmp_path: Path, platform_service: PlatformService
) -> None:
    client, service = platform_client, platform_service
    text = suite("eval", "x")
    uri = open_doc(client, tmp_path / "suite.py", text)
    answer, _ = await complete_until_fresh(client, uri, position_after(text, 'workspace="ev'))
    by_label = {i.label: i for i in answer.items}
    assert {service.workspace, "default", "system"} <= set(by_label)
    assert by_label["default"].detail  # "General-purpose workspace ..."
    edit = by_label[service.workspace].text_edit
    assert edit is not None and edit.new_text == service.workspace
    assert TOKEN not in as_json(answer.items)


async def test_keywords_and_signature_follow_the_shape(
    platform_client: RecordingClient, tmp_path: Path
) -> None:
    client = platform_client
    text = suite("eval", "x").replace("target=runner)", "target=runner, )")
    text += (
        "\n    def rows(self, metric: object, data: list[dict[str, str]]) -> None:\n"
        "        self.client.evaluator.submit(metric=metric, dataset=data, )\n"
        "\n\ncfg = GymRuntimeConfig(agent='a', )\n"
    )
    uri = open_doc(client, tmp_path / "suite.py", text)
    taskset = await complete(client, uri, position_after(text, "target=runner, "))
    assert [i.label for i in taskset.items] == []  # tasks= and target= are given
    before_target = position_after(text, 'TasksetRef("x"), ')
    assert [i.label for i in (await complete(client, uri, before_target)).items] == []
    row = await complete(client, uri, position_after(text, "dataset=data, "))
    labels = [i.label for i in row.items]
    assert "config=" in labels and "field_mapping=" in labels
    assert "target=" not in labels and "tasks=" not in labels and "metric=" not in labels
    config = await complete(client, uri, position_after(text, "GymRuntimeConfig(agent='a', "))
    by_label = {i.label: i for i in config.items}
    assert list(by_label)[:2] == ["agent_config=", "resources_server="]  # required first
    assert by_label["num_repeats="].detail == "num_repeats: int = 1"
    doc = by_label["num_repeats="].documentation
    assert isinstance(doc, types.MarkupContent) and "`>= 1`" in doc.value
    help_ = await client.text_document_signature_help_async(
        types.SignatureHelpParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=position_after(text, "dataset=data, "),
        )
    )
    assert help_ is not None and help_.active_signature == 1
    assert help_.signatures[1].label.startswith("submit(*, metric: Metric")
    assert help_.signatures[0].label == "submit(*, tasks: TasksetRef, target: AgentTaskRunner)"


async def test_offline_platform_items_are_quiet_and_keywords_still_work(
    offline_client: RecordingClient, tmp_path: Path
) -> None:
    client = offline_client
    text = suite("eval", "").replace(
        "target=runner)", "target=runner)\n        GymAgentTaskRunner()"
    )
    uri = open_doc(client, tmp_path / "suite.py", text)
    where = position_after(text, 'TasksetRef("')
    for _ in range(3):
        started = time.monotonic()
        answer = await complete(client, uri, where)
        assert list(answer.items) == []
        assert time.monotonic() - started < 5.0
    keywords = await complete(client, uri, position_after(text, "\n        GymAgentTaskRunner("))
    assert [i.label for i in keywords.items] == ["config="]
    assert TOKEN not in as_json(keywords.items)
    await asyncio.sleep(0.5)
    assert client.messages == []  # no popup
    failures = [m for m in client.log_messages if "could not list" in m.message]
    assert 1 <= len(failures) <= 2  # one line per list (the tasksets, the workspaces)
    assert all(TOKEN not in m.message for m in client.log_messages)
