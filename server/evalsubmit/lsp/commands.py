"""Server commands (``workspace/executeCommand``). The ids are fixed: the VS Code client calls
them and must not register them itself.
"""

from __future__ import annotations

import asyncio
import hashlib
import importlib.metadata
import json
import logging
import os
import sys
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from evalsubmit.analysis import Project, installed_sdk
from evalsubmit.analysis.rules import RULES
from evalsubmit.lsp import submit
from evalsubmit.lsp.settings import Settings
from evalsubmit.platform import PlatformClient, PlatformError, extract_error
from evalsubmit.platform.connection import check_config
from evalsubmit.platform.safety import display_url

if TYPE_CHECKING:
    from evalsubmit.lsp.analyses import Analyses
    from evalsubmit.lsp.requests import Context
    from evalsubmit.lsp.snapshot import Analysis, Snapshot
    from evalsubmit.lsp.state import Session
    from evalsubmit.platform import ResolvedPlatformConfig

log = logging.getLogger(__name__)

LOG_LINES = 200

_PACKAGES = ("evalsubmit", "pygls", "lsprotocol", "pydantic", "httpx")


async def debug_info(
    session: Session, analyses: Analyses, text_of: Callable[[str], str]
) -> dict[str, Any]:
    """Versions, settings in effect (token redacted) and open documents; also logged. Not a
    handler of one document: what the whole session holds, to compare with the editor's
    (``text_of``: the server's copy of a document's text)."""
    await analyses.wait_ready()
    documents = []
    states = list(session.documents.values())
    # the results of the texts the editor shows (their findings may be out before them)
    snaps = await asyncio.gather(*(analyses.analysis(state.uri) for state in states))
    for state, snap in zip(states, snaps, strict=True):
        text = text_of(state.uri)
        documents.append(
            {
                "uri": state.uri,
                "version": state.version,
                # The server's copy of the text, to compare with the editor's (sync problems).
                "textLength": len(text),
                "textSha256": text_digest(text),
                "analysedVersion": snap.version if snap else None,
                "findings": [f.code for f in snap.report.findings] if snap else None,
                "skipped": snap.report.skipped if snap else None,
                "configFile": _config_file(snap),
                "dependencies": sorted(str(p) for p in snap.report.dependencies) if snap else [],
            }
        )
    platform_info = await analyses.in_pool(_platform, session.settings.global_settings)
    environments = await analyses.in_pool(_environments, session.projects.all())
    info = {
        "platform": platform_info,
        "versions": {
            "python": sys.version.split()[0],
            "platform": system_description(),
            **{name: package_version(name) for name in _PACKAGES},
        },
        "server": {
            "diagnostics": "pull" if session.pull_diagnostics else "push",
            "positionEncoding": str(session.encoding),
            "rules": sorted(RULES),
        },
        "settings": {
            "global": session.settings.global_settings.redacted(),
            "folders": {uri: s.redacted() for uri, s in session.settings.folders.items()},
        },
        "environments": environments,
        "documents": documents,
    }
    log.info("debug info:\n%s", json.dumps(info, indent=2))
    return info


async def list_tasksets(
    snapshot: Snapshot | None, context: Context, args: tuple[Any, ...]
) -> dict[str, Any]:
    """The tasksets of the workspace a submission would go to: ``{"workspace", "tasksets":
    [{"ref", ...}], "suggested"}``, or ``{"error", "workspace", "suggested"}``. Optional argument
    ``{"uri", "line"?, "character"?}`` (0-based): that document's folder settings and the
    workspace its code names (``NeMoPlatform(workspace=...)``), and ``suggested``, the taskset
    reference written nearest to that line."""
    snap, line, _, config = await _destination(snapshot, context, args)
    answer: dict[str, Any] = {
        "workspace": config.workspace,
        "workspaceSource": submit.workspace_source(config.sources.get("workspace", "")),
        "suggested": submit.nearby_taskset(snap, line or 1) if snap is not None else None,
    }
    try:
        async with submit.open_client(context.editor, config) as client:
            found = await client.list_tasksets(config.workspace)
    except PlatformError as err:
        return {**answer, "error": err.message}
    answer["tasksets"] = [
        {"ref": t.ref, "name": t.name, "description": t.description} for t in found
    ]
    return answer


async def platform_info(
    snapshot: Snapshot | None, context: Context, args: tuple[Any, ...]
) -> dict[str, Any]:
    """Where a submission from the document ``{"uri", "check"?}`` would go (the status item):
    ``{"baseUrl", "baseUrlSource", "workspace", "workspaceSource", "codeWorkspace", "tokenSet",
    "tokenSource"}``; with ``"check": true`` also ``"reachable"`` and, when not, ``"reachError"``
    (asked once per few seconds per URL). Never the token itself."""
    _, _, code, config = await _destination(snapshot, context, args)
    info: dict[str, Any] = {
        "baseUrl": display_url(config.base_url),
        "baseUrlSource": config.sources.get("base_url"),
        "workspace": config.workspace,
        "workspaceSource": submit.workspace_source(config.sources.get("workspace", "")),
        "codeWorkspace": code,
        "tokenSet": config.token is not None,
        "tokenSource": config.sources.get("token"),
    }
    first = args[0] if args and isinstance(args[0], Mapping) else {}
    if first.get("check") is True:
        reach = await context.reach.check(config)
        info["reachable"] = reach.reachable
        if reach.error is not None:
            info["reachError"] = reach.error
    return info


