"""Hover: derived GymRunnerTarget JSON, submit() shape and route, suppression comments."""

from __future__ import annotations

import json
import re
from pathlib import Path

from lsp_helpers import (
    DEFAULT_TARGET,
    HEADER,
    RecordingClient,
    col_of,
    line_of,
    open_doc,
    published,
    settings,
)
from lsprotocol import types
from markdown_it import MarkdownIt

from evalsubmit.analysis.rules import RULES

SUBMIT = HEADER + 'job = client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner)\n'


async def hover_at(client: RecordingClient, uri: str, text: str, needle: str, offset: int = 0):
    position = types.Position(line=line_of(text, needle), character=col_of(text, needle) + offset)
    return await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=position)
    )


def markdown(hover: types.Hover | None) -> str:
    assert hover is not None
    assert isinstance(hover.contents, types.MarkupContent)
    assert hover.contents.kind == types.MarkupKind.Markdown
    return hover.contents.value


def json_block(value: str) -> object:
    match = re.search(r"```json\n(.*?)\n```", value, re.S)
    assert match, value
    return json.loads(match.group(1))


async def test_hover_runner_constructor_shows_exact_target(
    client: RecordingClient, workspace: Path
) -> None:
    uri = open_doc(client, workspace / "job.py", SUBMIT)
    await published(client, uri, 1)
    value = markdown(await hover_at(client, uri, SUBMIT, "GymAgentTaskRunner(config=cfg)", 3))
    assert "GymRunnerTarget" in value
    block = json_block(value)
    assert block == DEFAULT_TARGET
    # key order and float rendering exactly as the SDK serialises it
    assert json.dumps(block, indent=2) in value
    assert '"startup_timeout_s": 240.0' in value


async def test_hover_runner_name_and_target_argument(
    client: RecordingClient, workspace: Path
) -> None:
    uri = open_doc(client, workspace / "job.py", SUBMIT)
    await published(client, uri, 1)
    on_name = markdown(await hover_at(client, uri, SUBMIT, "runner = ", 1))
    assert json_block(on_name) == DEFAULT_TARGET
    on_target = markdown(await hover_at(client, uri, SUBMIT, "target=runner)", 8))
    assert json_block(on_target) == DEFAULT_TARGET


async def test_hover_shows_unknown_and_refused_parts(
    client: RecordingClient, workspace: Path
) -> None:
    text = HEADER + (
        "def build(agent_name: str) -> None:\n"
        "    r = GymAgentTaskRunner(config=GymRuntimeConfig(\n"
        '        agent=agent_name, agent_config="c", resources_server="m",\n'
        '        hydra_params={"g": (i for i in range(3))},\n'
        "    ))\n"
        '    client.evaluator.submit(tasks="qa/smoke", target=r)\n'
    )
    uri = open_doc(client, workspace / "job.py", text)
    await published(client, uri, 1)
    value = markdown(await hover_at(client, uri, text, "target=r)", 8))
    assert "unknown" in value.lower()
    assert "agent" in value
    assert "generator" in value


async def test_hover_refused_runner_gives_reasons(client: RecordingClient, workspace: Path) -> None:
    text = HEADER + 'client.evaluator.submit(tasks="qa/smoke", target=GymAgentTaskRunner)\n'
    uri = open_doc(client, workspace / "job.py", text)
    await published(client, uri, 1)
    hover = await hover_at(client, uri, text, "target=GymAgentTaskRunner", 10)
    value = markdown(hover)
    assert "Cannot be submitted" in value


async def test_hover_submit_shape_route_workspace(client: RecordingClient, workspace: Path) -> None:
    uri = open_doc(client, workspace / "job.py", SUBMIT)
    await published(client, uri, 1)
    hover = await hover_at(client, uri, SUBMIT, "submit(", 2)
    value = markdown(hover)
    assert "taskset shape" in value
    assert "/apis/evaluator/v2/workspaces/qa/agent-evaluate/jobs" in value
    assert "Workspace in the code: ` qa `" in value
    assert "Taskset: ` qa/smoke `" in value
    assert hover is not None and hover.range is not None
    assert hover.range.start == types.Position(
        line=line_of(SUBMIT, "submit("), character=col_of(SUBMIT, "submit(")
    )


