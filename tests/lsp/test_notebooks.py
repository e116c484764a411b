"""Notebooks in the language server (issue 27): LSP 3.17 notebook document sync, diagnostics
per cell with cell-relative ranges, hover, quick fixes and fix-all, the Submit lens in cells.

The notebook is one as people write it (notebook_helpers.CELLS): a ``%pip install`` first cell,
markdown between code cells, a ``!`` shell cell, a runner defined in cell 2 and submitted in
cell 5, a cell that does not parse (6) and an ES102 in cell 7.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from lsp_helpers import DEFAULT_TARGET, RecordingClient, apply_edit, codes, wait_until
from lsprotocol import types
from notebook_helpers import BROKEN, NIGHTLY, SUBMIT, cell_diagnostics, open_notebook, position_in

CONFIG_LINE = NIGHTLY.split("\n").index("        config=RunConfig(parallelism=16),")


def now(client: RecordingClient, uri: str) -> list[types.Diagnostic] | None:
    """The cell's diagnostics as last published (None: never)."""
    found = client.published.get(uri)
    return list(found[-1].diagnostics) if found else None


def ident(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


async def test_diagnostic_in_its_cell_at_the_cell_relative_range(
    client: RecordingClient, workspace: Path
) -> None:
    nb = open_notebook(client, workspace / "eval.ipynb")
    found = await cell_diagnostics(client, nb.cell(7))
    assert codes(found) == ["ES102"]
    (es102,) = found
    assert es102.range.start == types.Position(line=CONFIG_LINE, character=8)
    assert es102.range.end.line == CONFIG_LINE
    # every other code cell is told it has none; nothing is published for the notebook itself
    for index in (0, 2, 3, 5):
        assert await cell_diagnostics(client, nb.cell(index)) == []
    assert nb.uri not in client.published


async def test_a_cell_that_does_not_parse_costs_only_that_cell(
    client: RecordingClient, workspace: Path
) -> None:
    nb = open_notebook(client, workspace / "eval.ipynb")
    (es100,) = await cell_diagnostics(client, nb.cell(6))
    assert es100.code == "ES100" and es100.severity == types.DiagnosticSeverity.Error
    assert "'(' was never closed" in es100.message
    assert es100.range.start == types.Position(line=0, character=BROKEN.index("("))
    # the cells after it are checked as usual; the IPython cells are no syntax error
    assert codes(await cell_diagnostics(client, nb.cell(7))) == ["ES102"]
    assert await cell_diagnostics(client, nb.cell(0)) == []
    assert await cell_diagnostics(client, nb.cell(3)) == []
    # fixed: the cell is part of the module again, and its ES100 goes
    count = len(client.published[nb.cell(6)])
    nb.edit_cell(6, BROKEN.replace("(results:", "(results):"))
    assert await cell_diagnostics(client, nb.cell(6), after=count) == []


async def test_a_cell_edit_updates_its_diagnostics(
    client: RecordingClient, workspace: Path
) -> None:
    nb = open_notebook(client, workspace / "eval.ipynb")
    assert codes(await cell_diagnostics(client, nb.cell(7))) == ["ES102"]
    seen7, seen5 = len(client.published[nb.cell(7)]), len(client.published[nb.cell(5)])
    nb.edit_cell(7, NIGHTLY.replace("        config=RunConfig(parallelism=16),\n", ""))
    nb.edit_cell(5, SUBMIT.replace("target=runner)", "target=runner, config=RunConfig())"))
    assert await wait_until(lambda: now(client, nb.cell(7)) == [])
    assert await wait_until(lambda: codes(now(client, nb.cell(5)) or []) == ["ES102"])
    assert len(client.published[nb.cell(7)]) > seen7
    assert len(client.published[nb.cell(5)]) > seen5
    (moved,) = now(client, nb.cell(5)) or []
    assert moved.range.start == types.Position(line=0, character=SUBMIT.index("runner)") + 8)


async def test_cells_moved_added_and_deleted(client: RecordingClient, workspace: Path) -> None:
    nb = open_notebook(client, workspace / "eval.ipynb")
    nightly = nb.cell(7)
    (before,) = await cell_diagnostics(client, nightly)
    # moved up, right after the runner's cell: same cell, same cell-relative range
    count = len(client.published[nightly])
    nb.move(7, 3)
    assert nb.cell(3) == nightly
    await wait_until(lambda: len(client.published[nightly]) > count)
    assert [d.range for d in now(client, nightly) or []] == [before.range]
    # a new cell with its own mistake, at the end
    (added,) = nb.splice(len(nb.cells), 0, [("code", "again = " + NIGHTLY.split("\n")[-1])])
    nb.edit_cell(len(nb.cells) - 1, "again = nightly('qa/again')\nsubmit = " + SUBMIT)
    assert await wait_until(lambda: client.published.get(added))
    # the mistaken cell deleted: its diagnostics are cleared
    nb.splice(3, 1, [])
    assert await wait_until(lambda: now(client, nightly) == [])


async def test_hover_of_a_runner_in_a_cell_shows_its_target(
    client: RecordingClient, workspace: Path
) -> None:
    nb = open_notebook(client, workspace / "eval.ipynb")
    await cell_diagnostics(client, nb.cell(7))
    position = position_in(SUBMIT, "target=runner", len("target=") + 2)
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=ident(nb.cell(5)), position=position)
    )
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    match = re.search(r"```json\n(.*?)\n```", hover.contents.value, re.S)
    assert match, hover.contents.value
    assert json.loads(match.group(1)) == DEFAULT_TARGET
    assert hover.range is not None and hover.range.start.line == 0  # in the cell's lines
    # a markdown cell has nothing to hover
    assert (
        await client.text_document_hover_async(
            types.HoverParams(text_document=ident(nb.cell(1)), position=position)
        )
        is None
    )


