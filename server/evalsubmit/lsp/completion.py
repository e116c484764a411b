"""Completion and signature help: thin adapters over :mod:`evalsubmit.analysis.completion`
(what can be completed at a position) and :mod:`.platform_items` (the platform's tasksets and
workspaces). Both read the document's present text, never waiting for an analysis: a function
of a text and a position, so a notebook cell is served like a file."""

from __future__ import annotations

from lsprotocol import types

from evalsubmit.analysis.completion import (
    CallSlot,
    StringSlot,
    completion_at,
    keyword_params,
    param_markdown,
    signatures,
)
from evalsubmit.core.lines import split_lines
from evalsubmit.lsp import convert
from evalsubmit.lsp.platform_items import items_for
from evalsubmit.lsp.requests import Context
from evalsubmit.lsp.snapshot import Snapshot

TRIGGER_CHARACTERS = ['"', "'", "/", "(", ","]
SIGNATURE_TRIGGERS = ["(", ","]
SIGNATURE_RETRIGGERS = ["="]


def _slot(
    snapshot: Snapshot, context: Context, position: types.Position
) -> tuple[StringSlot | CallSlot | None, list[str]]:
    lines = split_lines(snapshot.text)
    line, col = convert.core_position(position, lines, context.encoding)
    return completion_at(snapshot.text, line, col), lines


async def completion(
    snapshot: Snapshot, context: Context, params: types.CompletionParams
) -> types.CompletionList | None:
    slot, lines = _slot(snapshot, context, params.position)
    if isinstance(slot, StringSlot):
        return await items_for(snapshot, context, slot, lines)
    if isinstance(slot, CallSlot):
        items = [
            types.CompletionItem(
                label=f"{param.name}=",
                kind=types.CompletionItemKind.Field,
                detail=param.label(),
                documentation=types.MarkupContent(
                    kind=types.MarkupKind.Markdown, value=param_markdown(param)
                ),
                sort_text=f"0{index:02}",  # required first, then the declaration order
            )
            for index, param in enumerate(keyword_params(slot))
        ]
        return types.CompletionList(is_incomplete=False, items=items)
    return None


async def signature_help(
    snapshot: Snapshot, context: Context, params: types.SignatureHelpParams
) -> types.SignatureHelp | None:
    slot, _ = _slot(snapshot, context, params.position)
    if not isinstance(slot, CallSlot):
        return None
    found = signatures(slot)
    return types.SignatureHelp(
        signatures=[
            types.SignatureInformation(
                label=sig.label,
                documentation=types.MarkupContent(kind=types.MarkupKind.Markdown, value=sig.doc),
                parameters=[
                    types.ParameterInformation(
                        label=param.label(),
                        documentation=types.MarkupContent(
                            kind=types.MarkupKind.Markdown, value=param_markdown(param)
                        ),
                    )
                    for param in sig.params
                ],
            )
            for sig in found.items
        ],
        active_signature=found.active,
        active_parameter=found.active_param,
    )
