"""Session setup and settings: initialize, initialized, configuration changes, folders.

Settings sources, in order: ``initializationOptions`` (the ``evalsubmit`` section, bare or
wrapped as ``{"evalsubmit": {...}}``), then ``workspace/configuration`` for the section
without a scope (global) and once per workspace folder (``scopeUri``), re-read on every
``workspace/didChangeConfiguration``. Clients without ``workspace/configuration`` may send the
section inside ``didChangeConfiguration``'s ``settings`` instead.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from evalsubmit.lsp import logs
from evalsubmit.lsp.convert import uri_to_path
from evalsubmit.lsp.project_config import WATCHED
from evalsubmit.lsp.settings import SECTION, Settings, extract_section, parse_settings

if TYPE_CHECKING:
    from evalsubmit.lsp.server import EvalsubmitServer

log = logging.getLogger(__name__)

CONFIG_TIMEOUT_S = 5.0


def _cap(obj: Any, dotted: str) -> Any:
    for name in dotted.split("."):
        obj = getattr(obj, name, None)
        if obj is None:
            return None
    return obj


def initialize(ls: EvalsubmitServer, params: types.InitializeParams) -> None:
    ls.lifeline.attach(asyncio.get_running_loop())
    ls.lifeline.watch_parent(params.process_id)
    caps, session = params.capabilities, ls.session
    session.encoding = ls.workspace.position_encoding or types.PositionEncodingKind.Utf16
    session.pull_diagnostics = _cap(caps, "text_document.diagnostic") is not None
    session.refresh_support = bool(_cap(caps, "workspace.diagnostics.refresh_support"))
    session.document_changes = bool(_cap(caps, "workspace.workspace_edit.document_changes"))
    session.snippet_edits = bool(_cap(caps, "workspace.workspace_edit.snippet_edit_support"))
    options = extract_section(params.initialization_options)
    _set_global(ls, parse_settings(options, where="initializationOptions"))
    _update_folders(ls)


async def initialized(ls: EvalsubmitServer, params: types.InitializedParams) -> None:
    ls.log_handler.bind(asyncio.get_running_loop())
    try:
        await refresh(ls)
    finally:
        ls.analyses.ready.set()
    await _register_dynamic(ls)
    log.info(
        "evalsubmit %s ready (%s diagnostics, %s positions)",
        ls.version,
        "pull" if ls.session.pull_diagnostics else "push",
        ls.session.encoding,
    )


async def did_change_configuration(
    ls: EvalsubmitServer, params: types.DidChangeConfigurationParams
) -> None:
    if _supports_configuration(ls):
        changed = await refresh(ls)
    else:
        raw = params.settings.get(SECTION) if isinstance(params.settings, Mapping) else None
        changed = _set_global(ls, parse_settings(raw, where="didChangeConfiguration"))
    if changed:
        log.info("settings changed; re-checking open documents")
        ls.analyses.recheck_all()


async def did_change_folders(
    ls: EvalsubmitServer, params: types.DidChangeWorkspaceFoldersParams
) -> None:
    _update_folders(ls)
    if await refresh(ls):
        ls.analyses.recheck_all()


async def refresh(ls: EvalsubmitServer) -> bool:
    """Re-read settings from the client; True when anything changed."""
    if not _supports_configuration(ls):
        return False
    folders = list(ls.workspace.folders.values())
    items = [types.ConfigurationItem(section=SECTION)] + [
        types.ConfigurationItem(scope_uri=f.uri, section=SECTION) for f in folders
    ]
    try:
        results = await asyncio.wait_for(
            ls.workspace_configuration_async(types.ConfigurationParams(items=items)),
            CONFIG_TIMEOUT_S,
        )
    except Exception as exc:
        log.warning("could not read settings from the client: %r", exc)
        return False
    store = ls.session.settings
    before = (store.global_settings, dict(store.folders))
    results = list(results or [])
    if results and results[0] is not None:
        _set_global(ls, parse_settings(results[0], where="settings"))
    store.folders = {
        f.uri: parse_settings(raw, where=f"settings of {f.name}")
        for f, raw in zip(folders, results[1:], strict=False)
        if raw is not None
    }
    return before != (store.global_settings, store.folders)


def _set_global(ls: EvalsubmitServer, settings: Settings) -> bool:
    store = ls.session.settings
    changed = settings != store.global_settings
    store.global_settings = settings
    logs.set_level(settings.log_level)
    return changed


def _supports_configuration(ls: EvalsubmitServer) -> bool:
    return bool(_cap(ls.client_capabilities, "workspace.configuration"))


def _update_folders(ls: EvalsubmitServer) -> None:
    roots = [uri_to_path(f.uri) for f in ls.workspace.folders.values()]
    if not roots and ls.workspace.root_uri:
        roots = [uri_to_path(ls.workspace.root_uri)]
    ls.session.projects.set_folders(roots)


async def _register_dynamic(ls: EvalsubmitServer) -> None:
    caps = ls.client_capabilities
    registrations: list[types.Registration] = []
    if _cap(caps, "workspace.did_change_configuration.dynamic_registration"):
        registrations.append(
            types.Registration(
                id="evalsubmit-configuration",
                method=types.WORKSPACE_DID_CHANGE_CONFIGURATION,
                register_options=types.DidChangeConfigurationRegistrationOptions(section=SECTION),
            )
        )
    if _cap(caps, "workspace.did_change_watched_files.dynamic_registration"):
        registrations.append(
            types.Registration(
                id="evalsubmit-watched-files",
                method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                register_options=types.DidChangeWatchedFilesRegistrationOptions(
                    watchers=[
                        types.FileSystemWatcher(glob_pattern=pattern)
                        for pattern in ("**/*.{py,pyi,ipynb}", *WATCHED)
                    ]
                ),
            )
        )
    if not registrations:
        return
    try:
        await asyncio.wait_for(
            ls.client_register_capability_async(
                types.RegistrationParams(registrations=registrations)
            ),
            CONFIG_TIMEOUT_S,
        )
    except Exception as exc:
        log.warning("dynamic registration failed: %r", exc)
    else:
        if any(r.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES for r in registrations):
            ls.session.projects.watch()
