"""Hover on the preview contract's programs (issue 32): at each place a user may ask from (the
``submit`` name, the parentheses, each argument, the runner's construction, a name bound to it)
the hover shows what ``runner_at`` resolves there, which ``tests/contract/test_preview_contract``
checks against what the real SDK sent: the one target's JSON, or that there are several, each
with where it comes from."""

from __future__ import annotations

import ast
import json
import shutil
import sys
from pathlib import Path

import pytest
from lsp_helpers import RecordingClient, published
from lsprotocol import types
from test_hover import markdown

from evalsubmit.analysis import Project, analyze_source
from evalsubmit.analysis.runner_at import runner_at

CONTRACT = Path(__file__).resolve().parents[1] / "contract"
sys.path.insert(0, str(CONTRACT))
from preview_sites import bound_names, cursors  # noqa: E402

PREVIEWS = CONTRACT / "previews"
#: (case folder, its file with the taskset submit() call)
CASES = [
    ("class-service", "main.py"),
    ("helper-call-sites", "main.py"),
    ("loop-plans", "main.py"),
    ("pytest-parametrize", "test_agents.py"),
    ("package", "main.py"),
    ("generator-sent-as-empty", "main.py"),
    ("pytest-config-overrides", "test_overrides.py"),
]


def _submit_calls(tree: ast.AST) -> list[ast.Call]:
    calls = [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and n.func.attr == "submit"
        and any(k.arg == "target" for k in n.keywords)
    ]
    assert calls
    return calls


@pytest.mark.parametrize(("case", "name"), CASES, ids=[c for c, _ in CASES])
async def test_hover_tells_every_target_at_every_place(
    client: RecordingClient, workspace: Path, case: str, name: str
) -> None:
    shutil.copytree(PREVIEWS / case, workspace, dirs_exist_ok=True)
    path = workspace / name
    text = path.read_text(encoding="utf-8")
    tree = ast.parse(text)
    calls = _submit_calls(tree)
    report = analyze_source(text, path=path, project=Project(workspace), reverse=False)
    uri = path.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id="python", version=1, text=text
            )
        )
    )
    await published(client, uri, 1)
    places = {
        f"{place} of the call at line {call.lineno}": where
        for call in calls
        for place, where in (cursors(call, text.splitlines()) | bound_names(tree, call)).items()
    }
    for place, (line, col) in places.items():
        found = runner_at(report, line, col)
        assert found.targets, (place, found.reason)
        hover = await client.text_document_hover_async(
            types.HoverParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                position=types.Position(line=line - 1, character=col),
            )
        )
        value = markdown(hover)
        for target in found.targets:
            assert target.target is not None, (place, target.rendered)
            assert json.dumps(target.target, indent=2) in value, (place, value)
        if found.single is None:
            assert f"**{found.count} different targets**" in value, (place, value)
            for target in found.targets:
                assert all(where in value for where in target.wheres), (place, value)
        else:
            assert "different targets" not in value, (place, value)
        if case == "pytest-config-overrides":  # the fields set before the submit are sent
            assert ('"num_repeats": 5' in value) != ('"concurrency": 16' in value), (place, value)
        if case == "generator-sent-as-empty":
            assert '"seeds": []' in value and "sends [] in its place" in value, value