async def test_hover_suppression_comment(client: RecordingClient, workspace: Path) -> None:
    text = HEADER + (
        'client.evaluator.submit(tasks="qa/smoke", target=runner, config=RunConfig())'
        "  # evalsubmit: ignore[ES102]\n"
    )
    uri = open_doc(client, workspace / "job.py", text)
    assert await published(client, uri, 1) == []
    value = markdown(await hover_at(client, uri, text, "ignore[ES102]", 8))
    assert "ES102" in value and RULES["ES102"].title in value


async def test_hover_nowhere_is_null(client: RecordingClient, workspace: Path) -> None:
    uri = open_doc(client, workspace / "job.py", SUBMIT)
    await published(client, uri, 1)
    assert await hover_at(client, uri, SUBMIT, "from nemo_platform") is None


async def test_hover_utf16_columns(client: RecordingClient, workspace: Path) -> None:
    text = (
        HEADER + 'note = "🙂🙂"; job = client.evaluator.submit(tasks="qa/smoke", target=runner)\n'
    )
    uri = open_doc(client, workspace / "job.py", text)
    await published(client, uri, 1)
    line = line_of(text, "submit(")
    # two astral characters: each is 2 UTF-16 units, so LSP columns run 2 ahead of code points
    character = col_of(text, "submit(") + 2
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=line, character=character + 1),
        )
    )
    assert hover is not None and hover.range is not None
    assert hover.range.start == types.Position(line=line, character=character)


async def test_hover_target_keyword_shows_the_json(
    client: RecordingClient, workspace: Path
) -> None:
    uri = open_doc(client, workspace / "job.py", SUBMIT)
    await published(client, uri, 1)
    hover = await hover_at(client, uri, SUBMIT, "target=runner)", 2)  # on the word `target`
    assert json_block(markdown(hover)) == DEFAULT_TARGET
    assert hover is not None and hover.range is not None
    start = col_of(SUBMIT, "target=runner)")
    assert (hover.range.start.character, hover.range.end.character) == (start, start + 6)


async def test_hover_unsubmittable_runner_leads_with_the_reason(
    client: RecordingClient, workspace: Path
) -> None:
    text = HEADER + (
        "bad = GymAgentTaskRunner(config=GymRuntimeConfig(\n"
        '    agent="a", agent_config="c", resources_server="m",\n'
        '    hydra_params={"seeds": (s * 7 for s in range(4))},\n'
        "))\n"
    )
    uri = open_doc(client, workspace / "job.py", text)
    await published(client, uri, 1)
    value = markdown(await hover_at(client, uri, text, "GymAgentTaskRunner(config=GymRuntime", 3))
    first, _, rest = value.partition("\n\n")
    assert first.startswith("**Cannot be submitted:**") and "generator" in first, value
    assert "```json" in rest


async def test_hover_says_where_submit_sends_a_call_whose_workspace_the_settings_override(
    client: RecordingClient, workspace: Path
) -> None:
    client.set_configuration(settings(platform={"workspace": "team-b"}), section="evalsubmit")
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={}))
    uri = open_doc(client, workspace / "job.py", SUBMIT)
    await published(client, uri, 1)
    value = markdown(await hover_at(client, uri, SUBMIT, "submit(", 2))
    assert "/workspaces/team-b/agent-evaluate/jobs" in value
    assert "Workspace in the code: ` qa `" in value
    assert "*Submit evaluation* sends it to ` team-b ` instead." in value
    assert "from the setting `evalsubmit.platform.workspace`" in value


UNSAFE = {"link_open", "image", "html_inline", "html_block"}
EVIL_WORKSPACE = (
    "qa` ![seen](https://evil.example/ws.png) [click](https://evil.example/) <img src=x> `"
)
EVIL_URL = "http://evil.example:8080/` ![seen](https://evil.example/url.png) `"


