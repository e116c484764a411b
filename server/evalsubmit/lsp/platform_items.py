"""Completion items from the platform: the tasksets and workspaces of the configured platform
(the client and configuration of *Submit evaluation*), answered from the session's
:class:`~evalsubmit.platform.catalog.Catalog` and refreshed in the background."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging

from lsprotocol import types

from evalsubmit.analysis import Span
from evalsubmit.analysis.completion import StringSlot
from evalsubmit.lsp import convert
from evalsubmit.lsp.requests import Context
from evalsubmit.lsp.snapshot import Snapshot
from evalsubmit.lsp.submit import platform_config
from evalsubmit.platform import PlatformClient, ResolvedPlatformConfig, submission
from evalsubmit.platform.catalog import Catalog, CatalogItem, CatalogKey, credential_of

log = logging.getLogger(__name__)

COLD_WAIT_S = 0.5
"""The first completion of a list waits this long for it; later ones never wait."""
FIRST_ANALYSIS_WAIT_S = 1.0
"""A document not analysed yet is waited for this long (once: later ones use the latest)."""
TRIGGER_SUGGEST = types.Command(title="", command="editor.action.triggerSuggest")


async def items_for(
    snapshot: Snapshot, context: Context, slot: StringSlot, lines: list[str]
) -> types.CompletionList:
    # A document just opened: its first analysis names the workspace in the code.
    analysis = snapshot.analysis or await context.analysis(snapshot.uri, FIRST_ANALYSIS_WAIT_S)
    report = analysis.report if analysis is not None else None
    code_workspace = submission.workspace_in_code(report, slot.line) if report else None
    config = await context.in_pool(platform_config, snapshot.settings, code_workspace)
    keys = catalog_keys(config, slot)
    catalog = context.catalog
    fresh = await _lookup_all(catalog, config, keys)
    found = [item for key in keys for item in catalog.lookup(key)[0]]
    if slot.kind == "taskset" and slot.workspace_prefix is not None:
        found = [item for item in found if item.kind == "taskset"]
    span = Span(slot.line, slot.start, slot.line, slot.end)
    edit_range = convert.lsp_range(span, lines, context.encoding)
    return types.CompletionList(
        is_incomplete=not fresh,
        items=[_item(item, slot, edit_range) for item in found],
    )


def catalog_keys(config: ResolvedPlatformConfig, slot: StringSlot) -> list[CatalogKey]:
    """The lists a completion of ``slot`` reads: the slot's tasksets first, then workspaces."""
    credential = credential_of(config.token)
    keys = [CatalogKey(config.base_url, "workspace", "", credential)]
    if slot.kind == "taskset":
        listed = slot.workspace_prefix or config.workspace
        keys.insert(0, CatalogKey(config.base_url, "taskset", listed, credential))
    return keys


async def _lookup_all(
    catalog: Catalog, config: ResolvedPlatformConfig, keys: list[CatalogKey]
) -> bool:
    """Whether every list is fresh; stale ones are refreshed in the background, and a list
    never fetched is waited for a moment."""
    stale = [key for key in keys if not catalog.lookup(key)[1]]
    never_fetched = [not catalog.known(key) for key in stale]  # (before the refresh starts)
    refreshing = [catalog.refresh(key, functools.partial(_fetch, config, key)) for key in stale]
    cold = [task for task, first in zip(refreshing, never_fetched, strict=True) if first]
    if not cold:
        return not stale
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(asyncio.shield(asyncio.gather(*cold)), COLD_WAIT_S)
    return all(catalog.lookup(key)[1] for key in keys)


async def _fetch(config: ResolvedPlatformConfig, key: CatalogKey) -> list[CatalogItem]:
    client = PlatformClient.from_config(config)
    if client.warning is not None:
        log.warning("%s: %s", client.shown_url, client.warning)
    async with client:
        if key.kind == "workspace":
            return [
                CatalogItem("workspace", w.name, w.name, w.description)
                for w in await client.list_workspaces()
            ]
        return [
            CatalogItem("taskset", t.name, t.workspace or key.workspace, t.description)
            for t in await client.list_tasksets(key.workspace)
        ]


def _item(item: CatalogItem, slot: StringSlot, edit_range: types.Range) -> types.CompletionItem:
    if slot.kind == "taskset" and item.kind == "workspace":
        text = f"{item.name}/"  # then the tasksets of that workspace
        return types.CompletionItem(
            label=text,
            kind=types.CompletionItemKind.Folder,
            detail=f"workspace: {item.description or ''}".rstrip(": "),
            filter_text=text,
            sort_text=f"1{text}",
            text_edit=types.TextEdit(range=edit_range, new_text=text),
            command=TRIGGER_SUGGEST,
        )
    text = item.ref
    typed_workspace = slot.workspace_prefix is not None or slot.kind == "workspace"
    return types.CompletionItem(
        label=item.name,
        kind=types.CompletionItemKind.Module
        if item.kind == "taskset"
        else types.CompletionItemKind.Folder,
        label_details=types.CompletionItemLabelDetails(
            description=item.workspace if item.kind == "taskset" else "workspace"
        ),
        detail=item.description or None,
        documentation=types.MarkupContent(
            kind=types.MarkupKind.Markdown,
            value=f"`{text}`" + (f"\n\n{item.description}" if item.description else ""),
        ),
        filter_text=text if typed_workspace else item.name,
        sort_text=f"0{item.name}",
        text_edit=types.TextEdit(range=edit_range, new_text=text),
    )