async def test_quick_fix_edits_the_right_cell(client: RecordingClient, workspace: Path) -> None:
    nb = open_notebook(client, workspace / "eval.ipynb")
    found = await cell_diagnostics(client, nb.cell(7))
    result = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=ident(nb.cell(7)),
            range=found[0].range,
            context=types.CodeActionContext(diagnostics=found, only=["quickfix"]),
        )
    )
    actions = [a for a in result or [] if isinstance(a, types.CodeAction)]
    fix = next(a for a in actions if a.is_preferred)
    assert list(fix.diagnostics or []) == found
    assert fix.edit is not None and fix.edit.document_changes is not None
    (change,) = fix.edit.document_changes
    assert isinstance(change, types.TextDocumentEdit)
    assert change.text_document.uri == nb.cell(7)
    assert change.text_document.version == nb.cell_versions[nb.cell(7)]
    fixed = apply_edit(NIGHTLY, fix.edit)
    assert "config=" not in fixed and fixed.endswith('nightly("qa/nightly")')
    count = len(client.published[nb.cell(7)])
    nb.edit_cell(7, fixed)
    assert await cell_diagnostics(client, nb.cell(7), after=count) == []


async def test_ignore_on_this_line_in_a_cell(client: RecordingClient, workspace: Path) -> None:
    nb = open_notebook(client, workspace / "eval.ipynb")
    found = await cell_diagnostics(client, nb.cell(7))
    result = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=ident(nb.cell(7)),
            range=found[0].range,
            context=types.CodeActionContext(diagnostics=found, only=["quickfix"]),
        )
    )
    (ignore,) = [a for a in result or [] if isinstance(a, types.CodeAction) and "Ignore" in a.title]
    assert ignore.edit is not None
    ignored = apply_edit(NIGHTLY, ignore.edit)
    line = ignored.split("\n")[CONFIG_LINE]
    assert line == "        config=RunConfig(parallelism=16),  # evalsubmit: ignore[ES102]"
    count = len(client.published[nb.cell(7)])
    nb.edit_cell(7, ignored)
    assert await cell_diagnostics(client, nb.cell(7), after=count) == []


