"""Code actions: every quick fix applied and re-checked, fix-all, "Ignore ES10x on this line"."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from lsp_helpers import (
    HEADER,
    RecordingClient,
    apply_edit,
    codes,
    find,
    open_doc,
    published,
    replace_all,
)
from lsprotocol import types

# One planted mistake each (code -> source); the fix must leave the module clean (ES105's names
# the taskset to run: the workspace's configuration gives it, see CONFIGURED).
FIXABLE = {
    "ES101": HEADER
    + (
        "job = client.evaluator.submit(\n"
        '    tasks=TasksetRef("qa/smoke"), target=runner,\n'
        "    metric=metric,\n"
        ")\n"
    ),
    "ES102": HEADER
    + (
        "job = client.evaluator.submit(\n"
        '    tasks=TasksetRef("qa/smoke"),\n'
        "    target=runner,\n"
        "    config=RunConfig(parallelism=16),\n"
        ")\n"
    ),
    "ES105": HEADER
    + 'job = client.evaluator.submit(metric=metric, dataset=[{"a": 1}], target=runner)\n',
    "ES107": HEADER
    + (
        "bad = GymAgentTaskRunner(config=GymRuntimeConfig(\n"
        '    agent="a", agent_config="c", resources_server="m",\n'
        '    hydra_params={"seeds": (s * 7 for s in range(4))},\n'
        "))\n"
        'client.evaluator.submit(tasks="qa/smoke", target=bad)\n'
    ),
    "ES109": HEADER
    + (
        "c2 = GymRuntimeConfig(\n"
        '    agent="a", agent_config="c", resources_server="m", env_vars={"CUDA": 0},\n'
        ")\n"
    ),
}
CONFIGURED = {"ES105": '[tool.evalsubmit]\ndefault-taskset = "qa/smoke"\n'}


async def actions_for(
    client: RecordingClient,
    uri: str,
    diagnostics: list[types.Diagnostic],
    only: list[str] | None = None,
    rng: types.Range | None = None,
) -> list[types.CodeAction]:
    result = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=rng or diagnostics[0].range,
            context=types.CodeActionContext(diagnostics=diagnostics, only=only),
        )
    )
    assert result is not None
    return [a for a in result if isinstance(a, types.CodeAction)]


@pytest.mark.parametrize("code", sorted(FIXABLE))
async def test_quick_fix_applied_and_rechecked(
    client: RecordingClient, workspace: Path, code: str
) -> None:
    text = FIXABLE[code]
    if code in CONFIGURED:
        (workspace / "pyproject.toml").write_text(CONFIGURED[code], encoding="utf-8")
    uri = open_doc(client, workspace / "job.py", text)
    diagnostics = await published(client, uri, 1)
    (diag,) = find(diagnostics, code)
    assert isinstance(diag.data, dict) and diag.data["fixes"], "the rule offers a fix"
    actions = await actions_for(client, uri, [diag], only=[types.CodeActionKind.QuickFix])
    fixes = [a for a in actions if a.title != f"evalsubmit ({code}): Ignore on this line"]
    fixes = [a for a in fixes if a.title != "Fix all evalsubmit problems"]
    assert fixes and fixes[0].is_preferred
    assert all(a.title.startswith(f"evalsubmit ({code}): ") for a in fixes)
    for version, action in enumerate(fixes, start=2):
        assert action.kind == types.CodeActionKind.QuickFix
        assert list(action.diagnostics or []) == [diag]
        assert action.edit is not None
        fixed = apply_edit(text, action.edit)
        ast.parse(fixed)
        replace_all(client, uri, fixed, version=version)
        assert codes(await published(client, uri, version)) == []
        replace_all(client, uri, text, version=version + 100)
        await published(client, uri, version + 100)


async def test_fix_all(client: RecordingClient, workspace: Path) -> None:
    text = HEADER + (
        "bad = GymAgentTaskRunner(config=GymRuntimeConfig(\n"
        '    agent="a", agent_config="c", resources_server="m",\n'
        '    hydra_params={"seeds": (s * 7 for s in range(4))},\n'
        '    env_vars={"CUDA": 0, "RANK": 1},\n'
        "))\n"
        "job = client.evaluator.submit(\n"
        '    tasks=TasksetRef("qa/smoke"),\n'
        "    target=bad,\n"
        "    config=RunConfig(parallelism=16),\n"
        '    prompt_template="{{item.q}}",\n'
        ")\n"
        "client.evaluator.submit(target=runner)\n"  # ES103: no fix, stays
    )
    uri = open_doc(client, workspace / "job.py", text)
    before = codes(await published(client, uri, 1))
    assert before.count("ES102") == 2 and before.count("ES109") == 2 and "ES103" in before
    whole = types.Range(
        start=types.Position(line=0, character=0),
        end=types.Position(line=text.count("\n"), character=0),
    )
    actions = await actions_for(client, uri, [], only=["source.fixAll"], rng=whole)
    (fix_all,) = actions
    assert fix_all.kind == "source.fixAll.evalsubmit"
    assert fix_all.edit is not None
    fixed = apply_edit(text, fix_all.edit)
    ast.parse(fixed)
    replace_all(client, uri, fixed, version=2)
    assert codes(await published(client, uri, 2)) == ["ES103"]


async def test_fix_all_in_the_quick_fix_menu(client: RecordingClient, workspace: Path) -> None:
    text = FIXABLE["ES102"]
    uri = open_doc(client, workspace / "job.py", text)
    (diag,) = find(await published(client, uri, 1), "ES102")
    actions = await actions_for(client, uri, [diag])
    titles = [a.title for a in actions]
    assert titles[0] == "evalsubmit (ES102): Remove `config=`"
    (quick,) = [
        a for a in actions if a.title == "Fix all evalsubmit problems" and a.kind == "quickfix"
    ]
    assert quick.edit is not None and "RunConfig(" not in apply_edit(text, quick.edit)
    # the automatic request behind the lightbulb gets the quick fixes, not the costly fix-all
    automatic = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=diag.range,
            context=types.CodeActionContext(
                diagnostics=[diag], trigger_kind=types.CodeActionTriggerKind.Automatic
            ),
        )
    )
    assert automatic is not None
    auto_titles = [a.title for a in automatic]
    assert "evalsubmit (ES102): Remove `config=`" in auto_titles
    assert "Fix all evalsubmit problems" not in auto_titles


async def test_fix_all_absent_when_nothing_to_fix(client: RecordingClient, workspace: Path) -> None:
    text = HEADER + "client.evaluator.submit(target=runner)\n"
    uri = open_doc(client, workspace / "job.py", text)
    diagnostics = await published(client, uri, 1)
    assert await actions_for(client, uri, diagnostics, only=["source.fixAll.evalsubmit"]) == []


async def test_ignore_on_this_line_appends_and_merges(
    client: RecordingClient, workspace: Path
) -> None:
    text = HEADER + (
        'client.evaluator.submit(tasks="qa/smoke", target=runner, config=RunConfig(),'
        ' prompt_template="x")  # keep this note\n'
    )
    uri = open_doc(client, workspace / "job.py", text)
    diagnostics = await published(client, uri, 1)
    assert codes(diagnostics) == ["ES102", "ES102"]
    actions = await actions_for(client, uri, diagnostics[:1])
    (ignore,) = [a for a in actions if a.title == "evalsubmit (ES102): Ignore on this line"]
    assert ignore.edit is not None
    suppressed = apply_edit(text, ignore.edit)
    assert "# keep this note  # evalsubmit: ignore[ES102]" in suppressed
    replace_all(client, uri, suppressed, version=2)
    assert await published(client, uri, 2) == []


async def test_ignore_merges_into_existing_comment(
    client: RecordingClient, workspace: Path
) -> None:
    text = HEADER + (
        "bad = GymAgentTaskRunner(config=GymRuntimeConfig(\n"
        '    agent="a", agent_config="c", resources_server="m",\n'
        '    hydra_params={"g": (i for i in range(3))}, env_vars={"X": 0},'
        "  # evalsubmit: ignore[ES109]\n"
        "))\n"
        'client.evaluator.submit(tasks="qa/smoke", target=bad)\n'
    )
    uri = open_doc(client, workspace / "job.py", text)
    diagnostics = await published(client, uri, 1)
    assert codes(diagnostics) == ["ES107"]
    actions = await actions_for(client, uri, diagnostics)
    (ignore,) = [a for a in actions if a.title == "evalsubmit (ES107): Ignore on this line"]
    assert ignore.edit is not None
    merged = apply_edit(text, ignore.edit)
    assert "# evalsubmit: ignore[ES107, ES109]" in merged
    assert merged.count("evalsubmit: ignore") == 1
    replace_all(client, uri, merged, version=2)
    assert await published(client, uri, 2) == []


async def test_no_ignore_action_inside_multiline_string(
    client: RecordingClient, workspace: Path
) -> None:
    text = HEADER + ('ref = TasksetRef("""qa team/smoke\n""")\n')
    uri = open_doc(client, workspace / "job.py", text)
    diagnostics = await published(client, uri, 1)
    bad = find(diagnostics, "ES108")
    if not bad:
        pytest.skip("the core does not report this spelling")
    actions = await actions_for(client, uri, bad)
    assert not [a for a in actions if a.title.endswith("Ignore on this line")]


async def test_submit_action_only_when_asked_on_every_line_of_the_call(
    client: RecordingClient, workspace: Path
) -> None:
    text = HEADER + (
        'job = client.evaluator.submit(\n    tasks=TasksetRef("qa/smoke"),\n    target=runner,\n)\n'
    )
    uri = open_doc(client, workspace / "job.py", text)
    assert await published(client, uri, 1) == []
    first = text.count("\n") - 4

    async def submits(line: int, kind: types.CodeActionTriggerKind | None) -> list[str]:
        at = types.Position(line=line, character=0)
        result = await client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                range=types.Range(start=at, end=at),
                context=types.CodeActionContext(diagnostics=[], trigger_kind=kind),
            )
        )
        return [a.title for a in result or [] if isinstance(a, types.CodeAction) and a.command]

    invoked = types.CodeActionTriggerKind.Invoked
    # column 0 of each line of the call, on request (Ctrl+.)
    for line in range(first, first + 4):
        assert await submits(line, invoked) == ["Submit evaluation"], line
    # the automatic request (the lightbulb) gets nothing on a clean line
    assert await submits(first, types.CodeActionTriggerKind.Automatic) == []
    assert await submits(first - 1, invoked) == []  # the metric line above: nothing to submit
