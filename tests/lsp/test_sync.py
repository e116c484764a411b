"""The document the server sees is the document the editor has, whatever characters it holds.

pygls's documents split lines with ``str.splitlines()``, which also breaks at form feeds,
``\\v``, ``\\x1c``-``\\x1e``, ``\\x85``, ``\\u2028`` and ``\\u2029``; the LSP breaks only at
``\\r\\n``, ``\\r`` and ``\\n``. Here an "editor" (an independent implementation of the LSP's
rules in this file) applies random incremental edits to text full of such characters, sends
each one to the real server, and compares the server's copy (``evalsubmit.debugInfo``: length
and SHA-256 of the text) with its own after every edit.
"""

from __future__ import annotations

import ast
import hashlib
import random
import re
from pathlib import Path
from typing import Any

import pytest
from lsp_helpers import (
    HEADER,
    RecordingClient,
    codes,
    find,
    open_doc,
    published,
)
from lsprotocol import types

from evalsubmit.core.lines import TextLines, line_starts, split_lines
from evalsubmit.lsp.text_sync import changed_text

ODD = ["\f", "\v", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]
PIECES = ["a", "x = 1", " ", "é", "😀", "\n", "\r\n", "\r", *ODD, *ODD]
BREAK = re.compile(r"\r\n|\r|\n")


def editor_offset(text: str, line: int, character: int) -> int:
    """What an LSP editor means by (line, UTF-16 character): written from the specification,
    not from the server's code."""
    starts = [0] + [m.end() for m in BREAK.finditer(text)]
    if line >= len(starts):
        return len(text)
    start = starts[line]
    end = starts[line + 1] if line + 1 < len(starts) else len(text)
    content = BREAK.sub("", text[start:end])
    units = 0
    for index, char in enumerate(content):
        if units >= character:
            return start + index
        units += 2 if ord(char) > 0xFFFF else 1
    return start + len(content)


def editor_position(text: str, offset: int) -> types.Position:
    before = text[:offset]
    line = len(BREAK.findall(before))
    last = max((m.end() for m in BREAK.finditer(before)), default=0)
    return types.Position(
        line=line, character=sum(2 if ord(c) > 0xFFFF else 1 for c in before[last:])
    )


def random_edit(rng: random.Random, text: str) -> tuple[types.Range, str]:
    """A range between two character boundaries (never inside a surrogate pair or between
    ``\\r`` and ``\\n``, as an editor's cursor never is) and the text replacing it."""
    cuts = [i for i in range(len(text) + 1) if not (i > 0 and text[i - 1 : i + 1] == "\r\n")]
    start = rng.choice(cuts)
    end = rng.choice([c for c in cuts if start <= c <= start + 30])
    new = "".join(rng.choice(PIECES) for _ in range(rng.randrange(0, 4)))
    return types.Range(start=editor_position(text, start), end=editor_position(text, end)), new


async def server_copy(client: RecordingClient, uri: str) -> dict[str, Any]:
    info = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="evalsubmit.debugInfo")
    )
    return next(d for d in info["documents"] if d["uri"] == uri)


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def change(client: RecordingClient, uri: str, version: int, rng: types.Range, new: str) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangePartial(range=rng, text=new)],
        )
    )


def apply_change(text: str, change: types.TextDocumentContentChangePartial, encoding: str) -> str:
    """The server's change of a text whose line starts are found anew (none kept)."""
    return changed_text(text, line_starts(text), change, encoding)[0]


@pytest.mark.parametrize("seed", range(10))
def test_apply_change_agrees_with_the_editor(seed: int) -> None:
    """The server's edit function alone, many edits (the test below goes through a server),
    with and without carriage returns (texts without one take a faster path)."""
    rng = random.Random(seed)
    pieces = PIECES if seed % 2 else [p for p in PIECES if "\r" not in p]
    text = "".join(rng.choice(pieces) for _ in range(300))
    for _ in range(300):
        edit_range, new = random_edit(rng, text)
        start = editor_offset(text, edit_range.start.line, edit_range.start.character)
        end = editor_offset(text, edit_range.end.line, edit_range.end.character)
        expected = text[:start] + new + text[end:]
        partial = types.TextDocumentContentChangePartial(range=edit_range, text=new)
        assert apply_change(text, partial, "utf-16") == expected
        text = expected
    far = types.Position(line=10**6, character=3)
    partial = types.TextDocumentContentChangePartial(
        range=types.Range(start=far, end=far), text="!"
    )
    assert apply_change(text, partial, "utf-16") == text + "!"


