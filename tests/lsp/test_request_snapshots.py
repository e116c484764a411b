"""Requests are answered from one snapshot of the document (lsp/requests.py): the text the
request found and the analysis it waited for. A fix is offered only when both are of the same
text; a hover or lens of an older analysis is still answered (from that analysis, whole)."""

from __future__ import annotations

import ast
from pathlib import Path

from lsp_helpers import (
    RecordingClient,
    apply_edit,
    codes,
    find,
    open_doc,
    published,
    replace_all,
)
from lsprotocol import types

# A project shaped like a real one: the runner is built by a helper class in one module, the
# job submitted from another (with a RunConfig the taskset shape does not take: ES102, fixable).
RUNNERS = '''\
"""Runners of the team's agents."""

from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig


class AgentFactory:
    def __init__(self, agent: str) -> None:
        self.agent = agent

    def config(self) -> GymRuntimeConfig:
        return GymRuntimeConfig(
            agent=self.agent, agent_config="configs/agent.yaml", resources_server="mcqa"
        )

    def runner(self) -> GymAgentTaskRunner:
        return GymAgentTaskRunner(config=self.config())
'''
JOB = '''\
"""Submit the nightly evaluation."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import RunConfig
from nemo_platform import NeMoPlatform

from team.runners import AgentFactory


def nightly(client: NeMoPlatform) -> object:
    runner = AgentFactory("simple_agent").runner()
    return client.evaluator.submit(
        tasks=TasksetRef("qa/smoke"),
        target=runner,
        config=RunConfig(parallelism=16),
    )


nightly(NeMoPlatform(workspace="qa"))
'''


def _project(root: Path) -> Path:
    (root / "team").mkdir()
    (root / "team" / "__init__.py").write_text("", encoding="utf-8")
    (root / "team" / "runners.py").write_text(RUNNERS, encoding="utf-8")
    return root / "team" / "job.py"


async def _actions(
    client: RecordingClient, uri: str, diag: types.Diagnostic
) -> list[types.CodeAction]:
    result = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=diag.range,
            context=types.CodeActionContext(
                diagnostics=[diag], only=[types.CodeActionKind.QuickFix]
            ),
        )
    )
    return [a for a in result or [] if isinstance(a, types.CodeAction)]


async def test_no_fix_is_offered_from_an_analysis_of_another_text(
    faulty_client: RecordingClient, tmp_path: Path
) -> None:
    client = faulty_client
    uri = open_doc(client, _project(tmp_path), JOB)
    (diag,) = find(await published(client, uri, 1), "ES102")
    before = await _actions(client, uri, diag)
    assert any(a.edit is not None and a.is_preferred for a in before), "the fix, on version 1"

    # Version 2 takes 3 s to analyse: the request waits its bounded time, then takes the
    # snapshot: the present text (version 2) and the latest analysis (version 1's).
    edited = JOB.replace("nightly evaluation.", "nightly evaluation (every night).")
    edited += "# test: sleep=3\n"
    replace_all(client, uri, edited, version=2)
    assert await _actions(client, uri, diag) == [], "no edit computed on version 1's text"

    # The analysis of the present text arrives: its diagnostic, its fix, on the present text.
    (fresh,) = find(await published(client, uri, 2), "ES102")
    (fix, *_) = [a for a in await _actions(client, uri, fresh) if a.is_preferred]
    assert fix.edit is not None
    fixed = apply_edit(edited, fix.edit)
    ast.parse(fixed)
    assert "RunConfig(parallelism=16)" not in fixed and fixed.endswith("# test: sleep=3\n")
    replace_all(client, uri, fixed, version=3)
    assert "ES102" not in codes(await published(client, uri, 3))


async def test_a_hover_of_an_older_analysis_is_that_analysis_whole(
    faulty_client: RecordingClient, tmp_path: Path
) -> None:
    """The hover's text and range come from the analysis it was answered from, even when the
    text moved on: lines were added above the call, and the range is still the old call's."""
    client = faulty_client
    uri = open_doc(client, _project(tmp_path), JOB)
    await published(client, uri, 1)
    line = JOB.splitlines().index("    return client.evaluator.submit(")
    column = len("    return client.evaluator.")
    replace_all(client, uri, "# moved\n# down\n" + JOB + "# test: sleep=3\n", version=2)
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=line, character=column),
        )
    )
    assert hover is not None and hover.range is not None
    assert isinstance(hover.contents, types.MarkupContent)
    assert "`Evaluator.submit`" in hover.contents.value
    assert hover.range.start == types.Position(line=line, character=column)
    await published(client, uri, 2)