async def test_fix_all_edits_only_the_cells_with_fixes(
    client: RecordingClient, workspace: Path
) -> None:
    nb = open_notebook(client, workspace / "eval.ipynb")
    nb.edit_cell(5, SUBMIT.replace("target=runner)", "target=runner, config=RunConfig())"))
    await wait_until(lambda: codes(now(client, nb.cell(5)) or []) == ["ES102"])
    result = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=ident(nb.cell(0)),
            range=types.Range(
                start=types.Position(line=0, character=0), end=types.Position(line=0, character=0)
            ),
            context=types.CodeActionContext(diagnostics=[], only=["source.fixAll.evalsubmit"]),
        )
    )
    (action,) = [a for a in result or [] if isinstance(a, types.CodeAction)]
    assert action.edit is not None and action.edit.document_changes is not None
    edited = {c.text_document.uri for c in action.edit.document_changes}  # type: ignore[union-attr]
    assert edited == {nb.cell(5), nb.cell(7)}


async def test_the_submit_lens_is_on_the_cells_submit_call(
    client: RecordingClient, workspace: Path
) -> None:
    nb = open_notebook(client, workspace / "eval.ipynb")
    await cell_diagnostics(client, nb.cell(7))
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(ident(nb.cell(5))))
    assert lenses is not None
    (lens,) = lenses
    assert lens.range.start.line == 0
    assert lens.command is not None and lens.command.title == "▶ Submit evaluation"
    argument = lens.command.arguments[0]  # type: ignore[index]
    assert (argument["uri"], argument["line"]) == (nb.cell(5), 0)
    # no lens in a cell without a submit call
    others = await client.text_document_code_lens_async(types.CodeLensParams(ident(nb.cell(3))))
    assert others is not None and list(others) == []


async def test_pull_clients_get_cells_pushed(pull_client: RecordingClient, workspace: Path) -> None:
    """vscode-languageclient 9 never pulls a cell's diagnostics: they are pushed, and a pull
    for a cell answers none (no duplicates)."""
    nb = open_notebook(pull_client, workspace / "eval.ipynb")
    assert codes(await cell_diagnostics(pull_client, nb.cell(7))) == ["ES102"]
    report = await pull_client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=ident(nb.cell(7)))
    )
    assert isinstance(report, types.RelatedFullDocumentDiagnosticReport)
    assert list(report.items) == []
    # nor does the notebook's own module show up as a document of the workspace
    workspace_report = await pull_client.workspace_diagnostic_async(
        types.WorkspaceDiagnosticParams(previous_result_ids=[])
    )
    assert nb.uri not in {item.uri for item in workspace_report.items}


async def test_closing_the_notebook_clears_its_cells(
    client: RecordingClient, workspace: Path
) -> None:
    nb = open_notebook(client, workspace / "eval.ipynb")
    assert await cell_diagnostics(client, nb.cell(7))
    nb.close()
    assert await wait_until(lambda: now(client, nb.cell(7)) == [])


async def test_completion_and_signature_help_in_a_cell(
    client: RecordingClient, workspace: Path
) -> None:
    """Completion reads the cell's own text at the cell's position (issue 30 in notebooks): in
    a cell being typed after ``tasks=``, the taskset shape's ``target=`` and no row option."""
    nb = open_notebook(client, workspace / "eval.ipynb")
    await cell_diagnostics(client, nb.cell(7))
    typing = 'again = client.evaluator.submit(tasks=TasksetRef("qa/smoke"), '
    (uri,) = nb.splice(6, 0, [("code", typing)])
    position = types.Position(line=0, character=len(typing))
    found = await client.text_document_completion_async(
        types.CompletionParams(text_document=ident(uri), position=position)
    )
    items = found.items if isinstance(found, types.CompletionList) else (found or [])
    labels = {item.label for item in items}
    assert any(label.startswith("target") for label in labels), labels
    assert not any(label.startswith(("metric", "dataset")) for label in labels), labels
    help_ = await client.text_document_signature_help_async(
        types.SignatureHelpParams(text_document=ident(uri), position=position)
    )
    assert help_ is not None and help_.signatures
