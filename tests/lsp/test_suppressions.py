"""Suppression comments in the editor: ``# noqa: ES1xx`` honoured, ES190 (unused) and ES191
(unknown code) as diagnostics with a quick fix, hover on a ``# noqa:``, and a suppression of a
finding an importer places never called unused while the importer is being analysed."""

from __future__ import annotations

import ast
from pathlib import Path

from lsp_helpers import (
    HEADER,
    RecordingClient,
    apply_edit,
    codes,
    col_of,
    find,
    line_of,
    logged_errors,
    open_doc,
    published,
    replace_all,
    wait_until,
)
from lsprotocol import types
from test_code_actions import actions_for
from test_diagnostics import RUNNERS_LAMBDA, SUBMITTER
from test_hover import hover_at, markdown

from evalsubmit.analysis.rules import RULES

TEXT = HEADER + (
    "def launch(name: str):\n"
    '    return client.evaluator.submit(tasks=TasksetRef(name), target="runner")  # noqa: ES104\n'
    "\n"
    "\n"
    "def helper():\n"
    "    return runner  # noqa: E501, ES104\n"
    "\n"
    "\n"
    'launch("qa/smoke")  # noqa: ES1O4\n'
)


async def test_noqa_honoured_and_its_problems_fixed(
    client: RecordingClient, workspace: Path
) -> None:
    uri = open_doc(client, workspace / "job.py", TEXT)
    diagnostics = await published(client, uri, 1)
    assert codes(diagnostics) == ["ES190", "ES191"]  # the ES104 of launch() is silenced
    (unused,) = find(diagnostics, "ES190")
    assert unused.range.start.line == line_of(TEXT, "return runner")
    assert unused.severity == types.DiagnosticSeverity.Warning
    assert "(unused: `ES104`)" in unused.message
    (unknown,) = find(diagnostics, "ES191")
    assert unknown.range.start.character == col_of(TEXT, "ES1O4")

    version = 2
    text = TEXT
    for diag, expected in (
        (unused, "    return runner  # noqa: E501\n"),
        (unknown, 'launch("qa/smoke")\n'),
    ):
        current = await published(client, uri, version - 1)
        (diag,) = find(current, str(diag.code))
        actions = await actions_for(client, uri, [diag], only=[types.CodeActionKind.QuickFix])
        [fix] = [a for a in actions if a.title.startswith(f"evalsubmit ({diag.code}): Remove")]
        assert fix.is_preferred and fix.edit is not None
        text = apply_edit(text, fix.edit)
        ast.parse(text)
        assert expected in text
        replace_all(client, uri, text, version=version)
        version += 1
    assert codes(await published(client, uri, version - 1)) == []


async def test_fix_all_removes_unused_suppressions(
    client: RecordingClient, workspace: Path
) -> None:
    uri = open_doc(client, workspace / "job.py", TEXT)
    diagnostics = await published(client, uri, 1)
    actions = await actions_for(client, uri, diagnostics, only=["source.fixAll.evalsubmit"])
    [fix_all] = actions
    assert fix_all.edit is not None
    fixed = apply_edit(TEXT, fix_all.edit)
    assert "# noqa: E501\n" in fixed and "ES1O4" not in fixed and "# noqa: ES104\n" in fixed


async def test_hover_on_a_noqa_names_the_rules(client: RecordingClient, workspace: Path) -> None:
    uri = open_doc(client, workspace / "job.py", TEXT)
    await published(client, uri, 1)
    value = markdown(await hover_at(client, uri, TEXT, "# noqa: E501, ES104", 3))
    assert RULES["ES104"].title in value and "on this line" in value
    assert "Other tools' codes" in value and "E501" in value
    value = markdown(await hover_at(client, uri, TEXT, "# noqa: ES1O4", 3))
    assert "unknown rule code" in value


async def test_a_suppression_of_what_an_importer_places_is_not_unused(
    faulty_client: RecordingClient, tmp_path: Path
) -> None:
    """job.py (slow to analyse) submits the runner of runners.py, whose lambda is an ES107
    there, silenced on its line: neither the forward result nor the complete one calls it
    unused. Without the submit, the complete result does."""
    client = faulty_client
    (tmp_path / "job.py").write_text(SUBMITTER + "# test: slow-module=2\n", encoding="utf-8")
    runners = RUNNERS_LAMBDA.replace(
        '{"hook": lambda r: r},', '{"hook": lambda r: r},  # evalsubmit: ignore[ES107]'
    )
    uri = open_doc(client, tmp_path / "runners.py", runners)

    def history() -> list[types.PublishDiagnosticsParams]:
        return client.published.get(uri, [])

    await wait_until(history)
    # the complete result (importer analysed) is in once the server has settled
    await wait_until(lambda: client.published.get(uri) and len(history()) >= 1)
    replace_all(client, uri, runners + "\nother = 1\n", version=2)
    await published(client, uri, 2)
    assert all(codes(list(p.diagnostics)) == [] for p in history()), [
        (p.version, codes(list(p.diagnostics))) for p in history()
    ]

    # job.py no longer submits the runner (saved outside the editor); at the next edit of
    # runners.py, its importers are read again: nothing can land on that line any more
    (tmp_path / "job.py").write_text(SUBMITTER.replace("submit(", "get("), encoding="utf-8")
    replace_all(client, uri, runners + "\nother = 2\n", version=3)
    await wait_until(
        lambda: history()[-1].version == 3 and codes(list(history()[-1].diagnostics)) == ["ES190"],
        timeout=20,
    )


async def test_a_suppression_judged_where_it_moves_while_editing(
    client: RecordingClient, workspace: Path
) -> None:
    """The editor's parse by piece hands the lines holding suppression markers on to the
    suppressions' judge (``ParsedModule.marked``), kept by run from one edit to the next: an
    unused ``# noqa`` is reported on its line after an edit elsewhere, after an Enter a few
    statements above it moves it, and no more once it is deleted, each through the server."""
    launch = (
        "def launch(name: str):\n"
        '    return client.evaluator.submit(tasks=TasksetRef(name), target="runner")\n'
    )
    other = "\n\ndef other():\n    return 1  # noqa: ES104\n"
    first = HEADER + "first = 1\nsecond = 2\nthird = 3\n\n\n" + launch + other
    uri = open_doc(client, workspace / "typed.py", first)
    assert codes(await published(client, uri, 1)) == ["ES104", "ES190"]
    edited = first.replace("second = 2", "second = 3")  # the pieces are kept by run from here
    moved = edited.replace("first = 1", "first = 1\n\n")
    steps = [
        (edited, ["ES104", "ES190"]),
        (moved, ["ES104", "ES190"]),
        (moved.replace("  # noqa: ES104", ""), ["ES104"]),
    ]
    for version, (text, expected) in enumerate(steps, start=2):
        replace_all(client, uri, text, version=version)
        diagnostics = await published(client, uri, version)
        assert codes(diagnostics) == expected, (version, text)
        for unused in find(diagnostics, "ES190"):
            assert unused.range.start.line == line_of(text, "return 1  # noqa")
    assert logged_errors(client) == []
