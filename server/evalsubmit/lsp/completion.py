"""Completion and signature help: thin adapters over :mod:`evalsubmit.analysis.completion`
(what can be completed at a position) and :mod:`.platform_items` (the platform's tasksets and
workspaces). Both read the document's present text, never waiting for an analysis: a function
of a text and a position, so a notebook cell is served like a file."""

from __future__ import annotations

from typing import TYPE_CHECKING

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
from evalsubmit.lsp.logs import guarded
from evalsubmit.lsp.platform_items import items_for

if TYPE_CHECKING:
    from evalsubmit.lsp.server import EvalsubmitServer

TRIGGER_CHARACTERS = ['"', "'", "/", "(", ","]
SIGNATURE_TRIGGERS = ["(", ","]
SIGNATURE_RETRIGGERS = ["="]


def _slot(
    ls: EvalsubmitServer, uri: str, position: types.Position
) -> tuple[StringSlot | CallSlot | None, list[str]]:
    if not ls.session.settings.for_uri(uri).enable:
        return None, []
    text = ls.workspace.get_text_document(uri).source
    lines = split_lines(text)
    line, col = convert.core_position(position, lines, ls.session.encoding)
    return completion_at(text, line, col), lines


@guarded()
async def completion(
    ls: EvalsubmitServer, params: types.CompletionParams
) -> types.CompletionList | None:
    uri = params.text_document.uri
    await ls.analyses.wait_ready()  # the settings say whether it is enabled, and where to ask
    slot, lines = _slot(ls, uri, params.position)
    if isinstance(slot, StringSlot):
        return await items_for(ls, uri, ls.session.settings.for_uri(uri), slot, lines)
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


@guarded()
async def signature_help(
    ls: EvalsubmitServer, params: types.SignatureHelpParams
) -> types.SignatureHelp | None:
    slot, _ = _slot(ls, params.text_document.uri, params.position)
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