@pytest.mark.parametrize("seed", range(10))
def test_the_line_starts_kept_between_changes_are_the_texts(seed: int) -> None:
    """The line starts a document keeps from one change to the next (only the changed lines
    are looked at) equal those of the whole new text, after every change of a long chain, with
    and without carriage returns (a ``\\r`` typed before a ``\\n``, or a character between
    them removed, changes where lines start)."""
    rng = random.Random(seed)
    pieces = PIECES if seed % 2 else [p for p in PIECES if "\r" not in p]
    text = "".join(rng.choice(pieces) for _ in range(200))
    starts = line_starts(text)
    for _ in range(400):
        edit_range, new = random_edit(rng, text)
        if rng.random() < 0.2:
            new = rng.choice(["\r", "\n", "\r\n", "", "x\r"])
        partial = types.TextDocumentContentChangePartial(range=edit_range, text=new)
        expected = apply_change(text, partial, "utf-16")
        text, starts = changed_text(text, starts, partial, "utf-16")
        assert text == expected
        assert starts == line_starts(text)
        lines = TextLines(text, starts)  # as a result's lines are cut from the text
        assert [lines[i] for i in range(len(lines))] == split_lines(text)
        assert [starts[i] for i in range(-len(starts), 0)] == line_starts(text)


@pytest.mark.parametrize("seed", range(3))
async def test_random_incremental_edits_keep_the_server_copy_equal(
    client: RecordingClient, workspace: Path, seed: int
) -> None:
    rng = random.Random(seed)
    text = "".join(rng.choice(PIECES) for _ in range(300))
    uri = open_doc(client, workspace / f"odd{seed}.py", text)
    for version in range(2, 102):
        edit_range, new = random_edit(rng, text)
        start = editor_offset(text, edit_range.start.line, edit_range.start.character)
        end = editor_offset(text, edit_range.end.line, edit_range.end.character)
        text = text[:start] + new + text[end:]
        change(client, uri, version, edit_range, new)
        copy = await server_copy(client, uri)
        assert copy["version"] == version
        assert (copy["textLength"], copy["textSha256"]) == (len(text), digest(text)), (
            f"the server's copy diverged at version {version} (seed {seed})"
        )


async def test_edits_past_the_end_of_a_line_or_the_document_are_clamped(
    client: RecordingClient, workspace: Path
) -> None:
    text = "ab\fc\nd"
    uri = open_doc(client, workspace / "clamp.py", text)
    far = types.Position(line=0, character=999)
    change(client, uri, 2, types.Range(start=far, end=far), "!")  # end of line 0, before \n
    beyond = types.Position(line=99, character=0)
    change(client, uri, 3, types.Range(start=beyond, end=beyond), "?")  # end of the document
    expected = "ab\fc!\nd?"
    copy = await server_copy(client, uri)
    assert (copy["textLength"], copy["textSha256"]) == (len(expected), digest(expected))


ODD_JOB = (
    HEADER
    + "\f\n# a form feed above, a line separator here:\u2028 and a paragraph one:\u2029\n"
    + "notes = 'page\fbreak'  # \x1c\x1d\x1e\x85\v\n"
    + "job = client.evaluator.submit(\n"
    + '    tasks=TasksetRef("qa/smoke"),\n'
    + "    target=runner,\n"
    + "    config=RunConfig(parallelism=16),\n"
    + ")\n"
)