async def job_status(
    snapshot: Snapshot | None, context: Context, args: tuple[Any, ...]
) -> dict[str, Any]:
    """``[{"name", "workspace"?, "uri"?, "logs"?}]`` -> the job for the job view: ``{"name",
    "workspace", "status", "summary", "url", "created_at", "updated_at", "status_details",
    "error_details", "steps", "target", "tasks", "cause", "logs", "logs_error", "results",
    "result_summary", "results_error"}``, or ``{"error": message}``. Without ``workspace``,
    the one a submission from document ``uri`` would go to."""
    first = args[0] if args and isinstance(args[0], Mapping) else {}
    name = first.get("name")
    if not isinstance(name, str) or not name:
        return {"error": 'expected one argument {"name": <job name>, "workspace"?: <workspace>}'}
    logs_arg = first.get("logs")
    tail = logs_arg if isinstance(logs_arg, int) and logs_arg > 0 else LOG_LINES
    config = (await _destination(snapshot, context, args))[3]
    workspace = first.get("workspace") if isinstance(first.get("workspace"), str) else None
    workspace = workspace or config.workspace
    try:
        async with submit.open_client(context.editor, config) as client:
            return await job_view(client, workspace, name, tail)
    except PlatformError as err:  # the settings cannot be used (job_view says its own errors)
        return {"error": err.message}


async def job_view(client: PlatformClient, workspace: str, name: str, tail: int) -> dict[str, Any]:
    """What the job view shows of job ``name`` (see :func:`job_status`); what could not be read
    is said in its ``*_error`` key (the job itself: ``{"error"}``)."""
    try:
        job = await client.get_job(workspace, name)
        status = await client.get_status(workspace, name)
    except PlatformError as err:
        return {"error": err.message}
    answer: dict[str, Any] = {
        "name": name,
        "workspace": workspace,
        "status": status.status,
        "summary": status.summary(),
        "url": client.job_url(workspace, name),
        "created_at": job.created_at,
        "updated_at": status.updated_at or job.updated_at,
        "status_details": status.status_details,
        "error_details": status.error_details,
        "steps": [{k: v for k, v in step.items() if k != "tasks"} for step in status.steps],
        "target": job.target,
        "tasks": job.spec.get("tasks"),
    }
    try:
        logs = await client.get_logs(workspace, name, tail=tail, timestamps=True)
        answer.update(logs=logs, cause=extract_error(logs))
    except PlatformError as err:
        answer["logs_error"] = err.message
    if status.succeeded:
        try:
            results = await client.list_results(workspace, name)
            answer["results"] = results
            if "summary" in results:
                answer["result_summary"] = await client.get_result(workspace, name, "summary")
        except PlatformError as err:
            answer["results_error"] = err.message
    return answer


async def _destination(
    snapshot: Snapshot | None, context: Context, args: tuple[Any, ...]
) -> tuple[Analysis | None, int | None, str | None, ResolvedPlatformConfig]:
    """Where a submission from the document ``{"uri"}`` names would go, with what led there:
    its analysis (None when it is not open), the 1-based line of its ``"line"`` (0-based,
    optional), and the workspace its code names there. Without a document, the global
    settings decide."""
    first = args[0] if args and isinstance(args[0], Mapping) else {}
    snap = snapshot.analysis if snapshot is not None else None
    line = first.get("line")
    line = line + 1 if isinstance(line, int) and snap is not None else None
    code = submit.workspace_in_code(snap, line)
    settings = snapshot.settings if snapshot is not None else context.global_settings
    return snap, line, code, await context.in_pool(submit.platform_config, settings, code)


def _platform(settings: Settings) -> dict[str, Any]:
    """Where a submission would go (never the token)."""
    try:
        config = submit.platform_config(settings, None)
    except Exception as exc:
        return {"error": f"{type(exc).__name__}: {exc}"}
    info: dict[str, Any] = {
        "baseUrl": display_url(config.base_url),
        "workspace": config.workspace,
        "source": config.sources.get("base_url"),
        "resolved": config.debug_info(),
    }
    try:
        route = check_config(config)  # checks the settings; opens no socket
    except PlatformError as err:
        info["problem"] = err.message
    else:
        info["proxy"] = str(route.proxy.url) if route.proxy is not None else "none (direct)"
        if route.warning is not None:
            info["warning"] = route.warning
    return info


def _config_file(snap: Analysis | None) -> str | None:
    """The project configuration file the document was checked with (None: none found)."""
    file = snap.effective.config_file if snap is not None else None
    return str(file) if file is not None else None


def _environments(projects: list[Project]) -> list[dict[str, Any]]:
    """The Python environment each project's imports fall back to, and its SDK."""
    found = []
    for project in projects:
        environment = project.environment
        if environment is None:
            continue
        found.append(
            {
                "folder": str(project.root) if project.root else None,
                **environment.describe(),
                "sdk": installed_sdk(project),
            }
        )
    return found


def text_digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def system_description() -> str:
    """The operating system, read without starting any process. (``platform.platform()`` runs
    ``uname`` through ``PATH``: with ``.`` in ``PATH``, a workspace's ``uname`` would run.)"""
    if not hasattr(os, "uname"):
        return sys.platform
    name = os.uname()
    described = f"{name.sysname} {name.release} {name.machine}"
    release = _os_release_name()
    return f"{described} ({release})" if release else described


def _os_release_name() -> str | None:
    for path in ("/etc/os-release", "/usr/lib/os-release"):
        try:
            with open(path, encoding="utf-8", errors="replace") as file:
                lines = file.read(16_384).splitlines()
        except OSError:
            continue
        for line in lines:
            key, _, value = line.partition("=")
            if key.strip() == "PRETTY_NAME":
                return value.strip().strip("\"'")[:200] or None
    return None


def package_version(name: str) -> str | None:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None
