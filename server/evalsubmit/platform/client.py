"""Async httpx client for the NeMo Platform routes a Gym agent-evaluation submission uses.

Every failure leaves this module as a `PlatformError` with a user-facing message. A submission
is never posted twice: when its response is lost after the request may have reached the server,
or its 2xx answer cannot be read, the job is looked up by its client-generated name instead.
Settings checks, time and size bounds and redaction live in `PlatformConnection`.
"""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any, ClassVar
from urllib.parse import quote

import httpx

from evalsubmit.sdk.grammar import JOB_NAME_RULE, is_valid_job_name, parse_taskset_ref

from .body import is_generated_job_name
from .connection import PlatformConnection
from .errors import PlatformError, PlatformErrorKind, bad_response
from .http import DeadlineExceeded, ResponseTooLarge
from .models import Job, JobStatus, Taskset, Workspace

EVALUATOR_V2 = "/apis/evaluator/v2/workspaces"
ENTITIES_WORKSPACES = "/apis/entities/v2/workspaces"
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
_NOT_SENT = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout, httpx.UnsupportedProtocol)
TRANSIENT_KINDS = frozenset(
    {PlatformErrorKind.TIMEOUT, PlatformErrorKind.CONNECTION, PlatformErrorKind.SERVER}
)
_RECOVERABLE = TRANSIENT_KINDS | {PlatformErrorKind.NOT_FOUND, PlatformErrorKind.CONNECTION_REFUSED}


def _seg(value: str) -> str:
    return quote(value, safe="")


