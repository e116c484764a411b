"""Through a real LSP client: Enter and Backspace, sent as the editor sends them (ranged
changes), above findings that name a call site by line: after every edit the diagnostics are
those of a fresh analysis of the text, places and messages (``when runner() is called at line
N``) moved with the code, and so are the "Submit evaluation" lenses, which read the runner
previews and submit summaries (moved after the findings are out)."""

from __future__ import annotations

from pathlib import Path

from lsp_helpers import RecordingClient, open_doc, published
from lsprotocol import types

from evalsubmit.analysis import Project, analyze_source
from evalsubmit.platform.submission import candidates

HELPERS = "def build():\n    return {'temperature': 0.2}\n"

PROGRAM = """\
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

from helpers import build

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
PARAMS = build()


def runner(agent, repeats=1):
    config = GymRuntimeConfig(
        agent=agent,
        agent_config=f"configs/{agent}.yaml",
        resources_server="mcqa",
        num_repeats=repeats,
        hydra_params=PARAMS,
    )
    return GymAgentTaskRunner(config=config)


def launch(agent, repeats=1):
    target = runner(agent, repeats)
    return client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=target)


class NightlyJob:
    '''Nightly runs of one agent.

    Built per agent.'''

    def __init__(self, agent, repeats):
        self.target = runner(agent, repeats)


launch("simple_agent")
launch("tool_agent", repeats=0)
NightlyJob("simple_agent", 0)
SMOKE = GymAgentTaskRunner(
    config=GymRuntimeConfig(
        agent="simple_agent", agent_config="configs/simple_agent.yaml", resources_server="mcqa"
    )
)
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=SMOKE)
"""


def change(client: RecordingClient, uri: str, version: int, line: int, text: str, end: int) -> None:
    """Replace from (line, 0) to (line + end, 0) by ``text`` (0-based lines)."""
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(types.Position(line, 0), types.Position(line + end, 0)),
                    text=text,
                )
            ],
        )
    )


def apply(text: str, line: int, new: str, end: int) -> str:
    lines = text.splitlines(keepends=True)
    return "".join([*lines[:line], new, *lines[line + end :]])


async def test_line_shifts_move_diagnostics_and_the_lines_they_name(
    client: RecordingClient, tmp_path: Path
) -> None:
    (tmp_path / "helpers.py").write_text(HELPERS, encoding="utf-8")
    path = tmp_path / "nightly.py"
    uri = open_doc(client, path, PROGRAM)
    project = Project(tmp_path)
    await published(client, uri, 1)
    text = PROGRAM
    edits = [  # (the line it is on, by how it begins; lines from there on; replaced by)
        ("def launch(", -1, 0, "\n"),  # Enter above a function, at top level
        ("    target = runner(", 0, 0, "\n"),  # Enter in its body, above the call named
        ("    return client.evaluator", 0, 0, "\n"),  # ... and below it
        ("        self.target = runner(", 0, 0, "\n"),  # Enter in a method of a class
        ("    Built per agent.", 0, 0, "\n"),  # Enter inside a docstring: its value changes
        ("def launch(", -1, 1, ""),  # Backspace: a blank line above the function goes
        ('launch("simple_agent")', 0, 0, "retries = 2\n"),  # a statement above the calls
        ("retries = 2", 0, 1, ""),  # ... and cut again: the statements below make room back
    ]
    labelled = lensed = 0
    for version, (start, offset, end, new) in enumerate(edits, start=2):
        line = next(i for i, t in enumerate(text.splitlines()) if t.startswith(start)) + offset
        change(client, uri, version, line, new, end)
        text = apply(text, line, new, end)
        diagnostics = await published(client, uri, version)
        fresh = analyze_source(text, path=path, project=project)
        assert [(d.range.start.line + 1, d.message) for d in diagnostics] == [
            (f.span.line, f.message) for f in fresh.findings
        ], text
        labelled += sum("is called at line" in d.message for d in diagnostics)
        lenses = await client.text_document_code_lens_async(
            types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )
        assert [lens.range.start.line + 1 for lens in lenses or []] == [
            c.span.line for c in candidates(fresh)
        ], text
        lensed += len(lenses or [])
    assert labelled >= len(edits)
    assert lensed >= len(edits), "no lens: the program no longer tests the moved summaries"
