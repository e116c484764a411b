"""Text the way Python reads it: a BOM, form feeds, lone carriage returns and Unicode line
separators must neither hide findings nor move them (issue 15, "Findings lost or wrong")."""

from __future__ import annotations

from pathlib import Path

import pytest

from evalsubmit.analysis import DocumentAnalyzer, Project, analyze_source

PREAMBLE = """\
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import RunConfig
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

client = NeMoPlatform(workspace="qa")
runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="a", agent_config="a.yaml", resources_server="m")
)
"""
SUBMIT = 'client.evaluator.submit(tasks=TasksetRef("qa/s"), target=runner, config=RunConfig())'
SUBMIT_COLUMN = SUBMIT.index("config=")


def found(text: str) -> list[tuple[int, int, str]]:
    report = analyze_source(text, path=Path("job.py"), project=Project())
    assert report.skipped is None
    return [(f.span.line, f.span.col, f.code) for f in report.findings]


def test_a_byte_order_mark_hides_nothing() -> None:
    text = "\ufeff" + PREAMBLE + SUBMIT + "\n"
    assert found(text) == [(10, SUBMIT_COLUMN, "ES102")]


@pytest.mark.parametrize(
    "separator",
    ["\f", "\v", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"],
    ids=lambda s: f"U+{ord(s):04X}",
)
def test_characters_python_does_not_break_lines_at_move_nothing(separator: str) -> None:
    """``str.splitlines`` breaks at these; Python's tokenizer and the LSP do not."""
    text = (
        PREAMBLE
        + f'note = "a{separator}b"  # {separator} in a comment too\n'
        + f"{SUBMIT}\n"
        + f"{SUBMIT}  # evalsubmit: ignore[ES102]\n"
    )
    assert found(text) == [(11, SUBMIT_COLUMN, "ES102")]


def test_form_feeds_between_statements_keep_lines_and_suppressions() -> None:
    text = PREAMBLE + "\f\n" + "x = 1\n" + "\f# section\n" + SUBMIT + "\n"
    text += SUBMIT + "  # evalsubmit: ignore[ES102]\n"
    assert found(text) == [(13, SUBMIT_COLUMN, "ES102")]
    broken = text.replace("x = 1", "x = (")  # the per-statement parse takes another path
    assert found(broken) == [(11, 4, "ES100"), (13, SUBMIT_COLUMN, "ES102")]


@pytest.mark.parametrize("newline", ["\r\n", "\r"], ids=["crlf", "cr"])
def test_other_line_endings_count_like_newlines(newline: str) -> None:
    text = (PREAMBLE + SUBMIT + "\n" + SUBMIT + "  # evalsubmit: ignore\n").replace("\n", newline)
    assert found(text) == [(10, SUBMIT_COLUMN, "ES102")]


def test_edits_around_form_feeds_agree_with_a_fresh_analysis() -> None:
    path = Path("job.py")
    project = Project()
    analyzer = DocumentAnalyzer(path, project)
    text = PREAMBLE + "\f\n" + SUBMIT + "\n"
    for edit in ["\f# moved\n", "y = 2\n", "\f", "z = )\n", "\n"]:
        text = text.replace(SUBMIT, edit + SUBMIT, 1)
        incremental = analyzer.analyze(text)
        fresh = analyze_source(text, path=path, project=project)
        assert incremental.findings == fresh.findings
        lines = text.split("\n")
        assert [f.span.line for f in fresh.findings if f.code != "ES100"] == [
            number for number, line in enumerate(lines, start=1) if SUBMIT in line
        ]


@pytest.mark.parametrize("where", ["comment", "string", "code"])
def test_a_lone_surrogate_hides_nothing(where: str) -> None:
    """An editor's text can hold a lone surrogate (no decoded file can): ast.parse refuses the
    whole text with UnicodeEncodeError, which made the file "could not be parsed"."""
    line = {
        "comment": "# \ud800 in a comment\n",
        "string": 'note = "a\udcff b"\n',
        "code": "x = 1 \udc80\n",  # a broken statement: blanked, the rest analysed
    }[where]
    text = PREAMBLE + line + SUBMIT + "  # \ud83d after the call\n"
    broken = [(10, 6, "ES100")] if where == "code" else []  # named, never silently dropped
    assert found(text) == [*broken, (11, SUBMIT_COLUMN, "ES102")]