class PlatformClient(PlatformConnection):
    """The routes of a Gym agent-evaluation submission. Use `async with PlatformClient(...) as
    client:` or `aclose()`."""

    #: (base_url, workspace, name) of submissions whose POST may have reached the server without
    #: an answer; shared by all clients of the process so that no instance posts them again.
    _lost_submissions: ClassVar[set[tuple[str, str, str]]] = set()

    # ------------------------------------------------------------------ URLs

    @staticmethod
    def jobs_path(workspace: str) -> str:
        return f"{EVALUATOR_V2}/{_seg(workspace)}/agent-evaluate/jobs"

    def job_path(self, workspace: str, name: str) -> str:
        return f"{self.jobs_path(workspace)}/{_seg(name)}"

    def job_url(self, workspace: str, name: str) -> str:
        """The job's URL on the platform (its GET route), for messages."""
        return f"{self.shown_url}{self.job_path(workspace, name)}"

    # ------------------------------------------------------------------ routes

    async def submit_job(self, workspace: str, body: dict[str, Any]) -> Job:
        """POST the job; if the answer is lost, find the job by `body["name"]`, never re-POST."""
        name = body.get("name")
        action = f"submit the job{f' {name!r}' if name else ''}"
        path = self.jobs_path(workspace)
        if isinstance(name, str) and (self.base_url, workspace, name) in self._lost_submissions:
            # An earlier POST of this very job lost its answer: look it up, do not send it again.
            return await self._recover(workspace, name, None)
        try:
            response = await self._exchange("POST", path, json_body=body)
        except _NOT_SENT as exc:  # the request never reached the server: nothing was created
            raise self._transport_error(exc, action) from None
        except (OSError, ValueError, OverflowError) as exc:  # refused before sending
            raise self._transport_error(exc, action) from None
        except (httpx.HTTPError, DeadlineExceeded, ResponseTooLarge) as exc:
            # sent, answer lost (or unreadable): the job may exist
            if not isinstance(name, str):
                raise PlatformError(
                    PlatformErrorKind.UNKNOWN_OUTCOME,
                    f"The answer to the submission was lost ({type(exc).__name__}) and the job "
                    "had no name to look it up; it was not sent again. Check the job list of "
                    f"workspace '{workspace}' on {self.shown_url}.",
                ) from None
            self._lost_submissions.add((self.base_url, workspace, name))
            return await self._recover(workspace, name, exc)
        if response.status_code == 409 and isinstance(name, str):
            mine = await self._own_existing_job(workspace, name, body)
            if mine is not None:
                return mine
            if not is_valid_job_name(name):  # the platform reports a bad name as a 409 too
                raise PlatformError(
                    PlatformErrorKind.INVALID,
                    f"The NeMo Platform refused the job name {name!r} (409): {JOB_NAME_RULE}",
                    409,
                )
        if response.status_code >= 500 and isinstance(name, str):
            found = await self._find_job(workspace, name)  # a proxy may have lost the answer
            if found is not None:
                return found
        try:
            data = self._check(response, action, workspace, name if isinstance(name, str) else None)
            return self._parse(Job, data, action)
        except PlatformError as err:
            if not (response.is_success and isinstance(name, str)):
                raise
            # Created (2xx), but the answer cannot be read: the job exists; find it by name.
            found = await self._find_job(workspace, name)
            if found is None:
                err.message += (
                    f" The platform accepted the request (HTTP {response.status_code}), so the "
                    f"job may exist: check {self.job_url(workspace, name)}."
                )
                err.args = (err.message,)
                raise
            return found

    async def _own_existing_job(
        self, workspace: str, name: str, body: dict[str, Any]
    ) -> Job | None:
        """After a 409: the existing job, if it is this very submission (created by an earlier
        attempt whose answer was lost), else None (a real name clash)."""
        if (self.base_url, workspace, name) in self._lost_submissions:
            return await self.get_job(workspace, name)
        if not is_generated_job_name(name):
            return None
        existing = await self._find_job(workspace, name)
        spec = body.get("spec")
        target = spec.get("target") if isinstance(spec, dict) else None
        if existing is not None and target is not None and existing.target == target:
            return existing
        return None

    async def _find_job(self, workspace: str, name: str) -> Job | None:
        try:
            return await self.get_job(workspace, name)
        except PlatformError:
            return None

    async def _recover(self, workspace: str, name: str, cause: Exception | None) -> Job:
        deadline = time.monotonic() + self._lost_response_wait_s
        last: PlatformError | None = None
        while True:
            try:
                job = await self.get_job(workspace, name)
            except PlatformError as err:
                last = err
                if err.kind not in _RECOVERABLE:
                    break  # the lookup itself fails for good: say so, with what is known
            else:
                self._lost_submissions.discard((self.base_url, workspace, name))
                return job
            if time.monotonic() >= deadline:
                break
            await asyncio.sleep(self._recover_poll_s)
        if last is not None and last.kind == PlatformErrorKind.NOT_FOUND:
            state = "it does not exist"
        elif last is not None and last.kind not in _RECOVERABLE:
            state = f"the lookup failed ({last.message.rstrip('.')})"
        else:
            state = "the platform could not be asked"
        raise PlatformError(
            PlatformErrorKind.UNKNOWN_OUTCOME,
            f"The answer to the submission of job '{name}' was lost "
            f"({type(cause).__name__ if cause else 'earlier attempt'}); "
            f"looking it up by name for {self._lost_response_wait_s:g} s found that {state}. "
            f"It was not sent again, to avoid a duplicate job. Check "
            f"{self.job_url(workspace, name)} before submitting again.",
            last.status_code if last else None,
        )

    async def get_job(self, workspace: str, name: str) -> Job:
        action = f"read job '{name}'"
        data = await self._request(
            "GET", self.job_path(workspace, name), action=action, workspace=workspace
        )
        return self._parse(Job, data, action)

    async def get_status(self, workspace: str, name: str) -> JobStatus:
        action = f"read the status of job '{name}'"
        data = await self._request(
            "GET", f"{self.job_path(workspace, name)}/status", action=action, workspace=workspace
        )
        return self._parse(JobStatus, data, action)

    async def get_logs(
        self,
        workspace: str,
        name: str,
        tail: int = 50,
        *,
        strip_ansi: bool = True,
        timestamps: bool = False,
    ) -> list[str]:
        """The last `tail` log messages of the job (ANSI colour codes removed by default;
        `timestamps`: each prefixed with the platform's timestamp of the entry)."""
        action = f"read the logs of job '{name}'"
        data = await self._request(
            "GET",
            f"{self.job_path(workspace, name)}/logs",
            action=action,
            workspace=workspace,
            params={"tail": max(1, min(tail, 10000))},
        )
        entries = data.get("data") if isinstance(data, dict) else None
        if not isinstance(entries, list):
            raise bad_response(self.base_url, action, "no 'data' list in the log page")
        lines = []
        for entry in entries:
            message = entry.get("message") if isinstance(entry, dict) else entry
            text = self._redact(str(message if message is not None else ""))
            text = _ANSI.sub("", text) if strip_ansi else text
            when = entry.get("timestamp") if timestamps and isinstance(entry, dict) else None
            lines.append(f"{when} {text}" if when else text)
        return lines[-tail:] if tail > 0 else lines

    async def list_results(self, workspace: str, name: str) -> list[str]:
        """The names of the results the job published (`summary`, ... for agent-evaluate)."""
        action = f"list the results of job '{name}'"
        data = await self._request(
            "GET", f"{self.job_path(workspace, name)}/results", action=action, workspace=workspace
        )
        items = data.get("data") if isinstance(data, dict) else None
        if not isinstance(items, list):
            raise bad_response(self.shown_url, action, "no 'data' list in the results")
        return [str(i["name"]) for i in items if isinstance(i, dict) and i.get("name")]

    async def get_result(self, workspace: str, name: str, result: str) -> Any:
        """A JSON result of the job, downloaded (e.g. the agent-eval `summary`)."""
        action = f"download result '{result}' of job '{name}'"
        path = f"{self.job_path(workspace, name)}/results/{_seg(result)}/download"
        return await self._request("GET", path, action=action, workspace=workspace)

    async def cancel_job(self, workspace: str, name: str) -> Job:
        action = f"cancel job '{name}'"
        data = await self._request(
            "POST", f"{self.job_path(workspace, name)}/cancel", action=action, workspace=workspace
        )
        return self._parse(Job, data, action)

    async def get_taskset(self, workspace: str, ref: str) -> Taskset:
        """Look up a taskset reference (`name`, `ws/name`, `ws/name#revision`) before submitting.

        A bare name resolves in `workspace`, as the platform does for the job's workspace.
        """
        try:
            parts = parse_taskset_ref(ref)
        except ValueError as exc:
            raise PlatformError(PlatformErrorKind.INVALID, str(exc)) from None
        ws, name = parts.in_workspace(workspace)
        path = f"{EVALUATOR_V2}/{_seg(ws)}/tasksets/{_seg(name)}"
        if parts.revision:
            path += f"/revisions/{_seg(parts.revision)}"
        action = f"find taskset '{ws}/{name}{'#' + parts.revision if parts.revision else ''}'"
        data = await self._request("GET", path, action=action, workspace=ws)
        return self._parse(Taskset, data, action)

    async def list_tasksets(self, workspace: str, *, max_pages: int = 20) -> list[Taskset]:
        action = f"list the tasksets of workspace '{workspace}'"
        found: list[Taskset] = []
        for page in range(1, max_pages + 1):
            data = await self._request(
                "GET",
                f"{EVALUATOR_V2}/{_seg(workspace)}/tasksets",
                action=action,
                workspace=workspace,
                params={"page": page, "page_size": 100},
            )
            items = data.get("data") if isinstance(data, dict) else None
            if not isinstance(items, list):
                raise bad_response(self.base_url, action, "no 'data' list in the page")
            found.extend(self._parse(Taskset, item, action) for item in items)
            pagination = data.get("pagination") or {}
            if page >= int(pagination.get("total_pages") or 1):
                break
        return found

    async def list_workspaces(self, *, max_pages: int = 20) -> list[Workspace]:
        """The workspaces the platform lists (``GET /apis/entities/v2/workspaces``)."""
        action = "list the workspaces"
        found: list[Workspace] = []
        for page in range(1, max_pages + 1):
            data = await self._request(
                "GET", ENTITIES_WORKSPACES, action=action, params={"page": page, "page_size": 100}
            )
            items = data.get("data") if isinstance(data, dict) else None
            if not isinstance(items, list):
                raise bad_response(self.base_url, action, "no 'data' list in the page")
            found.extend(self._parse(Workspace, item, action) for item in items)
            pagination = data.get("pagination") or {}
            if page >= int(pagination.get("total_pages") or 1):
                break
        return found