async def test_findings_and_quick_fixes_stay_in_place_below_odd_characters(
    client: RecordingClient, workspace: Path
) -> None:
    """Edit below the odd characters incrementally, then check the finding's range and apply
    its quick fix on the editor's text: it must remove exactly the planted keyword."""
    text = ODD_JOB
    uri = open_doc(client, workspace / "job.py", text)
    await published(client, uri, 1)
    # Insert a comment line right above the submit() call, incrementally.
    line = len(BREAK.findall(text[: text.index("job = client")]))
    at = types.Position(line=line, character=0)
    change(client, uri, 2, types.Range(start=at, end=at), "# checked\n")
    text = text.replace("job = client", "# checked\njob = client")
    diagnostics = await published(client, uri, 2)
    assert codes(diagnostics) == ["ES102"]
    (diagnostic,) = find(diagnostics, "ES102")
    start = editor_offset(text, diagnostic.range.start.line, diagnostic.range.start.character)
    end = editor_offset(text, diagnostic.range.end.line, diagnostic.range.end.character)
    assert text[start:end].startswith("config"), repr(text[start:end])
    result = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=diagnostic.range,
            context=types.CodeActionContext(diagnostics=[diagnostic]),
        )
    )
    fixes = [
        a for a in result or [] if isinstance(a, types.CodeAction) and a.edit and a.is_preferred
    ]
    assert fixes, "no quick fix offered"
    fixed = editor_apply(text, fixes[0].edit)
    assert "RunConfig(parallelism=16)" not in fixed
    head = text[: text.index("job = client")]
    assert fixed.startswith(head)  # every odd character above is where it was
    assert fixed.count("runner") == text.count("runner")
    ast.parse(fixed)
    # Delete the `target=` line, incrementally: the findings must be those of the editor's text
    # (ES104: a submit() call without a runner target), on the same lines.
    line = len(BREAK.findall(text[: text.index("    target=runner")]))
    whole_line = types.Range(
        start=types.Position(line=line, character=0),
        end=types.Position(line=line + 1, character=0),
    )
    change(client, uri, 3, whole_line, "")
    text = text.replace("    target=runner,\n", "")
    after_edit = await published(client, uri, 3)
    fresh = await published(client, open_doc(client, workspace / "fresh.py", text), 1)
    assert [(d.code, d.range) for d in after_edit] == [(d.code, d.range) for d in fresh]
    assert codes(after_edit) == ["ES104"]
    copy = await server_copy(client, uri)
    assert (copy["textLength"], copy["textSha256"]) == (len(text), digest(text))


def editor_apply(text: str, edit: types.WorkspaceEdit | None) -> str:
    assert edit is not None
    edits: list[types.TextEdit] = []
    for doc_change in edit.document_changes or []:
        assert isinstance(doc_change, types.TextDocumentEdit)
        edits += [e for e in doc_change.edits if isinstance(e, types.TextEdit)]
    for more in (edit.changes or {}).values():
        edits += more
    spans = sorted(
        (
            editor_offset(text, e.range.start.line, e.range.start.character),
            editor_offset(text, e.range.end.line, e.range.end.character),
            e.new_text,
        )
        for e in edits
    )
    for start, end, new in reversed(spans):
        text = text[:start] + new + text[end:]
    return text


async def test_no_edit_computed_for_an_older_text_is_offered(
    client: RecordingClient, workspace: Path
) -> None:
    """A quick fix (or an ignore comment) of version 1 applied to version 2 would edit the wrong
    place in a client that does not check versions: it is not offered."""
    uri = open_doc(client, workspace / "stale.py", ODD_JOB)
    (old,) = find(await published(client, uri, 1), "ES102")
    top = types.Position(line=0, character=0)
    change(client, uri, 2, types.Range(start=top, end=top), "import os\n")
    (new,) = find(await published(client, uri, 2), "ES102")
    assert new.range.start.line == old.range.start.line + 1

    async def edits_for(diagnostic: types.Diagnostic) -> list[types.CodeAction]:
        result = await client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                range=diagnostic.range,
                context=types.CodeActionContext(diagnostics=[diagnostic]),
            )
        )
        return [
            a
            for a in result or []
            if isinstance(a, types.CodeAction)
            and a.edit
            and a.kind == types.CodeActionKind.QuickFix
        ]

    assert await edits_for(old) == []
    assert len(await edits_for(new)) >= 2  # the fix and "Ignore ES102 on this line"
