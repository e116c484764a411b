"""A fix whose value only the user knows (ES105: the taskset to run, with no default taskset
configured) is never written as a placeholder (which would itself be an ES108): a client that
applies snippet edits (LSP 3.18 ``workspace.workspaceEdit.snippetEditSupport``) is offered it
with the taskset as a tab stop to type over; any other client (VS Code's languageclient 9
among them) is offered no such fix, and fix-all never applies it."""

from __future__ import annotations

import ast
import re
from collections.abc import AsyncIterator
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
    replace_all,
    settings,
    vscode_capabilities,
)
from lsprotocol import types

from evalsubmit.lsp.convert import apply_text_edits

ROW_CALL = (
    HEADER + 'job = client.evaluator.submit(metric=metric, dataset=[{"a": 1}], target=runner)\n'
)


@pytest_lsp.fixture(config=CONFIG)
async def snippet_client(
    lsp_client: RecordingClient, tmp_path: Path
) -> AsyncIterator[RecordingClient]:
    caps = vscode_capabilities(pull=False)
    assert caps.workspace is not None and caps.workspace.workspace_edit is not None
    caps.workspace.workspace_edit.snippet_edit_support = True
    lsp_client.set_configuration(settings(), section="evalsubmit")
    folder = types.WorkspaceFolder(uri=tmp_path.as_uri(), name=tmp_path.name)
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=caps, root_uri=tmp_path.as_uri(), workspace_folders=[folder]
        )
    )
    yield lsp_client
    await lsp_client.shutdown_session()


async def quick_fixes(
    client: RecordingClient, uri: str, diag: types.Diagnostic
) -> list[types.CodeAction]:
    result = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=diag.range,
            context=types.CodeActionContext(diagnostics=[diag], only=["quickfix"]),
        )
    )
    assert result is not None
    return [a for a in result if isinstance(a, types.CodeAction) and "Ignore" not in a.title]


def typed_over(snippet: str, value: str) -> str:
    """What the editor leaves once the user types ``value`` at the tab stop."""
    text = re.sub(r"\$\{1:(?:[^}\\]|\\.)*\}", value, snippet)
    return re.sub(r"\\([\\$}])", r"\1", text)


async def test_a_snippet_client_is_offered_the_taskset_to_type(
    snippet_client: RecordingClient, tmp_path: Path
) -> None:
    uri = open_doc(snippet_client, tmp_path / "job.py", ROW_CALL)
    (diag,) = find(await published(snippet_client, uri, 1), "ES105")
    actions = [a for a in await quick_fixes(snippet_client, uri, diag) if "ES105" in a.title]
    (action,) = actions
    assert action.title == (
        "evalsubmit (ES105): Use `tasks=` instead of `metric=` and `dataset=` "
        "(type the <workspace>/<taskset>)"
    )
    assert not action.is_preferred  # never applied by "fix this" without being looked at
    assert action.edit is not None and action.edit.document_changes
    (change,) = action.edit.document_changes
    assert isinstance(change, types.TextDocumentEdit) and change.text_document.version == 1
    (edit,) = change.edits
    assert isinstance(edit, types.SnippetTextEdit)
    assert edit.snippet.value == 'tasks="${1:<workspace>/<taskset>}", '
    plain = types.TextEdit(range=edit.range, new_text=typed_over(edit.snippet.value, "qa/smoke"))
    fixed = apply_text_edits(ROW_CALL, [plain])
    assert fixed.endswith('submit(tasks="qa/smoke", target=runner)\n')
    ast.parse(fixed)
    replace_all(snippet_client, uri, fixed, version=2)
    assert codes(await published(snippet_client, uri, 2)) == []


async def test_other_clients_get_no_placeholder_and_fix_all_skips_it(
    client: RecordingClient, workspace: Path
) -> None:
    uri = open_doc(client, workspace / "job.py", ROW_CALL)
    (diag,) = find(await published(client, uri, 1), "ES105")
    actions = await quick_fixes(client, uri, diag)
    assert [a.title for a in actions if "ES105" in a.title] == []
    assert all("<workspace>" not in str(a.edit) for a in actions)
    whole = types.Range(
        start=types.Position(line=0, character=0),
        end=types.Position(line=ROW_CALL.count("\n"), character=0),
    )
    fix_all = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=whole,
            context=types.CodeActionContext(diagnostics=[], only=["source.fixAll"]),
        )
    )
    # the only fix is the placeholder one: there is nothing for fix-all to do
    assert fix_all is not None and list(fix_all) == []


def test_snippet_escapes_everything_but_the_tab_stop() -> None:
    from evalsubmit.lsp.convert import snippet

    text = 'tasks="<t>", prompt="${x} \\ }", other="<t>"'
    assert snippet(text, "<t>") == (
        'tasks="${1:<t>}", prompt="\\${x\\} \\\\ \\}", other="${1:<t>}"'
    )
    assert typed_over(snippet(text, "<t>"), "qa/smoke") == text.replace("<t>", "qa/smoke")