def markup_in(value: str) -> tuple[list[str], list[str]]:
    """The unsafe token types of a CommonMark rendering of ``value``, and its code spans."""
    tokens = []
    for token in MarkdownIt("commonmark").parse(value):
        tokens += [token, *(token.children or [])]
    spans = [t.content for t in tokens if t.type == "code_inline"]
    return [t.type for t in tokens if t.type in UNSAFE], spans


async def test_a_hostile_workspace_or_base_url_in_the_code_stays_literal(
    client: RecordingClient, workspace: Path
) -> None:
    client.set_configuration(
        settings(platform={"baseUrl": "https://nmp.example.com"}), section="evalsubmit"
    )
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={}))
    text = SUBMIT.replace(
        'NeMoPlatform(workspace="qa")',
        f"NeMoPlatform(workspace={EVIL_WORKSPACE!r}, base_url={EVIL_URL!r})",
    )
    assert text != SUBMIT
    uri = open_doc(client, workspace / "job.py", text)
    await published(client, uri, 1)
    value = markdown(await hover_at(client, uri, text, "submit(", 2))
    unsafe, spans = markup_in(value)
    assert unsafe == [], value
    assert EVIL_WORKSPACE in spans and EVIL_URL in spans, value
    # the route is the one Submit evaluation takes: the setting's base URL, not the code's
    route = next(s for s in spans if s.startswith("POST "))
    assert route.startswith("POST https://nmp.example.com/apis/evaluator/v2/workspaces/"), value
    assert "from the setting `evalsubmit.platform.baseUrl`" in value
    assert "*Submit evaluation* does not." in value


async def test_a_reason_quoting_hostile_code_stays_literal_in_the_runner_hover(
    client: RecordingClient, workspace: Path
) -> None:
    evil = "x` ![seen](https://evil.example/a.png) <img src=x> `"
    text = HEADER + f"client.evaluator.submit(tasks={evil!r}, target=runner)\n"
    uri = open_doc(client, workspace / "job.py", text)
    await published(client, uri, 1)
    value = markdown(await hover_at(client, uri, text, "target=runner)", 2))
    unsafe, spans = markup_in(value)
    assert value.startswith("**Cannot be submitted:**"), value
    assert unsafe == [], value
    assert any(evil in span for span in spans), value
    assert json_block(value) == DEFAULT_TARGET


async def test_an_unknown_code_in_an_ignore_comment_stays_literal(
    client: RecordingClient, workspace: Path
) -> None:
    text = HEADER + "x = 1  # evalsubmit: ignore[x` <img src=https://evil.example/x.png> `y]\n"
    uri = open_doc(client, workspace / "job.py", text)
    await published(client, uri, 1)
    value = markdown(await hover_at(client, uri, text, "ignore[", 3))
    unsafe, spans = markup_in(value)
    assert unsafe == [], value
    assert "X` <IMG SRC=HTTPS://EVIL.EXAMPLE/X.PNG> `Y" in spans, value


async def test_hover_names_the_runner_class_it_knows_for_another_releases_import(
    client: RecordingClient, workspace: Path
) -> None:
    text = (
        "from nemo_evaluator.api.schemas import TasksetRef\n"
        "from nemo_evaluator_sdk.agent_eval.runtimes.gym_runtime import GymAgentTaskRunner\n"
        "from nemo_platform import NeMoPlatform\n"
        "\n"
        'client = NeMoPlatform(workspace="qa")\n'
        "runner = GymAgentTaskRunner(config=None)\n"
        'client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner)\n'
    )
    uri = open_doc(client, workspace / "job.py", text)
    assert await published(client, uri, 1) == []  # unknown: never diagnosed
    value = markdown(await hover_at(client, uri, text, "target=runner", 8))
    assert "nemo_evaluator_sdk.agent_eval.runtimes.gym.GymAgentTaskRunner" in value
